"""A folder that Hugging Face `datasets` loads (`load_dataset("path/to/folder")`): one JSONL
per paradigm under data/, one row per item, and a dataset card (README.md) whose YAML
header declares a config per paradigm (and `all`, the default) and whose body records how
the suite was made: generator version, seed, command and the lexicon hash.

Rows keep a fixed schema across paradigms so the files load together: variant factors and
lexical slots are lists of {name, value} pairs rather than mappings with varying keys. The
sentence columns are the conditions of the items' design (island: short_nonisland ...
long_island; filler_gap: that_nogap, wh_nogap, that_gap, wh_gap). A suite whose paradigms
use several designs has the columns of all of them, null where a row's design lacks the
condition, and the card lists each paradigm's design."""

from __future__ import annotations

import yaml

from generator.interop.common import (Suite, design_conditions, dump_jsonl, lexicon_hash, manifest_file_hashes,
                                      suite_designs)
from generator.suite import Item
from suite_format import ISLAND, Design

SPLIT = "test"
# How the card names each design's phenomenon, and the tag it gets (a design not listed: its title, its name).
PHENOMENON = {"island": "island effects", "filler_gap": "filler-gap dependencies"}
TAG = {"island": "island-effects", "filler_gap": "filler-gap"}


def row(item: Item, conditions: tuple[str, ...] | None = None) -> dict:
    """One item; `conditions`: the suite's sentence columns (default: the item's design's),
    null where the item's design lacks the condition."""
    conditions = conditions or item.layout.conditions
    record: dict = {
        "item_id": item.item_id,
        "paradigm": item.paradigm,
        "dependency": item.dependency,
        "matched_set": item.matched_set or item.item_id,
        "additive": item.additive,
        "residual": list(item.residual),
        "variant": [{"name": k, "value": v} for k, v in sorted(item.variant.items())],
        "lexical": [{"name": k, "value": v} for k, v in sorted(item.lexical.items())],
    }
    for condition in conditions:
        record[condition] = item.conditions[condition].text if condition in item.conditions else None
    record["regions"] = {
        condition: [r.to_json() for r in item.conditions[condition].regions] if condition in item.conditions else None
        for condition in conditions
    }
    return record


def features(conditions: tuple[str, ...] = ISLAND.conditions) -> list[dict]:
    """The row schema in the card's YAML (`dataset_info`), so files load with the same types."""
    def fields(**types: str) -> list[dict]:  # fresh dicts each time: no YAML aliases
        return [{"name": k, "dtype": v} for k, v in types.items()]

    return (
        fields(item_id="string", paradigm="string", dependency="string", matched_set="string", additive="bool")
        + [{"name": "residual", "list": "string"},
           {"name": "variant", "list": fields(name="string", value="string")},
           {"name": "lexical", "list": fields(name="string", value="string")}]
        + fields(**{c: "string" for c in conditions})
        + [{"name": "regions", "struct": [{"name": c, "list": fields(name="string", start="int64", end="int64")}
                                          for c in conditions]}]
    )


def _effect_formula(design: Design) -> str:
    """The interaction as a signed sum, positive terms first, e.g.
    `licensing = S(that_nogap) + S(wh_gap) - S(wh_nogap) - S(that_gap)`."""
    plus = " + ".join(f"S({c})" for c in design.conditions if design.signs[c] > 0)
    minus = "".join(f" - S({c})" for c in design.conditions if design.signs[c] < 0)
    return f"{design.effect} = {plus}{minus}"


def _language_name(suite: Suite) -> str:
    from generator.languages import LANGUAGES
    return LANGUAGES.get(suite.language, suite.language).capitalize()   # italian -> Italian


def _design_lines(designs: tuple[Design, ...], language: str) -> list[str]:
    lines = [f"Controlled {language} syntactic test items. Each row is one item: four sentences in a 2x2",
             "design, the design of its paradigm (see Paradigms); the effect of a model is the design's",
             "interaction (scores: higher = more acceptable), positive when the model shows the effect,",
             "and factorial accuracy the share of items where it is positive.", ""]
    for d in designs:
        (f1, l1), (f2, l2) = d.factors
        bad = [c for c in d.conditions if not d.grammatical[c]]
        pairs = ", ".join(f"{good} > {worse}" for good, worse in d.minimal_pairs)
        lines += [f"- design `{d.name}` ({d.title}): conditions "
                  + ", ".join(f"`{c}` ({d.abbrev[c]})" for c in d.conditions)
                  + f"; factors {f1} ({'/'.join(l1)}) x {f2} ({'/'.join(l2)}); violation(s) "
                  + ", ".join(f"`{c}`" for c in bad) + f"; interaction {_effect_formula(d)}"
                  + (f", also read on the `{d.critical_region}` region" if d.critical_region else "")
                  + f"; minimal pairs {pairs}."]
    return lines


