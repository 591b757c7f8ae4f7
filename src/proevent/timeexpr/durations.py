"""Durations and times relative to another event (part of :func:`proevent.timeexpr.read`).

A duration is a number of minutes, hours, days, nights or weeks in digits or words ("for 90 min",
"for two hours", "an hour and a half", "half an hour", "1h30", "a couple of hours", "an extra
hour", "for 3 days", "2 nights"; days and longer need digits or "for": "one day we should" is no
length) or a whole day ("all day"); one followed by "late", "early",
"ago" or "away" is lateness or distance, not how long something lasts, and is left out. A
relative time is "after"/"before" plus the words of another event ("straight after the gym", "an
hour before the match", "after my dentist", "after work"), with the offset in minutes: a duration
said just before it, signed (before: negative), or 0. "in 20 min" is relative to the send time
(anchor ``"now"``); "push it back an hour", "30 min earlier" move the event under discussion
(anchor ``"it"``).
"""

from __future__ import annotations

import re

from proevent.timeexpr.mentions import Duration, RelativeTime
from proevent.timeexpr.vocabulary import alternation, h_clocks, tokens, vocabulary

_V = vocabulary()
_DURATION_RUNS = frozenset({"quarter", "half"} | {run for u in _V.duration_units for run in re.findall("[a-z]+", u)})
"""Letter runs of which a text must hold one for :data:`_RE_DURATION` to match: "quarter of an hour"
and "half an hour" hold their first word as a whole run; every other form ends in a unit that is a
whole letter run of the text ("h", "min", "hours": a digit, a space or a hyphen before it, no letter
after it). A set test before the pattern."""
_RELATION_WORDS = frozenset(_V.relation_words)
_NUMBER_WORDS = alternation([*_V.number_words, *_V.article_numbers])
_UNITS = alternation(_V.duration_units)
_WORD_UNITS = alternation(u for u in _V.duration_units if len(u) >= 2)
_HALF = r"(?:\s+and\s+a\s+half)"
_MOD = rf"(?:(?:{alternation(_V.duration_modifiers)})\s+)?"  # "an extra hour", "2 more hours"
_RE_DURATION = re.compile(
    rf"(?<![£$€\d.:])\b(?:(?:a\s+)?(quarter)\s+of\s+an?\s+(?:hour|hr)|(half)\s+an?\s+(?:hour|hr)"
    rf"|(?:(\d{{1,3}}(?:\.\d)?)({_HALF})?\s*-?\s*(?:(?<=\s){_MOD})?({_UNITS})"
    rf"|({_NUMBER_WORDS})({_HALF})?[\s-]+{_MOD}({_WORD_UNITS}))"
    rf"(?![a-z])({_HALF})?(?:\s*(?:and\s+)?(\d{{1,2}})\s*(?:m|min|mins|minutes)?(?![a-z\d:]))?)"
    rf"(?:\s*(or so|ish|-ish))?",
    re.I)
_RE_APPROX_BEFORE = re.compile(rf"\b(?:{alternation(_V.approximate_before)})\s+$", re.I)
_RE_NOT_DURATION = re.compile(rf"\s*(?:{alternation(_V.not_duration_followers)})\b", re.I)
_RE_IN = re.compile(r"\bin\s+(?:(?:about|around|like|roughly)\s+)?$", re.I)
_RE_RELATION = re.compile(rf"\b({alternation(_V.relation_words)})\s+", re.I)
_RE_INTENSIFIER = re.compile(rf"\b(?:{alternation(_V.relation_intensifiers)})\s+$", re.I)
_RE_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_RE_SHIFT_BEFORE = re.compile(
    r"\b(?:push|pushed|move|moved|shift|shifted|bump|bumped|put|bring|brought|pull|pulled|make)\s+(?:it|that|things|us|"
    r"dinner|lunch|the \w+|everything)?\s*(back|later|forward|earlier|up)\s+(?:by\s+)?(?:about\s+|like\s+)?$", re.I)
_RE_SHIFT_AFTER = re.compile(r"\s+(later|earlier|after|before|sooner)\b", re.I)
_RE_FOR_BEFORE = re.compile(r"\bfor\s+(?:about\s+|around\s+|like\s+)?$", re.I)
_RE_WHOLE_DAY = re.compile(rf"\b(?:{alternation(_V.whole_day)})\b", re.I)
_RE_DAY_UNIT_BEFORE = re.compile(r"\b(?:day|days|week|weeks|night|morning|evening|weekend|month)\s+$", re.I)
_DAY_WORDS = frozenset([
    *_V.weekdays, *_V.weekday_abbreviations, *_V.months, *_V.month_abbreviations, *_V.relative_days,
    *_V.more_relative_days, *_V.part_words, *_V.day_part_words, *_V.weekend_words,
    "noon", "midday", "midnight", "next", "last",
])


def _amount(word: str) -> float:
    low = word.lower()
    if low in _V.number_words:
        return float(_V.number_words[low])
    if low in _V.article_numbers:
        return float(_V.article_numbers[low])
    return float(low)


