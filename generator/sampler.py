"""Fill the slots of a paradigm: candidates, capacity and balanced sampling.

A plan is a paradigm under fixed variant levels. Each slot has static candidates (its
`where` formulas without references) and dependencies on earlier slots: formulas that
refer to them (`{verb.che_mood}`), verb-argument restrictions, and `distinct`. Candidate
sets given the dependencies' values are cached.

Capacity (the number of distinct lexical assignments) is counted exactly by dynamic
programming over the dependency tree once edges that never filter anything are dropped;
values that admit no completion are pruned, so sampling never dead-ends. Sampling picks,
slot by slot, among the valid candidates used least so far (ties broken by the seeded
generator): lemmas are used as evenly as the constraints allow."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from .formula import Formula, parse_formula
from .grammar import Argument, Paradigm, SlotSpec
from .lexicon import Entry, Lexicon

_REF = re.compile(r"\{(\w+)\.(\w+)\}")


class UnsatisfiableError(ValueError):
    """No assignment satisfies a slot's constraints; the message names the slot."""


@dataclass
class SlotPlan:
    spec: SlotSpec
    entries: list[Entry]                     # the slot's table
    static: list[int]                        # indices passing the reference-free formulas
    dynamic: tuple[str, ...]                 # formulas with {slot.attr} references
    arguments: tuple[tuple[Argument, bool], ...]  # (argument, this slot is the predicate)
    parents: tuple[str, ...]                 # earlier slots this slot's candidates depend on
    keys: list[int]                          # global usage index of every table entry

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class Plan:
    paradigm: Paradigm
    levels: dict[str, str]
    slots: list[SlotPlan]
    by_name: dict[str, SlotPlan] = field(default_factory=dict)
    _cache: dict = field(default_factory=dict)
    alive: dict[str, set[int]] = field(default_factory=dict)   # values with a completion
    capacity: int = 0
    exact: bool = True

    def candidates(self, slot: SlotPlan, values: dict[str, int]) -> list[int]:
        """Valid indices for `slot` given the values of its parents (other slots ignored)."""
        key = (slot.name, tuple(values[p] for p in slot.parents))
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        out = [i for i in slot.static if self._admits(slot, i, values)]
        self._cache[key] = out
        return out

    def valid(self, slot: SlotPlan, values: dict[str, int]) -> list[int]:
        """Candidates that also admit a completion of the remaining slots."""
        key = ("valid", slot.name, tuple(values[p] for p in slot.parents))
        cached = self._cache.get(key)
        if cached is None:
            alive = self.alive[slot.name]
            cached = [c for c in self.candidates(slot, values) if c in alive]
            self._cache[key] = cached
        return cached

    def _admits(self, slot: SlotPlan, index: int, values: dict[str, int]) -> bool:
        entry = slot.entries[index]
        for text in slot.dynamic:
            if not _formula_with_refs(text, self, values).matches(entry.features):
                return False
        for argument, is_predicate in slot.arguments:
            other = argument.slot if is_predicate else argument.predicate
            if other not in values:
                continue
            predicate = entry if is_predicate else self.entry(other, values[other])
            arg = self.entry(other, values[other]) if is_predicate else entry
            if not predicate_admits(predicate, argument.role, arg):
                return False
        for other in slot.spec.distinct:
            if other in values and self.by_name[other].entries is slot.entries and values[other] == index:
                return False
        return True

    def entry(self, slot: str, index: int) -> Entry:
        return self.by_name[slot].entries[index]


def predicate_admits(predicate: Entry, role: str, argument: Entry) -> bool:
    formula = predicate.formulas.get(role)
    return formula is None or formula.matches(argument.features)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Formula:
    return parse_formula(text)


def _formula_with_refs(text: str, plan: Plan, values: dict[str, int]) -> Formula:
    """`{slot.attr}` replaced by that slot's feature value (or its formula, for subj/obj)."""
    def substitute(match: re.Match) -> str:
        entry = plan.entry(match.group(1), values[match.group(1)])
        attr = match.group(2)
        if attr in entry.formulas:
            return str(entry.formulas[attr])
        return entry.feature(attr) or "none"
    return _parse_cached(_REF.sub(substitute, text))


def build_plan(paradigm: Paradigm, levels: dict[str, str], lexicon: Lexicon,
               usage_index: dict[tuple[str, str], int]) -> Plan:
    specs = [s for s in paradigm.slot_specs(levels) if s.table is not None]
    names = [s.name for s in specs]
    plans: list[SlotPlan] = []
    for position, spec in enumerate(specs):
        entries = lexicon.table(spec.table)
        static_formulas = [parse_formula(w) for w in spec.where if not _REF.search(w)]
        dynamic = tuple(w for w in spec.where if _REF.search(w))
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
        plans.append(SlotPlan(spec, entries, static, dynamic, tuple(arguments),
                              tuple(sorted(parents, key=names.index)), keys))
    plan = Plan(paradigm, dict(levels), plans, {p.name: p for p in plans})
    _count(plan)
    return plan


def _levels_text(levels: dict[str, str]) -> str:
    return f" (variant {', '.join(f'{k}={v}' for k, v in levels.items())})" if levels else ""


