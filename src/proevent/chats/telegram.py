"""Telegram Desktop's JSON export (``result.json``): one chat, or the full export with ``chats.list``.

- A message's ``text`` is a string or a list of plain strings and entity objects
  (``{"type": "bold", "text": "..."}``); the entities' texts are joined. A message with no text
  but a photo, file, sticker, poll, location or contact becomes a placeholder (``<photo>``,
  ``<sticker 👍>``, ``<poll: Which day?>``) and is noted in the report.
- ``service`` messages (group created, members invited, calls, pins) are not messages: they are
  noted, and the people they name are members of the chat.
- Times: ``date`` is the exporting computer's wall time; with ``timezone`` the exact
  ``date_unixtime`` is turned into that zone's wall time instead.
- Chat types: ``personal_chat`` and ``bot_chat`` are direct chats, groups, supergroups and
  channels are groups; ``saved_messages`` (notes to oneself) is left out, with a note.

A report line gives the file's line of the message when the export is pretty-printed (as
Telegram writes it), else the message's place (``chats.list[2].messages[7]``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from proevent.chats.parsed import ParsedChat, RawMessage
from proevent.chats.report import ChatImportError, ImportReport

_DIRECT = {"personal_chat", "bot_chat"}
_GROUP = {"private_group", "private_supergroup", "public_supergroup", "private_channel", "public_channel"}
_SKIPPED = {"saved_messages"}
_ID_LINE = re.compile(r'^\s*"id": ')


def _objects_with_id(node: Any) -> Iterator[int]:
    """``id(obj)`` of every JSON object with an ``"id"`` key, in document order."""
    if isinstance(node, dict):
        if "id" in node:
            yield id(node)
        for value in node.values():
            yield from _objects_with_id(value)
    elif isinstance(node, list):
        for value in node:
            yield from _objects_with_id(value)


def _line_numbers(text: str, data: Any) -> dict[int, int]:
    """Map ``id(obj)`` -> the file line of its ``"id":`` key, for pretty-printed exports."""
    lines = [k for k, line in enumerate(text.split("\n"), start=1) if _ID_LINE.match(line)]
    objs = list(_objects_with_id(data))
    return dict(zip(objs, lines)) if len(lines) == len(objs) else {}


def flatten_text(value: Any) -> str:
    """The plain text of a message's ``text`` field (a string, or a list of strings and entities)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(part if isinstance(part, str) else str(part.get("text", "")) if isinstance(part, dict) else ""
                       for part in value)
    return ""


def _placeholder(msg: dict[str, Any]) -> str | None:
    if "poll" in msg and isinstance(msg["poll"], dict):
        return f"<poll: {msg['poll'].get('question', '')}>"
    if "location_information" in msg:
        return "<location>"
    if "contact_information" in msg:
        return "<contact>"
    media = msg.get("media_type")
    if media == "sticker":
        return f"<sticker {msg.get('sticker_emoji', '')}>".replace(" >", ">")
    if media:
        return f"<{media.replace('_', ' ')}>"
    if "photo" in msg:
        return "<photo>"
    if "file" in msg:
        return "<file>"
    return None


def _time(msg: dict[str, Any], zone: ZoneInfo | None) -> datetime:
    if zone is not None and "date_unixtime" in msg:
        return datetime.fromtimestamp(int(msg["date_unixtime"]), zone).replace(tzinfo=None)
    return datetime.fromisoformat(str(msg["date"]))


