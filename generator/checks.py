"""Independent re-check of a built suite.

It reads only the suite files, the lexicon and the paradigms' declarations, and re-verifies
what the generator promises: the format (regions inside the text and covering it, word
spans), the `additive` flag, grammaticality flags, and the selectional restriction of every
declared verb-argument pair, evaluated here by a separate, deliberately plain evaluator."""

from __future__ import annotations

import re
from pathlib import Path

from .grammar import load_paradigms
from .lexicon import Entry, Lexicon, load_lexicon
from .languages import DEFAULT_LANGUAGE, LANGUAGES
from .paths import GRAMMAR_DIR
from .stats import CONTENT_TABLES, paradigm_stats
from suite_format.schema import validate_suite_folder

from .bands import with_zipf_band
from .suite import REGION_NAMES, Item, read_suite
from .words import condition_residual, word_spans



class CheckError(ValueError):
    """The suite cannot be checked at all (missing folder, no paradigm files)."""


def formula_holds(formula: str, entry: Entry) -> bool:
    """Plain evaluation of an OR of ANDs of feature=value / feature!=value / zipf comparisons."""
    formula = formula.strip()
    if formula in ("", "*"):
        return True
    for clause in formula.split("|"):
        if all(_atom_holds(atom.strip(), entry) for atom in clause.split("&")):
            return True
    return False


def _atom_holds(atom: str, entry: Entry) -> bool:
    for op in (">=", "<=", "!=", ">", "<", "="):
        if op in atom:
            feature, value = (s.strip() for s in atom.split(op, 1))
            break
    else:
        raise CheckError(f"cannot read restriction atom {atom!r}")
    if feature == "zipf":
        z, v = entry.zipf, float(value)
        return {">=": z >= v, "<=": z <= v, ">": z > v, "<": z < v, "=": z == v, "!=": z != v}[op]
    values = set(entry.feature(feature).split(";")) if entry.feature(feature) else set()
    return (value in values) if op == "=" else (value not in values)


def check_item_format(item: Item) -> list[str]:
    problems = []
    layout = item.layout
    for c in layout.conditions:
        s = item.conditions[c]
        where = f"{item.item_id}/{c}"
        if s.grammatical != layout.grammatical[c]:
            problems.append(f"{where}: grammatical flag is {s.grammatical}")
        if s.text != s.text.strip() or "  " in s.text:
            problems.append(f"{where}: leading, trailing or double spaces")
        covered = [False] * len(s.text)
        last_end = 0
        for r in s.regions:
            if r.name not in REGION_NAMES:
                problems.append(f"{where}: unknown region {r.name!r}")
            if not (0 <= r.start <= r.end <= len(s.text)) or r.start < last_end:
                problems.append(f"{where}: region {r.name} [{r.start}, {r.end}) out of order or outside the text")
                continue
            last_end = r.end
            for i in range(r.start, r.end):
                covered[i] = True
        # an imported sentence may have no regions at all (one whole-sentence region)
        if s.regions and any(not ok and not ch.isspace() for ok, ch in zip(covered, s.text)):
            problems.append(f"{where}: characters outside every region")
        if list(s.words) != word_spans(s.text):
            problems.append(f"{where}: word spans differ from the orthographic words of the text")
    residual = condition_residual({c: item.conditions[c].text for c in layout.conditions}, layout)
    if item.additive != (not residual):
        problems.append(f"{item.item_id}: additive={item.additive} but the residual is {residual}")
    return problems


