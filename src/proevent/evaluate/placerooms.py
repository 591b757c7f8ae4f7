"""Rooms, buildings and street addresses for the ``places`` judge (:mod:`proevent.evaluate.places`): the numbers
of a location's rooms with their labels, a building named without the word "building" where a room is shared, and
a street with its house number. Deciding stays in ``places``."""

from __future__ import annotations

from proevent.evaluate.aliases import TOKEN
from proevent.evaluate.placeparse import _BIND, _GENERIC, _MODIFIERS, _STREET_TYPES, Parsed, _labelled

BUILDING_KINDS = frozenset({"building", "hall", "tower", "wing", "house", "centre", "library", "pavilion", "annex",
                            "lab", "clinic", "hospital", "hotel"})
"""Kinds of building: one on each side that the other lacks are two buildings ("Physics Building" / "Physics Hall")."""
_ROOMS = frozenset({"ballroom", "boardroom", "lobby", "foyer", "atrium", "rooftop", "mezzanine", "reception"})
"""Rooms of a building named by their kind alone ("Ballroom", "the Lobby")."""


def room_alone(part: tuple[str, ...]) -> bool:
    """A part naming a room of a building by its kind alone, perhaps with modifiers ("Ballroom", "Grand Ballroom",
    "Lobby"): inside the place, as "Room 204" is, so it picks no branch of a chain ("Hilton Bankside, Ballroom")."""
    return bool(part) and part[-1] in _ROOMS and all(w in _MODIFIERS for w in part[:-1])


def codes(parsed: Parsed) -> list[tuple[str, str]]:
    """The rooms', buildings' and floors' numbers of a location, each with its label: bound ones ("room_1_12":
    room, 1_12; "block_c": block, c) and words with a digit, those in a row read as one, without a label
    ("G03"; "1.12", read as 1 and 12)."""
    out: list[tuple[str, str]] = []
    bare: list[str] = []
    for w in (*parsed.flat, ""):
        if w and _BIND not in w and w[:1] != TOKEN and any(c.isdigit() for c in w):
            bare.append(w)
            continue
        if bare:
            out.append(("", _BIND.join(bare)))
            bare = []
        if _labelled(w):
            label, _, code = w.partition(_BIND)
            out.append((label, code))
    return out


def same_codes(a: list[tuple[str, str]], b: list[tuple[str, str]]) -> bool:
    """Each number of one side is one of the other's, under the same label or with none on one side."""
    rest = list(b)
    for label, code in a:
        hit = next((i for i, (lb, cb) in enumerate(rest) if cb == code and (lb == label or "" in (lb, label))), None)
        if hit is None:
            return False
        del rest[hit]
    return not rest


def street_address(part: tuple[str, ...]) -> bool:
    """A street with a house number, in any order ("14 Rue Oberkampf", "Rua Augusta 45")."""
    return any(w.isdigit() for w in part) and any(w in _STREET_TYPES for w in part) and any(
        w not in _GENERIC and not w.isdigit() for w in part)


def unbuilt(parsed: Parsed, other: Parsed) -> Parsed:
    """A room both sides name (a labelled number or a code with a digit: "LT1", "G03") read in a building
    named without the word "building" ("Lecture Theatre 1, Chemistry Building" / "Chemistry LT1"); a
    building's number ("Building 5") is kept, and so is a word that names the building's kind otherwise
    ("Physics Hall"). ``parsed`` when no room is shared."""
    if not any(w in other.flat and (_BIND in w or (any(c.isdigit() for c in w) and any(c.isalpha() for c in w)))
               for w in parsed.flat) or "building" not in parsed.flat:
        return parsed
    parts = tuple(tuple(w for w in p if w != "building") if any(
        w not in _GENERIC and _BIND not in w and not w[:1].isdigit() for w in p) else p for p in parsed.parts)
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)


def floor_joined(label: str, x: str, y: str) -> bool:
    """A room's number with its floor written apart ("Room 3.14", read "room_3_14") against the same digits written
    together ("Room 314"): one room, the floor being the first digits; only for a room, and only with two digits after
    the stop (the room on its floor), so that "Hall 3.1" of a fairground stays apart from "Hall 31"."""
    if label != "room":
        return False
    for apart, joined in ((x, y), (y, x)):
        floor, sep, room = apart.partition(_BIND)
        if sep and floor.isdigit() and len(floor) <= 2 and room.isdigit() and len(room) == 2 and joined == floor + room:
            return True
    return False

