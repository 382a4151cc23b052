"""Interoperability: export suites to the formats other tools read (BLiMP, SyntaxGym,
lm-evaluation-harness, Hugging Face datasets, long CSV, human-rating lists) and import
hand-written suites into the suite format (docs/suite-format.md). docs/interop.md describes every format."""
