"""Versioned prompt templates (package data ``data/prompts/<version>/*.txt``) and their rendering.

Templates use ``string.Template`` placeholders (``${user}``), so JSON braces need no escaping.
The exact template text of a strategy is recorded in ``run.json`` (``prompt.text`` and its sha256).

``v2`` (the default) is the lean prompt: a compact operation spec, one ``|``-separated line per
timetable event (past events by their day only), messages under day headings with first names.
``v1`` is kept unchanged for reproducibility (``--option prompt_version=v1``).

The *update prompt* (``--option update_prompt=true``, the paper's table 2 intervention, ``update.txt``
of each version) is appended to the end of the user message; the record then holds it too.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date
from functools import lru_cache
from importlib import resources
from string import Template
from typing import Any

from proevent.agents.protocol import ChatSpan, ChatUpdate, Observation, span_of
from proevent.model import Chat, Event, Message, Timetable

PROMPT_VERSION = "v2"
PROMPT_VERSIONS = ("v1", "v2")
STRATEGY_TEMPLATES: dict[str, str] = {
    "plain": "plain", "proactive": "proactive", "procot": "procot", "tools": "tools",
}
"""Strategy -> the template file holding its instructions (beside the shared system and user ones)."""


@lru_cache(maxsize=64)
def load_template(name: str, version: str = PROMPT_VERSION) -> str:
    if version not in PROMPT_VERSIONS:
        raise ValueError(f"unknown prompt version {version!r}; known: {', '.join(PROMPT_VERSIONS)}")
    path = resources.files("proevent.agents.llm").joinpath(f"data/prompts/{version}/{name}.txt")
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise ValueError(f"no prompt template {name!r} in version {version!r}") from None


def prompt_record(strategy: str, version: str = PROMPT_VERSION, update_prompt: bool = False) -> dict[str, Any]:
    """``run.json``'s ``prompt``: the templates of the strategy, concatenated, and their sha256
    (with the update prompt when it is on: ``update_prompt: true``)."""
    parts = [
        f"### system ({version}/system.txt + {version}/{STRATEGY_TEMPLATES[strategy]}.txt)",
        load_template("system", version), load_template(STRATEGY_TEMPLATES[strategy], version),
        f"### user ({version}/user.txt)", load_template("user", version),
        *([f"### update prompt, appended to the user message ({version}/update.txt)", load_template("update", version)]
          if update_prompt else []),
        f"### repair ({version}/repair.txt)", load_template("repair", version),
    ]
    text = "\n\n".join(parts)
    return {"sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "text": text, "version": version,
            **({"update_prompt": True} if update_prompt else {})}


_WEEKDAY_ABBR = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_WEEKDAY_NAME = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _stamp(time: str) -> str:
    """``2026-03-09T08:05`` -> ``2026-03-09 08:05 [Mon]`` (on the hot path: no strptime)."""
    return f"{time[:10]} {time[11:16]} [{_WEEKDAY_ABBR[date.fromisoformat(time[:10]).weekday()]}]"


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # one encoder, not one per event


def render_timetable(timetable: Timetable) -> str:
    if not len(timetable):
        return "(empty)"
    return "\n".join(
        _ENCODE({"id": ev.id, "start": ev.start, "end": ev.end, "location": ev.location,
                 "participants": ev.participants, "description": ev.description})
        for ev in timetable
    )


def render_messages(messages: list[Message]) -> str:
    return "\n".join(f"[{_stamp(m.time)}] {m.sender}: {m.text}" for m in messages)


def render_chats(obs: Observation) -> str:
    blocks = []
    for upd in obs.chats:
        chat = upd.chat
        members = ", ".join(chat.members)
        head = f'## Chat "{chat.name}" ({chat.type}; members: {members})'
        lines = [head]
        if upd.context:
            lines += ["Earlier messages:", render_messages(upd.context)]
        lines += ["New messages:", render_messages(upd.new)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) if blocks else "(no new messages)"


def _is_past(ev: Event, window_start: str) -> bool:
    last = ev.end or ev.start
    if last is None:
        return False
    return last < (window_start[:10] if len(last) == 10 else window_start[:16])


def _when(ev: Event, past: bool) -> str:
    """``2026-08-14T19:30-20:45`` (end on the start's day), ``S to E`` across days, a past
    event's day only, ``-`` for unknown."""
    start, end = ev.start, ev.end
    if past:
        return (start or end or "-")[:10]
    if start is None:
        return f"- to {end}" if end else "-"
    if end is None:
        return start
    if len(start) == 16 and len(end) == 16 and start[:10] == end[:10]:
        return f"{start}-{end[11:]}"
    return f"{start} to {end}"


def render_timetable_v2(timetable: Timetable, window_start: str) -> str:
    """One line per event: ``id | when | location | participants | description``. Events that
    ended before the window stay ("same place as last time" needs them) but show only their day.
    Each event's two lines are rendered once (:func:`_event_lines`): a case's timetables share their
    events from step to step; :func:`render_timetable_v2_plain` renders every line afresh."""
    if not len(timetable):
        return "(empty)"
    day, minute = window_start[:10], window_start[:16]
    out = []
    for ev in timetable:
        entry = _EVENT_LINES.get(id(ev))
        if entry is None or entry[0] is not ev:
            entry = _event_lines(ev)
        last = entry[1]
        out.append(entry[2] if last is not None and last < (day if len(last) == 10 else minute) else entry[3])
    return "\n".join(out)


def render_timetable_v2_plain(timetable: Timetable, window_start: str) -> str:
    """:func:`render_timetable_v2` with every line rendered afresh (the reference it is tested against)."""
    if not len(timetable):
        return "(empty)"
    return "\n".join(
        f"{ev.id} | {_when(ev, _is_past(ev, window_start))} | {ev.location or '-'} | "
        f"{', '.join(ev.participants) or '-'} | {ev.description or '-'}"
        for ev in timetable
    )


_EVENT_LINES: dict[int, tuple[Event, str | None, str, str]] = {}
_EVENT_LINES_SIZE = 1 << 14
"""Events whose lines are kept (by identity, with the event so that its id is not reused); emptied when full."""


def _event_lines(ev: Event) -> tuple[Event, str | None, str, str]:
    """``(ev, last, past line, line)`` of an event (events are frozen), kept in :data:`_EVENT_LINES`;
    ``last`` (its end, else its start) is what :func:`_is_past` compares with the window."""
    rest = f" | {ev.location or '-'} | {', '.join(ev.participants) or '-'} | {ev.description or '-'}"
    entry = (ev, ev.end or ev.start, f"{ev.id} | {_when(ev, True)}{rest}", f"{ev.id} | {_when(ev, False)}{rest}")
    if len(_EVENT_LINES) >= _EVENT_LINES_SIZE:
        _EVENT_LINES.clear()
    _EVENT_LINES[id(ev)] = entry
    return entry


_TITLES = {"dr", "prof", "mr", "mrs", "ms", "mx"}


def _short(name: str) -> str:
    """The first name, or a title with the surname ("Dr. Adler"): a title alone names nobody."""
    parts = name.split()
    if len(parts) > 1 and parts[0].rstrip(".").lower() in _TITLES:
        return f"{parts[0]} {parts[-1]}"
    return parts[0] if parts else name


def _aliases(members: list[str]) -> dict[str, str]:
    """Short names (:func:`_short`) where they are unique among the chat's members, else the full name."""
    return _aliases_of(tuple(members))


@lru_cache(maxsize=4096)
def _aliases_of(members: tuple[str, ...]) -> dict[str, str]:
    """:func:`_aliases`, once per chat's names (every step of a chat renders the same ones); read only."""
    short = {n: _short(n) for n in members}
    seen: dict[str, int] = {}
    for name in members:  # a name listed twice counts twice, as it always did
        seen[short[name]] = seen.get(short[name], 0) + 1
    return {n: short[n] if seen[short[n]] == 1 else n for n in members}


def render_messages_v2(messages: list[Message], alias: dict[str, str], day: list[str]) -> list[str]:
    out = []
    for m in messages:
        if m.time[:10] != day[0]:
            day[0] = m.time[:10]
            out.append(f"[{_WEEKDAY_ABBR[date.fromisoformat(day[0]).weekday()]} {day[0]}]")
        out.append(f"{m.time[11:16]} {alias.get(m.sender, m.sender)}: {m.text}")
    return out


def _chat_block_v2(upd: ChatUpdate) -> str:
    """One chat of :func:`render_chats_v2`: its heading, its earlier messages and its new ones."""
    chat = upd.chat
    alias = _aliases([*chat.members, *(m.sender for m in (*upd.context, *upd.new) if m.sender not in chat.members)])
    lines = [f'# "{chat.name}" ({chat.type}: {", ".join(chat.members)})']
    day = [""]
    if upd.context:
        lines += ["earlier:", *render_messages_v2(upd.context, alias, day)]
    lines += ["new:", *render_messages_v2(upd.new, alias, day)]
    return "\n".join(lines)


class _ChatLines:
    """A chat's messages rendered once per case (:class:`proevent.agents.protocol.CaseIndex`'s
    memo): each message's line, its day's heading, and the line as it follows the chat's previous
    message (under its day's heading where the day changed). A block of the chat's messages
    ``[a:e]`` takes the first message under its heading and the rest as they follow. Only for a
    chat whose every sender is a member: the names are then the members' aliases in every window
    (:func:`_aliases` of the members alone)."""

    __slots__ = ("heading", "lines", "days", "following", "blocks")

    def __init__(self, chat: Chat, messages: list[Message]) -> None:
        alias = _aliases(chat.members)
        self.heading = f'# "{chat.name}" ({chat.type}: {", ".join(chat.members)})'
        self.lines: list[str] = []
        self.days: list[str] = []
        self.following: list[str] = []
        headings, last = _DAY_HEADINGS, None
        for m in messages:
            time = m.time
            line = f"{time[11:16]} {alias.get(m.sender, m.sender)}: {m.text}"
            day = headings.get(time[:10]) or _day_heading(time[:10])
            self.lines.append(line)
            self.days.append(day)
            self.following.append(line if day == last else f"{day}\n{line}")
            last = day
        self.blocks: dict[tuple[int, int, int], str] = {}

    def block(self, a: int, s: int, e: int) -> str:
        """:func:`_chat_block_v2` of the update whose context is messages ``[a:s]`` and new ones ``[s:e]``."""
        key = (a, s, e)
        text = self.blocks.get(key)
        if text is None:
            if a < s:
                parts = [self.heading, "earlier:", self.days[a], self.lines[a], *self.following[a + 1:s], "new:",
                         *self.following[s:e]]
            else:
                parts = [self.heading, "new:", self.days[s], self.lines[s], *self.following[s + 1:e]]
            text = self.blocks[key] = "\n".join(parts)
        return text


_DAY_HEADINGS: dict[str, str] = {}


def _day_heading(day: str) -> str:
    """``[Mon 2026-03-09]``, one string per day (the same object for every message of the day)."""
    heading = _DAY_HEADINGS.get(day)
    if heading is None:
        if len(_DAY_HEADINGS) >= 4096:
            _DAY_HEADINGS.clear()
        heading = _DAY_HEADINGS[day] = f"[{_WEEKDAY_ABBR[date.fromisoformat(day).weekday()]} {day}]"
    return heading


def _chat_lines(span: ChatSpan) -> _ChatLines | None:
    """The case's :class:`_ChatLines` of the span's chat (made on first use), or ``None`` where a
    sender of the chat is not a member."""
    memo = span.index.memo
    key = ("v2 lines", span.chat.chat_id)
    try:
        return memo[key]
    except KeyError:
        pass
    chat, messages = span.chat, span.index.messages[span.chat.chat_id]
    lines = _ChatLines(chat, messages) if {m.sender for m in messages}.issubset(chat.members) else None
    memo[key] = lines
    return lines


def render_chats_v2(obs: Observation) -> str:
    """The chats of the v2 prompt. An update built by :func:`proevent.agents.build_observation`
    is rendered from its case's lines rendered once (:class:`_ChatLines`), any other one message by
    message (:func:`render_chats_v2_plain`): the same text."""
    blocks = []
    for upd in obs.chats:
        span = span_of(upd)
        lines = _chat_lines(span) if span is not None else None
        blocks.append(_chat_block_v2(upd) if lines is None else lines.block(span.a, span.s, span.e))
    return "\n".join(blocks) if blocks else "(no new messages)"


def render_chats_v2_plain(obs: Observation) -> str:
    """:func:`render_chats_v2` message by message, with no case index (the reference it is tested against)."""
    blocks = [_chat_block_v2(upd) for upd in obs.chats]
    return "\n".join(blocks) if blocks else "(no new messages)"


def build_messages(strategy: str, obs: Observation, version: str = PROMPT_VERSION,
                   update_prompt: bool = False) -> list[dict[str, Any]]:
    """The chat messages (system + user) a strategy sends for an observation; ``update_prompt``
    appends the update prompt to the user message (after the chats)."""
    messages = _build_messages(strategy, obs, version)
    if update_prompt:
        extra = Template(load_template("update", version)).substitute(user=obs.user)
        messages[-1] = {**messages[-1], "content": f"{messages[-1]['content']}\n\n{extra}"}
    return messages


@lru_cache(maxsize=64)
def _template(name: str, version: str) -> Template:
    return Template(load_template(name, version))


@lru_cache(maxsize=64)
def _parts(name: str, version: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The template cut at its placeholders once: ``(texts, names)``, len(texts) = len(names) + 1, for
    :func:`_fill`; ``None`` when it holds a ``$`` that :meth:`Template.substitute` refuses."""
    template = _template(name, version)
    texts, names, at = [], [], 0
    literal = ""
    for m in template.pattern.finditer(template.template):
        literal += template.template[at:m.start()]
        at = m.end()
        if m.group("escaped") is not None:
            literal += template.delimiter
        elif m.group("invalid") is not None:
            return None
        else:
            texts.append(literal)
            names.append(m.group("named") or m.group("braced"))
            literal = ""
    texts.append(literal + template.template[at:])
    return tuple(texts), tuple(names)


def _fill(name: str, version: str, **values: str) -> str:
    """``_template(name, version).substitute(values)`` by one join of the template's cut parts (the
    user message, rendered for every request: a regular expression's callback per placeholder cost
    more than the join)."""
    parts = _parts(name, version)
    if parts is None:
        return _template(name, version).substitute(values)
    texts, names = parts
    out = [texts[0]]
    for key, text in zip(names, texts[1:]):
        out.append(str(values[key]))
        out.append(text)
    return "".join(out)


@lru_cache(maxsize=1024)
def _system(strategy: str, version: str, user: str) -> str:
    """The system message: the same for every step of a user (rendered once)."""
    fill = {"user": user}
    system = _template("system", version).substitute(fill)
    instructions = _template(STRATEGY_TEMPLATES[strategy], version).substitute(fill)
    return f"{system}\n{instructions}" if version != "v1" else f"{system}\n\n{instructions}"


@lru_cache(maxsize=4096)
def _weekday(day: str) -> str:
    """The weekday's name of ``YYYY-MM-DD`` (a step's day, asked once per request; a bad day raises
    as :meth:`date.fromisoformat` does, and is not kept)."""
    return _WEEKDAY_NAME[date.fromisoformat(day).weekday()]


def _build_messages(strategy: str, obs: Observation, version: str) -> list[dict[str, Any]]:
    weekday = _weekday(obs.now[:10])
    system = _system(strategy, version, obs.user)
    if version != "v1":
        user = _fill(
            "user", version, now=obs.now, weekday=weekday[:3], window_start=obs.window_start,
            timetable=render_timetable_v2(obs.timetable, obs.window_start), chats=render_chats_v2(obs))
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]
    user = _template("user", version).substitute(
        now=obs.now, weekday=weekday, window_start=obs.window_start, user=obs.user,
        timetable=render_timetable(obs.timetable), chats=render_chats(obs),
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def repair_message(problems: list[str], version: str = PROMPT_VERSION) -> dict[str, Any]:
    text = Template(load_template("repair", version)).substitute(problems="; ".join(problems[:8]))
    return {"role": "user", "content": text}
