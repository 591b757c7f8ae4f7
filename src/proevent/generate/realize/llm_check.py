"""The ``llm`` realiser's check: does a model's message still do what its skeleton line planned?

A realistic line says its values the way people do ("fri 8?" for a dinner at 20:00, "7ish",
"thursday afternoon" when only the day is set, "straight after the gym" when the time is the
gym's end, "rosa's" for "Rosa's", "the usual spot" where the timetable's earlier events with that
chat share the place, "wait no, 8 not 7", a lone 👍), and the check accepts all of that. What it
rejects is a line whose *meaning* changed. :func:`check_line` gives the first problem of one
line, with one of these reasons:

``refusal``
    an acceptance (an intent with accept, pick, condition_met or book_confirm in its name) that
    refuses ("can't make it", "count me out", 👎);
``hedge``
    an acceptance that hedges where a firm yes was planned ("maybe", "not sure", "let me check");
    a conditional acceptance (``accept_conditional``) may hedge, that is what it is;
``says_cancel``
    an implicit cancellation that says "cancel", "cancelled" or "call off";
``other_day`` / ``other_time``
    a line that carries values (a proposal, a change, a confirmation) naming another day or clock
    time than its own or than those already on the table (a change may name what it replaces);
    an acceptance may name only what it accepts. A part of the day counts against a clock time
    ("fri morning" for 20:00), and so does a duration within a day that gives another end. A value the line
    takes back ("8 not 7", "7 wait no, 8": read by :func:`proevent.timeexpr.read`) does not
    count. Lines without values (refusals, cancellations, delays, small talk) may give other times
    in their reasons;
``missing_day`` / ``missing_start`` / ``missing_end`` / ``missing_place`` / ``missing_person``
    a value the line must express is not there. What a line must express is what every template
    of its intent expresses (``templates.json`` → ``required``), so the model is held to what the
    template realiser always writes.

Lines whose intent the check does not know get only the value checks (and must express the
values their slots carry). Times and days are read the validator's way (:func:`proevent.timeexpr.read`,
every reading of a phrase a candidate), places and people with
the validator's forms (:mod:`proevent.generate.evidence`); place names are hidden before dates
are read ("the Sports Bar on 4th" is not the 4th).

The pipeline counts a chat whose last reply fails as ``llm:<reason>`` in ``generator.rejected``;
the replies asked for again as ``generator.realizer_retries``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Literal

from proevent.generate.contacts import templates
from proevent.generate.evidence import name_forms, norm_text, short_forms
from proevent.generate.skeleton import Line
from proevent.timeexpr import read

if TYPE_CHECKING:
    from proevent.generate.assemble import CasePlan, PlannedChat

HM = tuple[int, int]
Kind = Literal["acceptance", "conditional", "refusal", "cancellation", "implicit_cancellation", "other"]


@dataclass(frozen=True)
class Problem:
    reason: str
    """A short key (see the module docstring)."""
    message: str
    """What is wrong, in words the model is sent back."""


def intent_kind(intent: str) -> Kind:
    """What a skeleton intent commits its speaker to, read from its name (new intents fit by name)."""
    if any(k in intent for k in ("accept", "pick", "condition_met", "book_confirm")):
        return "conditional" if "conditional" in intent else "acceptance"
    if intent.startswith("cancel") or intent == "relay_cancel":
        return "implicit_cancellation" if "implicit" in intent else "cancellation"
    if any(k in intent for k in ("reject", "decline", "book_unavailable")):
        return "refusal"
    return "other"


@dataclass(frozen=True)
class Required:
    """The values a line must express (``None``: nothing to express)."""

    day: date | None = None
    start: HM | None = None
    end: HM | None = None
    end_day: date | None = None
    """The end's day when it differs from the start's (a trip over several days; not checked)."""
    place: str | None = None
    person: str | None = None
    person_forms: frozenset[str] = frozenset()
    """How ``person`` may be named: name words, nicknames (:func:`~proevent.generate.evidence.name_forms`)
    and the nickname the chat uses for them."""
    also: tuple[HM, ...] = ()
    """More clock times to express (the other options of "7 or 8?")."""

    def for_request(self) -> dict[str, str]:
        """The ``must_express`` object of the request sent to the model."""
        out: dict[str, str] = {}
        if self.day:
            out["day"] = f"{self.day.isoformat()} ({self.day.strftime('%A')})"
        if self.start:
            out["start"] = _fmt(self.start)
        if self.also:
            out["options"] = " or ".join(_fmt(hm) for hm in (self.start, *self.also) if hm)
        if self.end:
            out["end"] = f"{self.end_day.isoformat()} {_fmt(self.end)}" if self.end_day else _fmt(self.end)
        if self.place:
            out["place"] = self.place
        if self.person:
            out["person"] = self.person
        return out


@dataclass(frozen=True)
class TimetableEvent:
    """An event of the initial timetable, as the check needs it (to read "after the gym")."""

    words: frozenset[str]
    start: datetime | None
    end: datetime | None


@dataclass(frozen=True)
class LineContext:
    """What the plan around a line says: the values it must express, the days and times it may
    name (``None``: not checked), and what the chat and the timetable give for places and
    relative times. Built by :func:`line_contexts`; ``earlier`` is filled in by :func:`check_reply`."""

    required: Required = field(default_factory=Required)
    day_of_start: date | None = None
    """The start's day (to resolve "after the gym" against that day's gym), even when not required."""
    days: frozenset[date] | None = None
    times: frozenset[HM] | None = None
    spans: frozenset[tuple[HM, HM]] = frozenset()
    """(start, end) pairs the line may give a duration for."""
    places: tuple[str, ...] = ()
    """Place names hidden before reading dates, longest first."""
    usual_place: str | None = None
    """The place "the usual spot" names: the one location the timetable's earlier events with the
    chat's people share (or the line's own place when the skeleton marks it ``usual``)."""
    timetable_places: frozenset[str] = frozenset()
    timetable: tuple[TimetableEvent, ...] = ()
    earlier: str = ""
    """The chat's earlier messages of the same reply, normalised."""