def card(suite: Suite) -> str:
    designs = suite_designs(suite)
    island_only = designs == (ISLAND,)
    conditions = design_conditions(designs)
    phenomena = " and ".join(PHENOMENON.get(d.name, d.title) for d in designs)
    configs = [{"config_name": "all", "data_files": [{"split": SPLIT, "path": "data/*.jsonl"}], "default": True}]
    configs += [{"config_name": p, "data_files": [{"split": SPLIT, "path": f"data/{p}.jsonl"}]}
                for p in suite.paradigms]
    header = {
        "language": [suite.language],
        "pretty_name": f"{suite.name}: {_language_name(suite)} {phenomena} (2x2 factorial items)",
        "tags": ["syntax", *(TAG.get(d.name, d.name) for d in designs), "minimal-pairs", "acceptability",
                 _language_name(suite).lower()],
        "size_categories": [_size_category(len(suite.items))],
        "configs": configs,
        "dataset_info": [{"config_name": c["config_name"], "features": features(conditions)} for c in configs],
    }
    manifest = suite.manifest
    lex_hash, _ = lexicon_hash(manifest)
    lines = [
        "---",
        yaml.safe_dump(header, sort_keys=False, allow_unicode=True).rstrip("\n"),
        "---",
        "",
        f"# {suite.name}",
        "",
        *([
            f"Controlled {_language_name(suite)} syntactic-island test items. Each row is one item: four sentences in a",
            "2x2 design, dependency length (short/long) x structure (non-island/island). `long_island`",
            "is the violation; the island effect of a model is the interaction",
            "DD = S(long_nonisland) + S(short_island) - S(short_nonisland) - S(long_island)",
            "(scores: higher = more acceptable), factorial accuracy the share of items with DD > 0.",
        ] if island_only else _design_lines(designs, _language_name(suite))),
        "",
        "## Generation parameters",
        "",
        f"- generator version: `{manifest.get('generator_version', 'unknown')}`",
        f"- seed: `{manifest.get('seed', 'unknown')}`",
        f"- command: `{manifest.get('command', 'unknown')}`",
        f"- lexicon hash: `{lex_hash or 'unknown'}` (sha256 over the `path sha256` lines of the lexicon files, sorted)",
    ]
    if "imported" in manifest:
        imported = manifest["imported"]
        lines.append(f"- imported from: `{imported.get('source_file')}` "
                     f"(sha256 `{imported.get('sha256')}`, format {imported.get('format')})")
    lines += ["", "## Files used", ""]
    files = manifest_file_hashes(manifest)
    lines += [f"- `{p}`: `{h}`" for p, h in files.items()] or ["- (no manifest.json: unknown)"]
    if island_only:
        lines += ["", "## Paradigms", "", "| config | items | additive items |", "| --- | --- | --- |"]
    else:
        lines += ["", "## Paradigms", "", "| config | design | items | additive items |", "| --- | --- | --- | --- |"]
    for paradigm, items in suite.paradigms.items():
        additive = sum(i.additive for i in items)
        design = "" if island_only else f" {', '.join(sorted({i.design for i in items}))} |"
        lines.append(f"| {paradigm} |{design} {len(items)} | {additive} ({additive / len(items):.0%}) |")
    sentences = ", ".join(f"`{c}`" for c in conditions)
    lines += [
        "",
        "## Columns",
        "",
        "- `item_id`, `paradigm`, `dependency` (wh or rc), `matched_set` (items differing only in one variant factor)",
        "- `additive`: the word multisets satisfy SN - LN == SI - LI; `residual`: the words that break it" if island_only
        else "- `additive`: the words of the design's two positive-sign conditions and of its two negative-sign "
             "conditions are the same multiset; `residual`: the words that break it",
        "- `variant`: confound factors of this item, `lexical`: content slots and their lemmas ({name, value} pairs)",
        f"- {sentences}: the four sentences" if len(conditions) == 4
        else f"- {sentences}: the sentences, four per row (the conditions of the row's design; the others are null)",
        "- `regions`: per condition, named character spans [start, end) of the sentence (a gap is empty)"
        + ("" if len(conditions) == 4 else "; null for the conditions the row's design lacks"),
        "",
        "## Loading",
        "",
        "```python",
        "from datasets import load_dataset",
        f"ds = load_dataset(\"path/to/this/folder\", \"all\", split=\"{SPLIT}\")",
        "```",
        "",
    ]
    return "\n".join(lines)


def _size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if n < limit:
            return name
    return "100K<n<1M"


def export(suite: Suite) -> dict[str, str]:
    conditions = design_conditions(suite_designs(suite))
    files = {f"data/{p}.jsonl": dump_jsonl(row(i, conditions) for i in items) for p, items in suite.paradigms.items()}
    files["README.md"] = card(suite)
    return files
