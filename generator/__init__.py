"""Generator of controlled island-effect test suites, Italian and English (see grammar/ and lexicon/)."""

__version__ = "0.1.0"
