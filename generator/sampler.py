"""Fill the slots of a paradigm: candidates, capacity and balanced sampling.

A plan is a paradigm under fixed variant levels. Each slot has static candidates (its
`where` formulas without references) and dependencies on earlier slots: formulas that
refer to them (`{subj_noun.det}`), verb-argument restrictions, and `distinct`. Candidate
sets given the dependencies' values are set intersections of cached formula matches.

Capacity (the number of distinct lexical assignments) is counted exactly by dynamic
programming over the dependency tree, once dependencies that never filter anything are
dropped; values that admit no completion are pruned, so sampling never dead-ends. Sampling
picks, slot by slot, among the valid candidates used least so far (ties broken by the
seeded generator): lemmas are used as evenly as the constraints allow."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable

from .formula import Formula, parse_formula
from .grammar import Argument, Paradigm, SlotSpec
from .lexicon import Entry, Lexicon

_REF = re.compile(r"\{(\w+)\.(\w+)\}")


class UnsatisfiableError(ValueError):
    """No assignment satisfies a slot's constraints; the message names the slot."""


@dataclass
class SlotPlan:
    spec: SlotSpec
    entries: list[Entry]                          # the slot's table
    static: list[int]                             # indices passing the reference-free formulas
    dynamic: tuple[str, ...]                      # formulas with {slot.attr} references
    arguments: tuple[tuple[Argument, bool], ...]  # (argument, this slot is the predicate)
    parents: tuple[str, ...]                      # earlier slots that change this slot's candidates
    keys: list[int]                               # usage index of every entry of the table

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class Plan:
    paradigm: Paradigm
    levels: dict[str, str]
    slots: list[SlotPlan]
    by_name: dict[str, SlotPlan] = field(default_factory=dict)
    alive: dict[str, set[int]] = field(default_factory=dict)  # values that admit a completion
    capacity: int = 0
    exact: bool = True
    _cache: dict = field(default_factory=dict)
    _matches: dict = field(default_factory=dict)  # shared by the plans built from one lexicon

    def entry(self, slot: str, index: int) -> Entry:
        return self.by_name[slot].entries[index]

    def root_keys(self) -> list[list[int]]:
        """Usage keys of the possible values of each slot that depends on no other."""
        if "roots" not in self._cache:
            self._cache["roots"] = [sorted({s.keys[c] for c in self.alive[s.name]}) for s in self.slots if not s.parents]
        return self._cache["roots"]

    def candidates(self, slot: SlotPlan, values: dict[str, int]) -> list[int]:
        """Indices allowed for `slot` given the values of its parents."""
        key = (slot.name, tuple(values[p] for p in slot.parents))
        cached = self._cache.get(key)
        if cached is None:
            cached = self.filter(slot, values)
            self._cache[key] = cached
        return cached

    def valid(self, slot: SlotPlan, values: dict[str, int]) -> list[int]:
        """Candidates that also admit a completion of the remaining slots."""
        key = ("valid", slot.name, tuple(values[p] for p in slot.parents))
        cached = self._cache.get(key)
        if cached is None:
            alive = self.alive[slot.name]
            cached = [c for c in self.candidates(slot, values) if c in alive]
            self._cache[key] = cached
        return cached

    def filter(self, slot: SlotPlan, values: dict[str, int]) -> list[int]:
        """Static candidates that pass every constraint involving a slot present in `values`."""
        keep: set[int] | None = None
        for text in slot.dynamic:
            if all(m.group(1) in values for m in _REF.finditer(text)):
                keep = _meet(keep, self.matching(slot.entries, _substitute(text, self, values)))
        for argument, is_predicate in slot.arguments:
            other = argument.slot if is_predicate else argument.predicate
            if other not in values:
                continue
            if is_predicate:  # this slot is the verb: its own restriction must accept the argument
                arg = self.entry(other, values[other])
                keep = _meet(keep, {i for i in slot.static
                                    if predicate_admits(slot.entries[i], argument.role, arg)})
            else:
                formula = self.entry(other, values[other]).formulas.get(argument.role)
                if formula is not None:
                    keep = _meet(keep, self.matching(slot.entries, str(formula)))
        out = slot.static if keep is None else [i for i in slot.static if i in keep]
        for other in slot.spec.distinct:
            if other in values and self.by_name[other].entries is slot.entries:
                out = [i for i in out if i != values[other]]
        return out

    def matching(self, entries: list[Entry], formula: str) -> set[int]:
        """Indices of the entries of a table that satisfy a formula (cached)."""
        key = (id(entries), formula)
        found = self._matches.get(key)
        if found is None:
            parsed = _parse_cached(formula)
            found = {i for i, e in enumerate(entries) if parsed.matches(e.features)}
            self._matches[key] = found
        return found


