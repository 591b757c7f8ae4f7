"""The ``rules`` baseline: an honest offline extractor (no model, no gold, no ``meta``).

For each chat with new messages it reads dates and times (:mod:`proevent.agents.timecalc`,
dateparser for what the patterns miss) and cue phrases (``data/cues.json``), then decides:

1. a cancellation cue, said by the user or acknowledged by the user (or said by the only other
   person of a direct chat), deletes the timetable event the chat refers to;
2. a change cue with a new date or time, agreed by the user, updates that event;
3. otherwise a proposal with a date, agreed by the user, inserts a new event.

"The event the chat refers to" is the timetable event sharing the most participants with the
chat's members (ties: a mentioned date, then the nearest start). It is a weak baseline on purpose:
a floor that an LLM agent should clear, and a check that the pipeline rewards real extraction.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from proevent.agents.protocol import Action, ChatUpdate, Observation
from proevent.agents.rules.cues import Cues, load_cues
from proevent.agents.timecalc import find_dates, find_times
from proevent.model import Event, Message, parse_time

_NOT_PLACES = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
               "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december", "noon", "midday", "i", "the", "my", "our", "your", "least", "all",
               "first", "last", "like", "around", "about"}
_RE_PLACE = re.compile(r"(?=(\bat|\bin|@)\s+((?:the\s+)?[A-Za-z][^!?;:()\n]*))")
_WORD = re.compile(r"[\w'’&-]+")
_ABBREV = re.compile(r"^[A-Z][a-z]{0,2}\.$")  # St. Dr. Mt.
_NOT_AFTER_THE = {"moment", "weekend", "latest", "end", "same", "time", "start", "beginning", "least", "most",
                  "morning", "afternoon", "evening", "night", "day", "week", "month", "usual", "last", "next"}


def _fmt(d: date, hm: tuple[int, int] | None) -> str:
    return d.isoformat() if hm is None else f"{d.isoformat()}T{hm[0]:02d}:{hm[1]:02d}"


def _place(text: str, stops: frozenset[str]) -> str | None:
    """The place after "at"/"in"/"@".

    A run of words that starts with a capitalised word (a name), or with "the" after "at" ("at
    the small boardroom"), and ends before a stop word or punctuation; one comma-separated detail
    may follow ("SFO International, departures level", "Anytime Fitness, 3rd Ave"), and words
    after the first may hold digits ("room 12"). "on <Name>" continues ("the Shell station on
    Lombard").
    """
    for m in _RE_PLACE.finditer(text):
        raw = m.group(2).split()
        words: list[str] = []
        commas = 0
        for i, w in enumerate(raw):
            if _ABBREV.match(w):
                words.append(w)
                continue
            bare = w.strip("'’\"")
            comma = bare.endswith(",")
            last = bare.endswith(".")
            bare = bare.rstrip(".,")
            if not bare or not _WORD.fullmatch(bare) or (not words and bare[0].isdigit()):
                break
            low = bare.lower()
            nxt = raw[i + 1] if i + 1 < len(raw) else ""
            if words and low in stops and not (low == "on" and nxt[:1].isupper() and nxt.lower() not in _NOT_PLACES):
                break
            words.append(bare)
            if last:
                break
            if comma:
                commas += 1
                follow = raw[i + 1].strip(",.").lower() if i + 1 < len(raw) else ""
                if commas > 1 or not follow or follow in stops or follow in _NOT_PLACES:
                    break
                words[-1] += ","
        while words and (words[-1].rstrip(",").lower() in stops or words[-1].lower() == "the"):
            words.pop()
        if words:
            words[-1] = words[-1].rstrip(",")
        if not words or len(words) > 7:
            continue
        first = words[0]
        if first.lower() == "the" and len(words) > 1:
            lowercase_ok = m.group(1) == "at" and words[1].lower() not in _NOT_AFTER_THE
            first = words[1] if words[1][0].isupper() else ("" if not lowercase_ok else words[1])
        if first and first[0].isupper() and first.lower().rstrip(".") in _NOT_PLACES:
            continue
        if first and (first[0].isupper() or words[0].lower() == "the"):
            return " ".join(words)
    return None


class RulesAgent:
    name = "rules"

    def __init__(self, **_options: Any) -> None:
        self.cues: Cues = load_cues()

    def describe(self) -> dict[str, Any]:
        return {"strategy": "rules", "cues_version": self.cues.version}

    async def act(self, obs: Observation) -> Action:
        ops: list[dict[str, Any]] = []
        touched: set[str] = set()
        for upd in obs.chats:
            for op in self._chat_ops(obs, upd):
                eid = op.get("id")
                if eid is not None and eid in touched:
                    continue
                if eid is not None and op["op"] == "delete":
                    touched.add(eid)
                ops.append(op)
        return Action(ops=ops)

    # -- reading one chat ----------------------------------------------------------------------
    def _agrees(self, m: Message) -> bool:
        return bool(self.cues.agreement.search(m.text)) and not self.cues.hedge.search(m.text)

    def _chat_ops(self, obs: Observation, upd: ChatUpdate) -> list[dict[str, Any]]:
        cues, user, new = self.cues, obs.user, upd.new
        others = [p for p in upd.chat.members if p != user]
        day: date | None = None
        timed_day: date | None = None
        times: tuple[tuple[int, int], tuple[int, int] | None] | None = None
        for m in new:
            if cues.hedge.search(m.text) and not find_times(m.text):
                continue  # "will confirm tonight": not a plan for tonight
            ref = parse_time(m.time)
            dates = find_dates(m.text, ref)
            found = find_times(m.text)
            if dates:
                day = dates[-1][1]
                if found:
                    timed_day = day
            if found:
                _, start, end = found[-1] if found[-1][2] else found[0]
                times = (start, end)
        day = timed_day or day
        user_agrees = any(m.sender == user and self._agrees(m) for m in new)
        user_proposes = any(m.sender == user and (cues.proposal.search(m.text) or cues.change.search(m.text))
                            for m in new)
        other_agrees = any(m.sender != user and self._agrees(m) for m in new)
        agreed = user_agrees or (user_proposes and other_agrees)
        target = self._target(obs, others, day)

        cancel = [m for m in new if cues.cancel.search(m.text)]
        if cancel and target is not None:
            by_user = any(m.sender == user for m in cancel)
            if by_user or user_agrees or upd.chat.type == "direct":
                return [{"op": "delete", "id": target.id}]
            return []
        changed = any(cues.change.search(m.text) for m in new)
        if changed and target is not None and agreed:
            return self._updates(target, day, times, new)
        if agreed and day is not None and (target is None or not self._same_day(target, day)):
            return [self._insert(obs, upd, day, times)]
        return []

    @staticmethod
    def _same_day(ev: Event, day: date) -> bool:
        return ev.start is not None and ev.start[:10] == day.isoformat()

    @staticmethod
    def _target(obs: Observation, others: list[str], day: date | None) -> Event | None:
        now = parse_time(obs.now)
        since = obs.window_start[:10]
        best: tuple[Any, ...] | None = None
        chosen: Event | None = None
        for ev in obs.timetable:
            overlap = len(set(ev.participants) & set(others))
            if overlap == 0 or (ev.start is not None and ev.start[:10] < since):
                continue  # past events are history: plans in the chat are about coming ones
            on_day = day is not None and ev.start is not None and ev.start[:10] == day.isoformat()
            gap = abs((parse_time(ev.start) - now).total_seconds()) if ev.start else float("inf")
            key = (overlap, on_day, -gap)
            if best is None or key > best:
                best, chosen = key, ev
        return chosen

    def _updates(self, ev: Event, day: date | None, times: Any, new: list[Message]) -> list[dict[str, Any]]:
        ops: list[dict[str, Any]] = []
        old = parse_time(ev.start) if ev.start else None
        new_day = day or (old.date() if old else None)
        if new_day is not None:
            start_hm = times[0] if times else ((old.hour, old.minute) if old and len(ev.start or "") > 10 else None)
            start = _fmt(new_day, start_hm)
            if start != ev.start:
                ops.append({"op": "update", "id": ev.id, "attribute": "start", "value": start})
            if times and times[1] is not None:
                end = _fmt(new_day, times[1])
                if end != ev.end:
                    ops.append({"op": "update", "id": ev.id, "attribute": "end", "value": end})
            elif day is not None and ev.end and len(ev.end) > 10 and old is not None:
                end_dt = parse_time(ev.end)
                shifted = datetime.combine(new_day, end_dt.time()).strftime("%Y-%m-%dT%H:%M")
                if shifted != ev.end and new_day != old.date():
                    ops.append({"op": "update", "id": ev.id, "attribute": "end", "value": shifted})
        for m in new:
            place = _place(m.text, self.cues.location_stops) if self.cues.change.search(m.text) else None
            if place and place != ev.location:
                ops.append({"op": "update", "id": ev.id, "attribute": "location", "value": place})
                break
        return ops

    def _insert(self, obs: Observation, upd: ChatUpdate, day: date, times: Any) -> dict[str, Any]:
        msgs = [*upd.context, *upd.new]
        if upd.chat.type == "direct":
            people = list(upd.chat.members)
        else:
            people = [obs.user]
            for m in upd.new:
                keen = self._agrees(m) or self.cues.proposal.search(m.text) or find_dates(m.text, parse_time(m.time))
                if m.sender not in people and keen and not self.cues.cancel.search(m.text):
                    people.append(m.sender)
        if obs.user not in people:
            people.insert(0, obs.user)
        location = next((p for p in (_place(m.text, self.cues.location_stops) for m in reversed(msgs)) if p), None)
        text = " ".join(m.text.lower() for m in upd.new)
        activity = next((a for a in self.cues.activities if re.search(rf"\b{re.escape(a)}\b", text)), None)
        return {"op": "insert", "event": {
            "start": _fmt(day, times[0] if times else None),
            "end": _fmt(day, times[1]) if times and times[1] else None,
            "location": location, "participants": people,
            "description": activity.capitalize() if activity else upd.chat.name,
        }}
