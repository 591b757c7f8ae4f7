"""Self-corrections: the corrected value wins, the value corrected away is retracted.

Two shapes, read on mentions of the same kind (clock times with clock times, days with days):

- a contrast, "8 not 7", "thursday not wednesday", "8 instead of 7", "not 7, 8": the value after
  "not" is retracted, the other one corrects it;
- a marker before a value, "wait no, 8", "sorry I meant thursday", "make that 8", "*8": the value
  corrects, and every earlier value of its kind in the message is retracted. A mild marker
  ("sorry", "actually", "wait", "oops") counts only when an earlier value of that kind stands in
  the same message or "I meant" follows it, so "sorry fri doesn't work" stays a refusal.

A correction with nothing to retract in its own message ("sorry I meant thursday" sent alone)
still has ``corrects`` set: it takes back a value of an earlier message, which the caller sees.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TypeVar

from proevent.timeexpr.mentions import ClockMention, DayMention, PartOfDay
from proevent.timeexpr.vocabulary import alternation, first_words, tokens, vocabulary

_V = vocabulary()
_MARKER_FIRST = first_words(_V.correction_markers)
_CONTRAST_FIRST = first_words(_V.contrast_words)
_MILD = frozenset({"sorry", "actually", "wait", "oops", "my bad"})
_RE_MARKER = re.compile(rf"\b(?:{alternation(_V.correction_markers)})\b|^\s*\*", re.I)
_RE_MARKER_GAP = re.compile(
    r"[\s,.:;!—–-]*((?:i\s+)?(?:meant|mean)\s+)?(?:(?:it'?s|its)\s+|make (?:it|that)\s+)?(?:at\s+|on\s+)?", re.I)
_RE_CONTRAST = re.compile(rf"\s*,?\s*(?:{alternation(_V.contrast_words)})\s+(?:at\s+|on\s+)?", re.I)
_RE_NOT_FIRST = re.compile(r"\bnot\s+(?:at\s+|on\s+)?$", re.I)
_RE_NOT_FIRST_GAP = re.compile(r"\s*(?:,|—|–|-|but)\s*", re.I)
_RE_REFUSAL_AFTER = re.compile(
    r"\s*(?:doesn'?t|does not|won'?t|can'?t|isn'?t|is not|is no good|no good|is out|is bad|not good|is off|sadly)\b",
    re.I)

M = TypeVar("M", ClockMention, DayMention, PartOfDay)


def correct(text: str, mentions: list[M]) -> list[M]:
    """``mentions`` (one kind, text order) with ``retracted`` and ``corrects`` set by the
    self-corrections of ``text``."""
    words = tokens(text)
    markers = bool(words & _MARKER_FIRST) or "*" in text
    if not mentions or not (markers or words & _CONTRAST_FIRST):
        return mentions
    retracted: set[int] = set()
    corrects: set[int] = set()
    ordered = sorted(range(len(mentions)), key=lambda i: mentions[i].start)
    for i in ordered:
        x = mentions[i]
        gap = _RE_CONTRAST.match(text, x.end)
        if gap:
            y = _starting_at(mentions, gap.end())
            if y is not None and y != i:
                retracted.add(y)
                corrects.add(i)
        if _RE_NOT_FIRST.search(text, max(0, x.start - 12), x.start):
            sep = _RE_NOT_FIRST_GAP.match(text, x.end)
            z = _starting_at(mentions, sep.end()) if sep else None
            if z is not None and z != i:  # "not 7, 8"
                retracted.add(i)
                corrects.add(z)
    for m in _RE_MARKER.finditer(text) if markers else ():
        gap = _RE_MARKER_GAP.match(text, m.end())
        j = _starting_at(mentions, gap.end() if gap else m.end())
        if j is None or _RE_REFUSAL_AFTER.match(text, mentions[j].end):
            continue
        earlier = [k for k in ordered if mentions[k].end <= m.start() and mentions[k].start < mentions[j].start]
        mild = m.group(0).strip().lower() in _MILD
        if mild and not earlier and not (gap and gap.group(1)):
            continue
        corrects.add(j)
        retracted.update(k for k in earlier if k not in corrects)
    out = []
    for i, mm in enumerate(mentions):
        marks = (i in retracted and i not in corrects, i in corrects)
        out.append(mm if (mm.retracted, mm.corrects) == marks else replace(mm, retracted=marks[0], corrects=marks[1]))
    return out  # a mention whose marks stay is kept as it is (it is frozen: equal to its copy)


def _starting_at(mentions: list[M], pos: int) -> int | None:
    """The mention that starts at ``pos`` (a range's start before its end)."""
    found = [i for i, mm in enumerate(mentions) if mm.start == pos]
    if not found:
        return None
    starts = [i for i in found if getattr(mentions[i], "role", "start") == "start"]
    return (starts or found)[0]
