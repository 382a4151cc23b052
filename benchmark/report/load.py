"""Read run folders written by `bench run` into typed records.

A run folder holds run.json, sentences.csv, items.csv, regions.csv and tokens.csv.gz (see the
output contract in docs/reports.md). Token and region tables are large and only needed for the
surprisal plots, so they are read on demand, for the items asked for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from suite_format import ISLAND, ParadigmInfo, island_rank

from .errors import ReportError

CONDITIONS = ISLAND.conditions  # the island design's, from the suite format
ABBREV = ISLAND.abbrev
PARADIGM_ORDER = (
    "whether_island",
    "complex_np_island",
    "subject_island",
    "adjunct_island_conditional",
    "adjunct_island_temporal",
)
PARADIGM_LABELS = {
    "whether_island": "whether",
    "complex_np_island": "complex NP",
    "subject_island": "subject",
    "adjunct_island_conditional": "adjunct (conditional)",
    "adjunct_island_temporal": "adjunct (temporal)",
    "filler_gap": "filler-gap",
}
# Rows of the figures and tables: questions first, then relative clauses.
DEPENDENCY_NAMES = {"wh": "wh-question", "rc": "relative clause"}
SCORER_LABELS = {"lp": "LP", "pll": "PLL", "pll-word-l2r": "PLL-word-l2r", "unigram": "unigram"}
TABLE_MEASURES = ("LP", "PenLP")
BASELINE_NAME = "unigram.unigram"

REQUIRED_FILES = ("run.json", "sentences.csv", "items.csv")
SENTENCE_COLUMNS = ("item_id", "paradigm", "condition", "LP")
ITEM_COLUMNS = ("item_id", "paradigm", "measure", "SN", "LN", "SI", "LI", "length", "structure",
                "total", "DD", "SN_gt_LI", "LN_gt_LI", "SI_gt_LI")

PAIR_COLUMNS = ("item_id", "paradigm", "measure", "good", "bad", "difference", "good_gt_bad")

LICENSING_COLUMNS = ("item_id", "paradigm", "measure", "TN", "WN", "TG", "WG", "wh_effect_nogap",
                     "wh_effect_gap", "licensing", "TN_gt_TG", "WG_gt_WN")


def paradigm_label(paradigm: str) -> str:
    return PARADIGM_LABELS.get(paradigm, paradigm.replace("_", " "))


def axis_labels(paradigm: str) -> tuple[str, str]:
    """Names of the two levels of the dependency-length factor."""
    return ("object gap", "subject gap") if paradigm.startswith("subject_island") else ("short", "long")


def layout_key(info: ParadigmInfo) -> tuple:
    """Order of figure rows and table rows: islands before other designs, wh before rc, then
    the islands from weak to strong (`island_rank`)."""
    known = list(DEPENDENCY_NAMES)
    dependency = known.index(info.dependency) if info.dependency in known else len(known)
    return (info.design != "island", dependency, info.dependency, island_rank(info))


def table_label(info: ParadigmInfo) -> str:
    """A paradigm as a table row: 'whether (weak), wh', 'complex NP, rc'."""
    return f"{info.marked_label}, {info.dependency}"


def order_paradigms(names) -> list[str]:
    names = set(names)
    known = [p for p in PARADIGM_ORDER if p in names]
    return known + sorted(names - set(known))


@dataclass(frozen=True)
class RunInfo:
    model: str
    model_id: str
    revision: str
    kind: str
    scorer: str
    dtype: str
    device: str
    suite_name: str
    n_items: int
    seconds: float | None
    sentences_per_s: float | None
    language: str = "it"   # the suite's; runs written before run.json said were Italian

    @staticmethod
    def from_json(data: dict) -> "RunInfo":
        def num(key):
            value = data.get(key)
            return float(value) if isinstance(value, (int, float)) else None

        return RunInfo(
            model=str(data.get("model", "?")),
            model_id=str(data.get("model_id", data.get("model", "?"))),
            revision=str(data.get("revision", "")),
            kind=str(data.get("kind", "causal")),
            scorer=str(data.get("scorer", "lp")),
            dtype=str(data.get("dtype", "")),
            device=str(data.get("device", "")),
            suite_name=str(data.get("suite_name", data.get("suite", ""))),
            n_items=int(data.get("n_items", 0) or 0),
            seconds=num("seconds"),
            sentences_per_s=num("sentences_per_s"),
            language=str(data.get("language") or "it"),
        )


@dataclass
class Run:
    path: Path
    name: str  # the folder name, <model_slug>.<scorer>
    info: RunInfo
    sentences: pd.DataFrame
    items: pd.DataFrame  # long: one row per item x measure, booleans as bool
    licensing: pd.DataFrame = field(default_factory=pd.DataFrame)  # filler-gap items, same layout
    pairs: pd.DataFrame = field(default_factory=pd.DataFrame)      # imported minimal pairs (pairs.csv)
    described: dict = field(default_factory=dict)  # run.json "paradigms": label, dependency, strength

    def info_of(self, paradigm: str) -> ParadigmInfo:
        """The paradigm's label, dependency and island strength (guessed from its name for
        runs written before run.json said)."""
        return ParadigmInfo.from_json(paradigm, self.described.get(paradigm))

    def in_layout_order(self, paradigms) -> list[str]:
        """`paradigms` in the order of the report's figures and tables (`layout_key`)."""
        return sorted(paradigms, key=lambda p: layout_key(self.info_of(p)))

    @property
    def scorer_label(self) -> str:
        return SCORER_LABELS.get(self.info.scorer, self.info.scorer)

    @property
    def is_baseline(self) -> bool:
        return self.info.kind == "unigram" or self.info.scorer == "unigram"

    def measure_label(self, measure: str) -> str:
        """'LP' for causal runs; 'PLL-word-l2r (LP)' for masked ones; 'unigram (LP)'."""
        return measure if self.info.scorer == "lp" else f"{self.scorer_label} ({measure})"

    @property
    def paradigms(self) -> list[str]:
        return order_paradigms(self.items["paradigm"].unique())

    @property
    def variant_columns(self) -> list[str]:
        return sorted(c for c in self.items.columns if c.startswith("variant."))

    def measure_items(self, measure: str) -> pd.DataFrame:
        return self.items[self.items["measure"] == measure]

    def tokens(self, item_ids) -> pd.DataFrame:
        table = _read_csv(self.path / "tokens.csv.gz", ("item_id", "condition", "token_index", "token",
                                                        "char_start", "char_end", "logprob"))
        return table[table["item_id"].isin(set(item_ids))]

    def regions(self, item_ids) -> pd.DataFrame:
        path = self.path / "regions.csv"
        if not path.exists():
            return pd.DataFrame(columns=["item_id", "condition", "region", "char_start", "char_end"])
        table = _read_csv(path, ("item_id", "condition", "region", "char_start", "char_end"))
        return table[table["item_id"].isin(set(item_ids))]


