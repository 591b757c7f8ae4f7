"""Linking what a message says to the timetable: the keys a message is matched by, "the usual spot" and
"same place as last time", "straight after X", and applying a move's values to an event."""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from functools import lru_cache

from proevent.agents.rules.cues import fold
from proevent.agents.rules.moves import CLEARED, LAST, Values
from proevent.agents.rules.reading import MEMO, Features, in_reason
from proevent.agents.rules.state import Slot, Work, at_time, clock_of, content_words, day_of, plus_minutes
from proevent.model import Chat, parse_time
from proevent.timeexpr import vocabulary

_RECENT = 3
"""A yes settles a proposal made or changed at most this many messages before it (in a direct chat)."""
_RECENT_GROUP = 6
"""The same in a group chat: a plan put to a group is answered by several members in turn."""
_RE_W = re.compile(r"\w+")
_RE_TOKEN = re.compile(r"[\w']+")


@lru_cache(maxsize=MEMO)
def link_keys(f: Features) -> tuple[frozenset[str], frozenset[date], frozenset[tuple[int, int]],
                                      tuple[tuple[int, int], ...], date, frozenset[date]]:
    """What :meth:`RulesAgent._link` matches events against, read once per message (both modes
    link every message): its content words, days, clock times and parts of the day outside a
    reason, its send day, and the days said as an event's own ("thursday's one", "tomorrow's call")."""
    days = frozenset(d.best for d in f.reading.days if not in_reason(f, d.start))
    times = frozenset(t for c in f.reading.clocks if not in_reason(f, c.start) for t in c.times)
    parts = [p.hours for p in f.reading.parts if not in_reason(f, p.start)] or _part_words(f)
    owned = frozenset(d.best for d in f.reading.days if f.folded.startswith(("'s", "s "), d.end) and d.best in days)
    return _said_words(f), days, times, tuple(parts), f.reading.ref.date(), owned


def _said_words(f: Features) -> frozenset[str]:
    """The content words of a message outside its reasons, when it says a time outside them too: in
    "i have the haircut at 6:30, 8?" the haircut is why, the 8 is for the plan under discussion."""
    reasons = [(a, b) for a, b, reason in f.clauses if reason]
    if not reasons or not any(not in_reason(f, c.start) for c in f.reading.clocks):
        return content_words(f.text)
    kept, pos = [], 0
    for a, b in reasons:
        kept.append(f.folded[pos:a])  # (the clauses' offsets are the folded text's)
        pos = b
    kept.append(f.folded[pos:])
    return content_words(" ".join(kept))


@lru_cache(maxsize=1)
def _part_pattern() -> tuple[re.Pattern[str], dict[str, tuple[int, int]], frozenset[str]]:
    """The pattern of the part-of-day words, their hours, and the first token of each (a word on the
    pattern's boundaries opens on a whole token of the text: a set test before the pattern)."""
    vocab = vocabulary()
    hours = {w: vocab.parts_of_day[name] for w, name in vocab.part_words.items()
             if name in vocab.parts_of_day and len(w) > 2}  # not "pm": "pm me"
    alts = "|".join(re.escape(w) for w in sorted(hours, key=len, reverse=True))
    opening = [_RE_TOKEN.match(w) for w in hours]
    if any(m is None for m in opening):
        raise ValueError("vocabulary.json: a part-of-day word that does not open with a letter")
    firsts = frozenset(m.group(0) for m in opening if m is not None)
    return re.compile(rf"(?<![\w'])(?:{alts})(?![\w'])"), hours, firsts


def _part_words(f: Features) -> list[tuple[int, int]]:
    """The hours of the parts of the day a message names without a day ("the afternoon one")."""
    pattern, hours, firsts = _part_pattern()
    if f.tokens.isdisjoint(firsts):
        return []
    return [hours[m.group(0)] for m in pattern.finditer(f.folded)]


