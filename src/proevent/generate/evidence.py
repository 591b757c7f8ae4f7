"""What the chats of a case have said so far: the validator's semantic reader.

A gold value is *expressed* when a careful reader can find it in the messages up to its step, the
way the gold conventions read them (``shared/spec/gold-conventions.md``): a bare hour ("fri 8?",
"9 works") and an approximate one ("7ish") give both of their readings; a date value needs only
its day ("friday afternoon", "this weekend"); a time may be another event's start or end, shifted
("straight after the gym", "an hour before the match", "push it back 30 min"); an ``end`` may be
the start plus a duration the chat gives ("for two hours"); a place may be written short,
lower-case, with or without a possessive ("rosa's" for "Rosa's Trattoria"), or by reference
("the usual spot", "same place as last time": a location of the timetable's earlier events);
a person by first name or nickname. Times are read with :func:`proevent.timeexpr.read` alone;
every reading of a phrase counts (a candidate set: both halves of a bare hour, "next weekend"
as the following or the coming one), also a value a self-correction took back.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from functools import lru_cache

from nicknames import NickNamer
from rapidfuzz import fuzz

from proevent.model import Event, Message
from proevent.timeexpr import read

TITLES = frozenset({"dr", "prof", "mrs", "mr", "ms", "the", "and", "von", "van", "de", "del", "der", "la"})
GENERIC_PLACE_WORDS = frozenset({
    "the", "a", "at", "of", "on", "in", "and", "cafe", "coffee", "restaurant", "bar", "pub", "bistro",
    "kitchen", "house", "room", "hall", "center", "centre", "park", "station", "street", "st", "road", "rd",
    "avenue", "ave", "place", "plaza", "square", "club", "court", "courts", "field", "gym", "studio", "office",
    "building", "floor", "meeting", "conference", "north", "south", "east", "west", "main", "new", "old",
    "city", "town", "lounge", "trailhead", "library", "school", "hotel", "market", "shop", "store", "clinic",
    "lane", "terrace", "garden", "gardens", "grill", "diner", "tavern", "inn", "hub", "space", "my", "our",
    "his", "her", "their", "s", "entrance", "gate", "corner", "little", "big", "great", "royal", "central",
})
"""Words that name no place on their own: a short form must keep at least one other word."""
_VIDEO = re.compile(r"\b(zoom|video ?call|vc|facetime|teams|google meet|meet link|skype|webex|hangouts?)\b", re.I)
_NICKNAMES = NickNamer()
_POSSESSIVE = re.compile(r"['’]s\b", re.I)


def norm_text(text: str) -> str:
    """Lower case, accents and apostrophes dropped, other punctuation a space: "Rosa's Café" and
    "rosas cafe" are the same text."""
    text = text.lower()
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = re.sub(r"['’`]", "", text)
    return " ".join(re.sub(r"[^\w&@]+", " ", text).split())


def _contains(haystack: str, needle: str) -> bool:
    return bool(needle) and f" {needle} " in f" {haystack} "


@lru_cache(maxsize=4096)
def short_forms(place: str) -> tuple[str, ...]:
    """The ways a place may be written short: every run of its words that keeps a word other than
    a generic one ("Rosa's Trattoria" -> "rosas", "rosas trattoria"; "Meeting room 4B" -> "room 4b")."""
    words = norm_text(place).split()
    out = []
    for i in range(len(words)):
        for j in range(i + 1, len(words) + 1):
            run = words[i:j]
            if any(w not in GENERIC_PLACE_WORDS and (len(w) >= 4 or any(c.isdigit() for c in w)) for w in run):
                out.append(" ".join(run))
    return tuple(out)


@lru_cache(maxsize=4096)
def name_forms(name: str) -> frozenset[str]:
    """How a person may be named: each name word of three letters or more (not a title) and the
    nicknames of the first name ("Elizabeth Chen": elizabeth, chen, liz, beth, lizzie ...)."""
    words = [w for w in norm_text(name).split() if len(w) >= 3 and w not in TITLES]
    forms = set(words)
    if words:
        first = words[0]
        forms |= {n for n in _NICKNAMES.nicknames_of(first) if len(n) >= 3}
        forms |= {n for n in _NICKNAMES.canonicals_of(first) if len(n) >= 3}
    return frozenset(forms)


def parse_time(value: str) -> datetime:
    """A normalised time of the data format (``YYYY-MM-DDTHH:MM``)."""
    return datetime.fromisoformat(value)


def _clock(value: str) -> datetime | None:
    return parse_time(value) if len(value) == 16 else None


def _day(value: str) -> date:
    return date.fromisoformat(value[:10])


class Evidence:
    """What the chats have said up to the current step (add each message as it arrives)."""

    def __init__(self, user: str) -> None:
        self.user = user
        self.dates: set[date] = set()
        self.times: set[tuple[int, int]] = set()
        self.durations: set[int] = set()
        self.offsets: set[int] = set()
        self.texts: list[str] = []
        self.words: set[str] = set()
        self.video = False
        self.senders: set[str] = set()
        self.chats_with_messages: set[str] = set()

    def add(self, msg: Message) -> None:
        ref = parse_time(msg.time)
        text = msg.text
        r = read(text, ref)
        self.dates |= r.dates(retracted=True)
        self.times |= r.times(retracted=True)
        self.durations |= {d.minutes for d in r.durations}
        self.offsets |= {x.offset_minutes for x in r.relatives if x.offset_minutes}
        n = norm_text(text)
        self.texts.append(n)
        self.words |= set(n.split())
        if "'" in text or "’" in text:  # "rosa's" names Rosa too
            self.words |= set(norm_text(_POSSESSIVE.sub("", text)).split())
        self.video = self.video or bool(_VIDEO.search(text))
        self.senders.add(msg.sender)
        self.chats_with_messages.add(msg.chat_id)

    # ------------------------------------------------------------------ times

    def time_problem(self, value: str, known: list[Event]) -> str | None:
        """Why ``value`` (a start or end) is not expressed, or ``None`` when it is: its day is said
        or is the day of a known event; its clock time is said, is a known event's start or end,
        or one of those shifted by an offset the chats give ("an hour before the match")."""
        d = _day(value)
        known_vals = [v for ev in known for v in (ev.start, ev.end) if v]
        if d not in self.dates and d not in {_day(v) for v in known_vals}:
            return f"day {value[:10]} is not expressed in the chats"
        clock = _clock(value)
        if clock is None:
            return None
        hm = (clock.hour, clock.minute)
        if hm in self.times:
            return None
        known_clocks = [c for c in map(_clock, known_vals) if c is not None]
        if hm in {(c.hour, c.minute) for c in known_clocks}:
            return None
        if any(c + timedelta(minutes=o) == clock for c in known_clocks for o in self.offsets):
            return None
        return f"time {value[11:]} is not expressed in the chats"

    def duration_gives(self, start: str | None, end: str) -> bool:
        """``end`` is ``start`` plus a duration the chats give ("for two hours"; "for 3 days" ends on
        the third day or after it)."""
        if not start or len(start) != len(end):
            return False
        if len(end) == 16:
            minutes = (parse_time(end) - parse_time(start)).total_seconds() / 60
            return minutes in self.durations
        days = (_day(end) - _day(start)).days
        return any(d % 1440 == 0 and days in (d // 1440, d // 1440 - 1) for d in self.durations)

    # ------------------------------------------------------------------ places

    def location_problem(self, value: str, known: Iterable[Event]) -> str | None:
        """Why a place is not expressed, or ``None``: it is named (in full, short, lower-case,
        with a typo), it is the location of a known event (timetable linking, "the usual spot",
        "same place as last time"), or it is ``Zoom`` and the chats speak of a video call."""
        want = norm_text(value)
        if not want or want in {norm_text(ev.location) for ev in known if ev.location}:
            return None
        if want == "zoom" and self.video:
            return None
        for text in self.texts:
            if _contains(text, want) or any(_contains(text, s) for s in short_forms(value)):
                return None
            if len(want) >= 8 and len(text) >= len(want) and fuzz.partial_ratio(want, text) >= 90:
                return None
        return f"location {value!r} is not expressed in the chats"

    # ------------------------------------------------------------------ people

    def named(self, name: str) -> bool:
        """The chats name ``name`` (a name word, or a nickname of the first name)."""
        return bool(name_forms(name) & self.words)

    def seen(self, name: str, direct_partner_of: dict[str, str]) -> bool:
        """``name`` has written, been named, or is the other member of a direct chat that has
        messages (the plan is plainly for them)."""
        if name == self.user or name in self.senders or self.named(name):
            return True
        return any(direct_partner_of.get(c) == name for c in self.chats_with_messages)