def load_run(path: Path) -> Run:
    path = Path(path)
    if not path.is_dir():
        raise ReportError(f"{path}: not a folder (expected a run folder written by `bench run`)")
    if not (path / "run.json").exists():
        raise ReportError(f"{path}: not a run folder (no run.json)")
    for name in REQUIRED_FILES:
        if not (path / name).exists():
            raise ReportError(f"{path}: run folder is missing {name}; score it again with `bench run`")
    try:
        data = json.loads((path / "run.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ReportError(f"{path / 'run.json'}: unreadable ({exc})") from None
    if not isinstance(data, dict):
        raise ReportError(f"{path / 'run.json'}: expected a JSON object")
    sentences = _read_csv(path / "sentences.csv", SENTENCE_COLUMNS)
    items = _read_csv(path / "items.csv", ITEM_COLUMNS)
    for col in ("SN_gt_LI", "LN_gt_LI", "SI_gt_LI"):
        items[col] = _as_bool(items[col], path / "items.csv", col)
    licensing = pd.DataFrame(columns=LICENSING_COLUMNS)
    if (path / "licensing.csv").exists():
        licensing = _read_csv(path / "licensing.csv", LICENSING_COLUMNS)
        for col in ("TN_gt_TG", "WG_gt_WN"):
            licensing[col] = _as_bool(licensing[col], path / "licensing.csv", col)
    pairs = pd.DataFrame(columns=PAIR_COLUMNS)
    if (path / "pairs.csv").exists():
        pairs = _read_csv(path / "pairs.csv", PAIR_COLUMNS)
        pairs["good_gt_bad"] = _as_bool(pairs["good_gt_bad"], path / "pairs.csv", "good_gt_bad")
    if items.empty and licensing.empty and pairs.empty:
        raise ReportError(f"{path / 'items.csv'}: no items")
    described = data.get("paradigms") if isinstance(data.get("paradigms"), dict) else {}
    return Run(path=path, name=path.name, info=RunInfo.from_json(data), sentences=sentences, items=items,
               licensing=licensing, pairs=pairs, described={k: v for k, v in described.items() if isinstance(v, dict)})


def find_baseline(run_dir: Path) -> Path | None:
    candidate = Path(run_dir).parent / BASELINE_NAME
    return candidate if (candidate / "run.json").exists() else None


def _read_csv(path: Path, columns) -> pd.DataFrame:
    if not path.exists():
        raise ReportError(f"{path.parent}: run folder is missing {path.name}")
    try:
        table = pd.read_csv(path, keep_default_na=True, low_memory=False)
    except Exception as exc:  # pandas raises several types for malformed files
        raise ReportError(f"{path}: unreadable CSV ({type(exc).__name__}: {exc})") from None
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ReportError(f"{path}: missing column(s) {', '.join(missing)}")
    return table


def _as_bool(values: pd.Series, path: Path, column: str) -> pd.Series:
    if values.dtype == bool:
        return values
    mapping = {"true": True, "false": False, "1": True, "0": False, "1.0": True, "0.0": False}
    out = values.astype(str).str.strip().str.lower().map(mapping)
    if out.isna().any():
        raise ReportError(f"{path}: column {column} must hold True/False values")
    return out.astype(bool)
