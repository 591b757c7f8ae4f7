"""Lenient reading of the casual time forms a realistic chat line uses, for checks that must not
reject them: bare hours ("fri 8?", "9 works"), parts of the day ("thursday afternoon"), durations
("for two hours"), times relative to another event ("straight after the gym") and
self-corrections ("wait no, 8 not 7").

Everything here gives *candidates*, like :func:`proevent.timeexpr.time_spans`: a bare "8" is 08:00
or 20:00, and the caller decides with what it knows (the planned value) whether a line expresses a
value or contradicts it. The clock-time phrases themselves ("7pm", "19:00", "7ish", "at 7") are
read by :mod:`proevent.timeexpr`; this module only adds what that reading leaves out, so that a
number already read there is never read twice.

Used by the ``llm`` realiser's check (:mod:`proevent.generate.realize.llm_check`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from proevent.timeexpr import TimeSpan, time_spans

__all__ = [
    "PARTS_OF_DAY", "Anchor", "bare_hours", "clock_mentions", "durations", "final_statement_start", "negated",
    "part_of_day_spans", "relative_anchors",
]

# A bare number is not a clock time when a count, a measure or an address word follows or precedes it.
_COUNT_AFTER = (
    r"(?:min|mins|minute|minutes|sec|secs|second|seconds|hour|hours|hr|hrs|h|day|days|week|weeks|month|months|"
    r"year|years|yrs|people|ppl|persons|guys|of|more|less|k|km|kms|mi|miles|m|x|times|pcs|pieces|euros?|"
    r"dollars?|quid|bucks|pounds?|st|nd|rd|th|%|€|\$|£|am|pm|a\.m|p\.m|ish|o'?clock|-ish)"
)
_COUNT_BEFORE = (
    r"(?:for|in|table|room|no|nr|number|platform|gate|bus|line|route|floor|level|chapter|page|top|of|than|"
    r"over|under|those|these|all|plus|minus|x|\$|€|£|#)"
)
_RE_NUMBER = re.compile(r"(?<![\w:.,$€£#/-])(\d{1,2})(?![\w:/%€$£]|[.,]\d)")
_RE_COUNT_AFTER = re.compile(rf"^\s*-?\s*{_COUNT_AFTER}(?![a-z])", re.I)
_RE_COUNT_BEFORE = re.compile(rf"(?<![a-z]){_COUNT_BEFORE}\s*$", re.I)


def _both(h: int) -> frozenset[tuple[int, int]]:
    return frozenset({(h, 0), (h + 12, 0)}) if 1 <= h <= 11 else frozenset({(h % 24, 0)})


def _pick(h: int) -> tuple[int, int]:
    return (h + 12, 0) if 1 <= h <= 7 else (h % 24, 0)


def bare_hours(text: str, taken: list[tuple[int, int]] | None = None) -> list[TimeSpan]:
    """Hours written as a lone number, 1 to 12 ("fri 8?", "9 works", "ok 7 then"); ``taken``
    holds spans already read (a number inside them is skipped). Counts ("2 of us", "table for
    4", "in 5"), measures ("10 mins") and addresses are not hours."""
    taken = taken or []
    out: list[TimeSpan] = []
    for m in _RE_NUMBER.finditer(text):
        h = int(m.group(1))
        if not 1 <= h <= 12 or any(a <= m.start() < b for a, b in taken):
            continue
        if _RE_COUNT_AFTER.match(text[m.end():]) or _RE_COUNT_BEFORE.search(text[:m.start()]):
            continue
        out.append(TimeSpan(m.start(), m.end(), _both(h), _pick(h)))
    return out


def clock_mentions(text: str) -> list[TimeSpan]:
    """Every clock-time phrase: :func:`proevent.timeexpr.time_spans` plus :func:`bare_hours`, in text order."""
    spans = time_spans(text)
    return sorted(spans + bare_hours(text, [(s.start, s.end) for s in spans]), key=lambda s: s.start)


PARTS_OF_DAY: dict[str, tuple[int, int]] = {
    "morning": (5, 12), "afternoon": (12, 18), "evening": (17, 24), "night": (18, 24), "tonight": (17, 24),
    "lunchtime": (11, 15), "arvo": (12, 18),
}
"""Part-of-day words and the hours they cover, ``(first, end)`` with ``end`` exclusive."""

_DAYISH = (r"(?:today|tomorrow|tmrw|tmr|this|that|in the|early|late|mid|sat|sun|mon|tue|tues|wed|weds|thu|"
           r"thur|thurs|fri|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d{1,2}(?:st|nd|rd|th))")
_RE_PART = re.compile(rf"\b(?:{_DAYISH})\s+(morning|afternoon|evening|night|lunchtime|arvo)\b|\b(tonight)\b", re.I)


def part_of_day_spans(text: str) -> list[TimeSpan]:
    """Parts of the day that say when ("thursday afternoon", "tmrw morning", "tonight"); a
    greeting ("morning all") is not one. ``times`` holds every minute of the part."""
    out: list[TimeSpan] = []
    for m in _RE_PART.finditer(text):
        word = (m.group(1) or m.group(2)).lower()
        first, end = PARTS_OF_DAY[word]
        times = frozenset((h, mi) for h in range(first, end) for mi in range(60))
        out.append(TimeSpan(m.start(1) if m.group(1) else m.start(2), m.end(), times, (first, 0)))
    return out


_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                 "a couple of": 2, "a couple": 2, "couple of": 2, "couple": 2}
_RE_DURATION = re.compile(
    r"\bfor\s+(?:about\s+|around\s+|roughly\s+|like\s+|~\s*)?"
    r"(?:(an hour and a half|half an hour)|(\d+(?:\.5)?|a couple of|a couple|couple of|couple|an?|one|two|three|"
    r"four|five|six)\s*(hours?|hrs?|h|minutes?|mins?)(?![a-z]))",
    re.I,
)


