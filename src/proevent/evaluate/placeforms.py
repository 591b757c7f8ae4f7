"""Short forms of addresses, towns and names for the ``places`` judge (:mod:`proevent.evaluate.places`): a street
with or without its house number, a ward's or campus's word dropped, a town's longer official name, the numbers of
an address in their order, a name's initials with a place after them, a street written at the end of a name, and
a word cut short with a full stop. Deciding stays in ``places``."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from proevent.evaluate import gazetteer
from proevent.evaluate.aliases import TOKEN
from proevent.evaluate.normalize import normalize_location
from proevent.evaluate.placeparse import _BIND, _GENERIC, _STREET_TYPES, Parsed, _aliases, _key

_ADMIN_WORDS = frozenset({"ku", "gu", "shi"})
"""A ward's or city's word written after its name in Japanese and Korean addresses ("Shibuya-ku", "Gangnam-gu"):
the area is named with or without it."""
_CAMPUS = frozenset({"campus"})
"""A university's campus is named by its place with or without the word ("Garching" / "Garching campus")."""
_TOWN_LINKS = frozenset({"am", "an", "im", "ob", "bei", "upon", "under", "sur", "sous", "en", "near"})
"""Words that join a town's name to its river or area in its official name ("Lech am Arlberg", "Kingston upon
Hull", "Châlons-en-Champagne")."""


def _number(word: str) -> bool:
    """A house number as written: digits, perhaps with one letter ("12", "45a")."""
    return word[:1].isdigit() and (word.isdigit() or (word[:-1].isdigit() and word[-1].isalpha()))


def unnumbered(q: tuple[str, ...], r: tuple[str, ...], match: Callable[[tuple[str, ...], tuple[str, ...]], bool]) \
        -> bool:
    """One qualifier is a street with its house number and the other the same street without one ("12 Bridge
    Street" / "Bridge St", "Rua da Rosa 45" / "Rua da Rosa"): a venue's street says where it is with or without
    the number. Both must name a street (a street type and its name, or a famous street of the alias table: "767
    Fifth Avenue"), or the number must come first before a name of two words or more that is no city ("35 Harbour
    Yards" / "Harbour Yards": a development whose name is its address); a number on each side is left to the words
    (different numbers are different addresses)."""
    nq, nr = [w for w in q if _number(w)], [w for w in r if _number(w)]
    if bool(nq) == bool(nr) or len(nq + nr) != 1:
        return False
    q2, r2 = tuple(w for w in q if not _number(w)), tuple(w for w in r if not _number(w))
    known = len(q2) == 1 and q2[0][:1] == TOKEN and "street" in _aliases().kinds(q2[0])  # "767 Fifth Avenue"
    numbered = q if nq else r
    named = _number(numbered[0]) and len(q2) >= 2 and all(w.isalpha() for w in q2) and any(
        w not in _GENERIC for w in q2) and not gazetteer.is_place_name(_key(q2))  # "35 Harbour Yards"
    return (known or named or (any(w in _STREET_TYPES for w in q2) and any(w not in _STREET_TYPES for w in q2))) \
        and match(q2, r2)


def unworded(q: tuple[str, ...], r: tuple[str, ...], match: Callable[[tuple[str, ...], tuple[str, ...]], bool]) \
        -> bool:
    """A ward's word ("Shibuya-ku" / "Shibuya") or a campus's ("Garching campus" / "Garching") on one side only."""
    for drop in (_ADMIN_WORDS, _CAMPUS):
        if any(w in drop for w in q) != any(w in drop for w in r):
            q2, r2 = tuple(w for w in q if w not in drop), tuple(w for w in r if w not in drop)
            if q2 and r2 and any(w not in _GENERIC for w in q2) and match(q2, r2):
                return True
    return False


@lru_cache(maxsize=1)
def _biggest_by_first_word() -> dict[str, str]:
    """Each first word of the gazetteer's towns and the biggest town whose name starts with it."""
    _, _, towns = gazetteer._load()
    best: dict[str, tuple[int, str]] = {}
    for name, where in towns.items():
        first = name.split(" ")[0]
        if first not in best or where.thousands > best[first][0]:
            best[first] = (where.thousands, name)
    return {first: name for first, (_, name) in best.items()}


def town_longer(q: tuple[str, ...], r: tuple[str, ...]) -> bool:
    """One qualifier is a town's name and the other that name with its river or area joined by "am", "upon", "sur"
    ... ("Lech" / "Lech am Arlberg"): the same town, unless the short name is better known as another town of the
    gazetteer ("Frankfurt" is Frankfurt am Main, not Frankfurt an der Oder; "Newcastle" alone is not taken for
    Newcastle upon Tyne, a bigger Newcastle being known)."""
    short, long = sorted((q, r), key=len)
    n = len(short)
    if not short or len(long) < n + 2 or long[:n] != short or long[n] not in _TOWN_LINKS \
            or any(_BIND in w or not w.isalpha() for w in long):
        return False
    full = _key(long)
    known_long = gazetteer.town(full) or gazetteer.town(_key(tuple(w for w in long if w not in _TOWN_LINKS)))
    known_short = gazetteer.town(_key(short))
    if known_short is not None:
        return known_long is not None and gazetteer.distance_km(known_short, known_long) < 50
    if known_long is not None:
        biggest = gazetteer.town(_biggest_by_first_word().get(short[0], ""))
        return n == 1 and biggest is known_long
    return not gazetteer.is_place_name(_key(short))


