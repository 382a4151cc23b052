"""The fuzz cases: for each input a user writes, seeded mutations of a known-good copy and the
real command that reads it. The repository's own files are never touched: every case works
in its own folder, on copies (unchanged files are symlinked)."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import mutate

REPO = Path(__file__).resolve().parents[2]
LEXICON = REPO / "lexicon"
GRAMMAR = REPO / "grammar"
TINY_MODELS = REPO / "tests" / "benchmark" / "data" / "tiny"

INPUTS = ("lexicon", "grammar", "suite", "import", "review", "cli", "model")
# Share of the cases each input gets (model cases are the slowest: they load torch models).
WEIGHTS = {"lexicon": 0.2, "grammar": 0.22, "suite": 0.17, "import": 0.15, "review": 0.08, "cli": 0.13, "model": 0.05}
PHENOMENA = ("whether", "complex_np", "subject", "adjunct")


@dataclass
class Case:
    input: str
    number: int
    mutation: str
    app: str                      # gen | bench
    argv: list[str]
    setup: Callable[[Path], None]  # writes the case's files into its folder
    names: tuple[str, ...] = ()   # a failure message must name one of these (file, folder or key)
    no_output: str | None = None  # a folder that must not exist after a failure (no half-written output)
    timeout: float = 60.0
    files: dict[str, bytes] = field(default_factory=dict)   # the mutated files, kept for failures


def _link_tree(source: Path, target: Path, replaced: dict[str, bytes]) -> None:
    """`target` mirrors `source` with symlinks, except the files in `replaced` (name -> bytes)."""
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.iterdir()):
        if path.name in replaced:
            continue
        (target / path.name).symlink_to(path.resolve(), target_is_directory=path.is_dir())
    for name, data in replaced.items():
        (target / name).write_bytes(data)


class Base:
    """Known-good inputs shared (read-only) by all cases."""

    def __init__(self, root: Path, lexicon_dir: Path, grammar_dir: Path, suite_dir: Path, varied_dir: Path):
        self.root = root
        self.lexicon_dir, self.grammar_dir, self.suite, self.varied = lexicon_dir, grammar_dir, suite_dir, varied_dir
        self.suite_files = {p.name: p.read_bytes() for p in sorted(suite_dir.iterdir()) if p.is_file()}
        self.varied_files = {p.name: p.read_bytes() for p in sorted(varied_dir.iterdir()) if p.is_file()}
        self.review = review_samples(varied_dir)
        # one folder per language (lexicon/it, grammar/en): keys are "it/nouns.csv"
        self.lexicon = {f"{p.parent.name}/{p.name}": p.read_bytes() for p in sorted(lexicon_dir.glob("*/*.csv"))}
        self.grammar = {f"{p.parent.name}/{p.name}": p.read_bytes() for p in sorted(grammar_dir.glob("*/*.yaml"))}
        self.imports = import_samples(suite_dir)


def review_samples(suite_dir: Path) -> dict[str, bytes]:
    """A sheet of the crossed suite (sampled by matched set and level), its key, and two
    filled copies with labels and the graded severity."""
    import csv
    import io

    from generator.review import ALLOWED_LABELS, SEVERITIES, key_path_for, sample_rows, write_sheet
    from generator.suite import read_suite

    folder = suite_dir.parent / "review"
    folder.mkdir(exist_ok=True)
    write_sheet(folder / "sheet.csv", sample_rows(read_suite(suite_dir), 2, 0))
    out = {"sheet.csv": (folder / "sheet.csv").read_bytes(), "sheet.key.csv": key_path_for(folder / "sheet.csv").read_bytes()}
    for reader in (1, 2):
        rows = list(csv.DictReader(io.StringIO(out["sheet.csv"].decode("utf-8"))))
        for k, row in enumerate(rows):
            labels = ALLOWED_LABELS[row["meant_to_be"]]
            row["judgment"] = labels[(k * reader) % len(labels)]
            row["severity"] = SEVERITIES[(k + reader) % 3] if row["meant_to_be"] == "violation" else ""
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        out[f"reader{reader}.csv"] = buffer.getvalue().encode("utf-8")
    return out


def import_samples(suite_dir: Path) -> dict[str, bytes]:
    """Hand-written suites in every accepted shape, from the base suite's sentences."""
    items = [json.loads(line) for line in (suite_dir / "whether_island.jsonl").read_text("utf-8").splitlines()]
    records = [{c: item["conditions"][c]["text"] for c in item["conditions"]} | {"item": k + 1}
               for k, item in enumerate(items)]
    jsonl = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    wrapped = json.dumps({"sentences": records}, ensure_ascii=False)
    rows = [("Island Type", "Clause type", "Condition 1", "Condition 2", "item number", "sentence")]
    for r in records:
        for c in ("short_nonisland", "long_nonisland", "short_island", "long_island"):
            length, structure = c.split("_")
            rows.append(("whether", "WH", length, "non-island" if structure == "nonisland" else "island",
                         str(r["item"]), r[c]))
    def sep(s: str) -> str:
        return "".join(s.join(row) + "\n" for row in rows)
    blimp = "".join(json.dumps({"sentence_good": r["short_nonisland"], "sentence_bad": r["long_island"],
                                "field": "syntax", "linguistics_term": "island_effects", "UID": "wh_island",
                                "pairID": str(r["item"] % 7)}, ensure_ascii=False) + "\n" for r in records)
    return {"wh_whether_island.jsonl": jsonl.encode(), "whether_list.json": json.dumps(records).encode(),
            "blimp_wh_island.jsonl": blimp.encode(),
            "whether_wrapped.json": wrapped.encode(), "whether.csv": sep(";").encode(),
            "whether.tsv": sep("\t").encode(), "whether_comma.csv": sep(",").encode()}


