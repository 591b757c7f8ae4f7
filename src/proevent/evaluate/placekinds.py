"""A kind's qualifier dropped, for the ``places`` judge (:mod:`proevent.evaluate.places`): a word saying whom a
hospital serves or what a room is for ("Great Ormond Street Children's Hospital" / "Great Ormond Street Hospital",
"Operating theatre 3" / "Theatre 3"), said on one side only. People drop such a word once the name or the number
says which place it is; two such words, one on each side, still make two places ("Children's" / "Women's"
hospital, "Lecture" / "Operating" theatre). Deciding stays in ``places``."""

from __future__ import annotations

import re

from proevent.evaluate import gazetteer
from proevent.evaluate.placeowners import _KIN
from proevent.evaluate.placeparse import _BIND, _GENERIC, _MODIFIERS, _ROOM_KINDS, _VENUE_WORDS, Parsed, _labelled

_HOSPITAL_WORDS = frozenset({"childrens", "children", "womens", "women", "general", "university", "teaching",
                             "memorial", "community", "district", "county", "regional", "maternity"})
"""Words saying whom or which a hospital serves ("Children's", "General", "University")."""
_ROOM_USES = _ROOM_KINDS | frozenset({"operating", "surgery", "recovery", "delivery", "lecture"})
"""Words saying what a room or theatre is for, before its label and number ("Operating theatre 3")."""


def _hospital_word(head: tuple[str, ...]) -> int | None:
    """Where the one word saying whom the hospital serves lies in a hospital's name, before "hospital"."""
    if "hospital" not in head:
        return None
    found = [i for i, w in enumerate(head[:head.index("hospital")]) if w in _HOSPITAL_WORDS]
    return found[0] if len(found) == 1 else None


def _named(words: tuple[str, ...]) -> bool:
    """A distinctive name is left: a word of 4 letters or more that is no kind, modifier or city ("Ormond"; not
    "Leeds", where many hospitals are)."""
    return any(len(w) >= 4 and w.isalpha() and w not in _GENERIC and not gazetteer.is_place_name(w) for w in words)


def use_dropped(parsed: Parsed, other: Parsed) -> Parsed:
    """``parsed`` without the word saying whom its hospital serves, or what its labelled room is for, when
    ``other`` names the same kind with no such word ("Great Ormond Street Children's Hospital" read as "Great
    Ormond Street Hospital" against it; "Operating theatre 3" as "Theatre 3"); ``parsed`` when not."""
    head, theirs = parsed.parts[0], other.parts[0]
    at = _hospital_word(head)
    if at is not None and "hospital" in theirs and not any(w in _HOSPITAL_WORDS for w in theirs):
        rest = head[:at] + head[at + 1:]
        if _named(rest):
            parts = (rest, *parsed.parts[1:])
            return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p))
    flat = parsed.flat
    drop = {i for i in range(len(flat) - 1) if flat[i] in _ROOM_USES and _labelled(flat[i + 1])
            and flat[i + 1] in other.flat and not _used(other.flat, flat[i + 1])}
    if not drop:
        return parsed
    parts, i = [], 0
    for part in parsed.parts:
        parts.append(tuple(w for j, w in enumerate(part, i) if j not in drop))
        i += len(part)
    kept = tuple(p for p in parts if p)
    return parsed._replace(parts=kept, flat=tuple(w for p in kept for w in p))


_USE_BEFORE = re.compile(r"\b([a-z]+) (room|theatre|theater|hall|lab|suite|studio) (\w*\d\w*(?: \d+)?)\b")
"""A word, then a room's label and its number ("seminar room 1")."""


def uses_apart(a: str, b: str) -> bool:
    """Each side names a room by what it is for, before the same label and number, and the uses differ: two rooms
    ("Seminar Room 1" / "Reading Room 1"), though the parse reads a use before a numbered room as nothing (a use
    on one side only is dropped: "Seminar Room 1" / "Room 1"). ``a`` and ``b`` are normalised texts."""
    ua = {(m.group(2), m.group(3)): m.group(1) for m in _USE_BEFORE.finditer(a) if m.group(1) in _ROOM_USES}
    ub = {(m.group(2), m.group(3)): m.group(1) for m in _USE_BEFORE.finditer(b) if m.group(1) in _ROOM_USES}
    return any(room in ub and ub[room] != use for room, use in ua.items())


