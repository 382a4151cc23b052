"""The suite format shared by the generator (which writes suites) and the benchmark (which
reads them): records, designs, the reader, and the JSON Schema (docs/suite-format.md)."""

from .designs import DESIGNS, FILLER_GAP, ISLAND, MINIMAL_PAIR, Design, design_named
from .paradigms import STRENGTHS, ParadigmInfo, island_rank
from .reader import SuiteFormatError, parse_item, read_items, read_manifest, read_suite
from .records import FORMAT_VERSION, REGION_NAMES, Item, Region, Sentence, Suite, dumps_item, dumps_items

__all__ = ["DESIGNS", "FILLER_GAP", "FORMAT_VERSION", "ISLAND", "MINIMAL_PAIR", "REGION_NAMES", "Design", "Item", "ParadigmInfo", "STRENGTHS", "Region",
           "Sentence", "Suite", "SuiteFormatError", "design_named", "dumps_item", "dumps_items", "island_rank", "parse_item", "read_items",
           "read_manifest", "read_suite"]
