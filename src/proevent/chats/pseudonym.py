"""Pseudonymisation of an imported case: names replaced consistently, phone numbers and e-mail
addresses masked.

Every person the case names (the user, chat members, senders, attendees of the initial events)
gets a stand-in name from the generator's name lists, in order of first appearance, never one of
the real names of the case; the same person gets the same stand-in everywhere. In message texts,
chat names and event texts the full names are replaced (any letter case), and so are first names
written with a capital where no two people share them ("see you, Ana" -> "see you, Kara").
Phone numbers (7 digits or more, dates and times left alone) become ``<phone>``, e-mail addresses
``<email>`` and ``@handles`` ``@user``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from importlib import resources

from proevent.model import Case, Event

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_HANDLE = re.compile(r"(?<![\w@])@\w{3,}")
_PHONE = re.compile(r"(?<![\w+])\+?\(?\d[\d ().-]{5,}\d(?![\w])")
_DATE_LIKE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$|^\d{1,2}[:.]\d{2}")


def _stand_ins() -> list[str]:
    data = json.loads(resources.files("proevent.generate").joinpath("data", "names.json").read_text("utf-8"))
    return [*data["users"], *data["people"]]


def mask_contacts(text: str) -> str:
    """E-mail addresses, phone numbers and ``@handles`` masked (see the module docstring)."""
    text = _EMAIL.sub("<email>", text)

    def phone(m: re.Match[str]) -> str:
        raw = m.group(0)
        digits = sum(c.isdigit() for c in raw)
        return "<phone>" if digits >= 7 and not _DATE_LIKE.match(raw.strip("() ")) else raw

    text = _PHONE.sub(phone, text)
    return _HANDLE.sub("@user", text)


class Pseudonymiser:
    """A consistent name map over the people of a case."""

    def __init__(self, people: Iterable[str]) -> None:
        real = list(dict.fromkeys(p for p in people if p))
        taken = {p.casefold() for p in real}
        pool = [n for n in _stand_ins() if n.casefold() not in taken]
        self.names: dict[str, str] = {}
        for k, person in enumerate(real):
            self.names[person] = pool[k] if k < len(pool) else f"Person {k + 1}"
        firsts: dict[str, list[str]] = {}
        for person in real:
            first = person.split()[0] if " " in person else None
            if first and len(first) >= 3 and first[0].isupper():
                firsts.setdefault(first, []).append(person)
        self.first_names = {f: self.names[ps[0]].split()[0] for f, ps in firsts.items()
                            if len(ps) == 1 and f not in self.names}
        full = sorted(self.names, key=len, reverse=True)
        self._full = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in full), re.IGNORECASE) if full \
            else None
        self._first = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in self.first_names)) \
            if self.first_names else None
        self._folded = {n.casefold(): v for n, v in self.names.items()}

    def name(self, person: str) -> str:
        return self.names.get(person, self._folded.get(person.casefold(), person))

    def text(self, text: str) -> str:
        text = mask_contacts(text)
        if self._full is not None:
            text = self._full.sub(lambda m: self._folded[m.group(0).casefold()], text)
        if self._first is not None:
            text = self._first.sub(lambda m: self.first_names[m.group(0)], text)
        return text

    def event(self, ev: Event) -> Event:
        return ev.model_copy(update={
            "participants": [self.name(p) for p in ev.participants],
            "location": None if ev.location is None else self.text(ev.location),
            "description": None if ev.description is None else self.text(ev.description),
        })


def pseudonymise_case(case: Case) -> Case:
    """``case`` with every name replaced and contacts masked (see the module docstring)."""
    people = [case.user, *(m for c in case.chats for m in c.members),
              *(m.sender for s in case.steps for m in s.messages),
              *(p for ev in case.initial_timetable for p in ev.participants)]
    ps = Pseudonymiser(people)
    chats = [c.model_copy(update={"name": ps.text(c.name), "members": [ps.name(m) for m in c.members]})
             for c in case.chats]
    steps = [s.model_copy(update={
        "messages": [m.model_copy(update={"sender": ps.name(m.sender), "text": ps.text(m.text)}) for m in s.messages],
        "gold_ops": [],
        "gold_timetable": [ps.event(ev) for ev in s.gold_timetable],
    }) for s in case.steps]
    return case.model_copy(update={
        "user": ps.name(case.user), "chats": chats, "steps": steps,
        "initial_timetable": [ps.event(ev) for ev in case.initial_timetable],
        "meta": {**case.meta, "pseudonymised": True},
    })


__all__ = ["Pseudonymiser", "mask_contacts", "pseudonymise_case"]
