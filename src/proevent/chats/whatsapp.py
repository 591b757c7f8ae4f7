"""WhatsApp's "Export chat" text file (``.txt``, or the ``.zip`` holding it), in its locale variants.

One message starts a line with its date and time; lines that do not are the message's next lines::

    12/31/24, 9:15 PM - Ana Ruiz: hi          (Android, US: month first, 12-hour clock)
    31/12/2024, 21:15 - Ana Ruiz: hi          (Android, most locales: day first)
    31.12.24, 21:15 - Ana Ruiz: hi            (Android, German)
    2024-12-31, 21:15 - Ana Ruiz: hi          (Android, ISO dates)
    [31.12.24, 21:15:03] Ana Ruiz: hi         (iOS, seconds)
    [12/31/24, 9:15:03 PM] Ana Ruiz: hi       (iOS, US)

Whether ``03/04/24`` is March or April is decided per file: an order under which some date is
impossible, or the dates run backwards, is ruled out; when both orders still fit, a 12-hour clock
means month first, else day first, and the report says the file was ambiguous (``date_order``
overrides it). Lines without a sender (Android) or whose text starts with the invisible mark
WhatsApp puts on its own notices (iOS) are system lines ("Messages and calls are end-to-end
encrypted", "Ana added Tom"): they are left out of the messages and noted in the report; the
people a system line adds or removes are members of the chat. Media placeholders
(``<Media omitted>``, ``image omitted``, ``<attached: ...>``) stay as messages, so that "see the
photo" keeps its context, and are noted too.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from proevent.chats.parsed import ParsedChat, RawMessage
from proevent.chats.report import ImportReport

DateOrder = Literal["auto", "dmy", "mdy", "ymd"]
DATE_ORDERS: tuple[str, ...] = ("auto", "dmy", "mdy", "ymd")

_LRM = "\u200e"
_TIME = r"\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?: ?[AaPp]\.? ?[Mm]\.?)?"
_DATE = r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}"
_ANDROID = re.compile(rf"^(?P<date>{_DATE}),? (?P<time>{_TIME}) [-\u2013] (?P<rest>.*)$")
_IOS = re.compile(rf"^\[(?P<date>{_DATE}),? (?P<time>{_TIME})\] (?P<rest>.*)$")
_CLOCK = re.compile(r"(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?(?: ?([AaPp])\.? ?[Mm]\.?)?$")
_MEDIA = re.compile(
    r"^(?:<[^<>]*(?:omitted|ausgeschlossen|omitido|omis|omessi)[^<>]*>|<attached: [^<>]+>"
    r"|(?:.* )?(?:image|video|audio|sticker|GIF|document|Contact card) omitted)$", re.IGNORECASE)
_EDITED = re.compile(r"\s*<This message was edited>$")
_ADDED = re.compile(r"^(?P<actor>.+?) added (?P<who>.+)$")
_JOINED = re.compile(r"^(?P<who>.+?) (?:joined using this group's invite link|joined|left|was removed)$")
_REMOVED = re.compile(r"^(?P<actor>.+?) removed (?P<who>.+)$")
_CREATED = re.compile(r"^(?P<actor>.+?) created (?:group|this group)\b")
_GROUP_HINTS = re.compile(r"\b(?:group|added|removed|left|joined)\b", re.IGNORECASE)
_NAME_PREFIXES = re.compile(
    r"^(?:WhatsApp Chat with |WhatsApp Chat - |WhatsApp-Chat mit |Chat de WhatsApp con |Chat WhatsApp con "
    r"|Discussion WhatsApp avec |WhatsApp-chat met )", re.IGNORECASE)


@dataclass
class _Header:
    line: int
    date: str
    time: str
    rest: str
    ios: bool


def chat_name_from_file(path: Path) -> str:
    """``WhatsApp Chat with Ana Ruiz.txt`` -> ``Ana Ruiz`` (a few locales; otherwise the file's stem)."""
    return _NAME_PREFIXES.sub("", path.stem).strip() or path.stem


def read_whatsapp(path: str | Path, report: ImportReport, *, date_order: DateOrder = "auto") -> list[ParsedChat]:
    """The chats of a WhatsApp export: a ``.txt`` file, or a ``.zip`` with one ``.txt`` per chat.

    Raises:
        ChatImportError: never for a bad line (those go to ``report``); ``OSError`` when unreadable.
    """
    p = Path(path)
    if p.suffix.lower() == ".zip":
        out: list[ParsedChat] = []
        with zipfile.ZipFile(p) as zf:
            names = [n for n in zf.namelist() if n.lower().endswith(".txt")]
            if not names:
                report.problem(str(p), None, "no_chat", "the archive holds no .txt chat file")
            for member in names:
                text = zf.read(member).decode("utf-8-sig", errors="replace")
                stem = Path(member).name
                name = chat_name_from_file(p) if stem == "_chat.txt" or len(names) == 1 else chat_name_from_file(
                    Path(member))
                out.append(parse_whatsapp(text, name=name, source=f"{p}!{member}", report=report,
                                          date_order=date_order))
        return out
    text = p.read_bytes().decode("utf-8-sig", errors="replace")
    return [parse_whatsapp(text, name=chat_name_from_file(p), source=str(p), report=report, date_order=date_order)]


def _clean(line: str) -> str:
    return line.replace("\u202f", " ").replace("\u00a0", " ").rstrip("\r")


def _headers(lines: list[str]) -> dict[int, _Header]:
    out: dict[int, _Header] = {}
    for k, raw in enumerate(lines, start=1):
        line = _clean(raw).lstrip(_LRM)
        m = _IOS.match(line)
        ios = m is not None
        m = m or _ANDROID.match(line)
        if m:
            out[k] = _Header(k, m["date"], m["time"], m["rest"], ios)
    return out


def _date_parts(text: str) -> tuple[int, int, int] | None:
    parts = re.split(r"[./-]", text)
    if len(parts) != 3:
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


def _make_date(parts: tuple[int, int, int], order: str) -> tuple[int, int, int] | None:
    a, b, c = parts
    if order == "ymd":
        y, mo, d = a, b, c
    elif order == "dmy":
        d, mo, y = a, b, c
    else:
        mo, d, y = a, b, c
    if y < 100:
        y += 2000
    try:
        datetime(y, mo, d)
    except ValueError:
        return None
    return y, mo, d


def _choose_order(headers: Iterable[_Header], wanted: DateOrder, source: str, report: ImportReport) -> str:
    parts = [p for h in headers if (p := _date_parts(h.date)) is not None]
    if wanted != "auto":
        return wanted
    if parts and all(len(str(p[0])) == 4 or p[0] > 31 for p in parts):
        return "ymd"
    fits: list[str] = []
    for order in ("dmy", "mdy"):
        dates = [_make_date(p, order) for p in parts]
        if all(d is not None for d in dates) and all(x <= y for x, y in zip(dates, dates[1:])):  # type: ignore[operator]
            fits.append(order)
    if len(fits) == 1:
        return fits[0]
    if not fits:  # some line is bad under both orders: take the order most lines fit
        best = max(("dmy", "mdy"), key=lambda o: sum(_make_date(p, o) is not None for p in parts))
        return best
    twelve = any(re.search(r"[AaPp]\.? ?[Mm]", h.time) for h in headers)
    order = "mdy" if twelve else "dmy"
    if any(p[0] != p[1] and p[0] <= 12 and p[1] <= 12 for p in parts):
        report.note(source, None, "ambiguous_dates",
                    f"every date fits both day/month and month/day; read as {'month' if twelve else 'day'} first "
                    f"({'12' if twelve else '24'}-hour clock); pass --date-order to choose")
    return order


def _clock(text: str) -> tuple[int, int, int] | None:
    m = _CLOCK.match(text.strip())
    if not m:
        return None
    h, mi, s = int(m[1]), int(m[2]), int(m[3] or 0)
    if m[4]:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if m[4].lower() == "p" else 0)
    if h > 23 or mi > 59 or s > 59:
        return None
    return h, mi, s


