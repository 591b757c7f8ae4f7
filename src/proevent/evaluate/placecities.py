"""Where a location says it is, for the ``places`` judge (:mod:`proevent.evaluate.places`): the
cities and regions each side names, namesakes of one kind in two cities far apart, and a side that
names a city or region other than the one the event's description says the event is in.

The gazetteer (:mod:`proevent.evaluate.gazetteer`) gives each city's country, state, position and
population; the alias table's ``districts`` the big cities a district of that name lies in or beside
("Westminster" is London's as well as a town in Colorado)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from proevent.evaluate import gazetteer
from proevent.evaluate.placeparse import _GENERIC, _STREET_TYPES, Parsed, _aliases, _key, _words

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
_ON_TRIP = re.compile(rf"(?<!\w)(?:on|during)\s+(?:our|my|the|a|his|her|their)\s+({_CAP}(?:\s+{_CAP})?)\s+"
                      r"(?:trip|holiday|holidays|vacation|getaway|city\s+break|weekend)(?!\w)")
""""on our Budapest trip": an event during a stay in that city is in it ("packing for our Rome trip" is not)."""


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
    region named with it is left out ("in Portland, Maine": only Maine). An event "on" or "during" a trip, holiday
    or weekend named by a city ("dinner on our Budapest trip") is in that city."""
    found: set[str] = set()
    for m in _ON_TRIP.finditer(description):  # "dinner on our Budapest trip"
        city = _key(_aliases().fold(_words(m.group(1))[0]))
        if gazetteer.town(city):
            found.add(SAID_CITY + city)
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


_OUTWARD = re.compile(r"^[a-z]{1,2}\d[a-z\d]?$")
_INWARD = re.compile(r"^\d[a-z]{2}$")
"""The two halves of a British postcode ("BS5 9JT"): the district ("BS5") and the street's unit ("9JT")."""


def _postcode(part: tuple[str, ...]) -> tuple[str, bool, list[str]] | None:
    """A part's postcode district, whether its unit follows, and the part's other words; ``None`` without one."""
    at = next((i for i, w in enumerate(part) if _OUTWARD.match(w)), None)
    if at is None:
        return None
    unit = at + 1 < len(part) and bool(_INWARD.match(part[at + 1]))
    return part[at], unit, [w for i, w in enumerate(part) if i != at and not (unit and i == at + 1)]


def postcode_district(q: tuple[str, ...], r: tuple[str, ...]) -> bool:
    """One qualifier is a postcode's district ("BS5") and the other the whole postcode of that district, its town
    said or not ("Bristol BS5 9JT"): the district says where the place is, as a street does without its house
    number; another district ("BS6", "BS15") is elsewhere."""
    pq, pr = _postcode(q), _postcode(r)
    if pq is None or pr is None or pq[0] != pr[0] or pq[1] == pr[1]:
        return False
    (_, _, rest_q), (_, _, rest_r) = pq, pr
    short, long = sorted((rest_q, rest_r), key=len)
    return all(w in long for w in short) and all(w in short or gazetteer.is_place_name(w) for w in long)


def postcode_added(q: tuple[str, ...], r: tuple[str, ...],
                   match: Callable[[tuple[str, ...], tuple[str, ...]], bool]) -> bool:
    """A British postcode ending a part on one side only, read without it ("Ely CB7 4DD" / "Ely", "88 Kingsland Rd
    E8" / "Kingsland Road"): the postcode says where in the town or on the street, as a numeric one does
    (:func:`~proevent.evaluate.placepostal.postcode_dropped`). A district without its unit ("E8") counts only after
    a street's type or a town, so that a road's or a room's code ("A1", "B12") is not taken for one; two
    postcodes are left to :func:`postcode_district` and the words."""
    pq, pr = _postcode(q), _postcode(r)
    if (pq is None) == (pr is None):
        return False
    coded, bare, found = (q, r, pq) if pq is not None else (r, q, pr)
    assert found is not None
    district, unit, rest = found
    at = coded.index(district)
    if at + 1 + unit != len(coded) or not rest or any(_OUTWARD.match(w) for w in bare):
        return False
    if not unit and not (coded[at - 1] in _STREET_TYPES or gazetteer.is_place_name(coded[at - 1])):
        return False
    return match(tuple(rest), bare)


def state_apart(parsed: Parsed, other: Parsed) -> Parsed:
    """A head ending with a city and a state or country that holds it ("Yoga Loft Melbourne VIC", "Lotus Spa Austin
    TX") read with the city and the state as qualifiers, when ``other`` names the city and the rest is a name of
    its own; a state that does not hold the best-known city of that name ("Melbourne TX") is left, a namesake."""
    head = parsed.parts[0]
    where = gazetteer.region(head[-1]) if len(head) >= 3 else None
    if where is None:
        return parsed
    for n in (1, 2):
        city, name = head[-1 - n:-1], head[:-1 - n]
        town = gazetteer.city(_key(city))
        if town is not None and name and any(w not in _GENERIC for w in name) and all(w in other.flat for w in city) \
                and town.country == where.country and where.state in ("", town.state):
            parts = (name, city, head[-1:], *parsed.parts[1:])
            return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)
    return parsed