def _fmt(hm: HM) -> str:
    return f"{hm[0]:02d}:{hm[1]:02d}"


# ----------------------------------------------------------------------------- intent cues

_REFUSAL = re.compile(
    r"\b(?:can'?t|cannot|can\s+not|couldn'?t)\b(?!\s+(?:wa\w*|complain|go\s+wrong|miss|beat|believe|stop|say\s+no|"
    r"argue|be\s+happier|be\s+better|agree))"
    r"|\b(?:won'?t|wont)\s+(?:make|be\s+able|come|work|manage|happen|join|be\s+there)\b"
    r"|\bnot\s+(?:be\s+able|make\s+it|going\s+to\s+make|gonna\s+make|possible|happening|for\s+me|this\s+time|"
    r"really|gonna(?!\s+lie))\b"
    r"|\bunable\b|\bno\s+can\s+do\b|\bcount\s+me\s+out\b|\bi'?m\s+out\b(?!\s+of)"
    r"|\b(?:i'?ll|i\s+will|gonna|have\s+to|got\s+to|gotta|must|need\s+to)\s+(?:pass|skip|bail|sit\s+(?:this|it)\s+out)\b"
    r"|\b(?:doesn'?t|does\s+not|won'?t)\s+work\b|\bdon'?t\s+think\s+(?:so|i\s+can)\b"
    r"|^\W*(?:no|nope|nah|sorry,?\s+no)\b(?!\s+(?:problem|prob|probs|worries|worry|doubt|question|rush|stress|way))"
    r"|👎|🙅",
    re.I,
)
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|probably|might)\b(?!\s+as\s+well)"
    r"|\bnot\s+(?:sure|certain)\b|\bunsure\b|\bidk\b|\bdunno\b|\bi\s+guess\b"
    r"|\b(?:we'?ll|i'?ll)\s+see\b(?!\s+(?:you|u|ya|y'all|everyone|all|them|him|her)\b)"
    r"|\b(?:i'?ll|will)\s+try\b(?!\s+(?:to\s+be|not))|\bif\s+i\s+can\b|\bdepends\b|\btentative(?:ly)?\b|\bpencil"
    r"|\b(?:let\s+me|lemme|need\s+to|have\s+to|gotta|got\s+to|i'?ll|will|gonna)\s+(?:double[-\s]?)?check\b"
    r"|\bget\s+back\s+to\s+you\b|\blet\s+you\s+know\b|\b(?:i'?ll|will)\s+confirm\b|\bshould\s+be\s+(?:ok|fine|able)\b"
    r"|🤔|🤷",
    re.I,
)
_SAME_TIME = re.compile(r"\bsame (?:time|hour|time as before)\b", re.I)
_CANCEL_WORD = re.compile(
    r"\bcancel\w*|\bcall(?:ing|ed|s)?\s+(?:it\s+|this\s+|that\s+|the\s+\w+\s+|things\s+)?off\b", re.I
)
_USUAL = re.compile(
    r"\b(?:the|our)\s+usual\b|\bour\s+(?:spot|place|table|room|haunt)\b"
    r"|\bsame\s+(?:place|spot)\s+as\s+(?:always|usual|ever)\b",
    re.I,
)
_POSSESSIVE = re.compile(r"['’]s\b")
_ANCHOR_STOP = frozenset({"the", "my", "our", "your", "his", "her", "their", "a", "an", "we", "i", "finish"})


