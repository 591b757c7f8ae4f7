"""The moves a chat message makes in a negotiation, as types (``reading.py`` reads them, ``agent.py``
plays them on the chat's state).

``Values`` is what a message says about an event: a day, a clock time, an end, a duration, a
place (``CLEARED`` when it is dropped: "place tbc"). Each move carries the sender and, where the
message names one, the event it is about (``about``: a timetable event id, found by
description, place, day or time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

Clock = tuple[int, int]
CLEARED = "\0cleared"
"""A place dropped without a replacement: the event's location becomes ``null``."""
USUAL = "\0usual"
"""A place named by habit ("the usual spot"): the location the chat's earlier events share."""
LAST = "\0last"
"""A place named by an earlier event ("same place as last time"): the latest one with these people."""


@dataclass(slots=True)
class Values:
    day: date | None = None
    clock: Clock | None = None
    end: Clock | None = None
    minutes: int | None = None
    place: str | None = None
    end_day: date | None = None
    """The last day of a stay ("2 nights from friday": the Sunday), an end without a clock time."""
    date_only: bool = False
    """A day with only a part of the day ("fri evening"): the event's start is the date."""
    start_only: bool = False
    """Only the start moves ("can we start at 8 instead"): the end stays where it was."""

    def copy(self) -> Values:
        return Values(self.day, self.clock, self.end, self.minutes, self.place, self.end_day, self.date_only,
                      self.start_only)

    def any(self) -> bool:
        return (self.day is not None or self.clock is not None or self.end is not None or self.minutes is not None
                or self.place is not None)

    def merged(self, newer: Values) -> Values:
        """``newer`` over ``self``: a counter-proposal keeps what it does not say."""
        out = Values(self.day, self.clock, self.end, self.minutes, self.place, self.end_day, self.date_only,
                 self.start_only or newer.start_only)
        if newer.day is not None:
            out.day = newer.day
            out.date_only = newer.date_only and newer.clock is None and self.clock is None
        if newer.clock is not None:
            out.clock, out.end, out.minutes, out.date_only = newer.clock, newer.end, newer.minutes, False
            if newer.end is None and newer.minutes is None and self.end is None:
                out.minutes = self.minutes  # "each tour lasts 90 minutes" ... "the 11 am tour": its length holds
        elif newer.end is not None or newer.minutes is not None:
            out.end, out.minutes = newer.end, newer.minutes
        if newer.place is not None:
            out.place = newer.place
        out.end_day = newer.end_day or self.end_day
        return out


@dataclass
class Move:
    sender: str
    about: str | None = None
    """The timetable event the message names, if any."""


@dataclass
class Nothing(Move):
    """Small talk, a reminder, lateness, another person's plan: changes nothing."""


@dataclass
class Proposal(Move):
    """New values, asked or stated: a new event, or a change of the event being discussed."""

    values: Values = field(default_factory=Values)
    change: bool = False
    """Worded as a change ("instead", "move", "later"): it is about an existing event."""
    fact: bool = False
    """Stated as done ("moved to 1", "is at kofi's now"): settled at once, no answer needed."""
    agrees: bool = False
    """The message also says yes to the open proposal ("sat 11 works")."""
    asks: bool = False
    """Worded as a question or a suggestion ("sat?", "shall we ..."), not only a mention of a day."""
    activity: str | None = None
    text: str = ""
    named: bool = False
    """The message names the event by the words of its description or place (set by the agent)."""
    repeats: bool = False
    """Its values are what the event it is about holds already ("yep 8pm", "still 9 on saturday?"): a
    re-mention (set by the agent)."""
    favour: bool = False
    """A task asked of the other side ("can you pick up lily from school wed?", not "can you pick me
    up"): the one who does it attends, the one who asks does not."""


@dataclass
class Acceptance(Move):
    values: Values = field(default_factory=Values)
    """What the answer repeats ("8:30 then", "june's it is"): it wins over the proposal."""


@dataclass
class Rejection(Move):
    """A no to the open proposal, with or without a reason."""


@dataclass
class Hedge(Move):
    """A conditional or pending answer ("prob", "in if I'm back", "let me check"): settles nothing."""


@dataclass
class Cancellation(Move):
    """The event is off."""


@dataclass
class CancelAsked(Move):
    """A cancellation put as a question ("can we cancel today's lesson?", "shall we just skip this
    week?"): off when the other side says yes."""


@dataclass
class Dropout(Move):
    """``person`` will not attend (the sender, or someone the sender speaks for); ``day``: the one
    day the drop-out's own clause names ("no thursday for me, sorry. sat tho!": the Thursday)."""

    person: str = ""
    day: date | None = None


@dataclass
class Join(Move):
    """``person`` will attend after all ("count me in"); ``asks``: "can I still come?" needs a yes."""

    person: str = ""
    asks: bool = False


@dataclass
class Booked(Move):
    """A booking confirmed by the service, or reported done by the user ("booked the dentist tue 9am")."""

    values: Values = field(default_factory=Values)


@dataclass
class BookingFailed(Move):
    """The service cannot book it (fully booked, no table): the request falls through."""


@dataclass
class Request(Move):
    """The user asks a service to book, change or cancel something: open until the service confirms."""

    values: Values = field(default_factory=Values)
    """What the request names (for a cancellation: the day and time of the booking to cancel)."""
    activity: str | None = None
    cancel: bool = False
