"""``proevent watch``: an agent keeps a calendar of one's own chats.

Each call reads the exports, builds a case of the messages it has not processed yet (a
*segment*), runs the agent over its windows in multi-step mode with the ordinary runner (so a
call that is interrupted resumes where it stopped: run the same command again), and writes the
agent's timetable as an ``.ics`` file.

The state folder (default ``OUT.ics`` with ``.watch`` in place of ``.ics``) holds ``watch.json``
and one folder per segment (``seg-001/dataset``, ``seg-001/run``). A later call with ``since``
processes only the messages after the last one processed (earlier ones are left out, and those of
the last processed minute are recognised and not repeated); the new segment starts from the
agent's own timetable, so the timetable is carried on from call to call.

Calendar identity: every event has a key that never changes while the event lives: its agent id
in the first segment, ``<id>.s<k>`` for one inserted in segment k (the id rule restarts from the
carried timetable, so an id may come back after a delete; the key does not). ``UID`` is
``watch-<token>/<key>@proevent``; ``SEQUENCE`` counts the steps that changed the event, over all
segments, so a subscribed calendar app takes each change as newer.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proevent.chats.api import import_chats, write_import
from proevent.chats.report import ChatImportError, ImportReport
from proevent.chats.whatsapp import DateOrder
from proevent.io import load_dataset, load_run
from proevent.io.ics import timetable_to_ics
from proevent.io.run import write_atomic
from proevent.llm.config import LLMConfig
from proevent.model import Case, Event

STATE_FILE = "watch.json"
STATE_FORMAT = "proevent.watch/1"


class WatchError(ValueError):
    """A watch call that cannot go on (the message says what to do)."""


@dataclass
class WatchResult:
    ics: Path
    state: Path
    segment: int
    steps: int
    messages: int
    """Messages of the segment this call processed (0: nothing new)."""
    events: int
    changed: list[str] = field(default_factory=list)
    """Keys of the events whose SEQUENCE grew in this call."""
    report: ImportReport = field(default_factory=ImportReport)
    run_summary: Any = None


def default_state_dir(ics: Path) -> Path:
    return ics.with_suffix(".watch") if ics.suffix.lower() == ".ics" else ics.with_name(ics.name + ".watch")


def _message_key(chat: str, msg: Any) -> str:
    return hashlib.sha256(json.dumps([chat, msg.time, msg.sender, msg.text]).encode()).hexdigest()[:16]


def _carry(case: Case, timetable: list[Event], seen: set[str]) -> Case:
    """The segment's case: S_0 the carried timetable, messages of the last processed minute left out."""
    names = {c.chat_id: c.name for c in case.chats}
    steps = [s.model_copy(update={"gold_timetable": list(timetable), "messages": [
        m for m in s.messages if _message_key(names[m.chat_id], m) not in seen]}) for s in case.steps]
    return case.model_copy(update={"initial_timetable": list(timetable), "steps": steps})


def _last_minute(case: Case) -> tuple[str, list[str]]:
    names = {c.chat_id: c.name for c in case.chats}
    msgs = [m for s in case.steps for m in s.messages]
    last = max(m.time for m in msgs)
    return last, [_message_key(names[m.chat_id], m) for m in msgs if m.time == last]