def durations(text: str) -> list[tuple[int, int, int]]:
    """``(start, end, minutes)`` of each duration said with "for" ("for two hours", "for 90 mins",
    "for an hour and a half"); "for an hour or two" is no duration (no single end)."""
    out: list[tuple[int, int, int]] = []
    for m in _RE_DURATION.finditer(text):
        if re.match(r"\s+or\b", text[m.end():]):
            continue
        whole = (m.group(1) or m.group(2)).lower()
        if whole == "an hour and a half":
            minutes = 90
        elif whole == "half an hour":
            minutes = 30
        else:
            n = float(whole) if whole[0].isdigit() else _NUMBER_WORDS[whole]
            unit = m.group(3).lower()
            minutes = round(n * (60 if unit.startswith("h") else 1))
        if minutes > 0:
            out.append((m.start(), m.end(), minutes))
    return out


@dataclass(frozen=True)
class Anchor:
    """A time given relative to another event: ``relation`` is ``"after"`` or ``"before"``,
    ``words`` the (up to three) words after it that name the event ("gym" in "straight after the gym")."""

    start: int
    end: int
    relation: str
    words: tuple[str, ...]


_RE_ANCHOR = re.compile(
    r"\b(?:right\s+|straight\s+|just\s+|directly\s+|once\s+)?(after|before|when)\s+(?:the\s+|my\s+|our\s+|your\s+|"
    r"his\s+|her\s+|their\s+|we\s+finish\s+|i\s+finish\s+)?([a-z][a-z']*(?:\s+[a-z][a-z']*){0,2})",
    re.I,
)


def relative_anchors(text: str) -> list[Anchor]:
    """Times said relative to another event ("after the gym", "right after work", "before my
    shift"); the caller matches ``words`` against the events it knows."""
    return [Anchor(m.start(), m.end(), "before" if m.group(1).lower() == "before" else "after",
                   tuple(re.sub(r"'s$", "", w) for w in m.group(2).lower().split()))
            for m in _RE_ANCHOR.finditer(text)]


_RE_CORRECTION = re.compile(
    r"(?:\bwait,?\s+no\b|\bno,?\s+wait\b|\bi\s+mean\b|\bi\s+meant\b|\bscratch\s+that\b|\bcorrection\b|\bactually\b|"
    r"\boops\b|\bmake\s+(?:that|it)\b|\bor\s+rather\b|(?:^|\s)\*)",
    re.I,
)
_RE_NEGATED = re.compile(r"(?:\bnot|\binstead\s+of|\brather\s+than|\bno\s+longer|\bnot\s+at|\bnot\s+on)\s+$", re.I)


def final_statement_start(text: str) -> int:
    """Where the last self-correction ends ("7pm wait no, 8pm": the offset of " 8pm"), 0 when the
    line corrects nothing. What comes before it was taken back."""
    last = 0
    for m in _RE_CORRECTION.finditer(text):
        last = m.end()
    return last


def negated(text: str, start: int) -> bool:
    """True when the phrase at ``start`` is said to be *not* the value ("8 not 7", "instead of Friday")."""
    return bool(_RE_NEGATED.search(text[max(0, start - 16):start]))