def numbers_swapped(pa: Parsed, pb: Parsed) -> bool:
    """A part of each side with the same words and the same two numbers or more, in another order: an address whose
    numbers are swapped is another address ("Calle 45 #12-30" / "Calle 12 #45-30"; "Flat 3, 12 Elm Road" keeps its
    numbers bound to their labels); streets named by numbers with their types swapped ("Calle 10 con Carrera 43" /
    "Carrera 10 con Calle 43")."""
    for p in pa.parts:
        nums = [w for w in p if w.isdigit()]
        if len(nums) < 2:
            continue
        for r in pb.parts:
            theirs = [w for w in r if w.isdigit()]
            if theirs != nums and sorted(theirs) == sorted(nums) and {w for w in p if not w.isdigit()} == {
                    w for w in r if not w.isdigit()}:
                return True
    fa, fb = pa.flat, pb.flat  # "Calle 10 con Carrera 43" / "Carrera 10 con Calle 43": each street has its number
    return sorted(fa) == sorted(fb) and len(_typed(fa)) >= 2 and sorted(_typed(fa)) != sorted(_typed(fb))


def _typed(part: tuple[str, ...]) -> list[tuple[str, str]]:
    """The numbers of a part that follow a street's type, with the type ("Calle 10", "Carrera 43": streets named by
    numbers, as Colombian and other grids name them)."""
    return [(part[i - 1], w) for i, w in enumerate(part) if i and w.isdigit() and part[i - 1] in _STREET_TYPES]


def initials_apart(parsed: Parsed, other: Parsed, acronym: Callable[[str, str], bool]) -> Parsed:
    """A head that is a name's initials with a place before or after it, read as the name the initials spell with
    the place as a qualifier, against a side whose head those initials spell, its articles and "of" counted or not
    ("Van Nuys DMV" / "Department of Motor Vehicles, Van Nuys"; "YMCA Elm St", "TUM Garching", "BOI Dame St" / "Bank
    of Ireland, Dame Street"); a code after the initials ("MoMA PS1") names a branch or a part of the place, not
where it is, and is left. ``parsed`` when not."""
    head, theirs = parsed.parts[0], other.parts[0]
    if len(head) < 2 or len(theirs) < 2:
        return parsed
    spelled = (" ".join(theirs), normalize_location(other.raw_head))
    for initials, rest in (((head[0],), head[1:]), ((head[-1],), head[:-1])):
        word = initials[0]
        if word.isalpha() and 2 <= len(word) <= 5 and word not in _GENERIC and any(w not in _GENERIC for w in rest) \
                and not any(c.isdigit() for w in rest for c in w) and any(acronym(word, name) for name in spelled):
            parts = (theirs, rest, *parsed.parts[1:])  # the initials written as the name they spell
            return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)
    return parsed


def street_tail(parsed: Parsed, other: Parsed, match: Callable[[tuple[str, ...], tuple[str, ...]], bool]) -> Parsed:
    """A head ending with a street ("maccies union st", "burger king george st") read as a name with that street
    as its qualifier, against a side that names the street as a qualifier; ``parsed`` when not."""
    head = parsed.parts[0]
    if len(head) < 3 or head[-1] not in _STREET_TYPES or len(other.parts) < 2:
        return parsed
    for k in (2, 3):
        name, tail = head[:-k], head[-k:]
        if name and any(w not in _GENERIC for w in name) and any(match(tail, q) for q in other.parts[1:]):
            parts = (name, tail, *parsed.parts[1:])
            return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)
    return parsed


_STOPPED = re.compile(r"(?<![\w.])([^\W\d_]{3,})\.(?!\w)")
"""A word of 3 letters or more written with a full stop after it: cut short ("Comm.", "Gen.")."""


def stopped(parsed: Parsed, other: Parsed) -> Parsed:
    """Words of a head cut short with a full stop ("Mt Pleasant Comm. Ctr") read as the one word of ``other``
    that each begins, 2 letters or more longer ("Community"); words the fold tables write out ("St.", "Ave.")
    and words with no such word there are left. ``parsed`` when none is read so."""
    cut = {normalize_location(m.group(1)) for m in _STOPPED.finditer(parsed.raw_head)} & set(parsed.parts[0])
    if not cut:
        return parsed

    def full(word: str) -> str:
        if word not in cut:
            return word
        longer = {y for y in other.flat if y.isalpha() and len(y) >= len(word) + 2 and y.startswith(word)}
        return longer.pop() if len(longer) == 1 and not longer & set(parsed.flat) else word

    head = tuple(full(w) for w in parsed.parts[0])
    if head == parsed.parts[0]:
        return parsed
    parts = (head, *parsed.parts[1:])
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p))
