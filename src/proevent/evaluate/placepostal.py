"""Postal forms of addresses for the ``places`` judge (:mod:`proevent.evaluate.places`): a numeric postcode beside
its town ("69117 Heidelberg", "Madrid 28013", "01310-200 São Paulo"), and a house number written after its street as
a part of its own ("C/ Mayor, 5", the Spanish and Italian way of writing "Calle Mayor 5"), and a street's name bound
to its type ("Mill Street Church" is not "Church Street Mill"), the same words split by commas elsewhere, and a
German "am" before a part of the address. Deciding stays in ``places``."""

from __future__ import annotations

from collections.abc import Callable

from proevent.evaluate import gazetteer
from proevent.evaluate.placeparse import _BIND, _GENERIC, _STREET_TYPES, Parsed, _key


def _digits(word: str) -> bool:
    return word.isdigit()


def _postcode_at(part: tuple[str, ...]) -> tuple[int, int] | None:
    """Where a numeric postcode lies in a part (start and end of its words), when the part is that postcode
    beside a town's name (before or after it): one number of 4 to 6 digits, or two (a postcode written with a
    hyphen or a space: "01310-200", "00-950", "114 55") of 4 to 9 digits in all, the first of 2 or more; the
    town's words are letters only, no kind of place (a street's "Main Street 12345" is no town)."""
    for start, end in ((0, 2), (0, 1), (len(part) - 2, len(part)), (len(part) - 1, len(part))):
        if start < 0 or end - start >= len(part):
            continue
        code, town = part[start:end], part[:start] + part[end:]
        if not all(_digits(w) for w in code) or len(code[0]) < 2:
            continue
        total = sum(len(w) for w in code)
        if not (4 <= total <= 9 and (len(code) == 2 or total <= 6)):
            continue
        if 1 <= len(town) <= 3 and all(w.isalpha() and w not in _GENERIC and _BIND not in w for w in town):
            return start, end
    return None


def postcode_dropped(q: tuple[str, ...], r: tuple[str, ...],
                     match: Callable[[tuple[str, ...], tuple[str, ...]], bool]) -> bool:
    """One qualifier is a town with its numeric postcode and the other the town alone ("69117 Heidelberg" /
    "Heidelberg", "Madrid 28013" / "Madrid"): the postcode says where in the town, as a house number does on a
    street. Two postcodes are left to the words (other codes are other areas)."""
    at_q, at_r = _postcode_at(q), _postcode_at(r)
    if (at_q is None) == (at_r is None):
        return False
    coded, bare, at = (q, r, at_q) if at_q is not None else (r, q, at_r)
    assert at is not None
    town = coded[:at[0]] + coded[at[1]:]
    return not any(w.isdigit() for w in bare) and match(town, bare)


def _house_number(part: tuple[str, ...]) -> bool:
    """A house number alone: digits, perhaps with one letter ("5", "12b"), of at most 4 digits."""
    if len(part) != 1:
        return False
    word = part[0]
    digits = word[:-1] if word[-1:].isalpha() else word
    return digits.isdigit() and len(digits) <= 4


def _numberless_street(part: tuple[str, ...]) -> bool:
    """A street without a house number: a street type and a word of its name, no digit ("Calle Mayor")."""
    return any(w in _STREET_TYPES for w in part) and any(w not in _GENERIC for w in part) and not any(
        any(c.isdigit() for c in w) for w in part)


def number_rejoined(parsed: Parsed, other: Parsed) -> Parsed:
    """A house number written as a part of its own right after its street ("C/ Mayor, 5, Madrid") read inside the
    street's part ("Calle Mayor 5, Madrid"), as Spanish, Italian and Portuguese addresses write it; ``parsed``
    when no part is so written. (``other`` plays no part: the reading is one of the location alone.)"""
    parts = list(parsed.parts)
    for i in range(len(parts) - 1, 0, -1):
        if _house_number(parts[i]) and _numberless_street(parts[i - 1]):
            parts[i - 1:i + 1] = [parts[i - 1] + parts[i]]
    if len(parts) == len(parsed.parts):
        return parsed
    return parsed._replace(parts=tuple(parts), flat=tuple(w for p in parts for w in p), free_order=True)


