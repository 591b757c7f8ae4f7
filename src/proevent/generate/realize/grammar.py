"""A tiny phrase grammar for the template realiser's data files.

A template is text with three kinds of markup, expanded in this order:

- ``<rule>``: replaced by one of the alternatives listed under ``rule`` in the rules table
  (looked up for the speaker's voice, then the register, then ``shared``); alternatives may
  themselves hold markup.
- ``[a|b|]``: one of the options, uniformly (an empty option makes the part optional; repeat an
  option to weight it). Groups nest: ``[so [sorry|sry]|apologies]``.
- ``{slot}``: a value (date, time, place...) filled in *after* expansion by the realiser, so the
  gold values are never touched by the grammar.

Templates are compositional (opener x core x closer, each with several options), which is what
makes two cases rarely share a sentence.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

_ALT = re.compile(r"\[([^\[\]]*)\]")
_RULE = re.compile(r"<(\w+)>")
_SLOT = re.compile(r"\{(\w+)\}")

Rules = Mapping[str, Sequence[str]]


class GrammarError(ValueError):
    """A template refers to an unknown rule or has unbalanced brackets."""


def _lookup(name: str, tables: Sequence[Rules]) -> Sequence[str]:
    for table in tables:
        if name in table:
            return table[name]
    raise GrammarError(f"unknown rule <{name}>")


def expand(text: str, tables: Sequence[Rules], rng: random.Random, *, max_depth: int = 12,
           clean: bool = True) -> str:
    """One random expansion of ``text`` (rules, then alternations, innermost first); slots are kept.

    ``clean=False`` skips :func:`tidy` (for callers that tidy the whole message at the end).
    """
    for _ in range(max_depth):
        if "<" not in text:
            break
        new = _RULE.sub(lambda m: rng.choice(_lookup(m.group(1), tables)), text)
        if new == text:
            break
        text = new
    else:
        raise GrammarError(f"rules nest deeper than {max_depth}: {text!r}")
    while "[" in text:
        m = _ALT.search(text)
        if m is None:
            raise GrammarError(f"unbalanced brackets: {text!r}")
        text = text[: m.start()] + rng.choice(m.group(1).split("|")) + text[m.end():]
    if "]" in text:
        raise GrammarError(f"unbalanced brackets: {text!r}")
    return tidy(text) if clean else text


_SPACE_PUNCT = re.compile(r"\s+([,.!?;:])(?=\s|$)")
_DOUBLE_COMMA = re.compile(r"[,:;]\s*([,.!?:;])")
_LEAD = re.compile(r"^[\s,;:]+")
_END_DOTS = re.compile(r"([?!])\.+")
_MARK_COMMA = re.compile(r"([?!]),")
_AMPM_DOT = re.compile(r"(?<=\b[ap]\.m\.)\.")
_DOT_MARK = re.compile(r"(?<!\.)\.([!?])")
_PUNCT = re.compile(r"[,.!?;:]")


def tidy(text: str) -> str:
    """Whitespace and punctuation left behind by empty options ("ok , thanks" -> "ok, thanks")."""
    text = " ".join(text.split())
    if not _PUNCT.search(text):
        return text
    text = _SPACE_PUNCT.sub(r"\1", text)
    text = _DOUBLE_COMMA.sub(r"\1", text)
    if "." in text:
        text = _DOT_MARK.sub(r"\1", text).replace(".,", ",")
        text = _END_DOTS.sub(r"\1", text)
        text = _AMPM_DOT.sub("", text)
    text = _MARK_COMMA.sub(r"\1", text)
    return _LEAD.sub("", text)


def top_level(text: str) -> str:
    """The parts of a template outside any ``[...]`` group (what every expansion contains)."""
    prev = None
    while prev != text:
        prev = text
        text = _ALT.sub(" ", text)
    return text


def guaranteed(text: str, token: str, tables: Sequence[Rules], _depth: int = 0) -> bool:
    """Whether every expansion of ``text`` contains ``token`` (a ``{slot}``).

    A group or a rule counts when each of its options guarantees the token.
    """
    if _depth > 12:
        return False
    text = _RULE.sub(
        lambda m: token if all(guaranteed(o, token, tables, _depth + 1) for o in _lookup(m.group(1), tables)) else " ",
        text,
    )
    prev = None
    while prev != text:
        prev = text
        text = _ALT.sub(lambda m: token if all(token in o for o in m.group(1).split("|")) else " ", text)
    return token in text


def check(text: str, tables: Sequence[Rules], where: str) -> None:
    """Raise :class:`GrammarError` (naming ``where``) when ``text`` cannot be expanded."""
    depth = 0
    for ch in text:
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth < 0:
            break
    if depth != 0:
        raise GrammarError(f"{where}: unbalanced brackets in {text!r}")
    for name in _RULE.findall(text):
        try:
            _lookup(name, tables)
        except GrammarError as exc:
            raise GrammarError(f"{where}: {exc}") from None


def slots(text: str) -> list[str]:
    """The value slots of a template, in order of first appearance."""
    return list(dict.fromkeys(_SLOT.findall(text)))


__all__ = ["GrammarError", "Rules", "check", "expand", "guaranteed", "slots", "tidy", "top_level"]
