"""Several exports of one person become one case: chats, members, the user, one clock, windows.

- Every export is read by its format (:func:`load_exports`): a ``.json`` file (or a folder holding
  ``result.json``) is Telegram Desktop's, a ``.txt`` or ``.zip`` file WhatsApp's.
- Chats of the same name and kind from different files (the same chat exported twice) are merged
  and their duplicate messages (same time, sender and text) counted once.
- The user is the person named by ``user``, ignoring letter case (the spelling with most
  messages is kept); ``aliases`` are other names of the user in some export (a WhatsApp profile
  name, say) and become that name too.
- Messages of all chats are put on one clock (time order, file order within a minute) and cut into
  consecutive windows of ``window_minutes`` from ``start`` (default: the first message's hour).
- Steps carry no gold: ``gold_ops`` is empty and each ``gold_timetable`` is S_0, to be annotated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from proevent.chats.parsed import ParsedChat, RawMessage
from proevent.chats.report import ChatImportError, ImportReport
from proevent.chats.telegram import read_telegram
from proevent.chats.whatsapp import DateOrder, read_whatsapp
from proevent.model import Case, Chat, Event, Message, Step
from proevent.model.times import format_time, parse_time


@dataclass
class ChatImport:
    """The case built from the exports, with everything the import noticed."""

    case: Case
    report: ImportReport
    chats: list[ParsedChat]


def load_exports(paths: Sequence[str | Path], report: ImportReport, *, date_order: DateOrder = "auto",
                 timezone: str | None = None) -> list[ParsedChat]:
    """The chats of every export, in argument order.

    Raises:
        ChatImportError: a path is missing or of no known format.
    """
    out: list[ParsedChat] = []
    bad: list[str] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir() and (p / "result.json").is_file():
            p = p / "result.json"
        if not p.is_file():
            bad.append(f"{p}: file not found")
            continue
        suffix = p.suffix.lower()
        try:
            if suffix == ".json":
                out += read_telegram(p, report, timezone=timezone)
            elif suffix in (".txt", ".zip"):
                out += read_whatsapp(p, report, date_order=date_order)
            else:
                bad.append(f"{p}: unknown export format (expected WhatsApp .txt/.zip or Telegram result.json)")
        except ChatImportError as exc:
            bad += exc.lines
        except OSError as exc:
            bad.append(f"{p}: {exc.strerror or exc}")
        except UnicodeDecodeError as exc:
            bad.append(f"{p}: not UTF-8 text ({exc.reason})")
    if bad:
        raise ChatImportError(bad)
    return out


def _merge(chats: list[ParsedChat], report: ImportReport) -> list[ParsedChat]:
    merged: dict[tuple[str, str | None], ParsedChat] = {}
    for chat in chats:
        key = (chat.name, chat.kind)
        if key not in merged:
            merged[key] = ParsedChat(chat.name, chat.source, list(chat.messages), list(chat.members), chat.kind)
            continue
        into = merged[key]
        seen = {(m.time, m.sender, m.text) for m in into.messages}
        fresh = [m for m in chat.messages if (m.time, m.sender, m.text) not in seen]
        report.note(chat.source, None, "merged", f"chat {chat.name!r} also in {into.source}: "
                    f"{len(chat.messages) - len(fresh)} duplicate messages counted once")
        into.messages = sorted([*into.messages, *fresh], key=lambda m: m.time)
        for member in chat.members:
            into.add_member(member)
    return list(merged.values())


def resolve_user(chats: Sequence[ParsedChat], user: str) -> str:
    """The user's name as the exports write it.

    Raises:
        ChatImportError: nobody of that name is in the exports (the most active names are listed).
    """
    names: dict[str, int] = {}
    for chat in chats:
        for member in chat.members:
            names.setdefault(member, 0)
        for m in chat.messages:
            names[m.sender] = names.get(m.sender, 0) + 1
    folded = [n for n in names if n.casefold() == user.casefold()]
    if folded:  # the spelling with most messages (exports may differ in letter case)
        return max(folded, key=lambda n: (names[n], n == user))
    top = sorted(names, key=lambda n: -names[n])[:12]
    raise ChatImportError([f"--user {user!r} is not a member of any chat in the exports; names found: "
                           + ", ".join(repr(n) for n in top)])


def _rename(chats: list[ParsedChat], aliases: Sequence[str], user: str) -> None:
    folded = {a.casefold() for a in aliases}
    for chat in chats:
        chat.members = list(dict.fromkeys(user if m.casefold() in folded else m for m in chat.members))
        for m in chat.messages:
            if m.sender.casefold() in folded:
                m.sender = user


def _case_chats(chats: list[ParsedChat], user: str) -> list[Chat]:
    out = []
    for k, chat in enumerate(chats, start=1):
        others = [m for m in chat.members if m != user]
        kind = chat.kind
        if kind is None:
            kind = "direct" if len(others) <= 1 else "group"
        if kind == "direct" and not others:
            others = [chat.name]  # only the user wrote: the contact is the one the chat is named after
        if kind == "direct" and len(others) > 1:
            kind = "group"
        out.append(Chat(chat_id=f"c{k}", name=chat.name, type=kind, members=[user, *others]))
    return out


def _floor_hour(t: datetime) -> datetime:
    return t.replace(minute=0, second=0, microsecond=0)


def build_case(
    chats: Sequence[ParsedChat],
    *,
    user: str,
    window_minutes: int,
    report: ImportReport,
    aliases: Sequence[str] = (),
    timezone: str | None = None,
    initial: Sequence[Event] = (),
    case_id: str = "chats-1",
    start: str | None = None,
    until: str | None = None,
) -> Case:
    """One case from the chats (see the module docstring).

    Args:
        start: the case's start (S_0); messages before it are left out (and counted in the report).
        until: messages at or after this time are left out (and counted).

    Raises:
        ChatImportError: the user is not found, the window is not positive, or no message is left.
    """
    if window_minutes <= 0:
        raise ChatImportError([f"the window must be at least one minute, not {window_minutes}"])
    chats = _merge(list(chats), report)
    try:
        resolved = resolve_user(chats, user)
    except ChatImportError:
        if not aliases:
            raise
        resolved = user
    _rename(chats, [*aliases, user], resolved)
    user = resolved
    case_chats = _case_chats(chats, user)
    stream: list[tuple[RawMessage, str]] = [(m, c.chat_id) for chat, c in zip(chats, case_chats) for m in chat.messages]
    stream.sort(key=lambda mc: mc[0].time)  # stable: file order within the same second
    lo = parse_time(start) if start else None
    hi = parse_time(until) if until else None
    kept = [(m, c) for m, c in stream if (lo is None or m.time >= lo) and (hi is None or m.time < hi)]
    if len(kept) < len(stream):
        report.note("(all exports)", None, "out_of_range",
                    f"{len(stream) - len(kept)} messages outside {start or '…'} – {until or '…'} left out")
    if not kept:
        raise ChatImportError(["no message to import" + (f" between {start or '…'} and {until or '…'}"
                                                            if start or until else "")])
    origin = lo if lo is not None else _floor_hour(kept[0][0].time)
    width = timedelta(minutes=window_minutes)
    n_steps = int((kept[-1][0].time.replace(second=0, microsecond=0) - origin) // width) + 1
    buckets: list[list[Message]] = [[] for _ in range(n_steps)]
    for m, chat_id in kept:
        k = int((m.time.replace(second=0, microsecond=0) - origin) // width)
        buckets[k].append(Message(chat_id=chat_id, time=format_time(m.time), sender=m.sender, text=m.text))
    people = [user]
    s0 = [ev.model_copy(update={"participants": ev.participants if user in ev.participants
                                else [*people, *ev.participants]}) for ev in initial]
    steps = [Step(t=k + 1, start=format_time(origin + k * width), end=format_time(origin + (k + 1) * width),
                  messages=msgs, gold_ops=[], gold_timetable=list(s0)) for k, msgs in enumerate(buckets)]
    return Case(case_id=case_id, user=user, timezone=timezone, start=format_time(origin), initial_timetable=s0,
                chats=case_chats, steps=steps,
                meta={"source": "chat-export", "window_minutes": window_minutes, "annotated": False})


__all__ = ["ChatImport", "build_case", "load_exports", "resolve_user"]