def habit_place(kind: str, chat: Chat, user: str, work: Work, now: datetime) -> str | None:
    """ "the usual spot" (``USUAL``): the location most of the timetable's events with the chat's
    people share (the latest on a tie); "same place as last time" (``LAST``): the location of the
    latest earlier event with them. ``None`` when no event with them has a place."""
    others = set(chat.members) - {user}
    need = 1 if len(others) < 2 else 2
    slots = [s for s in work.slots.values() if not s.deleted and s.location and s.start
             and len(others & set(s.participants)) >= need]
    slots.sort(key=lambda s: s.start or "")
    if kind == LAST:
        past = [s for s in slots if (s.start or "") < now.strftime("%Y-%m-%dT%H:%M")] or slots
        return past[-1].location if past else None
    counts: dict[str, int] = {}
    for s in slots:
        counts[s.location or ""] = counts.get(s.location or "", 0) + 1
    best = max(counts.values(), default=0)
    latest = [s.location for s in slots if counts[s.location or ""] == best]
    return latest[-1] if latest else None


def after_slot(after: re.Match[str], f: Features, work: Work) -> Slot | None:
    """The event "straight after X" names by the word X of its description, on a day the message names
    (or any coming day): the latest-ending one on that day."""
    word = after.group(1)
    if not word:
        return None
    key = content_words(word)
    if not key:
        return None
    days = {d.best for d in f.reading.days}
    today = f.reading.ref.date()
    hits = [s for s in work.live() if s.end and len(s.end) == 16 and key & content_words(s.description)
            and ((day_of(s.start) in days) if days else (day_of(s.start) or today) >= today)]
    return min(hits, key=lambda s: s.start or "") if hits else None


def start_after(values: Values, f: Features, before_it: Slot | None) -> None:
    """ "till 12, could meet straight after": the message's own end time; else the named event's end."""
    ends = [c for c in f.reading.clocks if c.role == "end" and not c.retracted]
    if ends:
        values.clock = ends[-1].best
    elif before_it is not None and before_it.end:
        values.day = values.day or day_of(before_it.end)
        values.clock = clock_of(before_it.end)
    else:
        return
    values.date_only = False


def recent_window(chat: Chat) -> int:
    return _RECENT_GROUP if chat.type == "group" else _RECENT


def same_kind(values: Values, slot: Slot) -> bool:
    """Values that fit the event under discussion (no day, or its day): a change rather than a new plan."""
    return values.day is None or day_of(slot.start) == values.day


def differs(values: Values, slot: Slot) -> bool:
    probe = copy.copy(slot)
    probe.participants = list(slot.participants)
    apply_values(probe, values)
    return (probe.start, probe.end, probe.location) != (slot.start, slot.end, slot.location)


def apply_values(slot: Slot, v: Values) -> None:
    old_start, old_end = slot.start, slot.end
    day = v.day or day_of(old_start)
    if day is not None and (v.day is not None or v.clock is not None):
        if v.clock is not None:
            start = at_time(day, v.clock)
        elif (v.date_only and day != day_of(old_start)) or clock_of(old_start) is None:
            start = day.isoformat()  # (its own day said again, "thursday morning", keeps its time)
        else:
            start = at_time(day, clock_of(old_start))  # another day, the same time
        if start != old_start:
            slot.start = start
            if v.start_only and old_end and old_end > start:
                pass  # "start at 8 instead": the end stays
            elif old_end and len(old_start or "") == 16 and len(start) == 16 and v.end is None and not v.minutes:
                slot.end = plus_minutes(start, int((parse_time(old_end) - parse_time(old_start)).total_seconds() // 60))
            elif len(start) == 10 and v.end_day is not None:
                slot.end = v.end_day.isoformat()  # "push to the 24-26th"
            elif len(start) == 10 and old_end and len(old_end) == 10 and len(old_start or "") == 10:
                slot.end = (day_of(old_end) + (day - day_of(old_start))).isoformat()  # a stay moves whole
            elif len(start) == 10:
                slot.end = None
    if v.end is not None and slot.start and len(slot.start) == 16:
        slot.end = at_time(day_of(slot.start), v.end)
    elif v.minutes and slot.start and len(slot.start) == 16:
        slot.end = plus_minutes(slot.start, v.minutes)
    if v.place is not None and not (slot.location and v.place != CLEARED and _same_place(v.place, slot.location)):
        slot.location = None if v.place == CLEARED else v.place


def _same_place(said: str, held: str) -> bool:
    """ "einstein" for "Café Einstein": a short mention of the place the event already has."""
    a, b = set(_RE_W.findall(fold(said))) - {"the"}, set(_RE_W.findall(fold(held))) - {"the"}
    return bool(a) and (a <= b or b <= a)