def read_durations(text: str) -> tuple[list[Duration], list[RelativeTime]]:
    """The durations and relative times of ``text``, in text order (a duration that is the offset
    of a relative time, "an hour before the match", is not listed as a duration too)."""
    found: list[Duration] = []
    now: list[RelativeTime] = []
    words = tokens(text)
    maybe = not words.isdisjoint(_DURATION_RUNS)
    clocks: frozenset[int] | None = None  # where the "h" clocks begin, found once if a match needs them
    for m in _RE_DURATION.finditer(text) if maybe else ():
        before = text[max(0, m.start() - 40):m.start()]
        unit_word = (m.group(5) or m.group(8) or "").lower()
        shift = _RE_SHIFT_BEFORE.search(before)
        after = _RE_SHIFT_AFTER.match(text, m.end())
        if after and after.group(1).lower() in ("after", "before") and _anchor(text, after.end() + 1) is not None:
            after = None  # "15 min after Tom's party": an offset from that event, read below
        if not shift and not after and _RE_NOT_DURATION.match(text, m.end()):
            continue
        if unit_word == "h" and not m.group(10):
            if clocks is None:
                clocks = frozenset(a for a, _, _ in h_clocks(text))
            if m.start() in clocks:
                continue  # "15h?", "at 20h", "fechou, 10h": a clock (spans.py reads it), not 15 hours
        long_unit = _V.duration_units.get(unit_word, 0) >= 1440
        if long_unit and not (m.group(3) or _RE_FOR_BEFORE.search(before)):
            continue  # "one day we should", "a week ago": not a length of time
        if m.group(1):
            minutes = 15.0
        elif m.group(2):
            minutes = 30.0
        else:
            unit = _V.duration_units[unit_word]
            minutes = _amount(m.group(3) or m.group(6)) * unit
            if m.group(4) or m.group(7) or m.group(9):
                minutes += unit / 2
            if m.group(10):
                if unit != 60:
                    continue  # "5 min 30": seconds, not a plan
                minutes += int(m.group(10))
        if minutes <= 0 or minutes > 14 * 24 * 60 or minutes != int(minutes):
            continue
        vague = (m.group(6) or "").lower() in ("a couple", "a couple of", "couple", "couple of", "a few")
        approximate = bool(m.group(11) or _RE_APPROX_BEFORE.search(before) or vague)
        if shift or after:  # "push it back an hour", "30 min earlier": the event under discussion moves
            word = (shift or after).group(1).lower()
            sign = -1 if word in ("forward", "earlier", "up", "before", "sooner") else 1
            start = m.start() - len(before) + shift.start() if shift else m.start()
            end = after.end() if after else m.end()
            now.append(RelativeTime(start, end, "it", "before" if sign < 0 else "after", sign * int(minutes)))
            continue
        lead_in = _RE_IN.search(before)
        if lead_in and long_unit:
            continue  # "in 3 days", "in a week": a day (proevent.timeexpr.days), not a clock offset
        if lead_in:
            now.append(RelativeTime(m.start() - len(before) + lead_in.start(), m.end(), "now", "after", int(minutes)))
            continue
        found.append(Duration(m.start(), m.end(), int(minutes), approximate))
    for m in _RE_WHOLE_DAY.finditer(text) if "day" in words else ():  # "in meetings all day"
        if not any(d.start < m.end() and m.start() < d.end for d in found):
            found.append(Duration(m.start(), m.end(), 24 * 60))
    found.sort(key=lambda d: d.start)
    relatives = _relatives(text, found) if words & _RELATION_WORDS else []
    offsets = {(r.start, r.end) for r in relatives}
    durations = [d for d in found if not any(a <= d.start and d.end <= b for a, b in offsets)]
    return durations, sorted([*relatives, *now], key=lambda r: r.start)


def _relatives(text: str, durations: list[Duration]) -> list[RelativeTime]:
    out: list[RelativeTime] = []
    for m in _RE_RELATION.finditer(text):
        anchor = _anchor(text, m.end())
        if anchor is None or _RE_DAY_UNIT_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        relation = m.group(1).lower()
        sign = _V.relation_words[relation]
        start, offset = m.start(), 0
        lead = next((d for d in durations if d.end <= m.start() and not text[d.end:m.start()].strip()), None)
        if lead is not None:
            start, offset = lead.start, sign * lead.minutes
        else:
            intens = _RE_INTENSIFIER.search(text[max(0, m.start() - 16):m.start()])
            if intens:
                start = m.start() - (len(text[max(0, m.start() - 16):m.start()]) - intens.start())
        out.append(RelativeTime(start, anchor[1], anchor[0], relation, offset))
    return out


def _anchor(text: str, pos: int) -> tuple[str, int] | None:
    """The words naming an event after "after"/"before" ("the gym", "my dentist appointment",
    "work"), and where they end; ``None`` when a day, a time or a number follows instead."""
    words: list[re.Match[str]] = []
    for m in _RE_WORD.finditer(text, pos):
        if text[words[-1].end() if words else pos:m.start()].strip():
            break  # punctuation or a digit between: the anchor ended
        words.append(m)
        if len(words) == 4:
            break
    if not words:
        return None
    first = words[0].group(0).lower()
    if first in _V.bare_anchors:
        return words[0].group(0), words[0].end()  # "after work", "straight after that"
    has_det = first in _V.anchor_determiners or first.endswith(("'s", "’s"))
    body: list[re.Match[str]] = []
    for w in words[1:] if has_det else words:
        low = w.group(0).lower()
        if low in _V.anchor_stops or low in _DAY_WORDS:
            break
        body.append(w)
    if not body or any(w.group(0).lower() in _DAY_WORDS for w in body):
        return None
    if not has_det:
        return None
    end = body[-1].end()
    return text[pos:end], end