def _chat(obj: dict[str, Any], where: str, source: str, lines: dict[int, int], report: ImportReport,
          zone: ZoneInfo | None) -> ParsedChat | None:
    ctype = str(obj.get("type", ""))
    name = str(obj.get("name") or f"chat {obj.get('id', '?')}")
    line = lines.get(id(obj))
    if ctype in _SKIPPED:
        report.note(source, line, "skipped_chat", f"{where}: {ctype} {name!r} left out (notes to oneself)")
        return None
    chat = ParsedChat(name=name, source=source,
                      kind="direct" if ctype in _DIRECT else "group" if ctype in _GROUP else None)
    if chat.kind is None:
        report.problem(source, line, "unknown_chat_type", f"{where}: chat type {ctype!r}; read as a group")
        chat.kind = "group"
    messages = obj.get("messages")
    if not isinstance(messages, list):
        report.problem(source, line, "no_messages", f"{where}: no messages list")
        return chat
    for k, msg in enumerate(messages):
        spot = f"{where}.messages[{k}]"
        mline = lines.get(id(msg)) if isinstance(msg, dict) else None
        at = spot if mline is None else f"{spot} (id {msg.get('id')})"
        if not isinstance(msg, dict):
            report.problem(source, None, "bad_message", f"{spot}: not an object")
            continue
        kind = msg.get("type")
        if kind == "service":
            for person in [msg.get("actor"), *(msg.get("members") or [])]:
                if isinstance(person, str):
                    chat.add_member(person)
            report.note(source, mline, "service", f"{at}: {msg.get('action', 'service message')}")
            continue
        if kind != "message":
            report.problem(source, mline, "unknown_message_type", f"{at}: type {kind!r}; left out")
            continue
        try:
            when = _time(msg, zone)
        except (KeyError, ValueError, TypeError, OverflowError):
            report.problem(source, mline, "bad_date", f"{at}: cannot read date {msg.get('date')!r}; left out")
            continue
        sender = msg.get("from")
        if not isinstance(sender, str) or not sender.strip():
            sender = "Deleted Account"
            report.note(source, mline, "no_sender", f"{at}: no sender (a deleted account); kept as {sender!r}")
        text = flatten_text(msg.get("text"))
        placeholder = _placeholder(msg)
        if placeholder is not None:
            text = f"{placeholder} {text}".strip()
            report.note(source, mline, "media", f"{at}: kept as {text[:60]!r}")
        elif not text:
            report.problem(source, mline, "empty_message", f"{at}: no text and no known media; left out")
            continue
        chat.messages.append(RawMessage(time=when, sender=sender.strip(), text=text, file=source, line=mline))
        chat.add_member(sender.strip())
    return chat


def read_telegram(path: str | Path, report: ImportReport, *, timezone: str | None = None) -> list[ParsedChat]:
    """The chats of a Telegram Desktop ``result.json`` (see the module docstring).

    Raises:
        ChatImportError: the file is not JSON, or is neither a chat nor a full export.
    """
    p = Path(path)
    text = p.read_bytes().decode("utf-8-sig")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ChatImportError([f"{p}: not a JSON file ({exc})"]) from None
    zone = ZoneInfo(timezone) if timezone else None
    lines = _line_numbers(text, data)
    if isinstance(data, dict) and isinstance(data.get("chats"), dict) and isinstance(data["chats"].get("list"), list):
        found = [(f"chats.list[{k}]", obj) for k, obj in enumerate(data["chats"]["list"])]
    elif isinstance(data, dict) and isinstance(data.get("messages"), list):
        found = [("chat", data)]
    else:
        raise ChatImportError([f"{p}: not a Telegram export (expected 'messages' or 'chats.list')"])
    out = []
    for where, obj in found:
        if not isinstance(obj, dict):
            report.problem(str(p), None, "bad_chat", f"{where}: not an object")
            continue
        chat = _chat(obj, where, str(p), lines, report, zone)
        if chat is not None:
            out.append(chat)
    return out


def telegram_owner(path: str | Path) -> str | None:
    """The exporting user's name in a full export (``personal_information``), if given."""
    try:
        data = json.loads(Path(path).read_bytes().decode("utf-8-sig"))
    except (OSError, ValueError):
        return None
    info = data.get("personal_information") if isinstance(data, dict) else None
    if not isinstance(info, dict):
        return None
    name = " ".join(str(info.get(k) or "") for k in ("first_name", "last_name")).strip()
    return name or None


__all__ = ["flatten_text", "read_telegram", "telegram_owner"]