def _street_names(parsed: Parsed) -> set[tuple[str, str]]:
    """The streets a location names by a word and a street type after it ("mill", "street")."""
    return {(p[i - 1], p[i]) for p in parsed.parts for i in range(1, len(p)) if p[i] in _STREET_TYPES
            and p[i - 1] not in _STREET_TYPES and p[i - 1].isalpha()}


def streets_apart(pa: Parsed, pb: Parsed) -> bool:
    """Each side names a street by a word the other side has elsewhere, under the same street type: words moved
    across a street's type make another place ("Mill Street Church" is a church on Mill Street, "Church Street
    Mill" a mill on Church Street), however freely the rest of the words may be ordered."""
    sa, sb = _street_names(pa), _street_names(pb)
    if not sa or not sb or sa == sb or {t for _, t in sa} != {t for _, t in sb}:
        return False
    return all(x in pa.flat and x in pb.flat for x, _ in sa ^ sb)


def commas_moved(parsed: Parsed, other: Parsed) -> Parsed:
    """The first parts of ``parsed`` read as one head when they hold the same words in the same order as the first
    parts of ``other`` split elsewhere ("St Luke's Hospital, Outpatients Clinic 2" / "St Luke's Hospital
    Outpatients, Clinic 2, Level 1": a comma put after another word names no other place); ``parsed`` when no
    such run of parts is split otherwise. Words in another order ("Hotel Berlin, Vienna" / "Hotel Vienna,
    Berlin") are left."""
    mine, theirs = parsed.parts, other.parts
    run_a, run_b, i, j = mine[0], theirs[0], 1, 1
    while run_a != run_b:
        if len(run_a) < len(run_b) and i < len(mine) and run_b[:len(run_a)] == run_a:
            run_a, i = run_a + mine[i], i + 1
        elif len(run_b) < len(run_a) and j < len(theirs) and run_a[:len(run_b)] == run_b:
            run_b, j = run_b + theirs[j], j + 1
        else:
            return parsed
    if i == j == 1 or (i == j and mine[:i] == theirs[:j]):
        return parsed
    parts = (run_a, *mine[i:])
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)


_GERMAN_AT = frozenset({"am", "beim", "im"})
"""German words for "at the" and "in the" ("Bäckerei Sonne am Rathausplatz")."""


def german_at(parsed: Parsed, other: Parsed) -> Parsed:
    """A head with German "am", "beim" or "im" before words that ``other`` names as a part of their own read as
    the name with those words as its qualifier, as " at " splits an English one ("Bäckerei Sonne am Rathausplatz" /
    "Rathausplatz, Bäckerei Sonne"); a town's long name ("Frankfurt am Main", "Lech am Arlberg") is left. ``parsed``
    when not."""
    head = parsed.parts[0]
    for i, w in enumerate(head[1:-1], 1):
        name, rest = head[:i], head[i + 1:]
        if w in _GERMAN_AT and rest in other.parts and any(v not in _GENERIC for v in name) \
                and not gazetteer.is_place_name(_key(name)):
            parts = (name, rest, *parsed.parts[1:])
            return parsed._replace(parts=parts, flat=tuple(v for p in parts for v in p), free_order=True)
    return parsed


def _address(part: tuple[str, ...]) -> bool:
    """A street address: a house number (digits, perhaps with a letter: "221B") and a street with its type."""
    return any(_number(w) for w in part) and any(w in _STREET_TYPES for w in part) and any(
        w not in _GENERIC and not _number(w) for w in part)


def _number(word: str) -> bool:
    return word[:1].isdigit() and (word.isdigit() or (word[:-1].isdigit() and word[-1].isalpha()))


def venue_at_address(parsed: Parsed, other: Parsed, match: Callable[[tuple[str, ...], tuple[str, ...]], bool]) \
        -> Parsed:
    """A venue given with its street address read as the address, against a side whose head is that address alone
    ("Harbour Gallery, 12B Tanner Street, Leith" / "12B Tanner Street": the address says where to go); someone's home,
    a room or a floor is left (a flat or a room is one door of many there). ``parsed`` when not."""
    head = parsed.parts[0]
    if len(parsed.parts) < 2 or not _address(other.parts[0]) or _address(head) \
            or any(_BIND in w or w.endswith("'") for w in head):
        return parsed
    at = next((i for i, p in enumerate(parsed.parts[1:], 1) if _address(p) and match(p, other.parts[0])), None)
    if at is None:
        return parsed
    parts = parsed.parts[at:]
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)