# ----------------------------------------------------------------------------- the plan's values

_RE_VALUE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2})?$")


def _hm(value: str | None) -> HM | None:
    return (int(value[11:13]), int(value[14:16])) if value and len(value) == 16 and _RE_VALUE.match(value) else None


def _day(value: str) -> date:
    return date.fromisoformat(value[:10])


def _walk(value: object) -> Iterator[str]:
    if isinstance(value, str) and _RE_VALUE.match(value):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _walk(v)


def _slot_values(pc: PlannedChat, line: Line) -> list[str]:
    """Every date or time a line's slots carry (any slot: new skeleton intents fit), the referred event's too."""
    values = [v for key, slot in line.slots.items() if key != "ref" for v in _walk(slot)]
    if line.slots.get("ref") is not None:
        ref = pc.ctx.refs[int(line.slots["ref"])]  # type: ignore[arg-type]
        values += [v for v in (ref.state.start, ref.state.end) if v]
    return values


def _pairs(value: object) -> Iterator[tuple[str, str | None]]:
    """The (start, end) pairs in a slot: ``when``/``time``/``choice`` are one, ``options`` several."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[0], str):
        if _RE_VALUE.match(value[0]):
            yield value[0], value[1] if isinstance(value[1], str) and _RE_VALUE.match(value[1]) else None
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _pairs(v)


def _slot_spans(line: Line) -> set[tuple[HM, HM]]:
    out: set[tuple[HM, HM]] = set()
    for slot in line.slots.values():
        for s, e in _pairs(slot):
            if (hs := _hm(s)) and (he := _hm(e)):
                out.add((hs, he))
    return out


def _needed_slots(line: Line) -> list[str]:
    """The slots a line's text must express: those every template of its intent holds; for an
    intent the templates do not know, every value slot it carries (an acceptance: none)."""
    known = templates().required.get(line.intent)
    if known is not None:
        return list(known)
    if intent_kind(line.intent) in ("acceptance", "conditional"):
        return []
    return [k for k in ("when", "time", "day", "place", "person") if line.slots.get(k)]


def required(pc: PlannedChat, i: int) -> Required:
    """What line ``i`` of a chat must express (see :func:`_needed_slots`): ``when`` its day, start
    and end; ``time`` (a time for a day settled before) its start and end; ``day``; ``place``;
    ``person``; ``options`` the day and every option's time; ``choice`` and ``other`` the time (or
    day) they carry; ``ref`` nothing (the event carries the value)."""
    line = pc.lines[i]
    s = line.slots
    day = start = end = end_day = place = person = None
    also: list[HM] = []
    for slot in _needed_slots(line):
        value = s.get(slot)
        if value is None:
            continue
        if slot in ("when", "time", "choice", "other"):
            first, last = next(_pairs(value), (str(value), None)) if not isinstance(value, str) else (value, None)
            if not _RE_VALUE.match(first):
                continue
            if slot == "when" or _hm(first) is None:
                day = _day(first)
            start = _hm(first) or start
            if slot in ("when", "time") and last:  # a choice or a busy time is said by its start
                end = _hm(last)
                end_day = _day(last) if last[:10] != first[:10] else None
        elif slot == "day":
            day = _day(str(value))
        elif slot == "options":
            opts = list(_pairs(value))
            if opts:
                day = _day(opts[0][0])
                hms = [hm for o, _ in opts if (hm := _hm(o))]
                start, also = (hms[0], hms[1:]) if hms else (None, [])
        elif slot == "place":
            place = str(value)
        elif slot == "person":
            person = str(value)
    forms: frozenset[str] = frozenset()
    if person:
        nick = pc.ctx.nicknames.get(person)
        forms = name_forms(person) | frozenset(norm_text(person).split()[:1]) | (
            frozenset([norm_text(nick)]) if nick else frozenset())
    return Required(day, start, end, end_day, place, person, forms, tuple(also))


def line_contexts(plan: CasePlan, pc: PlannedChat) -> list[LineContext]:
    """One :class:`LineContext` per line of a planned chat."""
    members = {m for m in pc.chat.members if m != plan.user}
    places = {str(ln.slots["place"]) for ln in pc.lines if ln.slots.get("place")}
    places |= {r.state.location for r in pc.ctx.refs if r.state.location}
    places |= {ev.location for ev in plan.initial if ev.location}
    first = pc.times[0].strftime("%Y-%m-%dT%H:%M")
    shared = {ev.location for ev in plan.initial if ev.location and members & set(ev.participants)
              and ev.start and ev.start < first}
    timetable = tuple(
        TimetableEvent(frozenset(w for w in norm_text(ev.description).split() if w not in _ANCHOR_STOP),
                       datetime.fromisoformat(ev.start) if ev.start and len(ev.start) == 16 else None,
                       datetime.fromisoformat(ev.end) if ev.end and len(ev.end) == 16 else None)
        for ev in plan.initial)
    base = LineContext(places=tuple(sorted(places, key=len, reverse=True)),
                       usual_place=next(iter(shared)) if len(shared) == 1 else None,
                       timetable_places=frozenset(ev.location for ev in plan.initial if ev.location),
                       timetable=timetable)
    out: list[LineContext] = []
    earlier: list[str] = []
    earlier_spans: set[tuple[HM, HM]] = set()
    proposed: dict[str, tuple[list[str], set[tuple[HM, HM]]]] = {}  # event key -> the values last put forward
    for i, line in enumerate(pc.lines):
        own = _slot_values(pc, line)
        spans = _slot_spans(line)
        kind = intent_kind(line.intent)
        key = getattr(line, "event", "target")
        may: list[str] | None
        if kind in ("acceptance", "conditional"):
            last, last_spans = proposed.get(key, ([], set()))
            may = own or last or None  # what it accepts: its echo, else the proposal before it
            spans = spans or last_spans
        elif own:
            may = own + earlier  # a change may name what it replaces
            spans |= earlier_spans
        else:
            may = None
        need = required(pc, i)
        when = next((v for v in own if len(v) == 16), None)
        ctx = replace(base, required=need, day_of_start=need.day or (_day(when) if when else None),
                      days=frozenset(_day(v) for v in may) if may is not None else None,
                      times=frozenset(hm for v in may if (hm := _hm(v))) if may is not None else None,
                      spans=frozenset(spans))
        if line.slots.get("usual") and need.place:
            ctx = replace(ctx, usual_place=need.place)
        out.append(ctx)
        if own:
            earlier += own
            earlier_spans |= _slot_spans(line)
            if kind not in ("acceptance", "conditional"):
                proposed[key] = (own, _slot_spans(line))
    return out


# ----------------------------------------------------------------------------- reading a line


def _mask(text: str, places: Iterable[str]) -> str:
    for place in places:
        text = re.sub(re.escape(place), lambda m: "§" * len(m.group()), text, flags=re.I)
    return text


def _plus(hm: HM, minutes: int) -> HM:
    t = datetime(2000, 1, 1, *hm) + timedelta(minutes=minutes)
    return t.hour, t.minute


def _anchored(reading, ctx: LineContext, value: HM) -> bool:  # noqa: ANN001 - a proevent.timeexpr.Reading
    """``value`` said relative to a timetable event ("straight after the gym": the gym's end;
    "an hour before the match": its start minus an hour), on the line's day when it has one."""
    for rel in reading.relatives:
        words = set(norm_text(rel.anchor).split()) - _ANCHOR_STOP
        for ev in ctx.timetable:
            base = (ev.end or ev.start) if rel.relation == "after" else ev.start
            if not words & ev.words or base is None:
                continue
            day = ctx.day_of_start or ctx.required.day
            if day and base.date() != day:
                continue
            t = base + timedelta(minutes=rel.offset_minutes)
            if (t.hour, t.minute) == value:
                return True
    return False


