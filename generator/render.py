"""Render the four condition templates of an item into sentences with regions and words.

Templates are Jinja2 (StrictUndefined). Their output is a sequence of region marks
`[name: content]`; the renderer joins the contents with single spaces (no space before
punctuation or after an elided `l'`), records each region's character span, capitalises
the sentence and splits it into orthographic words. An empty region (`[object:]`) marks a
gap."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import jinja2
from jinja2.sandbox import safe_range

from . import morphology as m
from .lexicon import Entry, Lexicon
from .suite import REGION_NAMES, Region, Sentence
from .words import word_spans

_MARK = re.compile(r"\[([a-z_]+):([^\[\]]*)\]")
_PUNCT = set(".,;:?!…")
_REGION_SET = frozenset(REGION_NAMES)


class TemplateError(ValueError):
    """A template that fails to render or produces malformed region marks."""


@dataclass(frozen=True)
class Filler:
    """A lexicon entry as the templates see it: attributes are its features."""

    entry: Entry

    @property
    def lemma(self) -> str:
        return self.entry.lemma

    @property
    def gender(self) -> str:
        g = self.entry.feature("gender")
        return "f" if g == "f" else "m"

    @property
    def number(self) -> str:
        return self.entry.feature("number") or "sg"

    @property
    def person(self) -> str:
        return self.entry.feature("person") or "3"

    @property
    def reflexive(self) -> bool:
        return self.entry.table == "verbs" and self.entry.lemma.endswith("rsi")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "entry":
            raise AttributeError(name)
        if name in self.entry.features:
            return self.entry.feature(name)
        if name in self.entry.forms:
            return self.entry.forms[name][0]
        raise AttributeError(f"{self.entry.table} entry {self.entry.lemma!r} has no feature {name!r}")

    def __str__(self) -> str:
        return self.entry.lemma


def _person(subject: Filler | str) -> tuple[str, str]:
    if isinstance(subject, Filler):
        return subject.person, subject.number
    text = str(subject)
    if len(text) != 3 or text[0] not in "123" or text[1:] not in ("sg", "pl"):
        raise TemplateError(f"a verb's subject is a slot or a person like '3sg', not {text!r}")
    return text[0], text[1:]


def _gender(subject: Filler | str) -> str:
    return subject.gender if isinstance(subject, Filler) else "m"


def _agreement(antecedent: Filler | str) -> tuple[str, str]:
    """Gender and number a resumptive clitic takes from its antecedent: a noun slot, or a
    code for a bare wh-word ('msg': cosa is masculine singular)."""
    if isinstance(antecedent, Filler):
        return antecedent.gender, antecedent.number
    text = str(antecedent)
    if len(text) != 3 or text[0] not in "mf" or text[1:] not in ("sg", "pl"):
        raise TemplateError(f"a resumptive clitic agrees with a slot or a code like 'msg' or 'fpl', not {text!r}")
    return text[0], text[1:]


def make_environment(lexicon: Lexicon) -> jinja2.Environment:
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
    env.globals["range"] = safe_range   # a template cannot ask for a billion-element range
    auxiliaries = {e.lemma: e for e in lexicon.table("verbs") if e.has("roles", "auxiliary")}

    def noun(x: Filler, number: str = "sg") -> str:
        return x.entry.form("plural") if number == "pl" else x.entry.lemma

    def article(x: Filler, number: str = "sg") -> str:
        return m.definite_article(noun(x, number), x.gender, number, x.entry.feature("article"))

    def det(x: Filler, number: str = "sg") -> str:
        return m.join(article(x, number), noun(x, number))

    def np(x: Filler) -> str:
        """Definite NP for a common noun; the bare form for a name or a pronoun."""
        return det(x) if x.entry.table == "nouns" else x.lemma

    def indef(x: Filler) -> str:
        return m.join(m.indefinite_article(x.lemma, x.gender), x.lemma)

    def prep(x: Filler, preposition: str) -> str:
        if x.entry.table != "nouns":
            return f"{preposition} {x.lemma}"
        return m.join(m.articulated(preposition, article(x)), noun(x))

    def which(x: Filler, number: str = "sg") -> str:
        return f"{'quale' if number == 'sg' else 'quali'} {noun(x, number)}"

    def finite(v: Filler, tense: str, subject: Filler | str, resume: Filler | str | None = None) -> str:
        person, number = _person(subject)
        form = v.entry.forms[tense][m.person_index(person, number)]
        if resume is not None:
            return _with_clitic(v, resume, lambda gender, number_: form)
        return f"{m.reflexive_clitic(person, number)} {form}" if v.reflexive else form

    def participle(v: Filler, subject: Filler | str) -> str:
        part = v.entry.form("part")
        if v.entry.feature("aux") == "essere" or v.reflexive:
            person, number = _person(subject)
            return m.agree_participle(part, _gender(subject), number)
        return part

    def perfect(v: Filler, aux_tense: str, subject: Filler | str, resume: Filler | str | None = None) -> str:
        """Compound tense: auxiliary (avere/essere, as the lexicon says) + participle. With
        `resume`, a resumptive object clitic agreeing with it precedes the auxiliary and the
        participle agrees with the clitic, as Italian wants under avere (l'ha riparata)."""
        aux = Filler(auxiliaries["essere" if v.reflexive else v.entry.feature("aux")])
        person, number = _person(subject)
        aux_form = aux.entry.forms[aux_tense][m.person_index(person, number)]
        if resume is not None:
            return _with_clitic(v, resume, lambda gender, number_:
                                f"{aux_form} {m.agree_participle(v.entry.form('part'), gender, number_)}")
        clitic = f"{m.reflexive_clitic(person, number)} " if v.reflexive else ""
        return f"{clitic}{aux_form} {participle(v, subject)}"

    def clause_verb(v: Filler, connective: Filler, subject: Filler | str, resume: Filler | str | None = None) -> str:
        """The form a connective's clause needs, from its `mood` (ind, subj) and `tense`
        (pres, impf: simple; perf, pluperf: the auxiliary in the present or the imperfect)."""
        mood, tense = connective.entry.feature("mood"), connective.entry.feature("tense")
        if tense in ("perf", "pluperf"):
            return perfect(v, f"{'pres' if tense == 'perf' else 'impf'}_{mood}", subject, resume)
        return finite(v, f"{tense}_{mood}", subject, resume)

    def _with_clitic(v: Filler, resume: Filler | str, verb_form) -> str:
        """The resumptive clitic (agreeing with `resume`) + the verb form built for that agreement."""
        if v.reflexive or v.entry.feature("aux") == "essere":
            raise TemplateError(f"a resumptive clitic needs a transitive verb with avere, not {v.lemma!r}")
        gender, number = _agreement(resume)
        form = verb_form(gender, number)
        return m.object_clitic(gender, number, form) + form  # the clitic carries its own separator

    env.filters.update(noun=noun, article=article, det=det, np=np, indef=indef, prep=prep,
                       which=which, verb=finite, participle=participle, perfect=perfect,
                       clause_verb=clause_verb)
    return env


def assemble(rendered: str, where: str) -> tuple[str, tuple[Region, ...]]:
    """Turn `[name: content] [name: content]…` into text and region spans."""
    leftover = _MARK.sub("", rendered).strip()
    if leftover:
        raise TemplateError(f"{where}: text {leftover!r} outside a region mark [name: …]")
    text = ""
    regions: list[Region] = []
    for name, raw in _MARK.findall(rendered):
        if name not in _REGION_SET:
            raise TemplateError(f"{where}: unknown region {name!r} (use one of {', '.join(REGION_NAMES)})")
        content = " ".join(raw.split())
        if content and text and content[0] not in _PUNCT and text[-1] != "'":
            text += " "
        start = len(text)
        text += content
        regions.append(Region(name, start, len(text)))
    if not text:
        raise TemplateError(f"{where}: the template produced an empty sentence")
    return text[0].upper() + text[1:], tuple(regions)


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

