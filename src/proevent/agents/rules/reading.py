"""Reading one chat message into a typed move (:mod:`proevent.agents.rules.moves`), by an ordered
rule table.

A message is read once into :class:`Features` (its dates and times by :func:`proevent.timeexpr.read`,
its words by the lists of ``cues.json``, its clauses); then the rules of :data:`RULES` are tried in
order and the first that applies gives the move. The rules see a small :class:`Context` (who the
user is, whether the chat is with a booking service, whether an event is being discussed and at
what time), never the gold.

Times: the event's time is told apart from the other times of a message by its clause ("can we go
later? got a call till 8": the 8 is a reason, not the event's time), and a bare hour takes the
half of the day of the event being discussed ("8:30?" for a 19:30 dinner: 20:30), else the usual
hours of its activity.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple

from proevent.agents.rules.cues import Cues, fold, tokens_of
from proevent.agents.rules.moves import (
    CLEARED,
    LAST,
    USUAL,
    Acceptance,
    Booked,
    BookingFailed,
    CancelAsked,
    Cancellation,
    Clock,
    Dropout,
    Hedge,
    Join,
    Move,
    Nothing,
    Proposal,
    Rejection,
    Request,
    Values,
)
from proevent.agents.rules.places import (
    address_place,
    call_place,
    find_place,
    mask,
    offered_venue,
    phrase_at,
    room_part,
    short_answer_place,
)
from proevent.timeexpr import DayMention, Reading, read, vocabulary

_RE_CLAUSE = re.compile(r"[,.;!?\n]+|\s(?:but|so|because|cause|cos|coz|since|and then|though|tho)\s|\s[-–—]\s", re.I)
_RE_SOFT_CANCEL = re.compile(r"(?<![\w'])(?:next time|another time|some other time|rain ?check)(?![\w'])")
_RE_NO_FOR_ME = re.compile(r"(?<![\w'])no\s+[\w' ]{2,30}\s+for\s+(?:me|us)(?![\w'])")
_RE_SIT_OUT = re.compile(r"(?<![\w'])sit(?:ting)?\s+(?:[\w']+\s+){0,2}out(?![\w'])")
"""'sitting sunday out', 'i'll sit this one out': a drop-out."""
_RE_CANT_ATTEND = re.compile(
    r"(?<![\w'])(?:can't|cant|cannot|can not|won't|wont|couldn't|not able to|unable to)\s+"
    r"(?:\w+\s+){0,2}?(?:make|come|go|do|join|attend|be there|get there)(?![\w'])")
_RE_CLEAR_PLACE = re.compile(r"(?<![\w'])(?:place|venue|location|where)\s+"
                             r"(?:tbc|tbd|tba|to be confirmed|undecided)"
                             r"|(?:look|find|search)\w*\s+(?:for\s+)?(?:another|a new|a different)\s+"
                             r"(?:place|spot|venue)")
_CLEAR_PLACE_WORDS = ("tbc", "tbd", "tba", "to be confirmed", "undecided", "another", "a new", "a different")
"""Each form of :data:`_RE_CLEAR_PLACE` holds one of these (a substring test before the pattern)."""
_RE_DONE = re.compile(r"(?<![\w'])(?:booked|i've booked|ive booked|i booked|got us|reserved|made an appointment)")
_RE_SAME = re.compile(r"(?<![\w'])same\s+(?:time|place|spot)(?![\w'])")
_RE_OPTIONS = re.compile(r"\0\s+or\s+\0|\0\s+or\s+\d")
_RE_PLACE_MARK = re.compile(r"(?<![\w'])(?:instead|it is|then|how about|what about|or|let's do|lets do|let's try)"
                            r"(?![\w'])|^(?:maybe|try)\s")
_RE_MISS = re.compile(r"(?<![\w'])(?:give|giving)\s+(?:\w+\s+){0,2}a\s+miss(?![\w'])")
_RE_DIGIT = re.compile(r"\d")
_RE_TOKEN = re.compile(r"[\w']+")
RE_CANT = re.compile(r"(?<![\w'])(?:can't|cant|cannot|can not)(?![\w'])")
_RE_OUT_FOR = re.compile(r"(?:^|[,.;!?]\s*|(?<![\w'])(?:i'm|im|i am|she's|shes|he's|they're|theyre)\s+)out\s+"
                         r"(?:for|this|on|tonight|tomorrow|tmrw)"
                         r"(?![\w'])")
"""A clause that opens with "out for sat" / "out for a few weeks", or "I'm out this week": a drop-out."""
_RE_MY_THING = re.compile(r"(?<![\w'])my\s+[\w']+(?:\s+[\w']+)?")
"""'changed my flight', 'my 5pm meeting': the speaker's own commitment, not the activity planned."""
_RE_I_CANT = re.compile(r"(?<![\w'])(?:i|i'm|im)\s+(?:actually\s+|really\s+|just\s+|now\s+)?(?:can't|cant|cannot)"
                        r"(?:\s+(?:anymore|any more|after all|on\s+\w+day|\w+day))?\s*(?:[,.!;]|$)")
"""'sunday afternoon i actually can't, got a shift', "i can't on wednesday, choir": a drop-out said with
nothing after the "can't" but a day."""
_RE_NEXT_TIME = re.compile(r"(?<![\w'])(?:i'm|im|i am|i have|i've got|ive got)\s.*(?<![\w'])next\s+time\W*$|"
                           r"(?<![\w'])(?:want|take|have)\s+my\s+(?:ticket|spot|place|seat)(?![\w'])")
"""Where the sender says what they are doing instead and ends on "next time!" ("friday i'm in toledo
with my parents 😢 next time!"; not the "shame! next time" said to one who dropped out), or gives their
ticket away ("anyone want my ticket"): the sender will not be there."""
_RE_I_NEXT = re.compile(r"[,!]?\s+(?:i|i'm|im|i've|ive|i'll)(?![\w'])")
"""A name that opens a message and is followed by "I": the one spoken to ("nell i'm so sorry"), not
the one who drops out."""
_RE_AFTER_MY = re.compile(r"(?<![\w'])(after|with)\s+my(?![\w'])")
"""'right after my dentist', 'dinner with my parents': the 'my' names the event the plan follows or
who comes, not a reason."""
_RE_AFTER_WORK = re.compile(
    r"(?<![\w'])(?:after|before)\s+(?:work|class|school|uni|college|training|practice)(?![\w'])")
"""'drink after work today?': a time of day, not a reason."""
_RE_USUAL = re.compile(r"(?<![\w'])(?:the\s+|our\s+)?usual\s+(?:spot|place|room|venue|table|court|pitch|cafe|café|"
                       r"pub|bar|haunt)(?![\w'])")
