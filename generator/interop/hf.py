"""A folder that Hugging Face `datasets` loads (`load_dataset("path/to/folder")`): one JSONL
per paradigm under data/, one row per item, and a dataset card (README.md) whose YAML
header declares a config per paradigm (and `all`, the default) and whose body records how
the suite was made: generator version, seed, command and the lexicon hash.

Rows keep a fixed schema across paradigms so the files load together: variant factors and
lexical slots are lists of {name, value} pairs rather than mappings with varying keys."""

from __future__ import annotations

import yaml

from generator.interop.common import Suite, dump_jsonl, lexicon_hash, manifest_file_hashes
from generator.suite import CONDITIONS, Item

SPLIT = "test"


def row(item: Item) -> dict:
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
    for condition in CONDITIONS:
        record[condition] = item.conditions[condition].text
    record["regions"] = {
        condition: [r.to_json() for r in item.conditions[condition].regions] for condition in CONDITIONS
    }
    return record


def features() -> list[dict]:
    """The row schema in the card's YAML (`dataset_info`), so files load with the same types."""
    def fields(**types: str) -> list[dict]:  # fresh dicts each time: no YAML aliases
        return [{"name": k, "dtype": v} for k, v in types.items()]

    return (
        fields(item_id="string", paradigm="string", dependency="string", matched_set="string", additive="bool")
        + [{"name": "residual", "list": "string"},
           {"name": "variant", "list": fields(name="string", value="string")},
           {"name": "lexical", "list": fields(name="string", value="string")}]
        + fields(**{c: "string" for c in CONDITIONS})
        + [{"name": "regions", "struct": [{"name": c, "list": fields(name="string", start="int64", end="int64")}
                                          for c in CONDITIONS]}]
    )


def card(suite: Suite) -> str:
    configs = [{"config_name": "all", "data_files": [{"split": SPLIT, "path": "data/*.jsonl"}], "default": True}]
    configs += [{"config_name": p, "data_files": [{"split": SPLIT, "path": f"data/{p}.jsonl"}]}
                for p in suite.paradigms]
    header = {
        "language": ["it"],
        "pretty_name": f"{suite.name}: Italian island effects (2x2 factorial items)",
        "tags": ["syntax", "island-effects", "minimal-pairs", "acceptability", "italian"],
        "size_categories": [_size_category(len(suite.items))],
        "configs": configs,
        "dataset_info": [{"config_name": c["config_name"], "features": features()} for c in configs],
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
        "Controlled Italian syntactic-island test items. Each row is one item: four sentences in a",
        "2x2 design, dependency length (short/long) x structure (non-island/island). `long_island`",
        "is the violation; the island effect of a model is the interaction",
        "DD = S(long_nonisland) + S(short_island) - S(short_nonisland) - S(long_island)",
        "(scores: higher = more acceptable), factorial accuracy the share of items with DD > 0.",
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
    lines += ["", "## Paradigms", "", "| config | items | additive items |", "| --- | --- | --- |"]
    for paradigm, items in suite.paradigms.items():
        additive = sum(i.additive for i in items)
        lines.append(f"| {paradigm} | {len(items)} | {additive} ({additive / len(items):.0%}) |")
    lines += [
        "",
        "## Columns",
        "",
        "- `item_id`, `paradigm`, `dependency` (wh or rc), `matched_set` (items differing only in one variant factor)",
        "- `additive`: the word multisets satisfy SN - LN == SI - LI; `residual`: the words that break it",
        "- `variant`: confound factors of this item, `lexical`: content slots and their lemmas ({name, value} pairs)",
        "- `short_nonisland`, `long_nonisland`, `short_island`, `long_island`: the four sentences",
        "- `regions`: per condition, named character spans [start, end) of the sentence (a gap is empty)",
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
    files = {f"data/{p}.jsonl": dump_jsonl(row(i) for i in items) for p, items in suite.paradigms.items()}
    files["README.md"] = card(suite)
    return files