def _place_named(text: str, place: str, ctx: LineContext) -> bool:
    """The place in full (any case), "the usual spot" for the usual place, or a short form of a
    place the chat has named before or the timetable holds ("rosa's" once "Rosa's Trattoria" was said)."""
    norm = norm_text(text)
    full = norm_text(place)
    if f" {full} " in f" {norm} ":
        return True
    if _USUAL.search(text) and ctx.usual_place == place:
        return True
    if place in ctx.timetable_places or f" {full} " in f" {ctx.earlier} ":
        return any(f" {s} " in f" {norm} " for s in short_forms(place))
    return False


def check_line(line: Line, text: str, at: datetime, ctx: LineContext) -> Problem | None:
    """The first problem of ``text`` written for skeleton ``line`` sent at ``at``; ``None`` when it
    keeps the line's intent and values (the reasons are listed in the module docstring)."""
    kind = intent_kind(line.intent)
    if kind in ("acceptance", "conditional") and (m := _REFUSAL.search(text)):
        return Problem("refusal", f"it must accept, but {m.group().strip()!r} refuses")
    if kind == "acceptance" and (m := _HEDGE.search(text)):
        return Problem("hedge", f"it must be a firm yes, but {m.group().strip()!r} hedges")
    if kind == "implicit_cancellation" and (m := _CANCEL_WORD.search(text)):
        return Problem("says_cancel", f"the cancellation is implicit: do not say {m.group()!r}, let the reason show it")
    masked = _mask(text, ctx.places)
    r = read(masked, at)
    # a clock time the line takes back ("8 wait no, 9") does not express a value; a day taken back
    # still reads as said, so that the day the line moves to is reported as the contradiction
    said_days = r.dates(retracted=True)
    said_times = r.times()
    said_minutes = {d.minutes for d in r.durations}
    need = ctx.required
    if line.slots.get("same_time") and _SAME_TIME.search(text):
        # a move of the day alone ("thu instead? same time"): the clock time and the end are the old ones
        need = replace(need, start=None, also=(), end=None)
    if need.day and need.day not in said_days:
        return Problem("missing_day", f"the day {need.day.isoformat()} ({need.day.strftime('%A')}) is not expressed")
    for hm in (need.start, *need.also):
        if hm and hm not in said_times and not _anchored(r, ctx, hm):
            return Problem("missing_start", f"the time {_fmt(hm)} is not expressed")
    if need.end and not need.end_day and need.end not in said_times and not _anchored(r, ctx, need.end) and not (
            need.start and any(_plus(need.start, d) == need.end for d in said_minutes)):
        return Problem("missing_end", f"the end time {_fmt(need.end)} is not expressed")
    if need.place and not _place_named(text, need.place, ctx):
        return Problem("missing_place", f"the place {need.place!r} is not named")
    words = set(norm_text(text).split()) | set(norm_text(_POSSESSIVE.sub("", text)).split())  # "ben's": ben
    if need.person and not need.person_forms & words:
        return Problem("missing_person", f"{need.person} is not named")
    if ctx.days is not None:
        # a phrase contradicts when none of its readings is a day of the line (a day inside a
        # range keeps its own readings too: "9 until 28th Oct")
        other = sorted(min(m.days) for m in r.days if not m.retracted and not m.days & ctx.days)
        if other:
            return Problem("other_day", f"it names {other[0].isoformat()} ({other[0].strftime('%A')}), "
                                        "which is not a day of this line")
    if ctx.times is not None:
        other_hm = [min(c.times) for c in r.clocks if not c.retracted and not c.times & ctx.times]
        if other_hm:
            return Problem("other_time", f"it names {_fmt(other_hm[0])}, which is not a time of this line")
        if ctx.times:
            for p in r.parts:
                if not p.retracted and not any(p.hours[0] <= h < p.hours[1] for h, _ in ctx.times):
                    return Problem("other_time", f"{p.part!r} is not when this line's time {_fmt(min(ctx.times))} is")
        lengths = [d.minutes for d in r.durations if d.minutes < 24 * 60]  # "for 3 days" gives no clock end
        if lengths and not any(_plus(s, m) == e for s, e in ctx.spans for m in lengths):
            return Problem("other_time", f"a duration of {lengths[0]} minutes gives an end this line does not have")
    return None


def check_reply(plan: CasePlan, pc: PlannedChat, texts: list[str]) -> list[tuple[int, Problem]]:
    """The problems of a realised chat, ``(line number from 1, problem)``; a wrong number of
    messages is one problem of line 0 (``line_count``)."""
    if len(texts) != len(pc.lines):
        return [(0, Problem("line_count", f"expected {len(pc.lines)} messages, got {len(texts)}"))]
    out: list[tuple[int, Problem]] = []
    earlier = ""
    for i, (line, at, text, ctx) in enumerate(zip(pc.lines, pc.times, texts, line_contexts(plan, pc))):
        problem = check_line(line, text, at, replace(ctx, earlier=earlier))
        if problem:
            out.append((i + 1, problem))
        earlier += " " + norm_text(text)
    return out


__all__ = ["LineContext", "Problem", "Required", "TimetableEvent", "check_line", "check_reply", "intent_kind",
           "line_contexts", "required"]