def _slot_tables(paradigm, levels: dict[str, str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {s.name: (s.table, s.where) for s in paradigm.slot_specs(levels) if s.table}


_REFERENCE = re.compile(r"\{(\w+)\.(\w+)\}")


def _with_references(formula: str, entries: dict[str, Entry]) -> str | None:
    """The formula with `{slot.feature}` replaced by that slot's value in this item (`none`
    where the entry lacks the feature, as in the generator); None if a slot is missing.
    A reference to a restriction (`{verb.obj}`) is left to the verb-argument check."""
    missing = False

    def value(match: re.Match) -> str:
        nonlocal missing
        entry = entries.get(match.group(1))
        if entry is None or match.group(2) in entry.formulas:
            missing = True
            return ""
        return entry.feature(match.group(2)) or "none"
    concrete = _REFERENCE.sub(value, formula)
    return None if missing else concrete


def repeated_sentences(items: list[Item]) -> list[str]:
    """Sentences that occur in two items (matched sets) of one paradigm."""
    owner: dict[str, str] = {}
    problems = []
    for item in items:
        mine = item.set_id
        for c in item.layout.conditions:
            text = item.conditions[c].text
            first = owner.setdefault(text, mine)
            if first != mine:
                problems.append(f"{item.item_id}/{c}: sentence already in {first}: {text!r}")
    return problems


def check_item_restrictions(item: Item, paradigms: dict, lexicon: Lexicon) -> list[str]:
    paradigm = paradigms.get(item.paradigm)
    if paradigm is None and not item.lexical and item.source:
        return []   # an imported item (a BLiMP pair): nothing of it was drawn from the lexicon
    if paradigm is None:
        return [f"{item.item_id}: unknown paradigm {item.paradigm!r}"]
    if item.design != paradigm.item_design:
        return [f"{item.item_id}: design {item.design!r}, but {paradigm.path.name} declares {paradigm.item_design!r}"]
    unknown = [f"{f}={lv}" for f, lv in item.variant.items()
               if f not in paradigm.variants or lv not in paradigm.variants[f].levels]
    if unknown:
        return [f"{item.item_id}: variant {', '.join(unknown)} is not in {paradigm.path.name} "
                "(the suite was built from another grammar)"]
    slots = _slot_tables(paradigm, item.variant)
    entries: dict[str, Entry] = {}
    problems = []
    for slot, lemma in item.lexical.items():
        if slot not in slots:
            problems.append(f"{item.item_id}: slot {slot!r} is not used at these variant levels")
            continue
        table = slots[slot][0]
        try:
            entries[slot] = lexicon.entry(table, lemma)
        except KeyError:
            problems.append(f"{item.item_id}: {lemma!r} is not in lexicon/{table}.csv")
            continue
    for slot, entry in entries.items():
        for formula in slots[slot][1]:
            concrete = _with_references(formula, entries)
            if concrete is not None and not formula_holds(concrete, entry):
                problems.append(f"{item.item_id}: {slot}={entry.lemma} violates {formula!r}"
                                + (f" (here {concrete!r})" if concrete != formula else ""))
    for argument in paradigm.arguments:
        predicate, arg = entries.get(argument.predicate), entries.get(argument.slot)
        if predicate is None or arg is None:
            continue
        column = "subj" if argument.role == "subj" else "obj"
        restriction = str(predicate.formulas[column]) if column in predicate.formulas else "*"
        if not formula_holds(restriction, arg):
            problems.append(f"{item.item_id}: {predicate.lemma} does not take {arg.lemma!r} as {argument.role} "
                            f"({restriction})")
    return problems


def check_suite(suite_dir: Path, lexicon_dir: Path, grammar_dir: Path = GRAMMAR_DIR) -> tuple[dict, list[str]]:
    suite = read_suite(suite_dir)
    language = suite.manifest.get("language") or DEFAULT_LANGUAGE  # version 2 suites: Italian
    if not isinstance(language, str) or language not in LANGUAGES:
        raise CheckError(f"{suite_dir}/manifest.json: language {language!r} is not one this tool knows "
                         f"({', '.join(LANGUAGES)})")
    lexicon = load_lexicon(lexicon_dir, language)
    paradigms = load_paradigms(grammar_dir, language)
    problems: list[str] = list(validate_suite_folder(suite_dir)) if Path(suite_dir).is_dir() else []
    stats = {}
    for name, items in suite.paradigms.items():
        recorded = suite.manifest.get("paradigms", {}).get(name, {}).get("zipf_bands")
        if recorded and name in paradigms:  # rebuild the --vary zipf_band variant from its thresholds
            paradigms = {**paradigms, name: with_zipf_band(paradigms[name], recorded)}
        seen: set[str] = set()
        for item in items:
            if item.item_id in seen:
                problems.append(f"{name}.jsonl: duplicate item_id {item.item_id}")
            seen.add(item.item_id)
            if item.language != language:
                problems.append(f"{name}.jsonl: item {item.item_id} is in {item.language!r}, the suite in {language!r}")
            problems += check_item_format(item)
            problems += check_item_restrictions(item, paradigms, lexicon)
        problems += repeated_sentences(items)
        stats[name] = {"capacity": suite.manifest.get("paradigms", {}).get(name, {}).get("capacity", 0),
                       **paradigm_stats(items, lexicon, CONTENT_TABLES)}
    return {"suite": suite.manifest.get("suite", suite.name), "paradigms": stats}, problems