def _lexicon_case(base: Base, rng: random.Random, number: int) -> Case:
    name = rng.choice(sorted(base.lexicon))
    language, table = name.split("/", 1)
    mutator = mutate.csv_mutation if rng.random() < 0.6 else mutate.text_mutation
    what, data = mutator(rng, base.lexicon[name])
    replaced = {table: data}
    if rng.random() < 0.03:
        what, replaced = "table file missing", {}
    # The language's own folder, as a linguist's edited copy (lexicon/ holding its tables).
    def setup(d: Path) -> None:
        _link_tree(base.lexicon_dir / language, d / "lexicon", replaced)
        if not replaced:
            (d / "lexicon" / table).unlink()
        _link_tree(base.grammar_dir / language, d / "grammar", {})
    if rng.random() < 0.15:
        argv = ["list", "--language", language, "--lexicon", "lexicon", "--grammar", "grammar"]
    else:
        argv = ["build", "--language", language, "--phenomenon", rng.choice(PHENOMENA),
                "--n", str(rng.choice((2, 3, 5))), "--seed", str(rng.randrange(100)),
                "--lexicon", "lexicon", "--grammar", "grammar", "--out", "out", "-q"]
    # Rows removed or changed can break a reference from another table (the message then names
    # that file and line) or leave a paradigm unsatisfiable (the message names the paradigm).
    return Case("lexicon", number, f"{name}: {what}", "gen", argv, setup,
                names=(*(n.split("/", 1)[1] for n in base.lexicon),
                       *(g.split("/", 1)[1].removesuffix(".yaml") for g in base.grammar)),
                no_output="out", files=replaced)


def _grammar_case(base: Base, rng: random.Random, number: int) -> Case:
    name = rng.choice(sorted(base.grammar))
    language, file = name.split("/", 1)
    mutator = mutate.yaml_mutation if rng.random() < 0.8 else mutate.text_mutation
    what, data = mutator(rng, base.grammar[name])
    def setup(d: Path) -> None:   # the whole tree (lexicon/it, lexicon/en), one file replaced
        _link_tree(base.lexicon_dir, d / "lexicon", {})
        _link_tree(base.grammar_dir, d / "grammar", {})
        (d / "grammar" / language).unlink()
        _link_tree(base.grammar_dir / language, d / "grammar" / language, {file: data})
    phenomenon = next((p for p in PHENOMENA if file.startswith(p)), "all")
    argv = (["list", "--language", language, "--lexicon", "lexicon", "--grammar", "grammar"]
            if rng.random() < 0.15 else
            ["build", "--language", language, "--phenomenon", rng.choice((phenomenon, phenomenon, "all")),
             "--n", str(rng.choice((2, 3))), "--seed", str(rng.randrange(100)),
             "--lexicon", "lexicon", "--grammar", "grammar", "--out", "out", "-q"])
    return Case("grammar", number, f"{name}: {what}", "gen", argv, setup, names=(file,), no_output="out",
                files={file: data})


