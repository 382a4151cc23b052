"""Builds the tables of one run from per-sentence token scores and writes the run folder
(`results/<suite>/<run>/`) atomically: every file goes to a temporary folder that is then
renamed into place, so a results folder is never half-written."""

from __future__ import annotations

import csv
import errno
import fcntl
import gzip
import io
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.errors import BenchError
from benchmark.factorial import ItemScores, summarize_by
from benchmark.faults import pause, pid_alive
from benchmark.measures import MEASURES, PENLP_ALPHA, SentenceMeasures, region_scores, sentence_measures
from benchmark.records import TokenScores
from benchmark.licensing import REGION_MEASURE, LicensingScores
from benchmark.licensing import header as licensing_header
from benchmark.licensing import summarize_by as summarize_licensing
from benchmark.suite import SHORT, Suite
from benchmark.pairs import BAD, GOOD, PairScores
from benchmark.pairs import HEADER as PAIR_HEADER
from benchmark.pairs import summarize_by as summarize_pairs
from suite_format import DESIGNS, FILLER_GAP, ISLAND, MINIMAL_PAIR

# Row order within an item: its design's condition order (no suite mixes designs in one item).
_CONDITION_ORDER = {c: k for d in DESIGNS.values() for k, c in enumerate(d.conditions)}


@dataclass
class RunTables:
    tokens: list[list]
    sentences: list[list]
    regions: list[list]
    items: list[list]
    item_header: list[str]
    item_scores: list[ItemScores]
    summary: dict
    licensing: list[list] = field(default_factory=list)      # filler-gap items (licensing.csv)
    licensing_header: list[str] = field(default_factory=list)
    pairs: list[list] = field(default_factory=list)          # imported minimal pairs (pairs.csv)


TOKEN_HEADER = ["item_id", "condition", "token_index", "token", "char_start", "char_end", "logprob"]
SENTENCE_HEADER = ["item_id", "paradigm", "condition", "text", "n_tokens", *MEASURES]
REGION_HEADER = ["item_id", "paradigm", "condition", "region_index", "region", "char_start", "char_end",
                 "n_tokens", "LP"]


def build_tables(suite: Suite, run_name: str, scores: dict[tuple[str, str], TokenScores],
                 unigram_lp: dict[tuple[str, str], float], alpha: float = PENLP_ALPHA) -> RunTables:
    """`scores` and `unigram_lp` are keyed by (item_id, condition)."""
    tokens, sentences, regions, item_scores, licensing_scores, pair_scores = [], [], [], [], [], []
    for item in suite.items:
        layout = item.layout
        measures: dict[str, SentenceMeasures] = {}
        critical: dict[str, float] = {}
        for cond in layout.conditions:
            sent, ts = item.conditions[cond], scores[(item.item_id, cond)]
            for k, (tok, a, b, lp) in enumerate(zip(ts.tokens, ts.starts, ts.ends, ts.logprobs)):
                tokens.append([item.item_id, cond, k, tok, a, b, lp])
            m = sentence_measures(ts.logprobs, unigram_lp[(item.item_id, cond)], alpha)
            measures[cond] = m
            sentences.append([item.item_id, item.paradigm, cond, sent.text, m.n_tokens,
                              *(m.get(x) for x in MEASURES)])
            for r in region_scores(sent.regions, ts):
                regions.append([item.item_id, item.paradigm, cond, r.index, r.name, r.start, r.end,
                                r.n_tokens, r.LP])
                if r.name == layout.critical_region:
                    critical[cond] = critical.get(cond, 0.0) + r.LP
        if layout is MINIMAL_PAIR:
            pair_scores += [PairScores(item.item_id, item.paradigm, measure, measures[GOOD].get(measure),
                                       measures[BAD].get(measure)) for measure in MEASURES]
            continue
        if layout is FILLER_GAP:
            for measure in MEASURES:
                licensing_scores.append(LicensingScores(item.item_id, item.paradigm, item.set_id, item.variant,
                                                        measure, {c: measures[c].get(measure) for c in layout.conditions}))
            if len(critical) == len(layout.conditions):  # imported items may have no regions
                licensing_scores.append(LicensingScores(item.item_id, item.paradigm, item.set_id, item.variant,
                                                        REGION_MEASURE, critical))
            continue
        for measure in MEASURES:
            v = {SHORT[c]: measures[c].get(measure) for c in ISLAND.conditions}
            item_scores.append(ItemScores(item.item_id, item.paradigm, item.set_id, item.variant,
                                          measure, v["SN"], v["LN"], v["SI"], v["LI"]))
    factors = sorted({f for item in suite.items if item.design == ISLAND.name for f in item.variant})
    lic_factors = sorted({f for item in suite.items if item.design == FILLER_GAP.name for f in item.variant})
    header = ["item_id", "paradigm", "matched_set", *(f"variant.{f}" for f in factors), "measure",
              "SN", "LN", "SI", "LI", "length", "structure", "total", "DD", "SN_gt_LI", "LN_gt_LI", "SI_gt_LI"]
    items = []
    for r in sorted(item_scores, key=lambda r: (r.paradigm, r.item_id, MEASURES.index(r.measure))):
        e = r.effects
        items.append([r.item_id, r.paradigm, r.matched_set, *(r.variant.get(f, "") for f in factors),
                      r.measure, r.SN, r.LN, r.SI, r.LI, e.length, e.structure, e.total, e.DD, *r.pairs])
    summary = {"run": run_name, "measures": {
        m: {p: s.to_json() for p, s in by_p.items()} for m, by_p in summarize_by(item_scores).items()}}
    lic_measures = (*MEASURES, REGION_MEASURE)
    licensing = [r.row(lic_factors) for r in sorted(
        licensing_scores, key=lambda r: (r.paradigm, r.item_id, lic_measures.index(r.measure)))]
    if licensing_scores:
        summary["licensing"] = summarize_licensing(licensing_scores)
    pairs = [r.row() for r in sorted(pair_scores, key=lambda r: (r.paradigm, r.item_id, MEASURES.index(r.measure)))]
    if pair_scores:
        summary["pairs"] = summarize_pairs(pair_scores)
    tokens.sort(key=lambda r: (r[0], _CONDITION_ORDER[r[1]], r[2]))
    sentences.sort(key=lambda r: (r[0], _CONDITION_ORDER[r[2]]))
    regions.sort(key=lambda r: (r[0], _CONDITION_ORDER[r[2]], r[3]))
    return RunTables(tokens, sentences, regions, items, header, item_scores, summary,
                     licensing, licensing_header(lic_factors) if licensing_scores else [], pairs)


