"""Where a location says it is, for the ``places`` judge (:mod:`proevent.evaluate.places`): the
cities and regions each side names, namesakes of one kind in two cities far apart, and a side that
names a city or region other than the one the event's description says the event is in.

The gazetteer (:mod:`proevent.evaluate.gazetteer`) gives each city's country, state, position and
population; the alias table's ``districts`` the big cities a district of that name lies in or beside
("Westminster" is London's as well as a town in Colorado)."""

from __future__ import annotations

import re
from functools import lru_cache

from proevent.evaluate import gazetteer
from proevent.evaluate.placeparse import _GENERIC, Parsed, _aliases, _key, _words

_FAR_KM = 50.0
"""Cities farther apart than this are two places' cities, not one's districts."""
SAID_CITY = "#in:"
SAID_REGION = "#in-region:"
"""Cues (see :func:`proevent.evaluate.places.hits`) for the city or region a description says the
event is in ("dinner in Boston": ``#in:boston``; "in Portland, Oregon": ``#in:portland`` and
``#in-region:oregon``)."""
_CAP = r"[A-ZÀ-Þ][\w'’.-]*"
_IN_PLACE = re.compile(rf"(?<!\w)in\s+({_CAP}(?:\s+{_CAP}){{0,2}})(?:\s*,\s*({_CAP}(?:\s+{_CAP})?))?")
""""in" and a capitalised name of one to three words, perhaps a region after a comma."""


@lru_cache(maxsize=1)
def _districts() -> dict[str, frozenset[str]]:
    """A district's name (the gazetteer's key) and the big cities it lies in or beside (the alias
    table's ``districts``: "Westminster" is London's as well as a city in Colorado)."""
    out: dict[str, set[str]] = {}
    for town, names in gazetteer.alias_table().districts.items():
        for name in names:
            out.setdefault(_key(_aliases().fold(_words(name)[0])), set()).add(_key(_aliases().fold(_words(town)[0])))
    return {k: frozenset(v) for k, v in out.items()}


def named_cities(parsed: Parsed, other: Parsed) -> set[str]:
    """The cities of the gazetteer a location names and ``other`` does not: its qualifiers that
    are one, and a first or last word of a longer head that is one ("Trinity College Dublin")."""
    head = parsed.parts[0]
    found = {_key(q) for q in parsed.parts[1:] if gazetteer.town(_key(q))}
    if len(head) > 1:
        found |= {w for w in (head[0], head[-1]) if w not in _GENERIC and gazetteer.town(w)}
    return {c for c in found if not set(c.split()) <= set(other.flat)}


def named_regions(parsed: Parsed, other: Parsed) -> list[gazetteer.Where]:
    """The states and countries a location's qualifiers name (no city of that name) and ``other`` does not."""
    keys = [_key(q) for q in parsed.parts[1:] if not set(q) <= set(other.flat)]
    return [w for k in keys if not gazetteer.town(k) and (w := gazetteer.region(k)) is not None]


def _outside(cities: set[str], regions: list[gazetteer.Where]) -> bool:
    """Some of ``regions`` named, and every city of ``cities`` (their best-known towns) outside them all."""
    wheres = [gazetteer.city(c) for c in cities]
    return bool(regions) and bool(wheres) and all(w is not None and not any(
        r.country == w.country and r.state in ("", w.state) for r in regions) for w in wheres)


def _spots(name: str) -> list[gazetteer.Town]:
    """Where a city of that name may be: its best-known town, and the big cities a district so named lies in."""
    return [t for t in (gazetteer.town(c) for c in {name} | _districts().get(name, frozenset())) if t]


def _far(a: set[str], b: set[str]) -> bool:
    """Every city of ``a`` more than 50 km from every city of ``b`` (any of their spots; a city
    without a position is near)."""
    return all(_spots(x) for x in a | b) and all(
        gazetteer.distance_km(s, t) > _FAR_KM for x in a for y in b for s in _spots(x) for t in _spots(y))


def cities_apart(pa: Parsed, pb: Parsed) -> bool:
    """Each side names a city the other does not, and every two of them (or of the big cities a
    district of that name lies in) are more than 50 km apart: namesakes of one kind in two cities
    ("Trinity College Dublin" / "Trinity College, Cambridge"; "Big Ben, Westminster" / "Big Ben,
    London" and "MIT, Cambridge" / "MIT, Boston" are one place)."""
    ca, cb = named_cities(pa, pb), named_cities(pb, pa)
    if _outside(ca, named_regions(pb, pa)) or _outside(cb, named_regions(pa, pb)):
        return True  # "Mount Sinai Hospital, New York" / "Mount Sinai Hospital Toronto"
    return bool(ca) and bool(cb) and _far(ca, cb)


def said_in(description: str) -> frozenset[str]:
    """The city and region a description says the event is in, as cues: "in" and a capitalised
    name that is a city or region of the gazetteer ("lunch in Boston", "in Portland, Oregon"; a
    city's other name read as its English one). A city whose best-known namesake lies outside the
    region named with it is left out ("in Portland, Maine": only Maine)."""
    found: set[str] = set()
    for m in _IN_PLACE.finditer(description):
        words = _aliases().fold(_words(m.group(1))[0])
        city = next((_key(words[:n]) for n in range(len(words), 0, -1) if gazetteer.town(_key(words[:n]))), None)
        region = gazetteer.region(_key(_aliases().fold(_words(m.group(2))[0]))) if m.group(2) else None
        if region is None and city is None:
            region = gazetteer.region(_key(words))
            if region is not None:
                found.add(SAID_REGION + _key(words))
            continue
        if region is not None:
            found.add(SAID_REGION + _key(_aliases().fold(_words(m.group(2))[0])))
            where = gazetteer.city(city) if city else None
            if where is not None and _outside({city}, [region]):
                city = None
        if city is not None:
            found.add(SAID_CITY + city)
    return frozenset(found)


def elsewhere_than_said(pa: Parsed, pb: Parsed, cues: frozenset[str]) -> bool:
    """One side names a city (that the other does not) more than 50 km from the city the description
    says the event is in, or outside the region it says, or a region that does not hold it: that side
    is a namesake elsewhere ("Museum of Fine Arts, Houston" for an exhibit in Boston; "Portland Museum
    of Art, Portland, Maine" for a preview in Portland, Oregon)."""
    said = {c[len(SAID_CITY):] for c in cues if c.startswith(SAID_CITY)}
    regions = [w for c in cues if c.startswith(SAID_REGION) and (w := gazetteer.region(c[len(SAID_REGION):]))]
    if not said and not regions:
        return False
    for side, other in ((pa, pb), (pb, pa)):
        cities, theirs = named_cities(side, other), named_regions(side, other)
        if cities and ((said and _far(cities, said)) or _outside(cities, regions)):
            return True
        if theirs and (_outside(said, theirs) or any(regions and all(_apart(r, w) for r in regions)
                                                     for w in theirs)):
            return True
    return False


def _apart(a: gazetteer.Where, b: gazetteer.Where) -> bool:
    """Two regions that do not overlap: other countries, or other states of one country."""
    return a.country != b.country or ("" not in (a.state, b.state) and a.state != b.state)