def _suite_case(base: Base, rng: random.Random, number: int) -> Case:
    name = rng.choice(sorted(base.suite_files))
    original = base.suite_files[name]
    choice = rng.random()
    if name.endswith(".jsonl") and choice < 0.5:
        lines = original.decode("utf-8").splitlines()
        k = rng.randrange(len(lines))
        r = rng.random()
        if r < 0.6:
            lines[k] = json.dumps(mutate.json_value_mutation(rng, json.loads(lines[k])), ensure_ascii=False)
            what = f"line {k + 1}: a value changed"
        elif r < 0.8:
            lines.append(lines[k])
            what = f"line {k + 1}: duplicate item id"
        else:
            lines[k] = lines[k][: rng.randrange(len(lines[k]))]
            what = f"line {k + 1}: truncated"
        data = ("\n".join(lines) + "\n").encode("utf-8")
    elif name == "manifest.json" and choice < 0.5:
        data = json.dumps(mutate.json_value_mutation(rng, json.loads(original))).encode()
        what = "a value changed"
    else:
        what, data = mutate.text_mutation(rng, original)
    def setup(d: Path) -> None:
        _link_tree(base.suite, d / "suite", {name: data})
        _link_tree(base.lexicon_dir, d / "lexicon", {})
    r = rng.random()
    if r < 0.45:
        argv, app = ["validate", "suite", "--lexicon", "lexicon"], "gen"
    elif r < 0.85:
        argv, app = ["export", "suite", "-f", rng.choice(("blimp", "syntaxgym", "lm-eval", "hf", "csv", "ratings")),
                     "-o", "out"], "gen"
    else:
        def setup(d: Path, _old=setup) -> None:   # noqa: F811 - the suite plus a model
            _old(d)
            _link_tree(TINY_MODELS / "gpt2", d / "gpt2", {})
        argv, app = ["run", "--model", "gpt2", "--suite", "suite", "--out", "results", "--no-cache"], "bench"
        if rng.random() < 0.75:   # the report (plots) costs seconds; a quarter of the runs write it
            argv.append("--no-report")
    return Case("suite", number, f"{name}: {what}", app, argv, setup, names=(name, "suite"),
                no_output="out" if app == "gen" else None, files={name: data})


def _import_case(base: Base, rng: random.Random, number: int) -> Case:
    name = rng.choice(sorted(base.imports))
    original = base.imports[name]
    if name.endswith(".csv") or name.endswith(".tsv"):
        what, data = (mutate.csv_mutation(rng, original) if name == "whether_comma.csv" and rng.random() < 0.5
                      else mutate.text_mutation(rng, original))
        if rng.random() < 0.3:   # cells with other separators inside
            text = data.decode("utf-8", "replace")
            data = text.replace("whether", rng.choice(("whe;ther", "whe\tther", "whe,ther", '"whe"ther'))).encode()
            what += ", separator inside a cell"
    elif name.endswith(".jsonl") and rng.random() < 0.5:
        lines = original.decode().splitlines()
        k = rng.randrange(len(lines))
        lines[k] = json.dumps(mutate.json_value_mutation(rng, json.loads(lines[k])))
        what, data = f"line {k + 1} changed", ("\n".join(lines) + "\n").encode()
    elif name.endswith(".json") and rng.random() < 0.4:
        what, data = "a value changed", json.dumps(mutate.json_value_mutation(rng, json.loads(original))).encode()
    else:
        what, data = mutate.text_mutation(rng, original)
    def setup(d: Path) -> None:
        (d / name).write_bytes(data)
    argv = ["import", name, "--out", "out"]
    if rng.random() < 0.3:
        argv += ["--format", rng.choice(("jsonl", "csv", "json", "xml"))]
    if rng.random() < 0.2:
        argv += ["--paradigm", rng.choice(("whether_island", "adjunct_island_temporal", "nosuch"))]
    if rng.random() < 0.2:
        argv += ["--language", rng.choice(("it", "en", "fr", ""))]
    return Case("import", number, f"{name}: {what}", "gen", argv, setup,
                names=(name, "--format", "--paradigm", "--language"),
                no_output="out",
                files={name: data})


CLI_VALUES = ("", "-1", "0", "1", "3", "abc", "10000000000000000", "1.5", "nosuch", "suite", "suite/whether_island.jsonl",
              "/nonexistent/folder", "x=y", "subject_type", "subject_type=nosuch", "mood=indicative", "--", "-q",
              "gap", "filler", "gap=resumptive", "filler=dlinked", "gap=nosuch",
              "é", "gpt2", "suite/manifest.json", "results", "out", "it", "en", "all", "fr", "EN")
