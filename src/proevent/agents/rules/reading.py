"""Reading one chat message into a negotiation move (no model: cue phrases, dates, times, places).

A :class:`Move` says what a message does to the chat's plan: proposes a new event, proposes a
change (a counter-proposal, a detail left open, a link to a timetable event, a person added),
accepts, rejects or defers the open proposal, cancels the event, or announces someone dropping
out. The agent (:mod:`proevent.agents.rules.agent`) plays the moves in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from proevent.agents.rules.cues import Cues
from proevent.model import Event, Message, parse_time
from proevent.timeexpr import MONTHS, date_spans, find_dates, find_times, time_spans

_NOT_NAMES = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", *MONTHS,
              "can", "could", "would", "may", "mind", "i", "i'd", "i'll", "just", "oh", "ok", "hey", "hi",
              "the", "my", "our", "dr", "please", "guys", "heads", "sorry", "so", "btw", "also", "and", "let",
              "let's", "sure", "great", "cool", "thanks", "thank", "hello", "good", "yes", "no", "regarding"}


_RE_WITH = re.compile(r"\bwith ((?:Dr\.? |Prof\.? )?[A-Z][a-z'’-]+(?: [A-Z][\w'’-]+)?)")


@dataclass
class Move:
    """What one message does. ``changes`` maps attribute -> new value (``None`` clears it)."""

    kind: str
    """``propose``, ``modify``, ``accept``, ``reject``, ``defer``, ``cancel``, ``dropout``,
    ``remove`` (someone else leaves: effective at once) or ``none``."""
    sender: str
    changes: dict[str, Any] = field(default_factory=dict)
    agrees: bool = False
    """The message also agrees ("yes, and can we ...")."""


def _fmt(d: date, hm: tuple[int, int] | None) -> str:
    return d.isoformat() if hm is None else f"{d.isoformat()}T{hm[0]:02d}:{hm[1]:02d}"


@lru_cache(maxsize=65536)
def _masked(text: str, ref: datetime) -> str:
    """The text with its date and time phrases blanked (so that places and names read cleanly)."""
    chars = list(text)
    dates = {pos for pos, _ in find_dates(text, ref)}
    for span in [*(d for d in date_spans(text, ref) if d.start in dates), *time_spans(text)]:
        for i in range(span.start, span.end):
            chars[i] = "\0"
    masked = re.sub(r"\b(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)[a-z]*\.?,? (?=\0)", "\0", "".join(chars),
                    flags=re.I)  # "Monday the 13th": the weekday goes with the date
    masked = re.sub(r"\b(?:this coming|coming|this|next|on) (?=\0)", "\0", masked, flags=re.I)
    return re.sub(r"\0+", "\0", masked)


def clean_place(raw: str, cues: Cues) -> str | None:
    raw = re.split(r"\0| for (?!a change)| who's | - ", raw)[0]
    for tail in sorted(cues.place_trailers, key=len, reverse=True):
        if " " in tail and raw.lower().rstrip(" ?!.,").endswith(" " + tail):
            raw = raw.rstrip(" ?!.,")[: -len(tail) - 1]
    words = raw.strip(" \t'\"“”,;:-").split()
    while words and (words[-1].lower().strip(",.!") in cues.location_stops
                     or words[-1].lower().strip(",.!") in cues.place_trailers
                     or not any(ch.isalnum() for ch in words[-1])):
        words.pop()
    while words and words[0].lower().strip(",!") in cues.place_leaders:
        words.pop(0)
    text = " ".join(words).strip(" ,.")
    if not text or len(words) > 8 or words[0].lower().strip(",") in cues.place_openers:
        return None  # "I'll figure out the time", "that time": not places
    head = re.match(r"^(?:the |a |an |our |my )?((?:[\w-]+ ){0,2}?[\w-]+) at (.+)$", text)
    if head and any(w in cues.activities for w in head.group(1).lower().split()):
        text = head.group(2)  # "the airport run at SFO departures": the place after the activity
    low = text.lower()
    if low in cues.location_stops or low in _NOT_NAMES or low in ("it", "that", "this", "them", "something"):
        return None
    bare = re.sub(r"^(?:the|a|an|our|my|your|that|this) ", "", low)
    if len(bare.split()) <= 2 and any(bare == a for a in cues.activities):
        return None  # "the hike", "the tempo run": the activity, not a place
    return text


@lru_cache(maxsize=65536)
def find_place(text: str, ref: datetime, cues: Cues, *, allow_at: bool = True, echo: bool = False) -> str | None:
    """A place named in ``text``: the strong patterns of ``cues.json`` ("I was thinking X"), then
    (``allow_at``: a new plan with its day and time) "at/in <Name>", then the other patterns ("how
    about X instead?"). With ``echo``, only a place an acceptance repeats ("X it is")."""
    from proevent.agents.rules.places import place_after_preposition

    masked = _masked(text, ref)

    def first(patterns: list[re.Pattern[str]]) -> str | None:
        for rx in patterns:
            for m in rx.finditer(masked):
                place = clean_place(m.group("p"), cues)
                if place:
                    return place
        return None

    if echo:
        found = first(cues.echo_patterns)
        if found and (found.lower().startswith(("a ", "an ", "our ", "my ")) or any(
                re.search(rf"\b{re.escape(a)}\b", found.lower()) for a in cues.activities)):
            return None  # "a climbing session it is": the activity, not the place
        return found
    found = first(cues.strong_place_patterns)
    if found is None and allow_at:
        at = place_after_preposition(masked.replace("\0", ","), cues.location_stops)
        found = clean_place(at, cues) if at else None
    return found or first(cues.place_patterns)


def find_people(text: str, cues: Cues, exclude: set[str]) -> list[str]:
    """Full names ("Jane Doe", "my colleague Jane Doe" -> "Jane Doe") other than ``exclude``."""
    out: list[str] = []
    for rx in cues.person_patterns:
        for m in rx.finditer(text):
            words = m.group("p").split()
            while words and words[0].lower().strip("'’") in _NOT_NAMES:
                words.pop(0)
            if len(words) >= 2 and " ".join(words) not in exclude and " ".join(words) not in out:
                out.append(" ".join(words))
    return out


def when_of(text: str, ref: datetime, base_day: date | None) -> tuple[str | None, str | None] | None:
    """``(start, end)`` of a message naming a day and/or a clock time; ``None`` when it names neither.

    A time without a day falls on ``base_day`` (the plan's day); a day without a time gives a
    date-only start. An end is read only when the text gives one ("7-9pm", "until 9pm").
    """
    dates = find_dates(text, ref)
    times = find_times(text)
    if not dates and not times:
        return None
    day = dates[0][1] if dates else base_day
    if day is None:
        return None
    if not times:
        return _fmt(day, None), None
    pos, start, end = times[0]
    end_day = day
    later = [d for p, d in dates[1:] if p > pos]
    if later and end is not None:  # "Friday 10pm until Saturday 1am"
        end_day = later[0]
    elif end is not None and end < start:
        end_day = day + timedelta(days=1)
    return _fmt(day, start), (_fmt(end_day, end) if end is not None else None)


def find_ref(text: str, cues: Cues, timetable: list[Event], others: list[str], now: str, *,
             past: bool) -> Event | None:
    """The timetable event a message points at ("my dentist appointment tomorrow", "last time",
    "our hike in March"): by words of its description, then a named day or month, then (for
    "last time") the latest past event shared with the chat's other members."""
    low = text.lower()
    cands = [ev for ev in timetable if ev.start is not None and ((ev.start < now[:len(ev.start)]) == past)]
    if not cands:
        return None
    ref_time = parse_time(now)
    days = {d for span in date_spans(text, ref_time) for d in span.days}
    months = {i + 1 for i, m in enumerate(MONTHS) if re.search(rf"\b{m}\b", low)}

    def score(ev: Event) -> tuple[Any, ...]:
        desc = (ev.description or "").lower()
        words = [w for w in re.findall(r"[a-z]{3,}", desc) if w not in ("the", "and", "with")]
        hits = sum(1 for w in words if re.search(rf"\b{re.escape(w)}", low))
        day = ev.start[:10]
        on_day = day in {d.isoformat() for d in days} or int(day[5:7]) in months
        shared = len(set(ev.participants) & set(others))
        return (hits > 0 and True, on_day, hits, shared, ev.start if past else "~" + ev.start)

    best = max(cands, key=score)
    s = score(best)
    if not s[0] and not s[1] and not (past and s[3]):
        return None
    if not s[0] and not s[1]:  # "last time": the latest past event with these people
        shared = [ev for ev in cands if set(ev.participants) & set(others)]
        return max(shared, key=lambda ev: ev.start or "") if shared else None
    return best


def read_message(msg: Message, cues: Cues, *, user: str, members: list[str], timetable: list[Event],
                 plan_day: date | None, has_plan: bool, now: str) -> Move:
    """The move ``msg`` makes, given the chat's members and whether a plan (event) exists yet."""
    text, sender = msg.text, msg.sender
    ref = parse_time(msg.time)
    drop_time, drop_place = cues.has("drop_time", text), cues.has("drop_place", text)
    if cues.has("undecided", text):  # "the time is undecided", "the place can be tbd"
        drop_time = drop_time or re.search(r"\b(?:time|hour|timing|when)\b", text, re.I) is not None
        drop_place = drop_place or re.search(r"\b(?:place|venue|location|where|spot)\b", text, re.I) is not None
    others = [p for p in members if p != user]
    plain = cues.phrases["neutral"].sub(" ", text)  # "can't wait", "thanks for checking": no refusal, no delay
    agrees = cues.has("agreement", text) and not drop_time and not drop_place and not any(
        cues.has(k, plain) for k in ("reject", "defer", "hedge"))
    linked = cues.has("link_time", text) or cues.has("link_place", text) or cues.has("link_people", text)
    dated = bool(find_dates(text, ref) or find_times(text))
    if not linked and (cues.has("cancel", text) or (cues.has("cancel_implicit", text) and not dated)):
        return Move("cancel", sender)
    people_named = [p for p in members if p != sender and _mentions(text, p)]
    if cues.has("remove_person", text) and people_named and not cues.has("add_person", text):
        return Move("remove", sender, {"remove": people_named[0]})
    if not linked and cues.has("dropout", text):
        return Move("dropout", sender)
    if cues.has("abandon", text) and not dated:
        return Move("cancel", sender, {"abandon": True})
    changes: dict[str, Any] = {}
    if cues.has("link_time", text):
        ev = find_ref(text, cues, timetable, others, now, past=False)
        if ev is not None and ev.end is not None:
            changes.update(start=ev.end, end=None)
    if cues.has("link_place", text):
        ev = find_ref(text, cues, timetable, others, now, past=True)
        if ev is not None:
            changes["location"] = ev.location
    if cues.has("link_people", text):
        ev = find_ref(text, cues, timetable, others, now, past=True)
        if ev is not None:
            changes["add_people"] = list(ev.participants)
    if cues.has("add_person", text):
        added = find_people(text, cues, set(members))
        if added:
            changes["add_people"] = added[:1]
    own = text
    for kind in ("link_time", "link_place", "link_people"):  # the linked event's day is not ours
        m = cues.phrases[kind].search(own)
        if m:
            own = own[: m.start()]
    asking = "?" in text or cues.has("proposal", text)
    if "start" not in changes and not (cues.has("defer", text) and not find_times(text) and not asking):
        when = when_of(own, ref, plan_day)  # (not "I'll let you know later today")
        if when is not None:
            if drop_time:
                changes.update(start=when[0][:10], end=None)
            else:
                changes.update(start=when[0], end=when[1])
                if not find_dates(text, ref):
                    changes["keep_end"] = True  # "can we start at 8 instead": the end stays
        elif drop_time and plan_day is not None:
            changes.update(start=plan_day.isoformat(), end=None)
    if drop_place:
        changes["location"] = None
    elif "location" not in changes and not linked and (changes or cues.has("change", text) or cues.has("proposal", text)
                                        or not agrees or "?" in text):
        place = find_place(text, ref, cues, allow_at=not has_plan and "start" in changes)
        if place is not None:
            changes["location"] = place
    if agrees and not changes:
        echoed = find_place(text, ref, cues, echo=True)
        if echoed is not None:
            return Move("accept", sender, {"echo_location": echoed}, True)
    if changes:
        rest = cues.phrases["agreement"].sub(" ", text)  # "let's do it" agrees; "let's do Friday" asks
        asks = "?" in text or linked or drop_time or drop_place or any(
            cues.has(k, rest) for k in ("proposal", "change", "add_person"))
        if not has_plan:
            if cues.has("narration", text) and "?" not in text:
                return Move("none", sender)  # "Jo and I are doing yoga Friday": someone else's plan
            host = _RE_WITH.search(text)
            if host and host.group(1) not in members and host.group(1).split()[-1].lower() not in _NOT_NAMES:
                name = _known_person(host.group(1), timetable) or host.group(1)
                if " " in name and name not in members:
                    changes["with"] = name  # "the massage with Jonas Berg": who the user meets
            if "start" in changes and (asks or drop_time or drop_place):
                return Move("propose", sender, changes, agrees)
            if agrees:
                echoed = find_place(text, ref, cues, echo=True)
                return Move("accept", sender, {"echo_location": echoed} if echoed else {}, True)
            return Move("none", sender)
        if agrees and not asks:
            echo: dict[str, Any] = {}
            echoed = find_place(text, ref, cues, echo=True)
            if echoed:
                echo["echo_location"] = echoed
            if changes.get("start") and len(changes["start"]) == 16:
                echo["echo_start"], echo["echo_end"] = changes["start"], changes.get("end")
            return Move("accept", sender, echo, True)
        return Move("modify", sender, changes, agrees)
    if cues.has("reject", plain):
        return Move("reject", sender)
    if agrees:
        return Move("accept", sender, agrees=True)
    if cues.has("defer", plain):
        return Move("defer", sender)
    return Move("none", sender)


def _known_person(name: str, timetable: list[Event]) -> str | None:
    """The full name of a timetable participant that ``name`` shortens ("Dr. Okafor")."""
    words = name.replace(".", "").split()
    last = words[-1]
    title = words[0] if len(words) > 1 and words[0] in ("Dr", "Prof") else None
    people = {p for ev in timetable for p in ev.participants}
    found = [p for p in people if p.replace(".", "").split()[-1] == last
             and (title is None or p.startswith(title))]
    return found[0] if len(found) == 1 else None


def _mentions(text: str, person: str) -> bool:
    first = person.split()[0]
    return re.search(rf"\b{re.escape(person)}\b", text) is not None or re.search(
        rf"\b{re.escape(first)}\b", text) is not None