_RE_LAST = re.compile(r"(?<![\w'])same\s+(?:place|spot|venue|room)\s+as\s+(?:last time|before|last week|usual)"
                      r"(?![\w'])")
_RE_HELD_FOR = re.compile(r"(?<![\w'])(?:(?:held|reserved|kept|hold(?:ing)?(?:\s+(?:it|them|the\s+\w+))?|valid)\s+for"
                          r"|within)\s+$", re.I)
"""How long a booking is held for you ("the table will be held for 15 minutes"), or a window to come in ("enter within
30 minutes of your slot"): not the event's length."""
_RE_START_ONLY = re.compile(r"(?<![\w'])(?:start|begin|kick off)\w*\s+(?:at\s+)?\0", re.I)
_RE_BEEN_CANCELLED = re.compile(
    r"(?:has|have) been cancel|(?<![\w'])(?:that's|thats|that is|it's|its|(?:is|are) now)\s+(?:now\s+)?cancell?ed"
    r"|(?<![\w'])(?:i've|ive|we've|weve|i have|we have)\s+cancell?ed|(?<![\w'])your\s+(?:[\w']+\s+){0,6}?(?:is|are)\s+"
    r"cancell?ed")
"""A service that says the cancellation is done ("that's cancelled", "I've cancelled Wednesday for you", "your
appointment on Wednesday is cancelled"); not news of its own event ("the Thursday performance is cancelled. We can
move your seats..."), which comes with an offer."""
_RE_MY_CANCELLED = re.compile(r"(?<![\w'])my\s+\w+(?:\s+\w+)?\s+(?:got|was|is)\s+(?:cancel|called off)"
                              r"|(?<![\w'])cancel(?:l?ed)?\s+my\s+(?:\w+\s+)?(?:flight|train|bus|ferry|coach|connection)")
"""'my train got cancelled', 'the airline cancelled my saturday flight': the speaker's journey, not the event."""
_RE_AT_PLACE_OF = re.compile(r"(?<![\w'])(?:at|to|come to)\s+(mine|my place|ours|our place)(?![\w'])", re.I)


MEMO = 512
"""Messages (or message readings) a cache of the agent keeps. Both modes of a case are asked close
together (the runner queues a case's steps, then its multi-step run, and the agent answers without
awaiting), so a window of a few hundred messages finds a message's second reading: at 512 a run of
400 cases reads each message into features once at concurrency 16, 64 and 256 alike. A larger window
only keeps objects alive longer: at 4,096 the garbage collector took 0.9–1.0 s of a run of the default
dataset, at 512 0.55–0.6 s (at 65,536 entries the caches held ~0.6 M objects at 1,279 cases). A
window that is too small costs time, never a different reading: the caches only memoize."""


@dataclass(frozen=True, eq=False, slots=True)  # hashed by identity: one object per cached message
class Features:
    """What a message holds, read once (cached on the text and send time)."""

    text: str
    folded: str
    masked: str
    reading: Reading
    hits: frozenset[str]
    question: bool
    clauses: tuple[tuple[int, int, bool], ...]
    """(start, end, is_reason): a clause that gives a reason or a decline holds other times."""
    tokens: frozenset[str]
    """The tokens of ``folded`` (:func:`~proevent.agents.rules.cues.tokens_of`): set tests before patterns."""


class Context(NamedTuple):  # a tuple: built at every message of both modes, and a cache key
    user: str
    sender: str
    members: tuple[str, ...]
    service: bool = False
    """The chat is with a booking service (a receptionist, an assistant, a booking system)."""
    anchor: Clock | None = None
    """The clock time of the event under discussion: a bare hour takes its half of the day."""
    usual: tuple[int, int] | None = None
    discussing: bool = False
    """An event is under discussion in the chat (an open proposal, or one of its events)."""
    open_by: str | None = None
    """Who made the open proposal, if one is open."""
    current_day: date | None = None
    """The day of the event under discussion (a message naming it and another day proposes the other)."""
    place_asked: bool = False
    """The chat asked where ("where are we going", "which place"): a bare name answers it."""


_RE_IM_IN_PLACE = re.compile(r"(?<![\w'])(?:i'm|im|i am)\s+in\s+(?=[a-z])")
"""'im in KL 21st-23rd' beside a no ("next tue cannot"): where the speaker is, a reason, not a yes."""
_RE_MEETING_PLACE = re.compile(r"(?<![\w'])meeting\s+(?=room|rooms|point|place|spot)")
_RE_STARTS = re.compile(r"(?<![\w'])(?:starts|begins|will start|will begin)\s+(?:at|from)\s")
_RE_ASKS = re.compile(r"(?<![\w'])(?:asks|asked|asking|wonders|wondering|wants to know|wanted to know)\s+$")


def _inside(inner: list[re.Match[str]], outer: list[re.Match[str]]) -> bool:
    """Every match of ``inner`` lies within one of ``outer``."""
    return all(any(o.start() <= m.start() and m.end() <= o.end() for o in outer) for m in inner)


@lru_cache(maxsize=MEMO)
def features(text: str, ref: datetime, cues: Cues) -> Features:
    folded = fold(text)
    words = tokens_of(folded)
    hits = cues.kinds_in(folded, words)
    if "hedge" in hits and all(m.group(0) == "if" and _RE_ASKS.search(folded, 0, m.start())
                               for m in cues.find("hedge", folded)):
        hits = hits - {"hedge"}  # "pappa asks if you can come at 1 instead": a relayed question, no hedge
    if "decline" in hits and "agree" in hits and _inside(cues.find("decline", folded), cues.find("agree", folded)):
        hits = hits - {"decline"}  # "no worries", "no problem": the "no" of a yes
    # a clause holds a phrase only if the whole message does: only those kinds are tried, and a
    # clause can be a reason only when the message holds a reason or a decline
    gives = [k for k in ("reason", "decline") if k in hits]
    unless = [k for k in ("change", "ask", "agree") if k in hits] if gives else []
    rewrites = bool(gives) and ("after" in folded or "with" in folded or "before" in folded)  # (their words)
    clauses: list[tuple[int, int, bool]] = []
    pos = 0
    for m in [*_RE_CLAUSE.finditer(folded), None]:
        end = m.start() if m is not None else len(folded)
        part = folded[pos:end]
        if part.strip():
            reason = False
            if gives:
                said = _RE_AFTER_WORK.sub(" later ", _RE_AFTER_MY.sub(r"\1 the", part)) if rewrites else part
                if "meeting" in said:
                    said = _RE_MEETING_PLACE.sub(" room", said)  # "the small meeting room": a room, no meeting
                kept = _RE_IM_IN_PLACE.sub(" ", said) if "decline" in hits else said  # "cannot, im in KL 21st-23rd"
                reason = any(cues.has(k, said) for k in gives) and not any(cues.has(k, kept) for k in unless) or (
                    kept is not said and "decline" in hits and _RE_IM_IN_PLACE.search(said) is not None)
            clauses.append((pos, end, reason))
        if m is not None:
            pos = m.end()
    reading = read(text, ref)
    if any(reason for _, _, reason in clauses):
        cancels = _no_event_at(folded, reading, cues)  # "no standup thursday": its day is the event's
        cancels += [d.start for d in reading.days if folded.startswith("'s ", d.end)]  # "wednesday's class is in LT3"
        clauses = [(a, b, reason and not any(a <= c < b for c in cancels)) for a, b, reason in clauses]
    return Features(text, folded, mask(text, ref, reading), reading, hits, "?" in text, tuple(clauses), words)


