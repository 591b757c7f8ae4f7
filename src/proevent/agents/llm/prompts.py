"""Versioned prompt templates (package data ``data/prompts/<version>/*.txt``) and their rendering.

Templates use ``string.Template`` placeholders (``${user}``), so JSON braces need no escaping.
The exact template text of a strategy is recorded in ``run.json`` (``prompt.text`` and its sha256).
"""

from __future__ import annotations

import hashlib
import json
from datetime import date
from functools import lru_cache
from importlib import resources
from string import Template
from typing import Any

from proevent.agents.protocol import Observation
from proevent.model import Message, Timetable

PROMPT_VERSION = "v1"
STRATEGY_TEMPLATES: dict[str, str] = {
    "plain": "plain", "proactive": "proactive", "procot": "procot", "tools": "tools",
}
"""Strategy -> the template file holding its instructions (beside the shared system and user ones)."""


@lru_cache(maxsize=64)
def load_template(name: str, version: str = PROMPT_VERSION) -> str:
    path = resources.files("proevent.agents.llm").joinpath(f"data/prompts/{version}/{name}.txt")
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise ValueError(f"no prompt template {name!r} in version {version!r}") from None


def prompt_record(strategy: str, version: str = PROMPT_VERSION) -> dict[str, str]:
    """``run.json``'s ``prompt``: the templates of the strategy, concatenated, and their sha256."""
    parts = [
        f"### system ({version}/system.txt + {version}/{STRATEGY_TEMPLATES[strategy]}.txt)",
        load_template("system", version), load_template(STRATEGY_TEMPLATES[strategy], version),
        f"### user ({version}/user.txt)", load_template("user", version),
        f"### repair ({version}/repair.txt)", load_template("repair", version),
    ]
    text = "\n\n".join(parts)
    return {"sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "text": text, "version": version}


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


def build_messages(strategy: str, obs: Observation, version: str = PROMPT_VERSION) -> list[dict[str, Any]]:
    """The chat messages (system + user) a strategy sends for an observation."""
    fill = {"user": obs.user}
    system = Template(load_template("system", version)).substitute(fill)
    instructions = Template(load_template(STRATEGY_TEMPLATES[strategy], version)).substitute(fill)
    user = Template(load_template("user", version)).substitute(
        now=obs.now, weekday=_WEEKDAY_NAME[date.fromisoformat(obs.now[:10]).weekday()],
        window_start=obs.window_start, user=obs.user,
        timetable=render_timetable(obs.timetable), chats=render_chats(obs),
    )
    return [{"role": "system", "content": f"{system}\n\n{instructions}"}, {"role": "user", "content": user}]


def repair_message(problems: list[str], version: str = PROMPT_VERSION) -> dict[str, Any]:
    text = Template(load_template("repair", version)).substitute(problems="; ".join(problems[:8]))
    return {"role": "user", "content": text}
