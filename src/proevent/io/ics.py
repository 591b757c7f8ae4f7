"""iCalendar export and import of a timetable (RFC 5545, through the ``icalendar`` library).

Mapping of an :class:`~proevent.model.Event` to a ``VEVENT``:

- ``start``/``end``: ``DTSTART``/``DTEND``. A time is a local time, written with ``TZID`` when the
  case names its time zone and as a floating time otherwise; a date is ``VALUE=DATE``. When both
  are dates, ``DTEND`` is the day *after* ``end`` (iCalendar's all-day end is exclusive) and
  reading subtracts the day again. ``null`` leaves the property out.
- ``location``: ``LOCATION``; ``description``: ``SUMMARY`` (``null`` leaves them out).
- ``participants``: one ``ATTENDEE`` per name, in order, the name shown in ``CN`` and encoded
  exactly in a ``urn:proevent:person:`` address (reading prefers the address, then ``CN``, then
  the ``mailto:`` local part).
- ``UID``: ``<case id>/<event id>@proevent``, both parts percent-encoded, so the ids come back.

Reading accepts calendars from other tools too: a foreign ``UID`` becomes the event id,
an aware time is turned into the wall time of ``timezone`` (or of the calendar's
``X-WR-TIMEZONE``, or else kept in its own zone).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta, tzinfo
from urllib.parse import quote, unquote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import icalendar
from icalendar.parser import Contentlines

from proevent import __version__
from proevent.model import Event
from proevent.model.times import format_date, format_time, is_date, parse_time

PRODID = f"-//proevent//proevent {__version__}//EN"
UID_SUFFIX = "@proevent"
PERSON_URN = "urn:proevent:person:"


_TEXT_PROPERTIES = ("SUMMARY", "LOCATION")
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


def _raw_event_texts(data: str) -> list[dict[str, str]]:
    """SUMMARY and LOCATION of every top-level VEVENT, in order, unescaped in one pass."""
    out: list[dict[str, str]] = []
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


def timetable_to_ics(
    events: Sequence[Event],
    *,
    user: str,
    timezone: str | None = None,
    case_id: str = "timetable",
    name: str | None = None,
) -> bytes:
    """The timetable as an iCalendar ``VCALENDAR`` (UTF-8 bytes, CRLF line ends).

    Args:
        events: the timetable.
        user: whose timetable it is (the calendar's name unless ``name`` is given).
        timezone: IANA name of the case's time zone; times get a ``TZID`` and a ``VTIMEZONE``.
        case_id: used in every ``UID``.
        name: the calendar's display name (``X-WR-CALNAME``).
    """
    zone = _zone(timezone)
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", _Text(name if name is not None else f"{user} ({case_id})"))
    if timezone:
        cal.add("x-wr-timezone", timezone)
    for ev in events:
        cal.add_component(_vevent(ev, zone, case_id))
    if zone is not None:
        cal.add_missing_timezones()
    return cal.to_ical()


def _vevent(ev: Event, zone: tzinfo | None, case_id: str) -> icalendar.Event:
    out = icalendar.Event()
    out.add("uid", make_uid(case_id, ev.id))
    out.add("dtstamp", datetime(1970, 1, 1, tzinfo=ZoneInfo("UTC")))  # fixed: same timetable, same bytes
    if ev.start is not None:
        out.add("dtstart", _ical_time(ev.start, zone))
    if ev.end is not None:
        end = _ical_time(ev.end, zone)
        if is_date(ev.end) and is_date(ev.start):
            end = end + timedelta(days=1)  # all-day: DTEND is exclusive
        out.add("dtend", end)
    if ev.description is not None:
        out.add("summary", _Text(ev.description))
    if ev.location is not None:
        out.add("location", _Text(ev.location))
    for person in ev.participants:
        out.add("attendee", PERSON_URN + quote(person, safe=""), parameters={"CN": _display_name(person)})
    return out


def _display_name(person: str) -> str:
    """The ``CN`` of a participant: icalendar cannot round-trip a backslash in a parameter (it reads
    ``CN=\\:`` as an escaped colon), so it is shown as the look-alike U+29F5; the exact name is in
    the attendee's ``urn:proevent:person:`` address, which reading prefers."""
    return person.replace("\\", "\u29f5")


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


def ics_to_events(data: bytes | str, *, timezone: str | None = None) -> list[Event]:
    """Read the ``VEVENT``s of an iCalendar file back into events, in file order.

    Args:
        data: the file's content.
        timezone: IANA zone whose wall time aware date-times are turned into; default the
            calendar's ``X-WR-TIMEZONE``, else each time keeps its own zone's wall time.

    Raises:
        IcsError: when the content is not an iCalendar object.
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
    for k, (comp, raw) in enumerate(zip(vevents, texts), start=1):
        start = _read_time(comp.decoded("dtstart"), zone) if "DTSTART" in comp else None
        end = _read_time(comp.decoded("dtend"), zone) if "DTEND" in comp else None
        if end is not None and is_date(end) and is_date(start):
            end = format_date(parse_time(end).date() - timedelta(days=1))
        uid = str(comp["UID"]) if "UID" in comp else None
        ids = split_uid(uid) if uid else None
        event_id = ids[1] if ids else (uid or f"e{k}")
        attendees = comp.get("ATTENDEE", [])
        if not isinstance(attendees, list):
            attendees = [attendees]
        events.append(
            Event(
                id=event_id,
                start=start,
                end=end,
                location=raw.get("LOCATION"),
                participants=[_attendee_name(a) for a in attendees],
                description=raw.get("SUMMARY"),
            )
        )
    return events


__all__ = ["IcsError", "ics_to_events", "make_uid", "split_uid", "timetable_to_ics"]