def _meet(keep: set[int] | None, allowed: set[int]) -> set[int]:
    return allowed if keep is None else keep & allowed


def predicate_admits(predicate: Entry, role: str, argument: Entry) -> bool:
    formula = predicate.formulas.get(role)
    return formula is None or formula.matches(argument.features)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Formula:
    return parse_formula(text)


def _substitute(text: str, plan: Plan, values: dict[str, int]) -> str:
    """`{slot.attr}` replaced by that slot's feature value (or its formula, for subj/obj)."""
    def value(match: re.Match) -> str:
        entry = plan.entry(match.group(1), values[match.group(1)])
        attr = match.group(2)
        if attr in entry.formulas:
            return str(entry.formulas[attr])
        return entry.feature(attr) or "none"
    return _REF.sub(value, text)


def build_plan(paradigm: Paradigm, levels: dict[str, str], lexicon: Lexicon,
               usage_index: dict[tuple[str, str], int]) -> Plan:
    specs = [s for s in paradigm.slot_specs(levels) if s.table is not None]
    names = [s.name for s in specs]
    plans: list[SlotPlan] = []
    for position, spec in enumerate(specs):
        entries = lexicon.table(spec.table)
        static_formulas = [parse_formula(w) for w in spec.where if not _REF.search(w)]
        static = [i for i, e in enumerate(entries) if all(f.matches(e.features) for f in static_formulas)]
        if not static:
            raise UnsatisfiableError(
                f"{paradigm.path}: slot {spec.name!r}{_levels_text(levels)}: no {spec.table} entry satisfies "
                f"{' & '.join(spec.where) or '*'}; add entries to lexicon/{spec.table}.csv or relax the formula")
        earlier = set(names[:position])
        arguments = []
        parents = set(spec.refs()) | (set(spec.distinct) & earlier)
        for argument in paradigm.arguments:
            if argument.predicate == spec.name and argument.slot in earlier:
                arguments.append((argument, True))
                parents.add(argument.slot)
            elif argument.slot == spec.name and argument.predicate in earlier:
                arguments.append((argument, False))
                parents.add(argument.predicate)
        keys = [usage_index.setdefault((spec.table, e.lemma), len(usage_index)) for e in entries]
        plans.append(SlotPlan(spec, entries, static, tuple(w for w in spec.where if _REF.search(w)),
                              tuple(arguments), tuple(sorted(parents, key=names.index)), keys))
    plan = Plan(paradigm, dict(levels), plans, {p.name: p for p in plans}, _matches=lexicon.matches)
    _count(plan)
    return plan


def _levels_text(levels: dict[str, str]) -> str:
    return f" (variant {', '.join(f'{k}={v}' for k, v in levels.items())})" if levels else ""


def _filters(plan: Plan, slot: SlotPlan, parent: str) -> bool:
    """Whether some value of `parent` removes candidates of `slot`."""
    full = len(slot.static)
    return any(len(plan.filter(slot, {parent: value})) != full for value in plan.by_name[parent].static)


