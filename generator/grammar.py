"""Load and validate a paradigm file (grammar/<paradigm>.yaml).

A paradigm declares its slots (which lexicon table fills each, with feature formulas),
the verb-argument pairs whose selectional restrictions must hold, the confound variants it
supports, and the four conditions as Jinja2 templates with region marks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .formula import FormulaError, parse_formula
from .languages import DEFAULT_LANGUAGE, get_language
from suite_format import DESIGNS, ISLAND, STRENGTHS, Design, ParadigmInfo

_REF = re.compile(r"\{(\w+)\.(\w+)\}")
ROLES = ("subj", "obj")


class GrammarError(ValueError):
    """An invalid paradigm file; the message names the file and the key."""


@dataclass(frozen=True)
class SlotSpec:
    name: str
    table: str | None             # None: the slot is not used at this variant level
    where: tuple[str, ...] = ()   # formulas, ANDed; may refer to earlier slots as {slot.feature}
    distinct: tuple[str, ...] = ()

    def refs(self) -> set[str]:
        return {m.group(1) for w in self.where for m in _REF.finditer(w)}


@dataclass(frozen=True)
class Argument:
    predicate: str
    role: str   # subj | obj
    slot: str


@dataclass(frozen=True)
class Level:
    name: str
    slots: dict[str, SlotSpec | None]     # replaced slot definitions
    where: dict[str, tuple[str, ...]]     # extra restrictions on existing slots
    set: dict[str, Any]                   # template variables
    requires: dict[str, str] = field(default_factory=dict)  # other factors' levels it needs


@dataclass(frozen=True)
class Variant:
    name: str
    default: str            # a level name, or "sample": each item draws a level, balanced
    levels: dict[str, Level]


@dataclass
class Paradigm:
    name: str
    phenomenon: str
    dependency: str
    path: Path
    title: str
    design: str
    factors: dict[str, dict[str, str]]
    slots: dict[str, SlotSpec]
    arguments: tuple[Argument, ...]
    variants: dict[str, Variant]
    conditions: dict[str, str]
    let: dict[str, str] = field(default_factory=dict)   # derived template variables (Jinja expressions)
    grammatical: dict[str, bool] = field(default_factory=dict)
    item_design: str = ISLAND.name                      # the 2x2 layout (suite_format.designs)
    label: str = ""                                     # the island as a column title (whether, complex NP)
    strength: str | None = None                         # weak | strong island; None for the baseline
    language: str = DEFAULT_LANGUAGE                    # the folder it was read from (grammar/<code>)

    @property
    def info(self) -> ParadigmInfo:
        return ParadigmInfo(self.name, self.label, self.dependency, self.item_design, self.strength, self.title)

    @property
    def layout(self) -> Design:
        return DESIGNS[self.item_design]

    def slot_specs(self, levels: dict[str, str]) -> list[SlotSpec]:
        """Slots in sampling order once the chosen variant levels are applied."""
        specs = dict(self.slots)
        chosen = [self.variants[factor].levels[name] for factor, name in levels.items()]
        for level in chosen:  # replacements first, so a level's restriction is never dropped by another's
            for slot, spec in level.slots.items():
                specs[slot] = spec if spec is not None else SlotSpec(slot, None)
        for level in chosen:
            for slot, extra in level.where.items():
                base = specs[slot]
                specs[slot] = SlotSpec(slot, base.table, base.where + extra, base.distinct)
        return [specs[name] for name in self.slots]

    def allows(self, levels: dict[str, str]) -> bool:
        """Whether a combination of levels meets every level's `requires`."""
        return all(levels.get(other, wanted) == wanted
                   for factor, name in levels.items()
                   for other, wanted in self.variants[factor].levels[name].requires.items())

    def template_vars(self, levels: dict[str, str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for factor, level_name in levels.items():
            out.update(self.variants[factor].levels[level_name].set)
        return out


DEPENDENCIES = ("wh", "rc")  # wh-question or relative clause


def _fail(path: Path, key: str, message: str) -> GrammarError:
    return GrammarError(f"{path}: {key}: {message}")


def _mapping(path: Path, key: str, value: Any, what: str = "a mapping") -> dict:
    """`value` as a mapping (None: empty); any other type is an error naming the key."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(path, key, f"expected {what}, found {type(value).__name__} {str(value)[:60]!r}")
    return value


def _as_list(value: Any, path: Path | None = None, key: str = "") -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise GrammarError(f"{path}: {key}: expected a string or a list of strings, found {str(value)[:60]!r}")
    return tuple(str(v) for v in value)


def _slot(path: Path, key: str, name: str, raw: Any, tables: tuple[str, ...]) -> SlotSpec | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _fail(path, key, "a slot is a mapping with `table` and optional `where`, `distinct`")
    unknown = set(raw) - {"table", "where", "distinct"}
    if unknown:
        raise _fail(path, key, f"unknown key(s) {sorted(unknown)}; a slot has table, where, distinct")
    table = raw.get("table")
    if table not in tables:
        raise _fail(path, f"{key}.table", f"unknown table {table!r} (tables: {', '.join(tables)})")
    where = _where(path, f"{key}.where", raw.get("where"))
    return SlotSpec(name, table, where, _as_list(raw.get("distinct"), path, f"{key}.distinct"))


def _where(path: Path, key: str, raw: Any) -> tuple[str, ...]:
    """One formula or a list of them, each checked to parse ({slot.feature} references aside)."""
    formulas = _as_list(raw, path, key)
    for i, formula in enumerate(formulas):
        try:
            parse_formula(_REF.sub("x", formula))
        except FormulaError as exc:
            raise _fail(path, f"{key}[{i}]", str(exc)) from None
    return formulas


def _read_yaml(path: Path, seen: tuple[Path, ...] = ()) -> dict:
    """The file's mapping; with `extends: OTHER`, OTHER's mapping updated key by key
    (slots, variants, let and conditions merge one level deep)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8-sig"))
    except yaml.YAMLError as exc:
        raise GrammarError(f"{path}: not valid YAML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise GrammarError(f"{path}: not UTF-8 text (byte {exc.start}); save the file as UTF-8") from None
    except IsADirectoryError:
        raise GrammarError(f"{path}: a folder, not a paradigm file") from None
    except FileNotFoundError:
        raise GrammarError(f"{path}: no such paradigm file") from None
    if not isinstance(data, dict):
        raise GrammarError(f"{path}: expected a mapping at the top level")
    base_name = data.pop("extends", None)
    if base_name is None:
        return data
    if not isinstance(base_name, str) or not base_name or "/" in base_name:
        raise _fail(path, "extends", f"expected the name of another paradigm file, found {base_name!r}")
    base_path = path.with_name(f"{base_name}.yaml")
    if not base_path.is_file():
        raise _fail(path, "extends", f"no paradigm file {base_path.name} beside this one")
    if base_path in seen:
        raise GrammarError(f"{path}: extends: circular ({base_name})")
    merged = _read_yaml(base_path, seen + (path,))
    for key, value in data.items():
        if key in ("slots", "variants", "let", "conditions", "factors") and isinstance(value, dict):
            merged[key] = {**(merged.get(key) or {}), **value}
        else:
            merged[key] = value
    return merged


def load_paradigm(path: Path, language: str = DEFAULT_LANGUAGE) -> Paradigm:
    path = Path(path)
    data = _read_yaml(path)
    try:
        return _paradigm(path, data, tuple(get_language(language).tables), language)
    except (TypeError, AttributeError, ValueError) as exc:
        if isinstance(exc, GrammarError):
            raise
        # A value of an unexpected type deep inside; the checks above name the common ones.
        raise GrammarError(f"{path}: malformed paradigm ({type(exc).__name__}: {exc}); "
                           "compare with grammar/README.md") from None


def _paradigm(path: Path, data: dict, tables: tuple[str, ...], language: str) -> Paradigm:
    for key in ("paradigm", "phenomenon", "slots", "conditions"):
        if key not in data:
            raise _fail(path, key, "missing")
    name = str(data["paradigm"])
    for key in ("phenomenon", "dependency"):
        if key in data and not (isinstance(data[key], str) and re.fullmatch(r"[a-z][a-z0-9_]*", data[key])):
            raise _fail(path, key, f"{str(data[key])[:60]!r} must be a lower-case name (letters, digits, _)")
    if name != path.stem:
        raise _fail(path, "paradigm", f"{name!r} must equal the file name {path.stem!r}")

    slots: dict[str, SlotSpec] = {}
    for slot_name, raw in _mapping(path, "slots", data["slots"]).items():
        spec = _slot(path, f"slots.{slot_name}", slot_name, raw, tables)
        if spec is None:
            raise _fail(path, f"slots.{slot_name}", "a slot needs a table")
        slots[slot_name] = spec

    arguments = []
    raw_arguments = data.get("arguments") or []
    if not isinstance(raw_arguments, list):
        raise _fail(path, "arguments", "expected a list of {predicate: SLOT, subj: SLOT, obj: SLOT}")
    for i, raw in enumerate(raw_arguments):
        key = f"arguments[{i}]"
        if not isinstance(raw, dict) or "predicate" not in raw:
            raise _fail(path, key, "expected {predicate: SLOT, subj: SLOT, obj: SLOT}")
        for role in ROLES:
            if role in raw:
                arguments.append(Argument(str(raw["predicate"]), role, str(raw[role])))
        for ref in [raw["predicate"], *(raw[r] for r in ROLES if r in raw)]:
            if not isinstance(ref, str) or ref not in slots:
                raise _fail(path, key, f"unknown slot {ref!r}")

    variants: dict[str, Variant] = {}
    for factor, raw in _mapping(path, "variants", data.get("variants")).items():
        key = f"variants.{factor}"
        if not isinstance(raw, dict) or not raw.get("levels") or not isinstance(raw["levels"], dict):
            raise _fail(path, key, "a variant needs `levels`, a mapping (and `default`: a level or `sample`)")
        levels: dict[str, Level] = {}
        for level_name, lraw in raw["levels"].items():
            lkey = f"{key}.levels.{level_name}"
            lraw = _mapping(path, lkey, lraw, "a mapping with slots, where, set")
            unknown = set(lraw) - {"slots", "where", "set", "requires"}
            if unknown:
                raise _fail(path, lkey, f"unknown key(s) {sorted(unknown)}; a level has slots, where, set, requires")
            level_slots = {}
            for s, sraw in _mapping(path, f"{lkey}.slots", lraw.get("slots")).items():
                if s not in slots:
                    raise _fail(path, f"{lkey}.slots.{s}", "unknown slot (declare it under slots first)")
                level_slots[s] = _slot(path, f"{lkey}.slots.{s}", s, sraw, tables)
            level_where = {}
            for s, wraw in _mapping(path, f"{lkey}.where", lraw.get("where")).items():
                if s not in slots:
                    raise _fail(path, f"{lkey}.where.{s}", "unknown slot")
                level_where[s] = _where(path, f"{lkey}.where.{s}", wraw)
            levels[str(level_name)] = Level(str(level_name), level_slots, level_where,
                                            dict(_mapping(path, f"{lkey}.set", lraw.get("set"))),
                                            {str(k): str(v) for k, v in
                                             _mapping(path, f"{lkey}.requires", lraw.get("requires")).items()})
        default = str(raw.get("default", next(iter(levels))))
        if default != "sample" and default not in levels:
            raise _fail(path, f"{key}.default", f"{default!r} is neither a level nor `sample`")
        variants[factor] = Variant(factor, default, levels)

    for factor, variant in variants.items():  # a requirement names another factor's level
        for level in variant.levels.values():
            for other, wanted in level.requires.items():
                if other == factor or other not in variants or wanted not in variants[other].levels:
                    raise _fail(path, f"variants.{factor}.levels.{level.name}.requires.{other}",
                                f"{wanted!r} is not a level of another factor of this paradigm")
    dependency = str(data.get("dependency", "wh"))
    if dependency not in DEPENDENCIES:
        raise _fail(path, "dependency", f"{dependency!r}: expected one of {', '.join(DEPENDENCIES)}")
    design_name = str(data.get("item_design", ISLAND.name))
    if design_name not in DESIGNS:
        raise _fail(path, "item_design", f"{design_name!r}: expected one of {', '.join(DESIGNS)}")
    layout = DESIGNS[design_name]
    conditions = _mapping(path, "conditions", data["conditions"])
    missing = [c for c in layout.conditions if c not in conditions]
    extra = [c for c in conditions if c not in layout.conditions]
    if missing or extra:
        raise _fail(path, "conditions", f"the {layout.name} design needs exactly {', '.join(layout.conditions)}"
                    + (f"; missing {missing}" if missing else "") + (f"; unknown {extra}" if extra else ""))

    label = data.get("label", ParadigmInfo.guess(name).label)
    if not isinstance(label, str) or not label.strip():
        raise _fail(path, "label", "the island's short name for tables and figures, e.g. `label: whether`")
    strength = data.get("strength")
    if layout.name == ISLAND.name and strength not in STRENGTHS:
        raise _fail(path, "strength", f"{strength!r}: an island paradigm says `strength: weak` or `strength: strong`")
    if layout.name != ISLAND.name and strength is not None:
        raise _fail(path, "strength", f"only island paradigms have a strength; the {layout.name} design has none")

    paradigm = Paradigm(
        name=name,
        phenomenon=str(data["phenomenon"]),
        dependency=dependency,
        path=path,
        title=str(data.get("title", name)),
        design=str(data.get("design", "")).strip(),
        factors={k: dict(_mapping(path, f"factors.{k}", v))
                 for k, v in _mapping(path, "factors", data.get("factors")).items()},
        slots=slots,
        arguments=tuple(arguments),
        variants=variants,
        conditions={c: str(conditions[c]) for c in layout.conditions},
        let={str(k): str(v) for k, v in _mapping(path, "let", data.get("let")).items()},
        grammatical=dict(layout.grammatical),
        item_design=layout.name,
        label=label.strip(),
        strength=strength,
        language=language,
    )
    _check_references(paradigm)
    return paradigm


def _check_references(p: Paradigm) -> None:
    order = list(p.slots)
    for factor_levels in [{}] + [{f: l} for f, v in p.variants.items() for l in v.levels]:
        for i, spec in enumerate(p.slot_specs(factor_levels)):
            for ref in spec.refs() | set(spec.distinct):
                if ref not in p.slots:
                    raise _fail(p.path, f"slots.{spec.name}", f"refers to unknown slot {ref!r}")
                if order.index(ref) >= i and ref in spec.refs():
                    raise _fail(p.path, f"slots.{spec.name}",
                                f"refers to {ref!r}, which is sampled later: declare {ref!r} first")


def load_paradigms(directory: Path, language: str = DEFAULT_LANGUAGE) -> dict[str, Paradigm]:
    """The paradigms of `language` in `directory`: a folder of paradigm files, or a folder
    holding one such folder per language (grammar/it, grammar/en)."""
    from .paths import language_folder
    directory = language_folder(Path(directory), language, "grammar", "*.yaml")
    out = {}
    for path in sorted(directory.glob("*.yaml")):
        paradigm = load_paradigm(path, language)
        out[paradigm.name] = paradigm
    if not out:
        raise GrammarError(f"{directory}: no paradigm files (*.yaml)")
    return out