_RE_NOT_BEFORE = re.compile(r"(?<![\w'])(?:not|instead of|rather than)\s+(?:at\s+)?$")


_RE_HOURS_BEFORE = re.compile(r"(?<![\w'])(?:closes|closing|close|shuts|opens|open\s+(?:till|until|from)|"
                              r"doors\s+open|gates\s+open)\s+(?:at\s+)?$")
"""A venue's hours ("the arena closes at 18h", "doors open 7pm"): the time it opens or closes, not the event's."""


def _negated(f: Features, start: int) -> bool:
    """A time said as the one it is not ("7:30 not 7", "instead of 7"), or as a venue's opening hours:
    not the event's."""
    return bool(_RE_NOT_BEFORE.search(f.folded, max(0, start - 16), start)
                or _RE_HOURS_BEFORE.search(f.folded, max(0, start - 20), start))


def in_reason(f: Features, start: int) -> bool:
    for a, b, reason in f.clauses:  # a loop, not any(): asked for every mention of every message
        if reason and a <= start < b:
            return True
    return False


def _pick(times: frozenset[Clock], best: Clock, bare: bool, ctx: Context) -> Clock:
    if not bare or len(times) < 2:
        return best
    if ctx.anchor is not None:
        # a bare "4" for a 9am event is 4pm: small hours only for an event in the small hours
        awake = [t for t in times if t[0] >= 7 or ctx.anchor[0] < 7 or t[0] >= 5 and ctx.anchor[0] < 10] or list(times)
        # ("6:30 (not 7!)" for a 7am hike: an early start is still the morning)
        return min(awake, key=lambda t: (abs(t[0] * 60 + t[1] - ctx.anchor[0] * 60 - ctx.anchor[1]), t))
    if ctx.usual is not None:
        inside = [t for t in times if ctx.usual[0] <= t[0] < ctx.usual[1]]
        if len(inside) == 1:
            return inside[0]
    return best


_RE_DEADLINE = re.compile(r"(?<![\w'])(?:by|before|no later than)\s+(?:this\s+|next\s+)?$")


def _deadline(f: Features, start: int) -> bool:
    """A day said as a deadline ("need numbers by wed", "let me know before friday"), not the event's."""
    return _RE_DEADLINE.search(f.folded, max(0, start - 20), start) is not None


_RE_WE_HAVE = re.compile(r"(?<![\w'])(?:we have|we've got|there is|there's)(?![\w'])")


def _only_we_have(f: Features, start: int, cues: Cues) -> bool:
    """The clause holding ``start`` reads as a reason only by a "we have" that states the event."""
    for a, b, _ in f.clauses:
        if a <= start < b:
            clause = f.folded[a:b]
            return bool(_RE_WE_HAVE.search(clause)) and not cues.has("reason", _RE_WE_HAVE.sub(" ", clause))
    return False


def _weekday_of(f: Features, day: DayMention, event_day: date) -> bool:
    """A bare weekday ("fri", not "this fri" or "the 1st") said of an event on that weekday in the
    week after the nearest one: the event's own day."""
    ahead = (event_day - day.best).days
    if ahead != 7 or _RE_THIS_NEXT.search(f.folded, max(0, day.start - 6), day.start):
        return False
    said = f.folded[day.start:day.end].strip(" .,")
    v = vocabulary()
    return said in v.weekdays or said in v.weekday_abbreviations


_RE_THIS_NEXT = re.compile(r"(?:this|next|coming)\s+$")


def values_of(f: Features, ctx: Context, cues: Cues) -> Values:
    """The event's day, time, end and place in the message (not those of a reason or a decline)."""
    return _values(f, ctx.usual, ctx.anchor, ctx.current_day, cues).copy()