def _cell(x) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float):
        return repr(x)
    return str(x)


def _csv(header: list[str], rows: list[list]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows([[_cell(x) for x in row] for row in rows])
    return buf.getvalue()


def check_writable(out_root: Path) -> None:
    """Called before any scoring: the results root can be created and takes a small file, so a
    read-only or full disk is reported before the work, not after it."""
    out_root = Path(out_root)
    try:
        out_root.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out_root, prefix=".write-check-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(b"\0" * 65536)
                handle.flush()
                os.fsync(handle.fileno())
        finally:
            os.unlink(probe)
    except OSError as exc:
        why = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror or type(exc).__name__
        raise BenchError(f"--out {out_root}: cannot write results there ({why}); "
                         "choose a writable folder with free space") from None


def _remove_stale(folder: Path, run_name: str) -> None:
    """Temporary folders left by a killed writer (their process is gone)."""
    pattern = re.compile(rf"\.{re.escape(run_name)}\.(?:tmp|old)-(\d+)-")
    for path in folder.iterdir():
        m = pattern.match(path.name)
        if m and not pid_alive(int(m.group(1))):
            shutil.rmtree(path, ignore_errors=True)


class _FolderLock:
    """An exclusive lock on a folder (flock on its descriptor): one writer swaps a run at a time."""

    def __init__(self, folder: Path):
        self.folder = folder

    def __enter__(self):
        self.fd = os.open(self.folder, os.O_RDONLY)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def write_run(out_root: Path, suite_name: str, run_name: str, tables: RunTables, run_info: dict) -> Path:
    target = Path(out_root) / suite_name / run_name
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{run_name}.tmp-{os.getpid()}-"))
    try:
        with open(tmp / "tokens.csv.gz", "wb") as raw:   # mtime=0, no name: byte-identical output
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                gz.write(_csv(TOKEN_HEADER, tables.tokens).encode("utf-8"))
        (tmp / "sentences.csv").write_text(_csv(SENTENCE_HEADER, tables.sentences), encoding="utf-8")
        (tmp / "regions.csv").write_text(_csv(REGION_HEADER, tables.regions), encoding="utf-8")
        (tmp / "items.csv").write_text(_csv(tables.item_header, tables.items), encoding="utf-8")
        if tables.licensing:
            (tmp / "licensing.csv").write_text(_csv(tables.licensing_header, tables.licensing), encoding="utf-8")
        if tables.pairs:
            (tmp / "pairs.csv").write_text(_csv(PAIR_HEADER, tables.pairs), encoding="utf-8")
        (tmp / "summary.json").write_text(json.dumps(tables.summary, indent=1, sort_keys=False) + "\n",
                                          encoding="utf-8")
        (tmp / "run.json").write_text(json.dumps(run_info, indent=1) + "\n", encoding="utf-8")
        pause("final-write")
        with _FolderLock(target.parent):   # another run of the same model may swap at the same time
            _remove_stale(target.parent, run_name)
            old = None
            if target.exists():
                old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{run_name}.old-{os.getpid()}-"))
                os.replace(target, old / "run")
                pause("final-swap")
            os.replace(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target