CLI_COMMANDS = {
    "gen": {"build": ["--phenomenon", "--n", "--seed", "--out", "--vary", "--level", "--lexicon", "--grammar", "-q",
                      "--language", "--jobs"],
            "list": ["--lexicon", "--grammar", "--language"], "validate": ["--lexicon"],
            "export": ["--format", "--out", "--lists", "--seed", "--fillers", "--force"],
            "import": ["--out", "--format", "--paradigm", "--force", "--language"],
            "review": ["--score", "--n", "--seed", "--paradigm", "--out", "--force", "--key", "--json"]},
    "bench": {"run": ["--model", "--suite", "--scorer", "--out", "--device", "--dtype", "--token-budget", "--alpha",
                      "--no-cache", "--no-report", "--threads", "--device-map", "--max-memory",
                      "--prefix-sharing", "--no-prefix-sharing", "--sample"],
              "perf": ["--model", "--n", "--repeat", "--dtype", "--suite", "--token-budget", "--threads"],
              "models": [], "report": ["--baseline", "--out", "--items", "--extreme", "--bootstrap", "--seed"],
              "compare": ["--out", "--bootstrap"], "ratings": ["--run", "--out", "--measure", "--force"]},
}
FLAGS = {"-q", "--force", "--no-cache", "--no-report", "--score", "--prefix-sharing", "--no-prefix-sharing"}


def _cli_case(base: Base, rng: random.Random, number: int) -> Case:
    app = rng.choice(("gen", "bench"))
    command = rng.choice(sorted(CLI_COMMANDS[app]) + ["nosuch", "--help", ""])
    argv = [command] if command else []
    for _ in range(rng.randrange(5)):
        options = CLI_COMMANDS[app].get(command, ["--x"])
        r = rng.random()
        if r < 0.6 and options:
            option = rng.choice(options)
            argv += [option] if option in FLAGS else [option, rng.choice(CLI_VALUES)]
        elif r < 0.85:
            argv.append(rng.choice(CLI_VALUES))
        else:
            argv.append(rng.choice(("--nosuch", "-z", "--n=", "--n=-5", "--help")))
    # A build with a valid large --n would run for minutes: keep builds small.
    if command == "build":
        argv += ["--n", rng.choice(("1", "2", "-3", "x", "10000000000000000")), "--out", "out"]
    if app == "bench" and command == "run":   # never the default model or the shipped 5,000-item suite
        argv += ["--model", rng.choice(("gpt2", "nosuch", "suite")), "--suite", "suite", "--no-cache"]
    if app == "bench" and command == "perf":  # a tiny model, few sentences: seconds, not minutes
        argv += ["--model", rng.choice(("gpt2", "nosuch", "suite")), "--n", rng.choice(("1", "5", "0", "-2", "x")),
                 "--repeat", "1"]
    def setup(d: Path) -> None:
        _link_tree(base.suite, d / "suite", {})
        _link_tree(TINY_MODELS / "gpt2", d / "gpt2", {})
    return Case("cli", number, " ".join(argv) or "(no arguments)", app, argv, setup)