def _count(plan: Plan) -> None:
    """Exact capacity over the dependency forest; prunes values with no completion."""
    tree_parent: dict[str, str | None] = {}
    exact = True
    for slot in plan.slots:
        parents = [p for p in slot.parents if _filters(plan, slot, p)]
        if len(parents) > 1:
            exact = False  # not a tree: counted along the latest parent, an estimate
        tree_parent[slot.name] = parents[-1] if parents else None
        slot.parents = tuple(parents)  # a parent that never filters does not key the cache
    children: dict[str, list[str]] = {s.name: [] for s in plan.slots}
    for name, parent in tree_parent.items():
        if parent is not None:
            children[parent].append(name)

    counts: dict[tuple[str, int], int] = {}

    def count(name: str, value: int) -> int:
        key = (name, value)
        if key not in counts:
            total = 1
            for child in children[name]:
                child_slot = plan.by_name[child]
                if len(child_slot.parents) > 1:
                    # Not a tree: constrained by this parent alone, an over-count, so that no
                    # value is pruned that some value of its other parents would allow.
                    candidates = plan.filter(child_slot, {name: value})
                else:
                    candidates = plan.candidates(child_slot, {name: value})
                total *= sum(count(child, c) for c in candidates)
                if total == 0:
                    break
            counts[key] = total
        return counts[key]

    capacity = 1
    for slot in plan.slots:
        if tree_parent[slot.name] is None:
            capacity *= sum(count(slot.name, v) for v in slot.static)
    for slot in plan.slots:
        plan.alive[slot.name] = {v for (name, v), n in counts.items() if name == slot.name and n > 0}
        if not plan.alive[slot.name]:
            raise UnsatisfiableError(
                f"{plan.paradigm.path}: slot {slot.name!r}{_levels_text(plan.levels)}: no candidate is "
                f"compatible with the slots it depends on ({', '.join(slot.parents) or 'none'}); "
                f"check the formulas and the lexicon annotations")
    plan.capacity = capacity
    plan.exact = exact


class Sampler:
    """Least-used-first sampling of distinct assignments under one or more plans."""

    def __init__(self, seed: int, n_keys: int):
        self.rng = random.Random(seed)
        self.usage = [0] * max(n_keys, 1)
        self.seen: set[tuple] = set()

    def pick(self, slot: SlotPlan, candidates: list[int], slack: int) -> int:
        usage, keys = self.usage, slot.keys
        used = [usage[keys[c]] for c in candidates]
        limit = min(used) + slack
        pool = [c for c, u in zip(candidates, used) if u <= limit]
        return pool[self.rng.randrange(len(pool))]

    def sample(self, plan: Plan, fixed: dict[str, int] | None = None, max_tries: int = 64,
               accept: Callable[[dict[str, int]], bool] | None = None) -> dict[str, int] | None:
        """A new distinct assignment (slot -> entry index), or None when none is found.
        `fixed` values are kept where still valid (item-matched variants); `accept` may
        refuse an assignment (a sentence already used), which is then never drawn again."""
        for attempt in range(max_tries):
            values: dict[str, int] = {}
            for slot in plan.slots:
                candidates = plan.valid(slot, values)  # `distinct` slots are parents: already applied
                keep = (fixed or {}).get(slot.name)
                if keep is not None and keep in candidates:
                    values[slot.name] = keep
                    continue
                if not candidates:
                    break
                values[slot.name] = self.pick(slot, candidates, slack=attempt)
            else:
                key = (tuple(sorted(plan.levels.items())), tuple(values[s.name] for s in plan.slots))
                if key in self.seen:
                    continue
                self.seen.add(key)
                if accept is not None and not accept(values):
                    continue
                for slot in plan.slots:
                    self.usage[slot.keys[values[slot.name]]] += 1
                return values
        return None


def iter_level_combinations(paradigm: Paradigm, fixed: dict[str, str]) -> Iterable[dict[str, str]]:
    """Every combination of levels for the factors that are sampled per item."""
    combos: list[dict[str, str]] = [dict(fixed)]
    for factor, variant in paradigm.variants.items():
        if factor in fixed:
            continue
        if variant.default == "sample":
            combos = [{**c, factor: level} for c in combos for level in variant.levels]
        else:
            combos = [{**c, factor: variant.default} for c in combos]
    return [c for c in combos if paradigm.allows(c)]  # a level may require another factor's level


__all__ = ["Plan", "Sampler", "SlotPlan", "UnsatisfiableError", "build_plan", "iter_level_combinations"]
