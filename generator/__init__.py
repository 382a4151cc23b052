"""Generator of controlled Italian island-effect test suites (see grammar/ and lexicon/)."""

__version__ = "0.1.0"
