"""iCalendar export and import of a timetable (RFC 5545, through the ``icalendar`` library).

Mapping of an :class:`~proevent.model.Event` to a ``VEVENT``:

- ``start``/``end``: ``DTSTART``/``DTEND``. A time is a local time, written with ``TZID`` when the
  case names its time zone and as a floating time otherwise; a date is ``VALUE=DATE``. When both
  are dates, ``DTEND`` is the day *after* ``end`` (iCalendar's all-day end is exclusive) and
  reading subtracts the day again. ``null`` leaves the property out. An end that iCalendar cannot
  hold as ``DTEND`` (a time after a date start, or an end without a start) is kept in
  ``X-PROEVENT-END``.
- ``location``: ``LOCATION``; ``description``: ``SUMMARY`` (``null`` leaves them out).
- ``participants``: one ``X-PROEVENT-PARTICIPANT`` per name, in order, exactly as written; calendar
  apps show them in the ``DESCRIPTION`` line ``With: ...``. No ``ATTENDEE`` is written: an
  attendee needs a real address (apps offer to e-mail it), and a timetable has only names.
- ``UID``: ``<case id>/<event id>@proevent``, both parts percent-encoded, so the ids come back.
- ``DTSTAMP``: when the file was written (UTC); ``SEQUENCE``: how many times the event changed
  (the caller counts, e.g. :func:`count_changes` over the steps), so calendar apps take an
  updated event as newer.

Reading accepts calendars from other tools too: a foreign ``UID`` becomes the event id;
``ATTENDEE`` names (``CN``, else the ``mailto:`` local part) are the participants; ``DURATION``
gives the end where ``DTEND`` is missing; an aware time (a ``TZID`` or UTC) is turned into the
wall time of ``timezone`` (or of the calendar's ``X-WR-TIMEZONE``, or else kept in its own zone).
A recurring event (``RRULE``/``RDATE``) is expanded into its occurrences within a ``horizon``
(exceptions and moved occurrences included, by ``recurring-ical-events``), or refused when no
horizon is given: it is never silently read as its first occurrence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta, tzinfo
from datetime import timezone as dt_timezone
from urllib.parse import quote, unquote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import icalendar
from icalendar.parser import Contentlines

from proevent import __version__
from proevent.model import Case, Event
from proevent.model.times import format_date, format_time, is_date, parse_time

PRODID = f"-//proevent//proevent {__version__}//EN"
UID_SUFFIX = "@proevent"
PERSON_URN = "urn:proevent:person:"
PARTICIPANT = "X-PROEVENT-PARTICIPANT"
END_X = "X-PROEVENT-END"


_TEXT_PROPERTIES = ("SUMMARY", "LOCATION", END_X)
_LIST_PROPERTIES = (PARTICIPANT,)
_UNESCAPE_RE = re.compile(r"\\([\\;,nN])")


class IcsError(ValueError):
    """An iCalendar file that cannot be read into events."""


class _Text(icalendar.vText):
    """A TEXT value escaped per RFC 5545 in one pass.

    icalendar's own escaping turns a literal ``\\N`` into a newline and its unescaping reads an
    escaped backslash followed by ``n`` as a newline, so free text would not round-trip exactly.
    """

    def to_ical(self) -> bytes:
        text = str(self).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
        text = text.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")
        return text.encode("utf-8")


def _unescape_text(raw: str) -> str:
    return _UNESCAPE_RE.sub(lambda m: "\n" if m.group(1) in "nN" else m.group(1), raw)


def _raw_event_texts(data: str) -> list[dict[str, object]]:
    """SUMMARY, LOCATION, X-PROEVENT-END and the participants of every top-level VEVENT, in order,
    unescaped in one pass."""
    out: list[dict[str, object]] = []
    stack: list[str] = []
    for line in Contentlines.from_ical(data):
        if not line:
            continue
        name, _, value = line.raw_parts()
        name = name.upper()
        if name == "BEGIN":
            stack.append(value.upper())
            if stack[-1] == "VEVENT":
                out.append({})
        elif name == "END":
            if stack:
                stack.pop()
        elif stack and stack[-1] == "VEVENT" and name in _TEXT_PROPERTIES:
            out[-1][name] = _unescape_text(value)
        elif stack and stack[-1] == "VEVENT" and name in _LIST_PROPERTIES:
            out[-1].setdefault(name, []).append(_unescape_text(value))  # type: ignore[union-attr]
    return out


def _zone(name: str | None) -> tzinfo | None:
    if name is None:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r} (expected an IANA name, e.g. 'Europe/Paris')") from None


def _ical_time(value: str, zone: tzinfo | None) -> datetime | date:
    if is_date(value):
        return parse_time(value).date()
    return parse_time(value).replace(tzinfo=zone)


def make_uid(case_id: str, event_id: str) -> str:
    """The UID of an event: invertible, unique per case and event."""
    return f"{quote(case_id, safe='')}/{quote(event_id, safe='')}{UID_SUFFIX}"


def split_uid(uid: str) -> tuple[str, str] | None:
    """``(case_id, event_id)`` of a UID made by :func:`make_uid`, else ``None``."""
    if not uid.endswith(UID_SUFFIX):
        return None
    parts = uid[: -len(UID_SUFFIX)].split("/")
    if len(parts) != 2:
        return None
    return unquote(parts[0]), unquote(parts[1])


def _fingerprint(ev: Event) -> tuple[object, ...]:
    return (ev.start, ev.end, ev.location, tuple(ev.participants), ev.description)


def count_changes(sequences: dict[str, int], before: Sequence[Event], after: Sequence[Event]) -> dict[str, int]:
    """Add one to ``sequences[id]`` for every event of ``after`` that differs from its ``before``
    (a new event starts at 0); returns ``sequences``, changed in place. Counting this over the
    steps of a case gives the ``SEQUENCE`` of each event."""
    old = {ev.id: _fingerprint(ev) for ev in before}
    for ev in after:
        if ev.id not in old:
            sequences.setdefault(ev.id, 0)
        elif old[ev.id] != _fingerprint(ev):
            sequences[ev.id] = sequences.get(ev.id, 0) + 1
    return sequences


def gold_sequences(case: Case, t: int) -> dict[str, int]:
    """The ``SEQUENCE`` of every event of the gold timetable after step ``t``: how many steps up to
    ``t`` changed it."""
    sequences: dict[str, int] = {}
    before = case.initial_timetable
    for step in case.steps:
        if step.t > t:
            break
        count_changes(sequences, before, step.gold_timetable)
        before = step.gold_timetable
    return sequences


def timetable_to_ics(
    events: Sequence[Event],
    *,
    user: str,
    timezone: str | None = None,
    case_id: str = "timetable",
    name: str | None = None,
    sequences: Mapping[str, int] | None = None,
    dtstamp: datetime | None = None,
) -> bytes:
    """The timetable as an iCalendar ``VCALENDAR`` (UTF-8 bytes, CRLF line ends).

    Args:
        events: the timetable.
        user: whose timetable it is (the calendar's name unless ``name`` is given).
        timezone: IANA name of the case's time zone; times get a ``TZID`` and a ``VTIMEZONE``.
        case_id: used in every ``UID``.
        name: the calendar's display name (``X-WR-CALNAME``).
        sequences: event id -> ``SEQUENCE`` (how often it changed; 0 when not given).
        dtstamp: the ``DTSTAMP`` of every event (default: now, UTC; pass one for the same bytes).
    """
    zone = _zone(timezone)
    stamp = (dtstamp or datetime.now(dt_timezone.utc)).astimezone(dt_timezone.utc).replace(microsecond=0)
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", _Text(name if name is not None else f"{user} ({case_id})"))
    if timezone:
        cal.add("x-wr-timezone", timezone)
    for ev in events:
        cal.add_component(_vevent(ev, zone, case_id, stamp, (sequences or {}).get(ev.id, 0)))
    if zone is not None:
        # VTIMEZONE only over the years the events use: vobject (and calendar apps that read the
        # definition rather than the name) misread icalendar's default 1970-2038 table.
        years = [parse_time(v).year for ev in events for v in (ev.start, ev.end) if v is not None] or [stamp.year]
        cal.add_missing_timezones(first_date=date(max(min(years) - 1, 1), 1, 1),
                                  last_date=date(min(max(years) + 2, 9999), 1, 1))
    return cal.to_ical()


def _vevent(ev: Event, zone: tzinfo | None, case_id: str, stamp: datetime, sequence: int) -> icalendar.Event:
    out = icalendar.Event()
    out.add("uid", make_uid(case_id, ev.id))
    out.add("dtstamp", stamp)
    out.add("sequence", sequence)
    if ev.start is not None:
        out.add("dtstart", _ical_time(ev.start, zone))
    if ev.end is not None:
        if ev.start is not None and is_date(ev.end) == is_date(ev.start):
            end = _ical_time(ev.end, zone)
            if is_date(ev.end):
                end = end + timedelta(days=1)  # all-day: DTEND is exclusive
            out.add("dtend", end)
        else:  # DTEND must have DTSTART's value type, and needs a DTSTART
            out.add(END_X.lower(), _Text(ev.end))
    if ev.description is not None:
        out.add("summary", _Text(ev.description))
    if ev.location is not None:
        out.add("location", _Text(ev.location))
    if ev.participants:
        out.add("description", _Text("With: " + ", ".join(ev.participants)))
    for person in ev.participants:
        out.add(PARTICIPANT.lower(), _Text(person))
    return out


def _read_time(value: object, zone: tzinfo | None) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is not None and zone is not None and getattr(value.tzinfo, "key", None) != getattr(
            zone, "key", object()
        ):
            value = value.astimezone(zone)
        return format_time(value)
    if isinstance(value, date):
        return format_date(value)
    raise IcsError(f"unsupported date-time value {value!r}")


def _attendee_name(addr: object) -> str:
    text = str(addr)
    if text.startswith(PERSON_URN):
        return unquote(text[len(PERSON_URN) :])
    cn = getattr(addr, "params", {}).get("CN")
    if cn is not None:
        return str(cn)
    return text.removeprefix("mailto:").removeprefix("MAILTO:")


def _is_recurring(comp: icalendar.Component) -> bool:
    return "RRULE" in comp or "RDATE" in comp


def _event(comp: icalendar.Component, raw: Mapping[str, object], zone: tzinfo | None, event_id: str) -> Event:
    start = _read_time(comp.decoded("dtstart"), zone) if "DTSTART" in comp else None
    end: str | None = None
    if "DTEND" in comp:
        end = _read_time(comp.decoded("dtend"), zone)
    elif "DURATION" in comp and "DTSTART" in comp:
        end = _read_time(comp.decoded("dtstart") + comp.decoded("duration"), zone)
    elif END_X in raw:
        end = str(raw[END_X])
    if end is not None and is_date(end) and is_date(start) and END_X not in raw:
        end = format_date(parse_time(end).date() - timedelta(days=1))
    if PARTICIPANT in raw:
        people = list(raw[PARTICIPANT])  # type: ignore[call-overload]
    else:
        attendees = comp.get("ATTENDEE", [])
        people = [_attendee_name(a) for a in (attendees if isinstance(attendees, list) else [attendees])]
    return Event(id=event_id, start=start, end=end, location=raw.get("LOCATION"),  # type: ignore[arg-type]
                 participants=people, description=raw.get("SUMMARY"))  # type: ignore[arg-type]


def _occurrences(cal: icalendar.Calendar, uid: str, horizon: tuple[str, str], zone: tzinfo | None,
                 ) -> list[icalendar.Component]:
    import recurring_ical_events

    lo, hi = (parse_time(v).replace(tzinfo=zone) if zone is not None else parse_time(v) for v in horizon)
    only = icalendar.Calendar()
    for comp in cal.subcomponents:
        if comp.name == "VTIMEZONE" or (comp.name == "VEVENT" and str(comp.get("UID")) == uid):
            only.add_component(comp)
    return list(recurring_ical_events.of(only).between(lo, hi))


def ics_to_events(
    data: bytes | str, *, timezone: str | None = None, horizon: tuple[str, str] | None = None,
) -> list[Event]:
    """Read the ``VEVENT``s of an iCalendar file back into events, in file order.

    Args:
        data: the file's content.
        timezone: IANA zone whose wall time aware date-times are turned into; default the
            calendar's ``X-WR-TIMEZONE``, else each time keeps its own zone's wall time.
        horizon: ``(start, end)`` times; a recurring event becomes its occurrences that overlap it
            (ids ``<id>#<start>``). Non-recurring events are read whatever their dates.

    Raises:
        IcsError: the content is not an iCalendar object, or it holds a recurring event and no
            ``horizon`` is given.
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    try:
        cal = icalendar.Calendar.from_ical(text)
        texts = _raw_event_texts(text)
    except ValueError as exc:
        raise IcsError(f"not an iCalendar file: {exc}") from None
    zone_name = timezone or (str(cal["X-WR-TIMEZONE"]) if "X-WR-TIMEZONE" in cal else None)
    zone = _zone(zone_name)
    events: list[Event] = []
    vevents = [c for c in cal.subcomponents if c.name == "VEVENT"]
    if len(vevents) != len(texts):
        raise IcsError("unexpected nesting of VEVENT components")
    recurring_uids = {str(c.get("UID")) for c in vevents if _is_recurring(c)}
    for k, (comp, raw) in enumerate(zip(vevents, texts), start=1):
        uid = str(comp["UID"]) if "UID" in comp else None
        ids = split_uid(uid) if uid else None
        event_id = ids[1] if ids else (uid or f"e{k}")
        if uid in recurring_uids:
            if not _is_recurring(comp):
                continue  # a moved occurrence: the expansion of its series brings it
            summary = raw.get("SUMMARY")
            if horizon is None:
                raise IcsError(f"VEVENT {k} ({summary or uid}) repeats ({'RRULE' if 'RRULE' in comp else 'RDATE'}): "
                               "recurring events are expanded only within a case's time span; give one")
            for occ in _occurrences(cal, str(uid), horizon, zone):
                occ_raw = {key: str(occ[key]) for key in ("SUMMARY", "LOCATION") if key in occ}
                ev = _event(occ, occ_raw, zone, event_id)
                events.append(ev.model_copy(update={"id": f"{event_id}#{ev.start}"}))
            continue
        events.append(_event(comp, raw, zone, event_id))
    return events


def has_recurring(data: bytes | str) -> bool:
    """Whether the calendar holds a recurring event (``RRULE`` or ``RDATE``)."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    try:
        cal = icalendar.Calendar.from_ical(text)
    except ValueError as exc:
        raise IcsError(f"not an iCalendar file: {exc}") from None
    return any(c.name == "VEVENT" and _is_recurring(c) for c in cal.subcomponents)


def first_start(data: bytes | str, *, timezone: str | None = None) -> str | None:
    """The earliest ``DTSTART`` of the file's events (a series counts by its first occurrence)."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    cal = icalendar.Calendar.from_ical(text)
    zone = _zone(timezone or (str(cal["X-WR-TIMEZONE"]) if "X-WR-TIMEZONE" in cal else None))
    starts = [_read_time(c.decoded("dtstart"), zone) for c in cal.subcomponents
              if c.name == "VEVENT" and "DTSTART" in c]
    return min(starts, key=lambda v: parse_time(v)) if starts else None


__all__ = [
    "IcsError", "count_changes", "first_start", "has_recurring", "ics_to_events", "make_uid", "split_uid",
    "timetable_to_ics",
]