async def watch_async(
    exports: Sequence[str | Path],
    *,
    user: str,
    agent: str,
    ics: str | Path,
    state_dir: str | Path | None = None,
    window_minutes: int = 240,
    since: bool = False,
    timezone: str | None = None,
    aliases: Sequence[str] = (),
    initial_ics: str | Path | None = None,
    date_order: DateOrder = "auto",
    llm: LLMConfig | None = None,
    context_messages: int = 20,
    agent_options: dict[str, Any] | None = None,
    strict: bool = False,
    progress: bool = False,
) -> WatchResult:
    """One call of ``proevent watch`` (see the module docstring).

    Raises:
        WatchError: the state folder belongs to another user, agent or window, or the last call
            did not finish and ``since`` asks for a new segment.
        ChatImportError: the exports cannot be read.
        RunStopped: the model endpoint failed (what was answered is kept; call again).
    """
    from proevent.integrations.ics_run import agent_timetable
    from proevent.runner import RunConfig, execute

    out = Path(ics)
    folder = Path(state_dir) if state_dir is not None else default_state_dir(out)
    state_file = folder / STATE_FILE
    state: dict[str, Any] | None = json.loads(state_file.read_text("utf-8")) if state_file.is_file() else None
    settings = {"user": user, "agent": agent, "window_minutes": window_minutes, "timezone": timezone}
    if state is not None:
        differs = [k for k, v in settings.items() if state["settings"].get(k) != v]
        if differs:
            raise WatchError(f"{state_file}: made with other settings ({', '.join(differs)}: "
                             + ", ".join(f"{state['settings'].get(k)!r}" for k in differs)
                             + "); use another --state folder")
    common = {"user": user, "window_minutes": window_minutes, "aliases": aliases, "timezone": timezone,
              "date_order": date_order, "strict": strict}
    result_report = ImportReport()
    if state is None:
        imported = import_chats(exports, initial_ics=initial_ics, case_id="watch", **common)
        result_report = imported.report
        state = {"format": STATE_FORMAT, "token": secrets.token_hex(4), "settings": settings, "segments": [],
                 "timetable": [ev.model_dump(mode="json") for ev in imported.case.initial_timetable],
                 "keys": {ev.id: ev.id for ev in imported.case.initial_timetable}, "sequences": {}}
        segment = _new_segment(state, folder, imported.case, imported)
    elif since:
        last = state["segments"][-1] if state["segments"] else None
        if last is not None and not last.get("done"):
            raise WatchError(f"the last call did not finish ({folder / last['folder']}): run it again without "
                             "--since to resume it first")
        start = last["until"] if last is not None else None
        try:
            imported = import_chats(exports, case_id="watch", start=start, **common)
        except ChatImportError as exc:
            if not str(exc).startswith("no message to import"):
                raise
            return _finish(state, folder, out, None, [], ImportReport())
        result_report = imported.report
        timetable = [Event.model_validate(e) for e in state["timetable"]]
        case = _carry(imported.case, timetable, set(last["seen"]) if last else set())
        if not any(s.messages for s in case.steps):
            return _finish(state, folder, out, None, [], result_report)
        segment = _new_segment(state, folder, case, imported)
    else:
        if not state["segments"]:
            raise WatchError(f"{state_file}: no segment yet")
        segment = state["segments"][-1]
    seg_dir = folder / segment["folder"]
    ds = load_dataset(seg_dir / "dataset")
    case = ds.cases[0]
    config = RunConfig(agent=agent, mode="multi", llm=llm, context_messages=context_messages,
                       agent_options=agent_options or {}, concurrency=1)
    summary = await execute(config, ds, seg_dir / "run", progress=progress)
    replay = agent_timetable(case, load_run(seg_dir / "run"))
    complete = not replay.missing_steps and not summary.failed
    keys = dict(segment["start_keys"])
    sequences = dict(segment["start_sequences"])
    before = dict(state["sequences"])
    for ev in replay.timetable.events:
        key = keys.get(ev.id) or (ev.id if segment["index"] == 1 else f"{ev.id}.s{segment['index']}")
        keys[ev.id] = key
        sequences[key] = sequences.get(key, 0) + replay.sequences.get(ev.id, 0)
    live = {ev.id for ev in replay.timetable.events}
    state["keys"] = {i: k for i, k in keys.items() if i in live}
    state["sequences"] = {k: v for k, v in sequences.items() if k in state["keys"].values()}
    state["timetable"] = [ev.model_dump(mode="json") for ev in replay.timetable.events]
    segment["done"] = complete
    changed = [k for k, v in state["sequences"].items() if v > before.get(k, -1)]
    n_messages = sum(len(s.messages) for s in case.steps)
    return _finish(state, folder, out, segment, changed, result_report, summary=summary, messages=n_messages,
                   steps=len(case.steps))


def _new_segment(state: dict[str, Any], folder: Path, case: Case, imported: Any) -> dict[str, Any]:
    index = len(state["segments"]) + 1
    name = f"seg-{index:03d}"
    until, seen = _last_minute(case)
    imported.case = case
    write_import(imported, folder / name / "dataset", name=f"watch-{name}")
    segment = {"index": index, "folder": name, "start": case.start, "until": until, "seen": seen,
               "start_keys": dict(state["keys"]), "start_sequences": dict(state["sequences"]), "done": False}
    state["segments"].append(segment)
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / STATE_FILE, (json.dumps(state, ensure_ascii=False, indent=1) + "\n").encode())
    return segment


def _finish(state: dict[str, Any], folder: Path, out: Path, segment: dict[str, Any] | None, changed: list[str],
            report: ImportReport, *, summary: Any = None, messages: int = 0, steps: int = 0) -> WatchResult:
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / STATE_FILE, (json.dumps(state, ensure_ascii=False, indent=1) + "\n").encode())
    keys = state["keys"]
    events = [Event.model_validate({**e, "id": keys[e["id"]]}) for e in state["timetable"]]
    s = state["settings"]
    data = timetable_to_ics(events, user=s["user"], timezone=s["timezone"], case_id=f"watch-{state['token']}",
                            name=f"{s['user']}: proevent watch ({s['agent']})", sequences=state["sequences"])
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, data)
    return WatchResult(ics=out, state=folder, segment=segment["index"] if segment else len(state["segments"]),
                       steps=steps, messages=messages, events=len(events), changed=changed, report=report,
                       run_summary=summary)


__all__ = ["STATE_FILE", "WatchError", "WatchResult", "default_state_dir", "watch_async"]