def _effective_parent(plan: Plan, slot: SlotPlan) -> list[str]:
    """Parents whose value actually changes this slot's candidate set."""
    effective = []
    for parent in slot.parents:
        full = set(slot.static)
        changes = False
        for value in plan.by_name[parent].static:
            if set(_candidates_single(plan, slot, parent, value)) != full:
                changes = True
                break
        if changes:
            effective.append(parent)
    return effective


def _candidates_single(plan: Plan, slot: SlotPlan, parent: str, value: int) -> list[int]:
    """Candidates of `slot` checking only the constraints that involve `parent`."""
    sub = SlotPlan(slot.spec, slot.entries, slot.static,
                   tuple(d for d in slot.dynamic if parent in {m.group(1) for m in _REF.finditer(d)}),
                   tuple(a for a in slot.arguments if parent in (a[0].predicate, a[0].slot)),
                   (parent,), slot.keys)
    distinct = parent in slot.spec.distinct
    out = []
    for i in sub.static:
        values = {parent: value}
        if not plan._admits(_without_distinct(sub) if not distinct else sub, i, values):
            continue
        out.append(i)
    return out


def _without_distinct(slot: SlotPlan) -> SlotPlan:
    return SlotPlan(SlotSpec(slot.spec.name, slot.spec.table, slot.spec.where, ()), slot.entries,
                    slot.static, slot.dynamic, slot.arguments, slot.parents, slot.keys)


def _count(plan: Plan) -> None:
    """Exact capacity over the dependency forest; prunes values with no completion."""
    tree_parent: dict[str, str | None] = {}
    exact = True
    for slot in plan.slots:
        parents = _effective_parent(plan, slot)
        if len(parents) > 1:
            exact = False  # a DAG, not a tree: count along the latest parent (a bound)
        tree_parent[slot.name] = parents[-1] if parents else None
        # Parents that never filter anything are dropped from the cache key too.
        slot.parents = tuple(parents) if len(parents) > 1 else tuple(parents)
    children: dict[str, list[str]] = {s.name: [] for s in plan.slots}
    for name, parent in tree_parent.items():
        if parent is not None:
            children[parent].append(name)

    counts: dict[tuple[str, int], int] = {}

    def count(name: str, value: int) -> int:
        key = (name, value)
        if key in counts:
            return counts[key]
        total = 1
        for child in children[name]:
            child_slot = plan.by_name[child]
            values = _parent_values(plan, child_slot, {name: value})
            subtotal = sum(count(child, c) for c in plan.candidates(child_slot, values))
            total *= subtotal
            if total == 0:
                break
        counts[key] = total
        return total

    capacity = 1
    for slot in plan.slots:
        plan.alive[slot.name] = set()
    for slot in plan.slots:
        if tree_parent[slot.name] is None:
            capacity *= sum(count(slot.name, v) for v in slot.static)
    for (name, value), n in counts.items():
        if n > 0:
            plan.alive[name].add(value)
    for slot in plan.slots:
        if tree_parent[slot.name] is None:
            plan.alive[slot.name] = {v for v in slot.static if counts.get((slot.name, v), 0) > 0}
        if not plan.alive[slot.name]:
            raise UnsatisfiableError(
                f"{plan.paradigm.path}: slot {slot.name!r}{_levels_text(plan.levels)}: no candidate is "
                f"compatible with the slots it depends on ({', '.join(slot.parents) or 'none'}); "
                f"check the formulas and the lexicon annotations")
    plan.capacity = capacity
    plan.exact = exact


def _parent_values(plan: Plan, slot: SlotPlan, known: dict[str, int]) -> dict[str, int]:
    values = dict(known)
    for p in slot.parents:
        values.setdefault(p, next(iter(plan.by_name[p].static)))
    return values


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

    def sample(self, plan: Plan, fixed: dict[str, int] | None = None, max_tries: int = 64) -> dict[str, int] | None:
        """A new distinct assignment (slot -> entry index), or None when none is found."""
        for attempt in range(max_tries):
            values: dict[str, int] = {}
            for slot in plan.slots:
                candidates = plan.valid(slot, values)
                if slot.spec.distinct:
                    candidates = [c for c in candidates if _distinct_ok(plan, slot, c, values)]
                keep = (fixed or {}).get(slot.name)
                if keep is not None and keep in candidates:
                    values[slot.name] = keep
                    continue
                if not candidates:
                    break
                values[slot.name] = self.pick(slot, candidates, slack=attempt)
            else:
                key = (tuple(sorted(plan.levels.items())), tuple(values[s.name] for s in plan.slots))
                if key in self.seen and attempt < max_tries - 1:
                    continue
                if key in self.seen:
                    return None
                self.seen.add(key)
                self.commit(plan, values)
                return values
        return None

    def commit(self, plan: Plan, values: dict[str, int]) -> None:
        for slot in plan.slots:
            self.usage[slot.keys[values[slot.name]]] += 1


def _distinct_ok(plan: Plan, slot: SlotPlan, index: int, values: dict[str, int]) -> bool:
    for other in slot.spec.distinct:
        if other in values and plan.by_name[other].entries is slot.entries and values[other] == index:
            return False
    return True


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
    return combos