@lru_cache(maxsize=MEMO)
def _values(f: Features, usual: tuple[int, int] | None, anchor: Clock | None, current_day: date | None,
            cues: Cues) -> Values:
    """:func:`values_of` on what it depends on (the rules ask it several times for one message)."""
    bare = f.reading.clocks or _RE_DIGIT.search(f.text)
    r = read(f.text, f.reading.ref, usual) if usual is not None and bare else f.reading
    v = Values()
    if not (r.days or r.ranges or r.parts or r.clocks or r.durations):
        v.place = _place_of(f, cues)  # no day, time or length: only a place (most messages)
        return v
    ctx = Context(user="", sender="", members=(), anchor=anchor, usual=usual, current_day=current_day)
    days = [d for d in r.days if not d.retracted and not in_reason(f, d.start) and not _deadline(f, d.start)]
    if not days and "decline" not in f.hits and any(not in_reason(f, c.start) for c in r.clocks):
        # "this friday we have a guest lecture, 10-12 in LT1": the event's own time, outside any
        # reason, takes the day of a clause that reads as a reason only by its "we have"
        days = [d for d in r.days if not d.retracted and _only_we_have(f, d.start, cues)]
    corrected = [d for d in days if d.corrects]
    if len(days) > 1 and ctx.current_day is not None:
        days = [d for d in days if d.best != ctx.current_day] or days  # "our coffee on thu, could we do wed"
    ranges = [x for x in r.ranges if not x.retracted and not in_reason(f, x.start)]
    if days and ranges and not corrected and "change" not in f.hits and any(
            x.start <= days[0].start < x.end for x in ranges):
        days = []  # "the weekend of 21-22 March": the day is a range's end, the range is the plan's
    if days:
        v.day = (corrected or days)[0].best
        if not corrected and current_day is not None and _weekday_of(f, days[0], current_day):
            v.day = current_day  # "5 instead of 6 on fri?" a week ahead: the discussed event's friday
    else:
        parts = [p for p in r.parts if p.day is not None and not p.retracted and not in_reason(f, p.start)]
        if ranges:
            v.day = ranges[0].first
            if ranges[0].last != ranges[0].first:
                v.minutes, v.end_day = None, ranges[0].last  # "22nd to 24th", "the 24-26th": its last day
        elif parts:
            v.day = parts[0].day
    starts = [c for c in r.clocks if c.role == "start" and not c.retracted and not in_reason(f, c.start)
              and not _negated(f, c.start)]
    if not starts:  # "moves to 2-4pm": both ends of a range after "to" read as ends; its first is the start
        ends_only = [c for c in r.clocks if c.role == "end" and not c.retracted and not in_reason(f, c.start)]
        starts = [c for c in ends_only if sum(o.start == c.start for o in ends_only) == 2][:1]
    corrected_c = [c for c in starts if c.corrects]
    if len(starts) > 1 and ctx.anchor is not None and "change" in f.hits:
        starts = [c for c in starts if ctx.anchor not in c.times] or starts  # "7:30 instead of 7"
    if starts:
        c = (corrected_c or starts)[0]
        v.clock = _pick(c.times, c.best, c.bare, ctx)
        v.start_only = bool(_RE_START_ONLY.search(f.masked))
        ends = [e for e in r.clocks if e.role == "end" and not e.retracted and e.start >= c.start and e is not c]
        if ends:
            e = ends[0]
            later = sorted(t for t in e.times if t > v.clock)
            v.end = later[0] if later else None
        elif r.durations and not in_reason(f, r.durations[0].start) and r.durations[0].minutes < 24 * 60 and not (
                _RE_HELD_FOR.search(f.text, max(0, r.durations[0].start - 24), r.durations[0].start)):
            v.minutes = r.durations[0].minutes
    elif v.day is not None:
        v.date_only = any(p.day == v.day for p in r.parts)
        whole = [d for d in r.durations if d.minutes >= 24 * 60 and d.minutes % (24 * 60) == 0]
        if whole:
            v.end_day = v.day + timedelta(days=whole[0].minutes // (24 * 60))  # "2 nights from friday"
    v.place = _place_of(f, cues)
    return v


@lru_cache(maxsize=MEMO)
def _place_of(f: Features, cues: Cues) -> str | None:
    """The place the message names (outside a reason), or a marker: it depends on the message alone."""
    if any(word in f.folded for word in _CLEAR_PLACE_WORDS) and _RE_CLEAR_PLACE.search(f.folded):
        return CLEARED
    if "usual" in f.folded and _RE_USUAL.search(f.folded):
        return USUAL  # resolved against the timetable by the agent
    if "same" in f.folded and _RE_LAST.search(f.folded):
        return LAST
    place = call_place(f.masked) or address_place(f.text) or find_place(f.masked, cues) or _place_instead(f, cues) or (
        _lets_do_place(f, cues))
    if place is None:
        return None
    at = f.folded.find(fold(place))  # ("Zoom": "zoom")
    if in_reason(f, at) or "change" not in f.hits and at > 0 and _RE_WHEREABOUTS.search(
            f.folded, max(0, at - 12), at):
        return None
    return place


_RE_WHEREABOUTS = re.compile(r"(?<![\w'])(?:i'm|im|i am)\s+at\s+$")
"""Where the speaker is ("14h I'm at the mooca site 😕 15h?"): their whereabouts, not the event's place
(unless the message is worded as a change: "small change. next tuesday im at our leith clinic")."""


_RE_LETS_DO = re.compile(r"(?<![\w'])(?:let's|lets|let us)\s+(?:do|go\s+to|try|meet\s+at|switch\s+to)\s+(?=\S)")


def _lets_do_place(f: Features, cues: Cues) -> str | None:
    """'lets do the café under the office, same 8:45': a name after "let's do", "let's try" (not an
    activity, "let's do lunch", nor a time)."""
    m = _RE_LETS_DO.search(f.masked.lower()) if "let" in f.folded else None
    if m is None:
        return None
    place = phrase_at(f.masked, m.end(), cues, max_words=6)
    return None if place is None or activity_of(fold(place), cues) else place


_RE_DAY_LABEL = re.compile(r"\0*\s*:\s*")
_RE_INSTEAD = re.compile(r"([^,.;!?\n\0]{2,40}?)\s+instead\b", re.I)


def _place_instead(f: Features, cues: Cues) -> str | None:
    """A name before "instead" that opens its clause ("dishoom's closed. flat iron instead?")."""
    if "instead" not in f.folded and f.folded.isascii():
        return None  # the pattern needs the word (a non-ASCII text may spell it with letters "i" matches)
    for m in _RE_INSTEAD.finditer(f.masked):
        start = m.start(1) + len(m.group(1)) - len(m.group(1).lstrip())
        opens = {a + len(f.folded[a:b]) - len(f.folded[a:b].lstrip()) for a, b, _ in f.clauses}
        label = _RE_DAY_LABEL.match(f.masked, start)  # "saturday: kabaty forest instead?": a day labels the clause
        if label is not None and label.end() < m.end(1):
            start = label.end()
        opening = start in opens or any(_RE_DAY_LABEL.fullmatch(f.masked, a, start) for a in opens if a < start)
        if opening and not in_reason(f, start):
            place = short_answer_place(f.masked[start:m.end(1)].strip(), cues, words=4)  # "el patio de nona"
            if place is not None and not activity_of(fold(place), cues):
                return place
    return None


@lru_cache(maxsize=MEMO)
def activity_of(folded: str, cues: Cues) -> str | None:
    """The first word of the ``activities`` list the text names (the list's order decides)."""
    index, entries, always = _activity_index(cues)
    tokens = set(_RE_TOKEN.findall(folded))
    found = [i for token in tokens for i in index.get(token, ())]
    for i in sorted({*found, *always}) if found or always else ():
        word, pattern = entries[i]
        if pattern is None or pattern.search(folded):
            return word
    return None


@lru_cache(maxsize=4)
def _activity_index(cues: Cues) -> tuple[dict[str, tuple[int, ...]], tuple[tuple[str, re.Pattern[str] | None], ...],
                                         tuple[int, ...]]:
    """The activities by the tokens that may open them, and each with its pattern.

    An activity ``w`` matches ``(?<![\\w'])w s?(?![\\w'])``: its first token, or that token and an "s",
    is a token of the text. So ``index`` maps both to the activity's position in the list and only
    those activities are tried, in list order; an activity of one token matches exactly when one of
    them is a text token, so it needs no pattern (``None``). ``always``: activities that open with
    no token, tried on every text.
    """
    index: dict[str, list[int]] = {}
    entries: list[tuple[str, re.Pattern[str] | None]] = []
    always: list[int] = []
    for i, word in enumerate(cues.activities):
        first = _RE_TOKEN.match(word)
        whole = first is not None and first.group(0) == word
        entries.append((word, None if whole else re.compile(rf"(?<![\w']){re.escape(word)}s?(?![\w'])")))
        if first is None:
            always.append(i)
            continue
        for token in (first.group(0), first.group(0) + "s"):
            index.setdefault(token, []).append(i)
    return {k: tuple(v) for k, v in index.items()}, tuple(entries), tuple(always)


@lru_cache(maxsize=MEMO)
def _first_names(members: tuple[str, ...]) -> tuple[tuple[str, str, re.Pattern[str], re.Pattern[str]], ...]:
    """Per member: (member, folded first name, its pattern, the pattern of the member's home "at jo's")."""
    out = []
    for person in members:
        first = fold(person.split()[0])
        name = re.escape(first)
        out.append((person, first, re.compile(rf"(?<![\w']){name}(?![\w'])"),
                    re.compile(rf"(?<![\w'])(?:by|at|to|round|from|over at)\s+({name}'s)(?![\w'])")))
    return tuple(out)


def _named_person(f: Features, ctx: Context) -> str | None:
    """A chat member named in the message (by first name), not the sender."""
    for person, first, pattern, _ in _first_names(ctx.members):
        if person != ctx.sender and first in f.folded and pattern.search(f.folded):
            return person
    return None


def _home_of_member(f: Features, ctx: Context) -> str | None:
    """ "swing by jo's", "at kofi's": a chat member's home, as written."""
    if "'s" not in f.folded:
        return None
    for _, first, _, home in _first_names(ctx.members):
        m = home.search(f.folded) if first + "'s" in f.folded else None
        if m is not None:
            return m.group(1)
    return None


# -- the rules, in order --------------------------------------------------------------------------
Rule = Callable[[Features, Context, Cues], Move | None]


_RE_BEEN_MOVED = re.compile(r"(?<![\w'])(?:ha(?:ve|s) been|we've|we have)\s+(?:moved|changed|rescheduled|transferred)"
                            r"|(?<![\w'])(?:is|are) now\s+(?:at|on|in)\s")
"""A service that says a change is done ("your tickets have been moved to the 7pm show"), after the
failure that caused it ("the 9pm show is oversold"): the change stands, it is not an offer."""


_RE_FULL_BEFORE_NOUN = re.compile(
    r"(?<![\w'])full\s+(?!(?:on|that|then|at|for|by|until|till|up|now|today|tonight|tomorrow|tmrw|this|next|all|"
    r"sorry|unfortunately|i|we|so|and|but|again|already|that\s+day)(?![\w']))[a-z]")
""""full" before a noun ("full service plus NCT pre-check", "full day", "full name") describes it: no failure."""


def _failed(f: Features, cues: Cues) -> bool:
    """The message says a booking cannot be had ("we're full on friday", "fully booked"), not "full" before a noun."""
    if "failed" not in f.hits:
        return False
    if "full" not in f.folded:
        return True
    return any(m.group(0) != "full" or not _RE_FULL_BEFORE_NOUN.match(f.folded, m.start())
               for m in cues.find("failed", f.folded))


_RE_STILL_BOOKED = re.compile(r"(?<![\w'])(?:(?:is|are)\s+still\s+(?:booked|confirmed|reserved)|remains?\s+"
                              r"(?:unchanged|booked|confirmed|as it is)|(?:has|have)\s+not\s+been\s+changed)(?![\w'])")
"""A failed change that leaves the booking as it was ("Your taxi at 16:15 is still booked", "your reservation
remains unchanged"): the time it names is the old one, no offer."""


def _service_reply(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if not ctx.service or ctx.sender == ctx.user:
        return None
    if _RE_STILL_BOOKED.search(f.folded):
        return BookingFailed(ctx.sender)  # "no taxis at 15:45. Your taxi at 16:15 is still booked.": nothing moves
    if _failed(f, cues):
        v = values_of(f, ctx, cues)
        if v.any() and not f.question and _RE_BEEN_MOVED.search(f.folded) and "change" in f.hits:
            return Proposal(ctx.sender, values=v, change=True, fact=True)  # "oversold; moved to the 7pm show"
        if v.clock is not None or f.question and v.any():
            return Proposal(ctx.sender, values=v)  # "fully booked at 7, would 8:30 work?": an offer
        return BookingFailed(ctx.sender)
    if "confirmed" in f.hits and not f.question:
        if "cancel" in f.hits:
            return Cancellation(ctx.sender)  # "your reservation has been cancelled"
        v = values_of(stated(f), ctx, cues)
        v.place = v.place or room_part(f.text)  # "…, 16:30–17:30, meeting room Verdi."
        return Booked(ctx.sender, values=v)
    if "cancel" in f.hits and _RE_BEEN_CANCELLED.search(f.folded):
        return Cancellation(ctx.sender)
    v = values_of(f, ctx, cues)
    if v.place is None:
        v.place = offered_venue(f.masked, cues)  # "Pizza Hut City Centre is a cheap Italian restaurant ..."
    if v.any():
        # an offer or a question back ("8pm or 9pm?"); a change the service states ("the class now
        # runs 12-3pm instead") is settled by it, as a confirmation is
        fact = ("change" in f.hits or any(c.retracted for c in f.reading.clocks) or _RE_STARTS.search(f.folded)) and (
            not f.question and not _RE_OPTIONS.search(f.masked))
        # (a time corrected, "ready today but 5pm, not 4pm", or the event's time said, "Sports day starts at
        # 8.00am", is stated by the one who decides it)
        return Proposal(ctx.sender, values=v, change=fact, fact=fact)
    return Nothing(ctx.sender)


@lru_cache(maxsize=MEMO)
def stated(f: Features) -> Features:
    """A service's confirmation read without reason clauses: its "booked", "appointment" or "class"
    states the booking ("You're booked on the pasta class at Hearth Kitchen"), it gives no reason; so
    does the user's request to a service ("please cancel my appointment on wednesday" names the event)."""
    return replace(f, clauses=tuple((a, b, False) for a, b, _ in f.clauses))


def _user_request(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if not ctx.service or ctx.sender != ctx.user:
        return None
    if "cancel" in f.hits:
        # "please cancel my booking": done when the service says so (the day and time say which)
        return Request(ctx.sender, cancel=True, values=values_of(stated(f), ctx, cues))  # "my saturday court"
    if "decline" in f.hits and not ({"agree", "ask", "change", "request"} & f.hits):
        return Rejection(ctx.sender)  # "no, that day's no good for me": the offer falls
    v = values_of(stated(f) if "request" in f.hits else f, ctx, cues)  # "book me an appointment this saturday"
    if v.any() or "request" in f.hits:
        return Request(ctx.sender, values=v, activity=activity_of(f.folded, cues))
    if "agree" in f.hits:
        return Acceptance(ctx.sender)
    if "decline" in f.hits:
        return Rejection(ctx.sender)
    return Nothing(ctx.sender)


def _reported_done(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if ctx.sender != ctx.user or f.question or "hedge" in f.hits:
        return None
    if not _RE_DONE.search(f.folded):
        return None
    v = values_of(f, ctx, cues)
    if v.day is None and v.clock is None and any(reason for _, _, reason in f.clauses):
        # "btw booked my eye exam for thu 4:15": "booked" and "my" read as a reason, but the whole
        # message is the report
        v = values_of(replace(f, clauses=tuple((a, b, False) for a, b, _ in f.clauses)), ctx, cues)
    return Booked(ctx.sender, values=v) if v.day is not None or v.clock is not None else None


def _others_plan(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if "others" in f.hits and not ({"join", "agree"} & f.hits and "self" in f.hits):
        return Nothing(ctx.sender)
    return None


_RE_TOO_LATE = re.compile(r"(?<![\w'])too (?:late|early)(?![\w'])")


def _lateness(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if f.reading.clocks and any(c.corrects or _negated(f, c.start) for c in f.reading.clocks):
        return None  # "it's 7:30 tonight not 7, he's stuck at work": a correction, not lateness
    if "late" in f.hits and not ({"change", "cancel", "ask"} & f.hits) and not f.question and not (
            "dropout" in f.hits and _RE_TOO_LATE.search(f.folded)):
        return Nothing(ctx.sender)  # (not "8:30 is too late for me, i'll skip this one": a drop-out)
    return None


def _cancellation(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if _RE_MISS.search(f.folded) and ctx.discussing:
        return Cancellation(ctx.sender)  # "let's give X a miss this week"
    if "cancel" not in f.hits:
        return Cancellation(ctx.sender) if _no_event(f, cues) and not f.question else None
    explicit = [m for m in cues.find("cancel", f.folded) if not _RE_SOFT_CANCEL.fullmatch(m.group(0))]
    explicit = [m for m in explicit if not in_reason(f, m.start()) or m.group(0) != "off"]
    if not explicit:
        if "decline" in f.hits and ctx.discussing and not values_of(f, ctx, cues).any():
            if len(ctx.members) <= 2:
                return Cancellation(ctx.sender)  # "can't this time, another time?"
            # in a group it is the sender's own no ("can't, next time!"), or a consolation ("nooo. next time")
            return Dropout(ctx.sender, person=ctx.sender) if RE_CANT.search(f.folded) else Nothing(ctx.sender)
        return None
    if _RE_MY_CANCELLED.search(f.folded):
        return None  # "my meeting got cancelled": a reason, not the event
    v = values_of(f, ctx, cues)
    own_day = v.day is not None and v.day == ctx.current_day and v.clock is None and v.place is None
    if v.any() and not own_day and ({"change", "ask"} & f.hits or f.question):
        return None  # "cancel friday, saturday instead?": a change (not "can we cancel today's lesson?")
    named = {d.best for d in f.reading.days if not d.retracted}  # also in a clause that reads as a reason
    if named and ctx.current_day is not None and ctx.current_day not in named:
        return Nothing(ctx.sender)  # "cancel my saturday court" for a Sunday event: not this event
    if f.question and ("ask" in f.hits or "hedge" in f.hits):
        return CancelAsked(ctx.sender)  # "should we cancel?"
    if "hedge" in f.hits and ctx.sender != ctx.user:
        return Hedge(ctx.sender)
    return Cancellation(ctx.sender)


_RE_NO_EVENT = re.compile(r"(?:^|[,.;!?]\s*)no\s+((?:[a-z][\w'-]*\s+){1,2}?)(?:on\s+|this\s+)?(?=\S)")


def _no_event_at(folded: str, reading: Reading, cues: Cues) -> list[int]:
    """Where "no standup thursday", "no practice tonight" begin: an activity said with "no" and then
    its day cancels it (not "no thursday for me", a drop-out, nor "no rush tomorrow": no activity)."""
    if "no" not in folded or not (reading.days or reading.parts):
        return []  # the pattern needs "no", and what it finds counts only before a day or a part of the day
    starts = {d.start for d in reading.days if not d.retracted} | {p.start for p in reading.parts}
    return [m.start(1) for m in _RE_NO_EVENT.finditer(folded) if m.end() in starts and activity_of(m.group(1), cues)]


@lru_cache(maxsize=MEMO)
def _no_event(f: Features, cues: Cues) -> bool:
    return bool(_no_event_at(f.folded, f.reading, cues))


_RE_WONT_WORK = re.compile(r"(?<![\w'])(?:not going to work|(?:i'm|im|i am)\s+out\s+(?:till|until|til))(?![\w'])")
"""'that's not going to work': a refusal of the time, not "not going"; "im out till 8": away until then,
not "im out" (both drop-out phrases)."""


def _dropout(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if not ctx.discussing:
        return None
    if "dropout" in f.hits and _RE_WONT_WORK.search(f.folded):
        hits = f.hits - {"dropout"} if not cues.has("dropout", _RE_WONT_WORK.sub(" ", f.folded)) else f.hits
    else:
        hits = f.hits
    said = "dropout" in hits or _RE_NO_FOR_ME.search(f.folded) or _RE_CANT_ATTEND.search(f.folded) or (
        _RE_OUT_FOR.search(f.folded)) or "out" in f.tokens and _RE_SIT_OUT.search(f.folded) or (
        _RE_I_CANT.search(f.folded)) or _RE_NEXT_TIME.search(f.folded)
    if not said or "hedge" in f.hits and "dropout" not in hits:
        return None
    if "remind" in f.hits and _first(f, cues, "remind") < _dropout_at(f, cues):
        return None  # "see you tonight! I'm out of chalk": a see-you first is no drop-out
    if "hedge" in f.hits and _hedged_before(f, cues, ("dropout",)):
        return Hedge(ctx.sender)  # "I might skip tuesday"
    if f.question and "ask" in f.hits:
        return None
    v = values_of(f, ctx, cues)
    rest = _RE_CANT_ATTEND.sub(" ", cues.phrases["dropout"].sub(" ", f.folded))  # "make it" is no change here
    own = v.day in (None, ctx.current_day) and v.clock in (None, ctx.anchor) and v.place is None and not v.end
    if v.any() and not own and ("ask" in f.hits or cues.has("change", rest)):
        return None  # "can't do 7, 8?": a counter-proposal (not "sunday afternoon i actually can't")
    named = _named_person(f, ctx)
    lead = f.folded.split(" ", 1)[0].strip(",.!")
    day = _clause_day(f, cues, hits)
    vocative = named is not None and fold(named.split()[0]) == lead and _RE_I_NEXT.match(f.folded, len(lead))
    if named is not None and fold(named.split()[0]) == lead and not vocative or (
            named is not None and "self" not in f.hits):
        return Dropout(ctx.sender, person=named, day=day)  # "ama can't make sunday": relayed
    return Dropout(ctx.sender, person=ctx.sender, day=day)


def _dropout_at(f: Features, cues: Cues) -> int:
    """Where the drop-out is said: its first phrase, or the first form the patterns read."""
    found = [_first(f, cues, "dropout")]
    found += [m.start() for rx in (_RE_NO_FOR_ME, _RE_CANT_ATTEND, _RE_OUT_FOR, _RE_I_CANT, _RE_NEXT_TIME)
              if (m := rx.search(f.folded))]
    return min(found)


def _clause_day(f: Features, cues: Cues, hits: frozenset[str]) -> date | None:
    """The one day named in the clause that says the drop-out (in a reason, or read as retracted: "no thursday")."""
    where = [m.start() for m in cues.find("dropout", f.folded)] if "dropout" in hits else []
    where += [m.start() for rx in (_RE_NO_FOR_ME, _RE_CANT_ATTEND, _RE_OUT_FOR) if (m := rx.search(f.folded))]
    if not where:
        return None
    at = min(where)
    clause = next(((a, b) for a, b, _ in f.clauses if a <= at < b), None)
    if clause is None:
        return None
    days = {d.best for d in f.reading.days if clause[0] <= d.start < clause[1]}  # "no thursday" reads as retracted
    return days.pop() if len(days) == 1 else None


def _join(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if "join" not in f.hits or not ctx.discussing or "decline" in f.hits and "dropout" in f.hits:
        return None
    if "decline" in f.hits and not cues.has("join", _RE_IM_IN_PLACE.sub(" ", f.folded)):
        return None  # "next tue cannot, im in KL": where the speaker is, not a yes
    v = values_of(f, ctx, cues)
    if v.any() and not _joins_as_is(v, ctx, f):
        return None  # "Boulder Box sat 10-12? Maria is coming too": a proposal
    if "hedge" in f.hits:
        return Hedge(ctx.sender)
    return Join(ctx.sender, person=ctx.sender, asks=f.question)


def _joins_as_is(v: Values, ctx: Context, f: Features) -> bool:
    """A join that names the event's own day or time ("im in, fri sorted", "can i come wed at 4?",
    "I can join wed but only from 4") joins it; another day, time or place proposes."""
    if v.place is not None or ctx.current_day is None:
        return False
    if v.day not in (None, ctx.current_day):
        if all(d.best != ctx.current_day for d in f.reading.days):
            return False
        v = v.copy()
        v.day = ctx.current_day  # "back tmrw night, can I tag along sat?": the event's day is named too
    return v.clock in (None, ctx.anchor) or not f.question and v.day == ctx.current_day


_RE_NOT_A_PLAN = re.compile(r"(?:thanks|thank you|thx|ty)\s+(?:so much\s+)?for\s+\w+ing(?![\w'])"
                            r"|(?:what|how)\s+(?:do|does|did|was|were)\s+(?!(?:we|you|u|i|it|that|this)\b|\d)\w+"
                            r"(?!.*(?:sound|work|suit))|why\s|how come\s")
"""A message that opens by thanking for something done, or by asking about something other than
when or where ("what do helpers even do"): it plans nothing. ("what do we", "how does 7 sound" plan.)"""


_RE_ANNOUNCED = re.compile(r"(?<![\w'])(?:we're|we are|it's|its|it is|is|are|will be)\s+(?:now\s+)?(?:in|at)\s")
"""'we're in group room b', "wednesday's class is in LT3": where the event is, stated, not proposed."""


_RE_NAME_ASKED = re.compile(r"[ ,!]+[^.!?,;\0]{2,40}\?+\s*$")
"""What follows a yes that opens a message: only a name, asked ("ya maxwell?")."""


def _planned_text(f: Features) -> str:
    """The message without its reasons and what the speaker owns ("changed my flight"): where the
    activity planned is named ("can we do 6:30 instead? my 5pm meeting always runs over" plans no run)."""
    text = f.folded
    if any(reason for _, _, reason in f.clauses):
        text = "".join(f.folded[a:b] if not reason else " " * (b - a) for a, b, reason in f.clauses)
    return _RE_MY_THING.sub(" ", text) if "my" in f.tokens else text


def _asked_name(f: Features, cues: Cues) -> str | None:
    """A clause that is only a name asked beside the plan's day or time: "fri works. lucky thai? 7:30?"."""
    for a, b, reason in f.clauses:
        if not reason and f.masked.startswith("?", b) and "\0" not in f.masked[a:b]:
            place = short_answer_place(f.masked[a:b], cues)
            if place is not None and not activity_of(fold(place), cues):
                return place
    return None


def _after_words(masked: str, head: str) -> str:
    """``masked`` after as many words as ``head`` holds: the folded text's offsets are not the
    masked text's where an elongation was folded ("yesss. at urs?" folds to "yes. at urs?")."""
    n = len(head.split())
    parts = masked.split(None, n)
    return parts[n] if len(parts) > n else ""


def _proposal(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if _RE_NOT_A_PLAN.match(f.folded):
        return None  # "thanks for covering the review today", "what do helpers even do at the fair"
    v = values_of(f, ctx, cues)
    if "decline" in f.hits and _leads(f, cues, "decline", words=1) and not f.question and (
            v.day in (None, ctx.current_day) and v.clock in (None, ctx.anchor) and v.any()) and (
            v.place is None or v.day is None and v.clock is None and "change" not in f.hits):
        return Rejection(ctx.sender)  # "no, sorry, thursday is full"; "can't, lunch at my aunt's": the why of a no
    if RE_CANT.match(f.folded) and not f.question and not ({"agree", "change", "ask"} & f.hits):
        return Rejection(ctx.sender)  # "can't, going down to the beach with the family, back wednesday"
    if _RE_AT_PLACE_OF.search(f.folded) and v.place is None:
        v.place = f"{ctx.sender.split()[0]}'s" if ctx.sender != ctx.user else None
    if v.place is None:
        v.place = _home_of_member(f, ctx)
    if v.place is None and v.any() and f.question and "?" in f.masked:
        v.place = _asked_name(f, cues)
    if not v.any():
        marked = bool(_RE_PLACE_MARK.search(f.folded)) or ctx.place_asked
        if ctx.discussing and marked and not ({"decline", "remind"} & f.hits):
            yes = cues.phrases["agree"].match(f.folded) if "agree" in f.hits else None
            v.place = short_answer_place(_after_words(f.masked, f.folded[:yes.end()]).lstrip(" ,!") if yes else (
                f.masked), cues)
            # ("ok let's do Cactus": a yes, then the place)
        elif ctx.discussing and f.question and "agree" in f.hits and (m := cues.phrases["agree"].match(f.folded)) and (
                _RE_NAME_ASKED.match(rest := " " + _after_words(f.masked, f.folded[:m.end()]))):
            v.place = short_answer_place(rest.lstrip(" ,!"), cues)  # "ya maxwell?": yes, and where
        if not v.any():
            return None
    asks = f.question or "ask" in f.hits and not _relayed_want(f, cues) or bool(_RE_OPTIONS.search(f.masked))
    if "hedge" in f.hits and not asks:
        return Hedge(ctx.sender)
    if "remind" in f.hits and "change" not in f.hits:
        return Acceptance(ctx.sender, values=v) if ctx.open_by and not f.question else Nothing(ctx.sender)
    fact = not asks and "agree" not in f.hits and "decline" not in f.hits and (
        "change" in f.hits or v.place is not None and _RE_ANNOUNCED.search(f.folded) is not None)
    favour = f.question and (m := _RE_FAVOUR.search(f.folded)) is not None and not _RE_FOR_ME.match(f.folded, m.end())
    return Proposal(ctx.sender, values=v, change="change" in f.hits or bool(_RE_SAME.search(f.folded)),
                    fact=fact, agrees="agree" in f.hits and "decline" not in f.hits, asks=asks,
                    activity=activity_of(_planned_text(f), cues), text=f.text, favour=favour)


_RE_FAVOUR = re.compile(r"(?<![\w'])(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+|maybe\s+)?"
                        r"(?:pick|get|collect|fetch|take|drop|cover|walk|drive|bring|do)(?![\w'])|(?<![\w'])any chance"
                        r"\s+(?:you|u)\s+(?:can|could)\s+(?:pick|get|collect|fetch|take|drop|cover|walk|drive)(?![\w'])")
_RE_FOR_ME = re.compile(r"\s+(?:up\s+)?(?:me|us|my\s+(?:car|stuff|bags?))\b")
"""A task asked of the other side ("can you pick up lily from school wed?", "could you cover the vendor call?"):
the asker will not be there. Not "can you pick me up", "take us": the asker is what the task is for."""


_RE_WANT_WHO = re.compile(r"([\w']+)\s+$")
_ASKERS = frozenset({"you", "u", "we", "i", "do", "d'you", "ya", "yall", "y'all", "anyone", "who"})


def _relayed_want(f: Features, cues: Cues) -> bool:
    """The message's only "ask" is someone else's "want to" ("brightwater want to use google meet
    instead"): a decision passed on, not a question put to the chat."""
    found = list(cues.find("ask", f.folded))
    if not found or any(m.group(0) not in ("want to", "wants to") for m in found):
        return False
    for m in found:
        who = _RE_WANT_WHO.search(f.folded, 0, m.start())
        if who is None or who.group(1) in _ASKERS:
            return False
    return True


def _reminder(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if "remind" in f.hits and not ctx.open_by:
        return Nothing(ctx.sender)
    return None


def _hedge(f: Features, ctx: Context, cues: Cues) -> Move | None:
    return Hedge(ctx.sender) if "hedge" in f.hits else None


_RE_DRAWN_NO = re.compile(r"no{2,}\b(?!\s*(?:i|im|i'm|can't|cant|thanks|thx|ty|way)\b)")
"""A drawn-out "noooo" that opens a message: sympathy in a group ("noooo rory!! rest up"), not a refusal."""


def _rejection(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if len(ctx.members) > 2 and _RE_DRAWN_NO.match(f.text.lower()) and not cues.has("decline", f.folded[3:]):
        return Nothing(ctx.sender)  # (the folded text has lost the drawn-out letters)
    if "decline" in f.hits and not ("agree" in f.hits and f.folded.find("no") > f.folded.find("yes") >= 0):
        return Rejection(ctx.sender)
    return None


def _acceptance(f: Features, ctx: Context, cues: Cues) -> Move | None:
    if "agree" in f.hits and _leads(f, cues, "agree") or "remind" in f.hits and ctx.open_by:
        return Acceptance(ctx.sender)
    return None


def _leads(f: Features, cues: Cues, kind: str, *, words: int = 3) -> bool:
    """A phrase of ``kind`` among the first ``words`` words of the message, or a short message
    ("sure, sounds good"; not "got soaked on the way in"): an answer says yes first."""
    if len(f.folded.split()) <= words + 1:
        return True
    m = cues.phrases[kind].search(f.folded)
    return m is not None and len(f.folded[:m.start()].split()) < words


def _first(f: Features, cues: Cues, kind: str) -> int:
    """Where the first phrase of ``kind`` starts (the message's length when there is none)."""
    m = cues.phrases[kind].search(f.folded)
    return m.start() if m is not None else len(f.folded)


def _hedged_before(f: Features, cues: Cues, kinds: tuple[str, ...]) -> bool:
    """A hedge ("might", "probably") before the first phrase of ``kinds``, in the same clause."""
    hedge = cues.phrases["hedge"].search(f.folded)
    if hedge is None:
        return False
    for kind in kinds:
        m = cues.phrases[kind].search(f.folded)
        if m is not None and hedge.start() < m.start() and not any(
                a <= hedge.start() < b <= m.start() for a, b, _ in f.clauses):
            return True
    return False


RULES: tuple[tuple[str, Rule], ...] = (
    ("service reply", _service_reply),
    ("request to a service", _user_request),
    ("reported as booked", _reported_done),
    ("lateness", _lateness),
    ("cancellation", _cancellation),
    ("drop-out", _dropout),
    ("another person's plan", _others_plan),
    ("join", _join),
    ("proposal or change", _proposal),
    ("reminder", _reminder),
    ("hedge", _hedge),
    ("rejection", _rejection),
    ("acceptance", _acceptance),
)
"""Tried in order; the first that gives a move wins. Order matters: a booking service's reply is
read before anything else, a cancellation before a proposal ("cancel fri, sat instead?" is a
change: the cancellation rule declines it), a hedge before an acceptance ("prob yes")."""


def read_message(text: str, ref: datetime, ctx: Context, cues: Cues) -> tuple[str, Move]:
    """The name of the rule that applied and the move it gave."""
    return read_features(features(text, ref, cues), ctx, cues)


def read_features(f: Features, ctx: Context, cues: Cues) -> tuple[str, Move]:
    """:func:`read_message` on a message already read into :class:`Features`: a fresh move (the
    agent changes it), read once per message and context (both modes of a run mostly read a
    message in the same context)."""
    name, cached = _read_cached(f, ctx, cues)
    move = cached.__class__.__new__(cached.__class__)  # copy.copy of a plain dataclass, without its generic path
    move.__dict__.update(cached.__dict__)
    values = getattr(move, "values", None)
    if isinstance(values, Values):
        move.values = values.copy()  # type: ignore[attr-defined]
    return name, move


@lru_cache(maxsize=MEMO)
def _read_cached(f: Features, ctx: Context, cues: Cues) -> tuple[str, Move]:
    for name, rule in RULES:
        move = rule(f, ctx, cues)
        if move is not None:
            return name, move
    return "nothing", Nothing(ctx.sender)