def _used(flat: tuple[str, ...], room: str) -> bool:
    """A use said before ``room`` in ``flat`` ("lecture" before "theatre_3")."""
    return any(flat[i] in _ROOM_USES for i in range(len(flat) - 1) if flat[i + 1] == room and _BIND in room)


_TAVERN_WORDS = frozenset({"ale", "public", "chop", "steak", "oyster", "beer", "wine", "cocktail", "sports", "irish"})
"""Words that make "house" or "bar" a place to eat or drink ("Old Ale House", "Public House", "Oyster Bar")."""
_TAVERN_KINDS = frozenset({"pub", "bar", "tavern", "inn", "saloon", "alehouse", "taproom", "brewpub", "grill",
                           "restaurant", "bistro", "diner", "cafe", "kitchen", "brasserie", "trattoria", "pizzeria"})
"""Kinds of a place to eat or drink that a possessive's name stands for."""
_POSSESSIVE = re.compile(r"['’ʼ]s?$")


def possessive_venue(short: tuple[str, ...], long: tuple[str, ...], raw_short: str, raw_long: str) -> bool:
    """``short`` is one possessive name ("McSorleys", its apostrophe there or not) and ``long`` that name with only
    modifiers and the kind of a pub or eatery after it ("McSorley's Old Ale House", "Lombardino's Bar & Grill"):
    the name alone stands for its venue when it is of 8 letters or more, as family and business names are; a
    shorter one is mostly a first name, and "Mike's" may be Mike's home ("Mike's Bar & Grill", "Rosa's Thai" stay
    apart), as may a family word's ("grandmother's")."""
    if len(short) != 1 or len(long) < 2 or long[0] != short[0]:
        return False
    name = short[0]
    possessive = any(_POSSESSIVE.search(w) for w in raw_short.split()[:1] + raw_long.split()[:1])
    if not possessive or not name.endswith("s") or len(name) - 1 < 8 or not name.isalpha() \
            or name[:-1] in _KIN or gazetteer.is_place_name(name):
        return False
    added = long[1:]
    last = added[-1]
    if not (last in _TAVERN_KINDS or (last == "house" and len(added) >= 2 and added[-2] in _TAVERN_WORDS)):
        return False
    return all(w in _TAVERN_KINDS or w in _TAVERN_WORDS or w in _MODIFIERS or w == "house" for w in added)


def says_business(parsed: Parsed) -> bool:
    """A qualifier that is a kind of business alone ("Davids (the restaurant on Queen St)", "Marco's (bar)"): the
    location says that its name is a business's, as a description naming the bar does, so a possessive there is
    not someone's home ("Davids house")."""
    return any(len(p) == 1 and p[0] in _VENUE_WORDS for p in parsed.parts[1:])


_PAIRED_NAME = re.compile(r"^(?:the\s+)?([^\W\d_]{3,})\s+(?:and|&|n|'n')\s+[^\W\d_]{3,}$", re.IGNORECASE)
_FIRST_ONLY = re.compile(r"^the\s+([^\W\d_]{3,})$", re.IGNORECASE)


def paired_short(a: str, b: str) -> bool:
    """A name of two words joined by "and", as pubs are named ("the Dog and Duck", "Slug and Lettuce"), against its
    first word with the article ("the Dog", "the Slug"), as regulars call it; not its second word ("the Duck"),
    nor a first word without the article ("Marks" / "Marks and Spencer"), nor a kind of place ("the Inn")."""
    for short, long in ((a, b), (b, a)):
        first, pair = _FIRST_ONLY.match(short.strip()), _PAIRED_NAME.match(long.strip())
        if first and pair and first.group(1).lower() == pair.group(1).lower() \
                and first.group(1).lower() not in _GENERIC:
            return True
    return False
