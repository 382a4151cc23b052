"""Render the four condition templates of an item into sentences with regions and words.

Templates are Jinja2 (StrictUndefined). Their output is a sequence of region marks
`[name: content]`; the renderer joins the contents with single spaces (no space before
punctuation or after an elided `l'`), records each region's character span, capitalises
the sentence and splits it into orthographic words. An empty region (`[object:]`) marks a
gap."""

from __future__ import annotations

import re
from typing import Any

import jinja2
from jinja2.sandbox import safe_range

from .filler import Filler, TemplateError  # noqa: F401 - re-exported for the build and tests
from .languages import get_language
from .lexicon import Lexicon
from .suite import REGION_NAMES, Region, Sentence
from .words import word_spans

_MARK = re.compile(r"\[([a-z_]+):([^\[\]]*)\]")
_PUNCT = set(".,;:?!…")
_UNUSUAL_SPACE = re.compile(r"\s\s|[^\S ]")  # any white space but single plain spaces
_REGION_SET = frozenset(REGION_NAMES)


def make_environment(lexicon: Lexicon) -> jinja2.Environment:
    """A Jinja2 environment with the filters of the lexicon's language."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
    env.globals["range"] = safe_range   # a template cannot ask for a billion-element range
    env.filters.update(get_language(lexicon.language).filters(lexicon))
    return env


def assemble(rendered: str, where: str) -> tuple[str, tuple[Region, ...]]:
    """Turn `[name: content] [name: content]…` into text and region spans."""
    marks = _split_marks(rendered)
    if marks is None:  # something other than well-formed marks: the regular expression says what
        marks = _parse_marks(rendered, where)
    parts: list[str] = []
    regions: list[Region] = []
    length, last = 0, ""
    for name, raw in marks:
        content = raw.strip()
        if _UNUSUAL_SPACE.search(content):  # two spaces, a line break, a tab, a no-break space…
            content = " ".join(content.split())
        if content and length and content[0] not in _PUNCT and last != "'":
            parts.append(" ")
            length += 1
        start = length
        if content:
            parts.append(content)
            length += len(content)
            last = content[-1]
        regions.append(Region(name, start, length))
    if not length:
        raise TemplateError(f"{where}: the template produced an empty sentence")
    text = "".join(parts)
    return text[0].upper() + text[1:], tuple(regions)


def _split_marks(rendered: str) -> list[tuple[str, str]] | None:
    """The (name, content) of each mark by plain string splitting (the fast path), or None
    when the text is anything but known marks separated by white space."""
    chunks = rendered.split("[")
    if chunks[0].strip():
        return None
    out = []
    for chunk in chunks[1:]:
        head, closed, tail = chunk.partition("]")
        name, colon, raw = head.partition(":")
        if not closed or not colon or tail.strip() or name not in _REGION_SET:
            return None
        out.append((name, raw))
    return out


def _parse_marks(rendered: str, where: str) -> list[tuple[str, str]]:
    out = []
    previous_end = 0
    for mark in _MARK.finditer(rendered):
        _only_space_between(rendered, previous_end, mark.start(), where)
        previous_end = mark.end()
        if mark.group(1) not in _REGION_SET:
            raise TemplateError(f"{where}: unknown region {mark.group(1)!r} (use one of {', '.join(REGION_NAMES)})")
        out.append((mark.group(1), mark.group(2)))
    _only_space_between(rendered, previous_end, len(rendered), where)
    return out


def _only_space_between(rendered: str, start: int, end: int, where: str) -> None:
    leftover = rendered[start:end].strip()
    if leftover:
        raise TemplateError(f"{where}: text {leftover!r} outside a region mark [name: …]")


class ConditionRenderer:
    """The compiled templates of one paradigm: the `let` variables and the four conditions
    are rendered in one pass (one Jinja context per item), split at a separator."""

    _SEPARATOR = "\x1e"

    def __init__(self, env: jinja2.Environment, templates: dict[str, str], source: str,
                 let: dict[str, str] | None = None):
        self.source = source
        self.conditions = list(templates)
        for name, expression in (let or {}).items():
            try:
                env.compile_expression(expression)
            except jinja2.TemplateSyntaxError as exc:
                raise TemplateError(f"{source}: let.{name}: {_syntax_message(env, exc)}") from None
        for condition, text in templates.items():
            try:
                env.from_string(text)   # compiling (not only parsing) also checks filter names
            except jinja2.TemplateSyntaxError as exc:
                raise TemplateError(f"{source}: conditions.{condition}: line {exc.lineno}: "
                                    f"{_syntax_message(env, exc)}") from None
        lets = "".join(f"{{% set {name} = {expression} %}}" for name, expression in (let or {}).items())
        try:
            self.template = env.from_string(lets + self._SEPARATOR.join(templates[c] for c in self.conditions))
        except jinja2.TemplateSyntaxError as exc:   # a block opened in one template and closed in another
            raise TemplateError(f"{source}: let and conditions together: {_syntax_message(env, exc)}") from None
        self._env = env
        self._let_source = let or {}
        self.template_sources = dict(templates)

    def _locate(self, exc: Exception, context: dict[str, Any]) -> str:
        """Which let or condition failed, found by rendering them one by one (error path only)."""
        scope = dict(context)
        for name, expression in self._let_source.items():
            try:
                scope[name] = self._env.compile_expression(expression)(**scope)
            except Exception:  # noqa: BLE001 - re-raised below with a location
                return f"let.{name}"
        return "conditions." + next(
            (c for c in self.conditions if not _renders(self._env, self.template_sources[c], scope)),
            self.conditions[0])

    def render_all(self, context: dict[str, Any], grammatical: dict[str, bool]) -> dict[str, Sentence]:
        try:
            rendered = self.template.render(context).split(self._SEPARATOR)
        except (jinja2.TemplateError, AttributeError, KeyError, IndexError, ValueError, TypeError,
                ArithmeticError, RecursionError, OverflowError) as exc:
            own = isinstance(exc, jinja2.TemplateError) and exc.message
            message = exc.message if own else f"{type(exc).__name__}: {exc}"
            raise TemplateError(f"{self.source}: {self._locate(exc, context)}: {message}") from None
        out = {}
        for condition, text in zip(self.conditions, rendered):
            where = f"{self.source}: conditions.{condition}"
            sentence_text, regions = assemble(text, where)
            out[condition] = Sentence(sentence_text, grammatical[condition], regions,
                                      tuple(word_spans(sentence_text)))
        return out


def _syntax_message(env: jinja2.Environment, exc: jinja2.TemplateSyntaxError) -> str:
    """Jinja2's message, with the known filters listed when a filter name is unknown."""
    message = exc.message or "syntax error"
    if "No filter named" in message:
        own = sorted(set(env.filters) - set(jinja2.filters.FILTERS))
        message += f" (the grammar's filters: {', '.join(own)}; Jinja2's built-in filters work too)"
    return message


def _renders(env: jinja2.Environment, text: str, scope: dict[str, Any]) -> bool:
    try:
        env.from_string(text).render(scope)
        return True
    except Exception:  # noqa: BLE001 - only used to locate an error
        return False