def _system(chat: ParsedChat, text: str) -> None:
    """People a system line adds to the chat, and whether it says the chat is a group."""
    text = text.strip().lstrip(_LRM)
    if _GROUP_HINTS.search(text) and not text.lower().startswith("messages and calls"):
        chat.kind = "group"
    for pattern in (_ADDED, _REMOVED, _JOINED, _CREATED):
        m = pattern.match(text)
        if not m:
            continue
        for key in ("actor", "who"):
            if key in m.groupdict():
                for name in re.split(r", | and ", m[key]):
                    if name and name.lower() not in ("you", "you were"):
                        chat.add_member(name.strip())
        break


def parse_whatsapp(text: str, *, name: str, source: str, report: ImportReport,
                   date_order: DateOrder = "auto") -> ParsedChat:
    """One chat from the text of an export file (see the module docstring)."""
    if date_order not in DATE_ORDERS:
        raise ValueError(f"unknown date order {date_order!r}; use one of {', '.join(DATE_ORDERS)}")
    lines = text.replace("\r\n", "\n").split("\n")
    headers = _headers(lines)
    order = _choose_order(headers.values(), date_order, source, report)
    chat = ParsedChat(name=name, source=source)
    current: RawMessage | None = None
    in_system = False
    for k, raw in enumerate(lines, start=1):
        header = headers.get(k)
        if header is None:
            if current is not None and not in_system:
                current.text += "\n" + _clean(raw)
            elif in_system:
                if raw.strip():
                        report.note(source, k, "system", f"next line of a system line: {_clean(raw)[:80]!r}")
            elif raw.strip():
                report.problem(source, k, "not_a_message", f"no date and time at the start: {_clean(raw)[:80]!r}")
            continue
        parts = _date_parts(header.date)
        ymd = _make_date(parts, order) if parts else None
        clock = _clock(header.time)
        if ymd is None or clock is None:
            what = "date" if ymd is None else "time"
            report.problem(source, k, f"bad_{what}", f"cannot read {header.date}, {header.time} "
                           f"({'date order ' + order if ymd is None else 'clock'}); line left out")
            current, in_system = None, True
            continue
        when = datetime(*ymd, *clock)
        sender, sep, body = header.rest.partition(": ")
        if not sep and header.rest.endswith(":"):  # an empty message ("Ana:")
            sender, sep, body = header.rest[:-1], ":", ""
        if not sep or (header.ios and body.startswith(_LRM) and not _MEDIA.match(body.lstrip(_LRM))):
            _system(chat, body if sep else header.rest)
            report.note(source, k, "system", (body if sep else header.rest).lstrip(_LRM)[:120])
            current, in_system = None, True
            continue
        body = _EDITED.sub("", body.lstrip(_LRM))
        if _MEDIA.match(body.strip()):
            report.note(source, k, "media", f"kept as a message: {body.strip()[:80]!r}")
        sender = sender.strip().lstrip(_LRM).strip()
        current = RawMessage(time=when, sender=sender, text=body, file=source, line=k)
        chat.messages.append(current)
        chat.add_member(sender)
        in_system = False
    for msg in chat.messages:
        msg.text = msg.text.rstrip()
    if not chat.messages:
        report.problem(source, None, "no_messages", "no message found (is this a WhatsApp chat export?)")
    return chat


__all__ = ["DATE_ORDERS", "DateOrder", "chat_name_from_file", "parse_whatsapp", "read_whatsapp"]