def _model_case(base: Base, rng: random.Random, number: int) -> Case:
    kind = rng.choice(("gpt2", "bert", "roberta"))
    source = TINY_MODELS / kind
    config = json.loads((source / "config.json").read_text())
    replaced: dict[str, bytes] = {}
    removed: list[str] = []
    choice = rng.randrange(10)
    if choice == 0:
        removed, what = ["tokenizer.json"], "tokenizer missing"
    elif choice == 1:
        removed, what = ["config.json"], "config missing"
    elif choice == 2:
        removed, what = ["model.safetensors"], "weights missing"
    elif choice == 3:
        other = rng.choice([m for m in ("gpt2", "bert", "roberta", "llama", "t5", "nosuch") if m != kind])
        config["model_type"] = other
        config["architectures"] = [rng.choice(("LlamaForCausalLM", "BertForMaskedLM", "T5Model", "Nope"))]
        replaced["config.json"], what = json.dumps(config).encode(), f"config of {other}"
    elif choice == 4:
        tok = json.loads((source / "tokenizer.json").read_text())
        vocab = tok["model"]["vocab"]
        extra = rng.choice((10, 1000))
        if isinstance(vocab, dict):
            start = max(vocab.values()) + 1
            for k in range(extra):
                vocab[f"zzextra{k}"] = start + k
        else:
            vocab.extend([[f"zzextra{k}", -10.0] for k in range(extra)])
        replaced["tokenizer.json"], what = json.dumps(tok).encode(), f"vocabulary {extra} larger than the output layer"
    elif choice == 5:
        key = rng.choice(sorted(config))
        config[key] = rng.choice((None, -1, 0, "x", [], 10**6))
        replaced["config.json"], what = json.dumps(config).encode(), f"config.{key} changed"
    elif choice == 6:
        what, data = mutate.text_mutation(rng, (source / "config.json").read_bytes())
        replaced["config.json"] = data
        what = f"config.json {what}"
    elif choice == 7:
        what, data = mutate.text_mutation(rng, (source / "tokenizer.json").read_bytes())
        replaced["tokenizer.json"] = data
        what = f"tokenizer.json {what}"
    elif choice == 8:
        weights = (source / "model.safetensors").read_bytes()
        replaced["model.safetensors"] = weights[: rng.randrange(len(weights))]
        what = "weights truncated"
    else:
        what = "unchanged"
    def setup(d: Path) -> None:
        _link_tree(source, d / "mymodel", replaced)
        for name in removed:
            (d / "mymodel" / name).unlink()
        _link_tree(base.suite, d / "suite", {})
    scorer = rng.choice(("auto", "auto", "lp", "pll"))
    argv = ["run", "--model", "mymodel", "--suite", "suite", "--out", "results", "--no-cache", "--scorer", scorer]
    if rng.random() < 0.75:
        argv.append("--no-report")
    if rng.random() < 0.3:
        argv.append("--no-prefix-sharing")
    return Case("model", number, f"{kind}: {what}, --scorer {scorer}", "bench", argv, setup,
                names=("mymodel", "--scorer"), files=replaced, timeout=120.0)


def _review_case(base: Base, rng: random.Random, number: int) -> Case:
    """Filled sheets (labels and the graded severity) and their key scored, or a crossed
    suite's manifest or items sampled into a sheet."""
    if rng.random() < 0.75:
        name = rng.choice(sorted(base.review))
        original = base.review[name]
        what, data = (mutate.csv_mutation(rng, original) if rng.random() < 0.6 else mutate.text_mutation(rng, original))
        def setup(d: Path) -> None:
            for file, content in base.review.items():
                (d / file).write_bytes(data if file == name else content)
        argv = ["review", "--score", "reader1.csv", "reader2.csv", "--key", "sheet.key.csv", "--json", "scores.json"]
        return Case("review", number, f"{name}: {what}", "gen", argv, setup, names=(name,), no_output="scores.json",
                    files={name: data})
    name = rng.choice(sorted(base.varied_files))
    original = base.varied_files[name]
    if name == "manifest.json" and rng.random() < 0.6:
        what, data = "a value changed", json.dumps(mutate.json_value_mutation(rng, json.loads(original))).encode()
    else:
        what, data = mutate.text_mutation(rng, original)
    def setup(d: Path) -> None:  # noqa: F811
        _link_tree(base.varied, d / "suite", {name: data})
    argv = ["review", "suite", "--n", rng.choice(("1", "2", "3", "4")), "--seed", str(rng.randrange(100)),
            "--out", "new/sheet.csv"]
    return Case("review", number, f"{name}: {what}", "gen", argv, setup, names=(name, "suite", "--n"), no_output="new",
                files={name: data})


MAKERS = {"lexicon": _lexicon_case, "grammar": _grammar_case, "suite": _suite_case, "import": _import_case,
          "review": _review_case, "cli": _cli_case, "model": _model_case}


def make_cases(base: Base, n: int, seed: int, inputs: tuple[str, ...] = INPUTS) -> list[Case]:
    """`n` cases shared among `inputs` by WEIGHTS, each from its own seeded generator."""
    total = sum(WEIGHTS[i] for i in inputs)
    counts = {i: int(n * WEIGHTS[i] / total) for i in inputs}
    counts[inputs[0]] += n - sum(counts.values())
    cases = []
    for i in inputs:
        for k in range(counts[i]):
            rng = random.Random(f"{seed}:{i}:{k}")
            cases.append(MAKERS[i](base, rng, k))
    return cases


