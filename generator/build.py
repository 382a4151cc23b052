"""Build a suite: sample, render and check items for each paradigm, write JSONL + manifest."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import multiprocessing
import os
import re
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import __version__, bands
from .faults import pause, pid_alive
from .grammar import DEPENDENCIES, Paradigm, load_paradigms
from .languages import DEFAULT_LANGUAGE, get_language
from .lexicon import Lexicon, load_lexicon
from .render import ConditionRenderer, Filler, make_environment
from .sampler import Plan, Sampler, UnsatisfiableError, build_plan, iter_level_combinations
from .stats import CONTENT_TABLES, paradigm_stats
from .suite import FORMAT_VERSION, Item, dumps_items
from .words import design_residual

PHENOMENA_ALL = "all"


class BuildError(ValueError):
    """A build that cannot be done as asked (too many items, nothing to vary…)."""


@dataclass(frozen=True)
class BuildRequest:
    phenomenon: str = PHENOMENA_ALL
    n: int = 1000
    seed: int = 0
    vary: tuple[str, ...] = ()           # variant factors to cross item-matched (one or several)
    levels: tuple[tuple[str, str], ...] = ()  # fixed variant levels, e.g. (("subject_type", "noun"),)
    dependency: str = "all"              # wh, rc or all
    language: str = DEFAULT_LANGUAGE     # it, en: the lexicon and grammar folders used

    def __post_init__(self) -> None:
        # One factor may be given as a string; several are crossed, each level with each.
        vary = (self.vary,) if isinstance(self.vary, str) else tuple(self.vary or ())
        if len(set(vary)) != len(vary):
            raise BuildError(f"--vary names a factor twice: {', '.join(vary)}")
        object.__setattr__(self, "vary", vary)
        get_language(self.language)  # an unknown code fails here, with the known ones


def select_paradigms(paradigms: dict[str, Paradigm], phenomenon: str, dependency: str = PHENOMENA_ALL) -> list[Paradigm]:
    if dependency != PHENOMENA_ALL and dependency not in DEPENDENCIES:
        raise BuildError(f"--dependency {dependency!r}: choose one of {', '.join(DEPENDENCIES)}, all")
    pool = [p for p in paradigms.values() if dependency == PHENOMENA_ALL or p.dependency == dependency]
    if phenomenon == PHENOMENA_ALL:
        chosen = pool
    else:
        known = sorted({p.phenomenon for p in paradigms.values()})
        if not any(p.phenomenon == phenomenon or p.name == phenomenon for p in paradigms.values()):
            raise BuildError(f"unknown phenomenon {phenomenon!r}; choose one of: {', '.join(known)}, all")
        chosen = [p for p in pool if p.phenomenon == phenomenon or p.name == phenomenon]
    if not chosen:
        raise BuildError(f"no paradigm of phenomenon {phenomenon!r} has dependency {dependency!r}; see `gen list`")
    return chosen


def suite_name(request: BuildRequest) -> str:
    what = "islands" if request.phenomenon == PHENOMENA_ALL else request.phenomenon
    language = get_language(request.language).name
    name = f"{language}_{what}" if request.dependency == PHENOMENA_ALL else f"{language}_{request.dependency}_{what}"
    for factor in request.vary:
        name += f"-vary-{factor}"
    for factor, level in request.levels:
        name += f"-{factor}-{level}"
    return name


class ParadigmBuilder:
    """Plans, sampler and renderer of one paradigm under one request."""

    def __init__(self, paradigm: Paradigm, lexicon: Lexicon, request: BuildRequest):
        self.lexicon = lexicon
        self.zipf_bands: dict[str, dict] = {}
        if bands.FACTOR in request.vary and bands.FACTOR not in paradigm.variants:
            self.zipf_bands = bands.zipf_thresholds(paradigm, lexicon, dict(request.levels))
            paradigm = bands.with_zipf_band(paradigm, self.zipf_bands)
        self.paradigm = paradigm
        self.request = request
        fixed = dict(request.levels)
        for factor, level in fixed.items():
            if factor not in paradigm.variants or level not in paradigm.variants[factor].levels:
                raise BuildError(f"{paradigm.path}: no variant level {factor}={level}")
        for factor in request.vary:
            if factor not in paradigm.variants:
                raise BuildError(f"{paradigm.path}: cannot vary {factor!r}; its variants are: "
                                 f"{', '.join(paradigm.variants) or 'none'}")
            if factor in fixed:
                raise BuildError(f"{factor} is both varied (--vary) and fixed (--level); choose one")
        # The cells of a matched set: every combination of the varied factors' levels, in
        # declaration order (the first level of each, the reference, first).
        self.vary_levels: list[tuple[str, ...]] = [
            tuple(combo) for combo in itertools.product(*(paradigm.variants[f].levels for f in request.vary))
        ] if request.vary else []
        if request.vary:
            fixed.update(zip(request.vary, self.vary_levels[0]))
        self.usage_index: dict[tuple[str, str], int] = {}
        # When varying, only combinations whose every cell is allowed (a level's `requires`)
        combos = [c for c in iter_level_combinations(paradigm, fixed)
                  if all(paradigm.allows({**c, **dict(zip(request.vary, cell))}) for cell in self.vary_levels)]
        if not combos:
            asked = ", ".join([*(f"{f}={lv}" for f, lv in request.levels), *(f"--vary {f}" for f in request.vary)])
            raise BuildError(f"{paradigm.path}: no combination of levels allows {asked} (see the levels' `requires`)")
        self.plans: list[Plan] = [build_plan(paradigm, combo, lexicon, self.usage_index) for combo in combos]
        self.vary_plans: dict[tuple, Plan] = {}
        if request.vary:
            for plan in self.plans:
                for level in self.vary_levels[1:]:
                    combo = {**plan.levels, **dict(zip(request.vary, level))}
                    self.vary_plans[(tuple(sorted(plan.levels.items())), level)] = build_plan(
                        paradigm, combo, lexicon, self.usage_index)
        self.renderer = ConditionRenderer(make_environment(lexicon), paradigm.conditions, str(paradigm.path),
                                          paradigm.let)

    @property
    def capacity(self) -> int:
        """Distinct items (matched sets, when varying) the lexicon can produce."""
        if not self.request.vary:
            return sum(p.capacity for p in self.plans)
        return sum(min([p.capacity] + [self.vary_plans[(tuple(sorted(p.levels.items())), lv)].capacity
                                       for lv in self.vary_levels[1:]]) for p in self.plans)

    def build(self, n: int, progress: Callable[[int], None] | None = None) -> list[Item]:
        if n > self.capacity:
            raise BuildError(f"{self.paradigm.name}: --n {n} is more than the lexicon can produce: "
                             f"the maximum is {self.capacity} distinct "
                             f"{'matched sets' if self.request.vary else 'items'}")
        sampler = Sampler(self.request.seed, len(self.usage_index))
        plan_use = [0] * len(self.plans)
        items: list[Item] = []
        self.sentence_owner: dict[str, str] = {}  # sentence text -> the item (matched set) that has it
        for index in range(n):
            several = len(self.plans) > 1  # one plan: no choice to weigh (the draw keeps the seed's stream)
            order = sorted(range(len(self.plans)),
                           key=lambda i: (self._pressure(self.plans[i], sampler) if several else 0,
                                          plan_use[i], sampler.rng.random()))
            for plan_index in order:
                found = self._matched_set(index, self.plans[plan_index], sampler)
                if found is None:
                    continue
                plan_use[plan_index] += 1
                items.extend(found)
                break
            else:
                raise BuildError(f"{self.paradigm.name}: found only {index} distinct items before the "
                                 f"least-used candidates ran out; ask for fewer (--n) or extend the lexicon")
            if progress:
                progress(1)
        return items

    MAX_REDRAWS = 64  # an item whose other levels cannot all be drawn is redrawn, this often at most

    def _matched_set(self, index: int, plan: Plan, sampler: Sampler) -> list[Item] | None:
        """An item of `plan` and, when varying, its counterpart at every other level; None
        when the plan yields none. An item without a counterpart at some level (a verb that
        takes one object noun, where a level needs a second) gives its sentences back and
        another item is drawn."""
        set_id = f"{self.paradigm.name}-{index:05d}"
        first = f"{set_id}-{'-'.join(self.vary_levels[0])}" if self.request.vary else set_id
        for _ in range(self.MAX_REDRAWS):
            rendered: list[Item] = []
            values = sampler.sample(plan, accept=lambda v: self._accept(first, set_id, plan, v, rendered))
            if values is None:
                return None
            found = self._items(index, plan, values, sampler, rendered[-1])
            if found is not None:
                return found
            for text in [t for t, owner in self.sentence_owner.items() if owner == set_id]:
                del self.sentence_owner[text]
        return None

    @staticmethod
    def _pressure(plan: Plan, sampler: Sampler) -> int:
        """How used the freshest lemma of each independent slot already is: the level whose
        slots still offer less-used lemmas goes first, so levels with few candidates (few
        verbs take the subjunctive) do not overuse them. Equal pressure: levels alternate."""
        lookup = sampler.usage.__getitem__
        return sum(min(map(lookup, keys)) for keys in plan.root_keys())

    def _accept(self, item_id: str, set_id: str, plan: Plan, values: dict[str, int], rendered: list[Item]) -> bool:
        """Render a candidate; refuse it when one of its sentences belongs to another item:
        no sentence repeats within a paradigm (the levels of one matched set may share)."""
        item = self.render(item_id, plan, values, set_id if self.request.vary else None)
        texts = [s.text for s in item.conditions.values()]
        if any(self.sentence_owner.get(t, set_id) != set_id for t in texts):
            return False
        for t in texts:
            self.sentence_owner[t] = set_id
        rendered.append(item)
        return True

    def _items(self, index: int, plan: Plan, values: dict[str, int], sampler: Sampler, first: Item) -> list[Item] | None:
        if not self.request.vary:
            return [first]
        item_id = f"{self.paradigm.name}-{index:05d}"
        out = [first]
        for level in self.vary_levels[1:]:
            other = self.vary_plans[(tuple(sorted(plan.levels.items())), level)]
            kept = {k: v for k, v in values.items() if k in other.by_name and other.by_name[k].entries is plan.by_name[k].entries}
            rendered: list[Item] = []
            cell = "-".join(level)
            matched = sampler.sample(other, fixed=kept,
                                     accept=lambda v, other=other, cell=cell: self._accept(
                                         f"{item_id}-{cell}", item_id, other, v, rendered))
            if matched is None:
                return None
            out.append(rendered[-1])
        return out

    def render(self, item_id: str, plan: Plan, values: dict[str, int], matched_set: str | None) -> Item:
        context: dict = {name: Filler(plan.entry(name, index)) for name, index in values.items()}
        context["variant"] = dict(plan.levels)
        context.update(self.paradigm.template_vars(plan.levels))
        sentences = self.renderer.render_all(context, self.paradigm.grammatical)
        layout = self.paradigm.layout
        residual = design_residual({c: s.word_strings for c, s in sentences.items()}, layout)
        return Item(
            item_id=item_id,
            paradigm=self.paradigm.name,
            dependency=self.paradigm.dependency,
            variant=dict(plan.levels),
            lexical={name: plan.entry(name, index).lemma for name, index in values.items()},
            additive=not residual,
            conditions=sentences,
            matched_set=matched_set,
            residual=tuple(residual),
            design=layout.name,
            language=self.paradigm.language,
        )


def file_digests(paths: list[Path], root: Path) -> dict[str, str]:
    out = {}
    for path in sorted(paths):
        out[f"{path.parent.name}/{path.name}" if path.parent != root else path.name] = \
            hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def command_line(request: BuildRequest) -> str:
    parts = ["gen", "build", "--phenomenon", request.phenomenon, "--n", str(request.n), "--seed", str(request.seed)]
    if request.dependency != PHENOMENA_ALL:
        parts += ["--dependency", request.dependency]
    if request.language != DEFAULT_LANGUAGE:
        parts += ["--language", request.language]
    for factor in request.vary:
        parts += ["--vary", factor]
    for factor, level in request.levels:
        parts += ["--level", f"{factor}={level}"]
    return " ".join(parts)


def _selected(request: BuildRequest, grammar_dir: Path) -> list[tuple[Paradigm, BuildRequest]]:
    """The paradigms a request builds, each with the request it is built under."""
    paradigms = select_paradigms(load_paradigms(grammar_dir, request.language), request.phenomenon, request.dependency)
    fixed = {f for f, _ in request.levels}
    if (fixed or request.vary) and len(paradigms) > 1:
        # Several paradigms: build those that have the fixed factors and at least one varied
        # factor, each varying the factors it has (--vary filler --vary gap: the relative
        # clauses, which have no filler factor, vary gap alone).
        def has(p: Paradigm, factor: str) -> bool:
            return factor in p.variants or factor == bands.FACTOR  # every paradigm has zipf bands

        supported = [p for p in paradigms if all(has(p, f) for f in fixed)
                     and (not request.vary or any(has(p, f) for f in request.vary))]
        if not supported:
            raise BuildError(f"no paradigm of {request.phenomenon!r} has the variant factor(s) "
                             f"{', '.join(sorted(fixed | set(request.vary)))}; see `gen list`")
        return [(p, dataclasses.replace(request, vary=tuple(f for f in request.vary if has(p, f))))
                for p in supported]
    return [(p, request) for p in paradigms]


@dataclass(frozen=True)
class PackedItems:
    """A paradigm's items as the JSONL text a worker process wrote: sending Item objects back
    from a worker costs more than building them."""

    text: str
    count: int

    def __len__(self) -> int:
        return self.count


@dataclass(frozen=True)
class _Built:
    items: list[Item] | PackedItems
    stats: dict
    capacity: int
    zipf_bands: dict


@dataclass(frozen=True)
class _Task:
    paradigm: Paradigm
    lexicon: Lexicon
    request: BuildRequest

    def builder(self) -> "ParadigmBuilder":
        return ParadigmBuilder(self.paradigm, self.lexicon, self.request)


def _built(builder: "ParadigmBuilder", items: list[Item] | PackedItems, source: list[Item]) -> _Built:
    return _Built(items, paradigm_stats(source, builder.lexicon, CONTENT_TABLES), builder.capacity, builder.zipf_bands)


_TASKS: list[_Task] = []  # what forked workers build, by index


def _build_one(index: int) -> _Built:
    task = _TASKS[index]
    builder = task.builder()
    items = builder.build(task.request.n)
    return _built(builder, PackedItems(dumps_items(items), len(items)), items)


def _build_all(tasks: list[_Task], jobs: int,
               progress: Callable[[str, int], Callable[[int], None]] | None) -> list[_Built]:
    """Build every paradigm, in worker processes when `jobs` > 1 (whose items come back as
    PackedItems). Each paradigm has its own seeded sampler, so the output is the same
    whichever process builds it, in any order."""
    advances = [progress(t.paradigm.name, t.request.n) if progress else None for t in tasks]
    if jobs <= 1 or len(tasks) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        builders = [t.builder() for t in tasks]  # every plan checked before any sampling
        out = []
        for builder, task, advance in zip(builders, tasks, advances):
            items = builder.build(task.request.n, advance)
            out.append(_built(builder, items, items))
        return out
    global _TASKS
    _TASKS = tasks
    try:
        with ProcessPoolExecutor(min(jobs, len(tasks)), mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {pool.submit(_build_one, i): i for i in range(len(tasks))}
            done: dict[int, _Built] = {}
            failed: dict[int, BaseException] = {}
            for future in as_completed(futures):
                i = futures[future]
                if future.cancelled():   # after another paradigm failed
                    continue
                if future.exception() is not None:
                    failed[i] = future.exception()
                    for other in futures:
                        other.cancel()
                    continue
                done[i] = future.result()
                if advances[i]:
                    advances[i](tasks[i].request.n)
        if failed:
            raise failed[min(failed)]   # the first paradigm's error, whatever finished first
        return [done[i] for i in range(len(tasks))]
    finally:
        _TASKS = []


def build_suites(requests: list[BuildRequest], lexicon_dir: Path, grammar_dir: Path,
                 progress: Callable[[str, int], Callable[[int], None]] | None = None,
                 jobs: int = 1) -> list[tuple[dict[str, list[Item]], dict]]:
    """One suite per request (one per language with --language all), the paradigms built
    `jobs` at a time; nothing is returned unless every paradigm could be built."""
    prepared = []
    for request in requests:
        lexicon = load_lexicon(lexicon_dir, request.language)
        prepared.append((request, lexicon, [_Task(p, lexicon, r) for p, r in _selected(request, grammar_dir)]))
    built = iter(_build_all([t for _, _, tasks in prepared for t in tasks], jobs, progress))
    out = []
    for request, lexicon, tasks in prepared:
        facts = {t.paradigm.name: next(built) for t in tasks}
        results = {name: b.items for name, b in facts.items()}
        out.append((results, _manifest(request, lexicon, lexicon_dir, grammar_dir, tasks, facts)))
    return out


def build_suite(request: BuildRequest, lexicon_dir: Path, grammar_dir: Path,
                progress: Callable[[str, int], Callable[[int], None]] | None = None,
                jobs: int = 1) -> tuple[dict[str, list[Item]], dict]:
    return build_suites([request], lexicon_dir, grammar_dir, progress, jobs)[0]


def _manifest(request: BuildRequest, lexicon: Lexicon, lexicon_dir: Path, grammar_dir: Path,
              tasks: list[_Task], facts: dict[str, _Built]) -> dict:
    return {
        "format_version": FORMAT_VERSION,
        "generator_version": __version__,
        "suite": suite_name(request),
        "language": request.language,
        "command": command_line(request),
        "seed": request.seed,
        "n_per_paradigm": request.n,
        # one factor as a string (as before several could be crossed), several as a list
        "vary": (request.vary[0] if len(request.vary) == 1 else list(request.vary)) if request.vary else None,
        "levels": dict(request.levels),
        "files": {
            **{f"lexicon/{k}": v for k, v in file_digests(list(lexicon.files.values()), lexicon_dir).items()},
            **{f"grammar/{k}": v for k, v in file_digests([t.paradigm.path for t in tasks], grammar_dir).items()},
        },
        "paradigms": {
            t.paradigm.name: {
                "title": t.paradigm.title,
                "language": t.paradigm.language,
                "phenomenon": t.paradigm.phenomenon,
                "dependency": t.paradigm.dependency,
                "design": t.paradigm.item_design,
                "label": t.paradigm.label,
                "strength": t.paradigm.strength,
                "capacity": facts[t.paradigm.name].capacity,
                **({"vary": list(t.request.vary)} if request.vary else {}),
                **({"zipf_bands": facts[t.paradigm.name].zipf_bands} if facts[t.paradigm.name].zipf_bands else {}),
                **facts[t.paradigm.name].stats,
            }
            for t in tasks
        },
    }


def write_suite(out_dir: Path, results: dict[str, list[Item]], manifest: dict) -> None:
    """Write into a temporary folder beside `out_dir`, then swap it in: a killed build leaves
    the previous suite or none, never a half-written one. Temporary folders carry the
    writer's pid, so the next build removes those of writers that are gone."""
    out_dir = Path(out_dir)
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(out_dir)
        tmp = Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f".{out_dir.name}.{os.getpid()}.", suffix=".tmp"))
    except OSError as exc:
        raise BuildError(f"--out {out_dir}: cannot write there ({exc.strerror or exc})") from None
    try:
        for name, items in results.items():
            text = items.text if isinstance(items, PackedItems) else dumps_items(items)
            (tmp / f"{name}.jsonl").write_text(text, encoding="utf-8")
        (tmp / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=False) + "\n",
                                           encoding="utf-8")
        pause("suite-write")
        if out_dir.exists():
            if not out_dir.is_dir():
                raise BuildError(f"--out {out_dir}: a file is in the way (expected a suite folder)")
            old = out_dir.with_name(f".{out_dir.name}.{os.getpid()}.old")
            os.replace(out_dir, old)
            pause("suite-swap")
            os.replace(tmp, out_dir)
            shutil.rmtree(old)
        else:
            os.replace(tmp, out_dir)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise BuildError(f"--out {out_dir}: cannot write the suite ({exc.strerror or exc})") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _remove_stale(out_dir: Path) -> None:
    pattern = re.compile(rf"\.{re.escape(out_dir.name)}\.(\d+)\.(?:.*\.tmp|old)$")
    for path in out_dir.parent.iterdir():
        m = pattern.match(path.name)
        if m and path.is_dir() and not pid_alive(int(m.group(1))):
            shutil.rmtree(path, ignore_errors=True)


__all__ = ["BuildError", "BuildRequest", "UnsatisfiableError", "build_suite", "write_suite", "suite_name"]
