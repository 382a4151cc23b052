"""Synthetic run folders that follow the `bench run` output contract.

Used by the tests and by the report speed check: a causal (or masked) model run with a
planted island effect per paradigm (a relative-clause paradigm `<island>_rc` gets its wh
paradigm's), a planted licensing interaction for `filler_gap` (whole sentence and after the
gap), and the syntax-blind `unigram.unigram` baseline whose DD and licensing are exactly 0 on
every item (all its word scores are multiples of 1/8, so the sums are exact in floating
point). run.json describes each paradigm as the grammar does (label, dependency, strength).

    python -m benchmark.report.synthetic OUT_DIR --items 1000
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from suite_format import FILLER_GAP, ISLAND, ParadigmInfo

from ..licensing import REGION_MEASURE, LicensingScores, header

CONDITIONS = ISLAND.conditions
SENTENCE_MEASURES = ("LP", "MeanLP", "PenLP", "SLOR")
WEAK_ISLANDS = ("whether", "subject")  # as grammar/*.yaml rate them

# Planted mean DD (nats) per paradigm; the last one has no island effect.
PLANTED_DD = {
    "whether_island": 6.0,
    "complex_np_island": 1.5,
    "subject_island": 3.0,
    "adjunct_island_conditional": 4.0,
    "adjunct_island_temporal": 0.0,
}
MOOD_SHIFT = {"subjunctive": 1.0, "indicative": -1.0}  # variant levels of whether_island
PLANTED_LICENSING = 4.0  # filler_gap, mean licensing (nats) on the whole sentence and after the gap

_SUBJECTS = ["Gianni", "Maria", "il ragazzo", "la maestra", "Luca", "l'avvocato"]
_VERBS = ["abbia riscosso", "abbia comprato", "abbia letto", "abbia venduto", "abbia scritto"]
_OBJECTS = ["il pagamento", "la lettera", "il libro", "la macchina", "il quadro"]
_MATRIX_SHORT = ["pensa", "crede", "dice"]
_MATRIX_ISLAND = ["si domanda", "si chiede", "non sa"]
_PAST_VERBS = ["ha riparato", "ha venduto", "ha letto", "ha scritto"]
_ADVERBS = ["ieri", "stamattina"]


@dataclass(frozen=True)
class SyntheticSpec:
    items_per_paradigm: int = 60
    paradigms: tuple[str, ...] = tuple(PLANTED_DD)
    planted_dd: dict[str, float] = field(default_factory=lambda: dict(PLANTED_DD))
    dd_sd: float = 2.0
    model: str = "tiny_gpt"
    scorer: str = "lp"
    seed: int = 0
    described: bool = True  # run.json says what each paradigm is; False: a run written before it did


def write_synthetic_suite(root: Path, spec: SyntheticSpec = SyntheticSpec()) -> tuple[Path, Path]:
    """Write `<root>/<model>.<scorer>/` and `<root>/unigram.unigram/`; return both paths."""
    rng = np.random.default_rng(spec.seed)
    items = _make_items(spec, rng)
    unigram_lp = _unigram_table(items)
    model_dir = root / f"{spec.model}.{spec.scorer}"
    base_dir = root / "unigram.unigram"
    _write_run(model_dir, spec, items, unigram_lp, rng, baseline=False)
    _write_run(base_dir, spec, items, unigram_lp, rng, baseline=True)
    return model_dir, base_dir


def describe(paradigm: str) -> ParadigmInfo:
    """The paradigm as the grammar describes it (its name's guess, with the island's strength)."""
    guess = ParadigmInfo.guess(paradigm)
    strength = None if guess.design != "island" else "weak" if guess.label in WEAK_ISLANDS else "strong"
    return dataclasses.replace(guess, strength=strength)


@dataclass
class _Item:
    item_id: str
    paradigm: str
    mood: str | None
    sentences: dict[str, list[tuple[str, str]]]  # condition -> [(region, text)]
    targets: dict[str, float]  # condition -> planted sentence LP
    region_targets: dict[str, dict[str, float]] = field(default_factory=dict)  # condition -> region -> LP

    @property
    def is_island(self) -> bool:
        return describe(self.paradigm).design == "island"


def _make_items(spec: SyntheticSpec, rng: np.random.Generator) -> list[_Item]:
    make = {"island": _island_item, "filler_gap": _filler_gap_item}
    return [make[describe(paradigm).design](spec, paradigm, k, rng)
            for paradigm in spec.paradigms for k in range(spec.items_per_paradigm)]


def _island_item(spec: SyntheticSpec, paradigm: str, k: int, rng: np.random.Generator) -> _Item:
    subj, verb, obj = (rng.choice(x) for x in (_SUBJECTS, _VERBS, _OBJECTS))
    m_short, m_isl = rng.choice(_MATRIX_SHORT), rng.choice(_MATRIX_ISLAND)
    mood = None
    dd_mean = spec.planted_dd.get(paradigm, spec.planted_dd.get(paradigm.removesuffix("_rc"), 0.0))
    if paradigm == "whether_island":
        mood = ("subjunctive", "indicative")[k % 2]
        dd_mean += MOOD_SHIFT[mood] if dd_mean else 0.0
    sentences = {}
    for cond in CONDITIONS:
        long, island = cond.startswith("long"), cond.endswith("_island")
        sentences[cond] = [
            ("filler", "Cosa" if long else "Chi"),
            ("matrix", m_isl if island else m_short),
            ("island_head" if island else "complementizer", "se" if island else "che"),
            ("subject", subj),
            ("verb", verb),
            ("gap", "") if long else ("object", obj),
            ("end", "?"),
        ]
    base = rng.normal(-40.0, 4.0)
    length, structure = rng.normal(-2.0, 1.0), rng.normal(-3.0, 1.0)
    dd = rng.normal(dd_mean, spec.dd_sd)
    targets = {
        "short_nonisland": base,
        "long_nonisland": base + length,
        "short_island": base + structure,
        "long_island": base + length + structure - dd,
    }
    return _Item(f"{paradigm}-{k:05d}", paradigm, mood, sentences, targets)


def _filler_gap_item(spec: SyntheticSpec, paradigm: str, k: int, rng: np.random.Generator) -> _Item:
    """`Paolo sa che/cosa Maria ha letto (il libro) ieri.`: a filler makes a filled object
    less likely and a gap likelier, on the whole sentence and on the adverb after the gap."""
    subj, verb, obj, adverb = (rng.choice(x) for x in (_SUBJECTS, _PAST_VERBS, _OBJECTS, _ADVERBS))
    base, spill = rng.normal(-40.0, 4.0), rng.normal(-6.0, 1.0)
    filler, gap = rng.normal(-1.0, 0.5), rng.normal(2.0, 1.0)
    licensing, after_gap = rng.normal(PLANTED_LICENSING, spec.dd_sd), rng.normal(PLANTED_LICENSING, 1.0)
    sentences, targets, region_targets = {}, {}, {}
    for cond in FILLER_GAP.conditions:
        levels = FILLER_GAP.levels(cond)
        wh, gapped = levels["filler"] == "wh", levels["gap"] == "gap"
        sentences[cond] = [
            ("matrix", f"{('Paolo', 'Giulia')[k % 2]} sa"),
            ("filler", "cosa") if wh else ("complementizer", "che"),
            ("subject", subj),
            ("verb", verb),
            ("gap", "") if gapped else ("object", obj),
            ("spillover", adverb),
            ("end", "."),
        ]
        targets[cond] = base + filler * wh + gap * gapped + licensing * (wh and gapped)
        # after the gap: a gap with no filler costs 3 nats, a filled object after a filler 1, and a
        # filler takes back the gap's cost (the licensing)
        region_targets[cond] = {"spillover": spill - 1.0 * wh - 3.0 * gapped + after_gap * (wh and gapped)}
    return _Item(f"{paradigm}-{k:05d}", paradigm, None, sentences, targets, region_targets)


def _unigram_table(items: list[_Item]) -> dict[str, float]:
    words = sorted({w for it in items for regs in it.sentences.values() for _, t in regs for w in _words(t)})
    # Multiples of 1/8 keep every sum exact, so the baseline's DD is exactly 0.
    return {w: -(8 + (sum(map(ord, w)) % 64)) / 8 for w in words}


def _words(text: str) -> list[str]:
    out = []
    for w in text.split():
        if "'" in w:
            head, tail = w.split("'", 1)
            out += [head + "'", tail]
        else:
            out.append(w)
    return out


Token = tuple[str, int, int, str]


def _tokenise(regions: list[tuple[str, str]]) -> tuple[str, list[Token], list[tuple[str, int, int]]]:
    """Sentence text, tokens (token, start, end, word or "" for a continuation piece) and region spans."""
    text, tokens, spans = "", [], []
    for region, chunk in regions:
        if chunk and text and region != "end":
            text += " "
        start = len(text)
        pos = start
        for word in _words(chunk):
            # long words become two subword tokens, so plots see multi-token words
            pieces = [word[:4], word[4:]] if len(word) > 6 else [word]
            for j, piece in enumerate(pieces):
                tokens.append((piece, pos, pos + len(piece), "" if j else word))
                pos += len(piece)
            if pos < start + len(chunk) and chunk[pos - start] == " ":
                pos += 1
        text += chunk
        spans.append((region, start, len(text)))
    return text, tokens, spans


def _write_run(path: Path, spec: SyntheticSpec, items: list[_Item], unigram_lp: dict[str, float],
               rng: np.random.Generator, baseline: bool) -> None:
    path.mkdir(parents=True, exist_ok=True)
    tok_rows, sent_rows, reg_rows = [], [], []
    for it in items:
        for cond, parts in it.sentences.items():
            text, tokens, spans = _tokenise(parts)
            # a word's unigram score goes to its first piece, later pieces get 0
            uni_lps = [unigram_lp[word] if word else 0.0 for _, _, _, word in tokens]
            if baseline:
                lps = uni_lps
            else:
                lps = _planted_lps(it.targets[cond], it.region_targets.get(cond, {}), tokens, spans, rng)
            uni = sum(uni_lps)
            for i, ((tok, s, e, _), lp) in enumerate(zip(tokens, lps)):
                tok_rows.append((it.item_id, cond, i, tok, s, e, lp))
            lp_sum = float(sum(lps))
            n = len(tokens)
            sent_rows.append((it.item_id, it.paradigm, cond, text, n, lp_sum, lp_sum / n,
                              lp_sum / ((5 + n) / 6) ** 0.8, (lp_sum - uni) / n))
            for r, (region, s, e) in enumerate(spans):
                idx = _tokens_in(tokens, s, e)
                reg_rows.append((it.item_id, it.paradigm, cond, r, region, s, e, len(idx),
                                 float(sum(lps[i] for i in idx))))
    tokens = pd.DataFrame(tok_rows, columns=["item_id", "condition", "token_index", "token",
                                             "char_start", "char_end", "logprob"])
    sentences = pd.DataFrame(sent_rows, columns=["item_id", "paradigm", "condition", "text",
                                                 "n_tokens", "LP", "MeanLP", "PenLP", "SLOR"])
    regions = pd.DataFrame(reg_rows, columns=["item_id", "paradigm", "condition", "region_index",
                                              "region", "char_start", "char_end", "n_tokens", "LP"])
    item_table = _items_table([it for it in items if it.is_island], sentences)
    with gzip.GzipFile(path / "tokens.csv.gz", "wb", mtime=0) as fh:
        fh.write(tokens.to_csv(index=False).encode())
    sentences.to_csv(path / "sentences.csv", index=False)
    regions.to_csv(path / "regions.csv", index=False)
    item_table.to_csv(path / "items.csv", index=False)
    licensing = [it for it in items if not it.is_island]
    if licensing:
        _licensing_table(licensing, sentences, regions).to_csv(path / "licensing.csv", index=False)
    kind, scorer = ("unigram", "unigram") if baseline else (
        "masked" if spec.scorer.startswith("pll") else "causal", spec.scorer)
    model = "unigram" if baseline else spec.model
    run = {
        "model": model, "model_id": f"synthetic/{model}", "revision": "0" * 40, "kind": kind,
        "scorer": scorer, "dtype": "float32", "device": "cpu", "lowercase": False,
        "bos": not baseline, "penlp_alpha": 0.8, "suite": "synthetic", "suite_name": "synthetic",
        "n_items": len(items), "n_sentences": len(sentences), "seconds": 1.0,
        "sentences_per_s": float(len(sentences)), "tokens_per_s": float(len(tokens)),
        "versions": {}, "created": "2000-01-01T00:00:00Z",
    }
    if spec.described:
        run["paradigms"] = {p: describe(p).to_json() for p in spec.paradigms}
    (path / "run.json").write_text(json.dumps(run, indent=2))
    (path / "summary.json").write_text(json.dumps({"run": path.name, "measures": {}}, indent=2))


def _tokens_in(tokens: list[Token], start: int, end: int) -> list[int]:
    return [i for i, t in enumerate(tokens) if t[1] >= start and t[2] <= end and t[2] > t[1]]


def _planted_lps(target: float, planted: dict[str, float], tokens: list[Token],
                 spans: list[tuple[str, int, int]], rng: np.random.Generator) -> list[float]:
    """Token log-probs summing to `target`, those of each planted region to its planted LP;
    each sum is spread over its tokens at random."""
    lps = np.zeros(len(tokens))
    rest = np.ones(len(tokens), dtype=bool)
    for region, start, end in spans:
        idx = _tokens_in(tokens, start, end)
        if region in planted and idx:
            lps[idx] = planted[region] * rng.dirichlet(np.full(len(idx), 2.0))
            rest[idx] = False
    lps[rest] = (target - lps[~rest].sum()) * rng.dirichlet(np.full(int(rest.sum()), 2.0))
    return list(lps)


def _licensing_table(items: list[_Item], sentences: pd.DataFrame, regions: pd.DataFrame) -> pd.DataFrame:
    """licensing.csv: per filler-gap item and measure, as `bench run` writes it."""
    critical = regions[regions["region"] == FILLER_GAP.critical_region]
    sources = {m: sentences.set_index(["item_id", "condition"])[m] for m in SENTENCE_MEASURES}
    sources[REGION_MEASURE] = critical.set_index(["item_id", "condition"])["LP"]
    rows = [LicensingScores(it.item_id, it.paradigm, it.item_id, {}, measure,
                            {c: float(scores[it.item_id, c]) for c in FILLER_GAP.conditions}).row([])
            for measure, scores in sources.items() for it in items]
    return pd.DataFrame(rows, columns=header([]))


def _items_table(items: list[_Item], sentences: pd.DataFrame) -> pd.DataFrame:
    wide = sentences.pivot(index="item_id", columns="condition")
    meta = pd.DataFrame({"item_id": [it.item_id for it in items],
                         "paradigm": [it.paradigm for it in items],
                         "matched_set": [it.item_id for it in items],
                         "variant.mood": [it.mood for it in items]}).set_index("item_id")
    frames = []
    for measure in SENTENCE_MEASURES:
        s = wide[measure].loc[meta.index]
        sn, ln, si, li = (s[c].to_numpy() for c in CONDITIONS)
        df = meta.copy()
        df["measure"] = measure
        df["SN"], df["LN"], df["SI"], df["LI"] = sn, ln, si, li
        df["length"], df["structure"], df["total"] = sn - ln, sn - si, sn - li
        df["DD"] = ln + si - sn - li
        df["SN_gt_LI"], df["LN_gt_LI"], df["SI_gt_LI"] = sn > li, ln > li, si > li
        frames.append(df.reset_index())
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--items", type=int, default=60, help="items per paradigm")
    parser.add_argument("--model", default="tiny_gpt")
    parser.add_argument("--scorer", default="lp")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    spec = SyntheticSpec(items_per_paradigm=args.items, model=args.model, scorer=args.scorer, seed=args.seed)
    for path in write_synthetic_suite(args.out, spec):
        print(path)


if __name__ == "__main__":
    main()
