"""The ``places`` location judge (metrics version 2): the same place when a person would go to the
same spot, decided offline by general rules on the written forms, a small gazetteer
(``gazetteer.py``) and a hand-written table of known places (``aliases.py``), measured on the
labelled pairs (``placeset.py``).

Known places come first (see :func:`same_place` and :mod:`proevent.evaluate.aliases`): the names of a place of the
table become one token, two heads that both name known places are decided as known places (different when they share
none; "Big Ben" is not "Big Ben pub"), a known place beside a city or region elsewhere is a namesake, and the rules
below decide the rest, read with and without the tokens. The event's description may point at a place (cues: "the Met"
on an art day) or say that a possessive is a business ("Sophie's" at the bar is not "Sophie's flat").

A location is read as a head (the place) and qualifiers (city, street, address, room): the parts after a comma, a
parenthesis, " - ", or the words " on ", " at ", " in ". Words are canonical: the metrics spec's normalisation,
articles and "of/and" dropped, street types and common abbreviations folded ("St"/"Street"/"Saint", "Rd"/"Road",
"Str."/"straße", "pl."/"Plac"/"Platz", "5th"/"fifth", "Forty-Second"/"42nd"), and a home word after a possessive
dropped ("Tom's place" is "Tom's", whose "s" then must stay: not "Tom", a person). Words bind within a part: a label
(Room, Hall, Level, Bay, Gate, Terminal, Platform, Floor, Seat, ...) its numbers or letter ("Hall 2 Room 3" is not
"Hall 3 Room 2"; "2nd floor" is "Floor 2"), a compass point the place word after it ("North Gate, South Campus" is not
"South Gate, North Campus"), and a named room is one word whatever its kind and order ("Meeting room Fjord" = "Fjord
room"; "Room S12" = "S12"). Two locations are the same when

1. their words are the same bag; the order is free when either side has a qualifier, an "of" or
   article inside, a possessive or a number, or a word other than place kinds and modifiers
   ("Ritz Hotel" / "Hotel Ritz"), else it must agree ("Central Park" is not "Park Central"), or
2. their heads are the same (in that order rule) or one head is the other with a venue kind, a
   compass point, a city or region (the gazetteer's; no place kind) before or after it, or one
   capitalised name that is no place kind after a distinctive name (two words, or one of 7
   letters or more) -- never when the shorter head is itself a city or region ("Brooklyn" /
   "Brooklyn Bowl", "Lisbon" / "Lisbon Cafe": the added words make a venue) -- and each qualifier
   of the side with fewer qualifiers matches one of the other side's (a street named after a city
   is not the city: "Liverpool Street" / "Liverpool"), no added qualifier names a country or
   state other than that of the best-known city named by the head ("Paris" / "Paris, Texas" are
   namesakes; "Lisbon" / "Lisbon, Portugal" are one), and, when the head is a chain
   (``data/chain_names.txt``), no qualifier or name on one side only picks a branch (a street,
   station, area or address: "Costa Coffee, Paddington station" is not "Costa Coffee"; a city or
   a room may be added: "Nando's, Leeds"); a home is never extended ("Anna's place" is not
   "Anna's Café"), or
3. both are online meetings (every word of the head a platform name or a word like "call",
   "meeting", "online", "voice channel"; of a qualifier with no place word only its platform
   counts: "(link in calendar invite)") on the same platform, or one names no platform.

Words match when equal, equal but for a trailing "s" (possessives), equal with their spaces
removed ("Star bucks"), or a typo apart: same first letter (and second, below 9 letters), no
digits, at least 5 letters, optimal-string-alignment distance 1 (2 from 10 letters), no
place-name part ("town", "vale", "dale", "ford", ...) gained or lost but by swapped letters
("Kingston" / "Kingstown"); one letter put for another only from 9 letters; a letter more or
less below 8 letters only as a vowel, an "h" or a doubled letter ("Staton", "Dalston" is not
"Dalton"). A short word (3 letters or more) may lose or gain a doubled letter when another
distinctive word of the name is equal ("Primrose Hil"), and a word of 6 letters or more inside a
name of three words or more a letter when its first and last words hold ("Riverside Medial
Practice"); two words may be written as one ("Hairsalon"). Numbers and one-letter words must be
equal. An acronym of 2-5 letters matches the initials of the other side ("MSG"). A city against
a venue, a room without its building, or "his place" against "Tom's place" has different heads
and is refused.

Other readings live in small modules: national address forms, a street's name bound to its type and
a venue at its address (:mod:`~proevent.evaluate.placepostal`), a call's person ("FaceTime w/ Nana":
:mod:`~proevent.evaluate.placecalls`), a hospital's or room's use dropped and a possessive's pub
(:mod:`~proevent.evaluate.placekinds`), "the usual", "parents'" and one's own workplace or children's school
(:mod:`~proevent.evaluate.placeowners`), a hospital's department in any order ("Outpatients, City General":
:mod:`~proevent.evaluate.placedepts`), a British postcode beside its town or street
(:mod:`~proevent.evaluate.placecities`), a reference or a chain's bare name the description names ("the usual" for
pints @ the Tipsy Cow: :mod:`~proevent.evaluate.placesaid`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import OSA

from proevent.evaluate import gazetteer
from proevent.evaluate.aliases import TOKEN, tokens_match
from proevent.evaluate.judges import LocationJudge
from proevent.evaluate.normalize import normalize_location
from proevent.evaluate.placecalls import call_with
from proevent.evaluate.placechains import ChainIndex, chain_named, chain_store
from proevent.evaluate.placecities import (
    cities_apart,
    elsewhere_than_said,
    postcode_added,
    postcode_district,
    said_in,
    state_apart,
)
from proevent.evaluate.placedepts import department_apart
from proevent.evaluate.placeforms import (
    initials_apart,
    numbers_swapped,
    stopped,
    street_tail,
    town_longer,
    unnumbered,
    unworded,
)
from proevent.evaluate.placeinitials import acronym as _acronym
from proevent.evaluate.placekinds import paired_short, possessive_venue, says_business, use_dropped, uses_apart
from proevent.evaluate.placemeetings import titles_apart
from proevent.evaluate.placeowners import (
    couple_home,
    kin_home,
    kin_resolved,
    named_cues,
    own_place,
    owner_cues,
    resolved,
    unresolved,
    usual,
)
from proevent.evaluate.placeparse import (  # noqa: F401 (canonical_name, gazetteer_key: re-exported)
    _BIND,
    _COMPASS,
    _DESCRIPTIVE,
    _GENERIC,
    _GENERIC_ONLINE,
    _HOME,
    _HOME_MARK,
    _HOTEL_NAMES,
    _IMPLIED_KIND,
    _MODIFIERS,
    _NEWER,
    _ONLINE_FILLER,
    _PLACE_KINDS,
    _PLATFORMS,
    _PRODUCT_WORDS,
    _RESORT,
    _STATION_WORDS,
    _STREET_TYPES,
    _TOPONYM_PARTS,
    _VENUE_CUE,
    _VENUE_PREFIXES,
    _VENUE_TYPES,
    _VENUE_WORDS,
    Parsed,
    _aliases,
    _city_apart,
    _key,
    _labelled,
    _rearranged,
    _venue_named,
    _words,
    canonical_name,
    gazetteer_key,
    meeting,
    parse,
    room_named,
    split_as,
)
from proevent.evaluate.placepostal import (
    commas_moved,
    german_at,
    number_rejoined,
    postcode_dropped,
    streets_apart,
    venue_at_address,
)
from proevent.evaluate.placerooms import (
    BUILDING_KINDS,
    codes,
    floor_joined,
    room_alone,
    same_codes,
    street_address,
    unbuilt,
)
from proevent.evaluate.placesaid import SAID, said_cues, said_resolved, vague
from proevent.evaluate.placeslips import (
    cut_short,
    doubling,
    dropped,
    glued,
    neighbours_swapped,
    one_more,
    slip,
    sound_alike,
    transcribed,
    vowel_slip,
)
from proevent.evaluate.placetrips import FLIGHT, flight_cues, names_terminal, terminal, terminal_dropped

_VOWELS = frozenset("aeiouy")
_POSSESSIVE_END = re.compile(r"['’ʼ]s?$")
_GROUNDS = frozenset({"university", "college", "campus", "messe", "fairground", "fairgrounds", "showground",
                      "showgrounds", "expo", "exhibition", "polytechnic"})
"""Words of a place made of many buildings or halls (a campus, a fairground)."""
_BUILDING_LABELS = frozenset({"hall", "building", "block", "wing", "pavilion", "stand"})
_BUILDING_WORDS = frozenset({"building", "hall", "library", "pavilion", "centre", "tower", "wing", "house"})
"""A building inside grounds: its label before a number, or its word ending a name."""
_VENUE_HEADS = frozenset({"hall", "theatre", "cinema", "arena", "auditorium", "ballroom", "studio", "stadium",
                          "library", "chapel"})
"""Kinds of hall or stage: two of them, one on each side, are two venues of one complex."""


@lru_cache(maxsize=65536)
def word_match(x: str, y: str, pinned: bool = False) -> bool:
    """Equal, equal but for a trailing "s", or a typo apart (see the module
    docstring); ``pinned`` (the rest of the name matched a distinctive word) lets a short word
    lose or gain a doubled letter."""
    if x[:1] == TOKEN or y[:1] == TOKEN:  # a known place: the same when the two share a place
        return tokens_match(x, y)
    hx, hy = x.endswith(_HOME_MARK), y.endswith(_HOME_MARK)
    if hx or hy:  # an owner's home: "toms'" is "toms", never "tom"
        x, y = x.rstrip(_HOME_MARK), y.rstrip(_HOME_MARK)
        return x == y or (x.rstrip("s") == y.rstrip("s") and x.endswith("s") and y.endswith("s"))
    if x == y:
        return True
    if _BIND in x or _BIND in y:  # the label (or compass point) equal, its number or word matching
        (lx, _, rx), (ly, _, ry) = x.partition(_BIND), y.partition(_BIND)
        return _BIND in x and _BIND in y and lx == ly and (word_match(rx, ry) or floor_joined(lx, rx, ry))
    if x.rstrip("s") == y.rstrip("s") or transcribed(x, y):
        return True
    if not x or not y or x[0] != y[0] or any(c.isdigit() for c in x + y):
        return False
    shortest = min(len(x), len(y))
    if pinned and shortest >= 3 and (doubling(x, y) or (shortest >= 5 and (x in _GENERIC) != (y in _GENERIC)
                                                         and one_more(x, y))):
        return True  # the rest of the name holds: "Primrose Hil"; a kind's word mistyped: "Temple" / "Tempe"
    if pinned and shortest >= 6 and len(x) == len(y) and x not in _GENERIC and y not in _GENERIC and sum(
            c != d for c, d in zip(x, y)) == 1 and all(c in _VOWELS for c, d in zip(x + y, y + x) if c != d):
        return True  # one vowel for another where the rest of the name holds ("Shinjiku Gyoen")
    if pinned and shortest >= 5 and vowel_slip(x, y) and (x in _GENERIC) == (y in _GENERIC):
        return True  # a vowel dropped after the first letter where the rest of the name holds ("Jnction")
    if pinned and shortest >= 4 and sound_alike(x, y) and x not in _GENERIC and y not in _GENERIC:
        return True  # one letter for another that sounds like it where the rest of the name holds ("Enso")
    if pinned and shortest == 4 and neighbours_swapped(x, y) and x not in _GENERIC and y not in _GENERIC:
        return True  # two letters swapped in a short word where the rest of the name holds ("Red Loin, Barnes")
    if slip(x, y):
        return True
    if shortest < 5 or (shortest < 9 and x[1] != y[1]):
        return False  # the first two letters carry a short name ("Carlton" / "Charlton")
    limit = 2 if shortest >= 10 else 1
    if OSA.distance(x, y, score_cutoff=limit) > limit:
        return False
    swapped = len(x) == len(y) and sorted(x) == sorted(y)
    if not swapped and any(x.count(t) != y.count(t) for t in _TOPONYM_PARTS):
        return False
    if len(x) != len(y) and shortest < 8 and not doubling(x, y) and not vowel_slip(x, y):
        return False  # a consonant more or less in a short name spells another ("Dalston" / "Dalton")
    # one letter put for another in a short word mostly spells another name (Merton / Morton,
    # Grandma / Grandpa); slips that drop, double or swap letters are typos at any length
    return shortest >= 9 or len(x) != len(y) or swapped or limit > 1


def _pinned(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Both share a distinctive word (5 letters or more, no place kind nor modifier) and more words."""
    return len(a) > 1 and any(len(w) >= 5 and w not in _GENERIC and w in b for w in a)


def words_match(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The same bag of words up to typos (a greedy one-to-one pairing), or the same letters."""
    if "".join(a) == "".join(b):
        return True
    if len(a) != len(b):  # two words written as one ("Hair Salon" / "Hairsalon")
        long, short = (a, b) if len(a) > len(b) else (b, a)
        joined = glued(long, short)
        return joined is not None and len(joined) == len(short) and words_match(joined, short)
    pinned = _pinned(a, b)
    rest = list(b)
    left: list[str] = []
    for x in sorted(a, key=lambda w: (w not in rest, w)):
        for i, y in enumerate(rest):
            if word_match(x, y, pinned):
                del rest[i]
                break
        else:
            if left or len(a) < 2:
                return False
            left.append(x)
    # a big city's name cut short where every other word holds ("Uni Melb" / "University of Melbourne"), or a
    # letter dropped inside a name whose first and last words hold, one distinctive ("Riverside Medial
    # Practice"; not in the leading name, "Dalton Road Surgery", its last word, "Craft Brewey", or a place's name)
    return not left or _city_cut(left[0], rest[0]) or _city_cut(rest[0], left[0]) or (
        len(a) >= 3 and pinned and left[0] in a[1:-1] and rest[0] in b[1:-1] and dropped(left[0], rest[0])
        and not gazetteer.is_place_name(left[0]) and not gazetteer.is_place_name(rest[0])
        and not any(left[0].count(t) != rest[0].count(t) for t in _TOPONYM_PARTS))


def _city_cut(x: str, y: str) -> bool:
    """``x`` is ``y`` cut short as abbreviations are (:func:`cut_short`) and ``y`` a city of 300,000 people
    or more, whose names are cut so ("Melb", "Birm"; not "Alex" for Alexandra, nor "Jess" for Jessica)."""
    if not cut_short(x, y):
        return False
    where = gazetteer.town(y)
    return where is not None and where.thousands >= 300


def _in_order(a: Parsed, b: Parsed, wa: tuple[str, ...], wb: tuple[str, ...]) -> bool:
    """Matched words ``wa`` / ``wb`` may be read in another order: one side's order is free, the
    words pair in order, or a word besides place kinds and modifiers names the place ("Trailhead
    Blue Ridge"; not "Park Central" for "Central Park")."""
    if a.free_order or b.free_order or len(wa) != len(wb) or any(w not in _GENERIC for w in wa + wb):
        return True
    return all(word_match(x, y) for x, y in zip(wa, wb))


def _qualifier_match(q: tuple[str, ...], r: tuple[str, ...]) -> bool:
    """Qualifiers match as words, or with a street type or compass point only one of them has
    ("Yonge" / "Yonge Street", "Pennsylvania Avenue" / "Pennsylvania Avenue NW"); a known place
    matches one of its names so ("King's Cross station" / "Kings Cross")."""
    if words_match(q, r) or unworded(q, r, words_match) or unnumbered(q, r, _qualifier_match) \
            or town_longer(q, r) or postcode_district(q, r) or postcode_dropped(q, r, words_match) \
            or postcode_added(q, r, _qualifier_match):
        return True  # "Shibuya-ku" / "Shibuya", "12 Bridge St" / "Bridge St", "Lech am Arlberg" / "Lech"
    for known, other in ((q, r), (r, q)):
        if len(known) == 1 and known[0][:1] == TOKEN and not any(w[:1] == TOKEN for w in other):
            return any(_qualifier_match(name, other) for name in _aliases().spellings(known[0]))
    for drop in (_STREET_TYPES, _COMPASS, _STATION_WORDS):
        if any(w in drop for w in q) != any(w in drop for w in r):
            q2, r2 = tuple(w for w in q if w not in drop), tuple(w for w in r if w not in drop)
            bare = r if any(w in drop for w in q) else q  # a street named after a city is not the city
            city = drop is not _COMPASS and gazetteer.is_place_name(_key(bare))  # ("Liverpool Street")
            if q2 and r2 and words_match(q2, r2) and not city:
                return True
    return False


def _place_word(word: str) -> bool:
    """A city's or region's name that is no common word of places ("Hub", "Riverside", "Bath")."""
    return word not in _GENERIC and gazetteer.is_place_name(word)


_EATERY = frozenset({"bar", "grill", "pub", "cafe", "coffee", "restaurant", "kitchen", "bistro", "diner", "tavern",
                     "brasserie", "lounge", "eatery", "taproom", "cantina"})
"""Kinds of a place to eat or drink that a name may drop together ("Moonshine Bar & Grill" is "Moonshine")."""


def _distinctive_alone(short: tuple[str, ...], raw_short: str) -> bool:
    """A name that stands for its venue alone: a word of 5 letters or more (or two words) besides kinds and
    modifiers, no city or region, no chain, no known place, and no possessive ("Mike's" alone may be a home)."""
    return not _POSSESSIVE_END.search(raw_short.strip()) and not gazetteer.is_place_name(_key(short)) \
        and not _chain(short) and not any(w[:1] == TOKEN for w in short) and (
            len([w for w in short if w not in _GENERIC]) >= 2 or any(len(w) >= 5 and w not in _GENERIC for w in short))


def _extended(short: tuple[str, ...], long: tuple[str, ...], raw_long: str, raw_short: str = "") -> bool:
    """``long`` is ``short`` with a venue kind added ("Old Bell pub"), a city or region before or
    after it ("Paris Gare du Nord", "Paradiso Amsterdam"), or one capitalised name after it
    ("Bar Italia Soho") when ``short`` is distinctive (two words, or one of 7 letters or more),
    no city or region itself ("Brooklyn" / "Brooklyn Bowl": the added word makes a venue), and the
    added word is no kind of place ("Brighton Beach"). Nothing extends a home ("Anna's place" is not
    "Anna's Café"), and a name added to a chain is a branch ("Starbucks Soho")."""
    if any(w.endswith(_HOME_MARK) for w in short):
        return False
    if len(long) == len(short) + 2 and all(w in _EATERY for w in long[-2:]) and words_match(short, long[:-2]):
        return _distinctive_alone(short, raw_short)  # "Moonshine Bar & Grill" / "moonshine"
    if len(long) != len(short) + 1:
        return False
    short_is_place = gazetteer.is_place_name(_key(short))
    if words_match(short, long[1:]):  # a city before a name of its own ("Paris Gare du Nord")
        return not short_is_place and any(w not in _GENERIC for w in short) and (
            _place_word(long[0]) or (long[0] in _VENUE_PREFIXES and not _chain(short)))
    if not words_match(short, long[: len(short)]):
        return False
    extra = long[-1]
    if extra in _COMPASS:  # "1600 Pennsylvania Ave NW"
        return not any(w in _COMPASS for w in short)
    if short_is_place:
        return False
    if extra in _VENUE_TYPES:  # "Old Bell pub"; not "Big Ben pub", a pub named after a known place
        known = len(short) == 1 and short[0][:1] == TOKEN and "chain" not in _aliases().kinds(short[0])
        kinds = {w for w in short if w in _PLACE_KINDS} - _HOTEL_NAMES if extra == "hotel" else set()
        return not known and not kinds and not any(w in _VENUE_TYPES for w in short)  # not "Kew Gardens Hotel"
    if _chain((extra,)):
        return False  # a chain's branch named after a place ("Gatwick Hilton")
    if len(short) >= 2 and _IMPLIED_KIND.get(short[-1]) == extra:  # "Greenwood Elementary" is a school
        return True
    if _place_word(extra):  # a kind alone is no place in particular ("the park" / "Parque del Retiro")
        return not (len(short) == 1 and short[0] in _PLACE_KINDS)
    last_raw = raw_long.split()[-1] if raw_long.split() else ""
    distinctive = (len(short) >= 2 or len(short[0]) >= 7 or short[0][:1] == TOKEN) and not _chain(short)
    cased = last_raw[:1].isupper() or not any(c.isupper() for c in raw_long)  # all lower case tells nothing
    return distinctive and extra.isalpha() and len(extra) >= 3 and cased and extra not in _GENERIC


def _trimmed(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """``long`` is ``short`` with only modifiers or descriptive words added within or before it
    ("Wawel Royal Castle", "Gran Cafe Tortoni"), descriptive words after it, or, when ``short``
    names no kind, one kind after it ("Kirstenbosch National Botanical Garden"), a distinctive
    name kept (two words, or one of 5 letters or more, besides cities, kinds and modifiers; one
    alone of 7 or more). Never for a home, a chain, a city, a kind added to a known place, a street
    ("Baker" / "Baker Street"), or a kind added to a kind ("Hyde Park Corner", "Kew Gardens
    Station")."""
    if len(long) <= len(short) or any(w.endswith(_HOME_MARK) for w in short) or _chain(short) or _chain(long):
        return False
    known = len(short) == 1 and short[0][:1] == TOKEN  # a known place takes a modifier only ("Gran Cafe Tortoni")
    if gazetteer.is_place_name(_key(short)):
        return False
    distinct = [w for w in short if w not in _GENERIC and w not in _DESCRIPTIVE and w[:1] != TOKEN and _BIND not in w
                and not gazetteer.is_place_name(w)]
    if not known and not (len(distinct) >= 2 or any(len(w) >= (5 if len(short) > 1 else 7) for w in distinct)):
        return False  # "Rosa's" / "Rosa's Thai": a short name alone may be anything of that name
    added: list[tuple[int, str]] = []  # each added word with how many of short's words come before it
    i = 0
    for w in long:
        if i < len(short) and word_match(short[i], w):
            i += 1
        else:
            added.append((i, w))
    if i < len(short):
        return False
    kinded = known or any(w in _PLACE_KINDS or _BIND in w for w in short)
    if sum(w in _PLACE_KINDS for _, w in added) > 1:
        return False  # "Gulbenkian Cafe Shop" is a shop at the Gulbenkian
    if added[0][0] == 0 and added[0][1] in _NEWER and short[-1] in _PLACE_KINDS:
        return False  # a new place named after an old one ("Grand Egyptian Museum"; not "Gran Cafe Tortoni")
    for at, (before, w) in enumerate(added):
        if w in _RESORT and kinded:
            return False  # a resort named after a known place or a kind of place is another ("Kew Gardens resort")
        if w in _DESCRIPTIVE or (w in _MODIFIERS and (before < len(short) or any(
                v in _PLACE_KINDS for _, v in added[at:]))):
            continue  # a modifier last after the name makes another ("Paddington Central")
        if w not in _PLACE_KINDS or (w in _STREET_TYPES and w != "square") or w in _HOME or kinded or _BIND in w \
                or before < len(short):
            return False
    return True


def _online(parts: tuple[tuple[str, ...], ...]) -> str | None:
    """The platform of an online meeting (``""`` when it names none); ``None`` for a place. Of a
    qualifier with no place word only its platform counts: a remark ("link in calendar invite")
    makes no place."""
    words = list(parts[0]) + [w for part in parts[1:] for w in part
                              if w in _PLATFORMS or w in _GENERIC_ONLINE or _BIND in w
                              or any(v in _PLACE_KINDS or _BIND in v for v in part)]
    platforms = {_PLATFORMS[w] for w in words if w in _PLATFORMS}
    platforms -= {_PRODUCT_WORDS[p] for p in platforms if p in _PRODUCT_WORDS}  # "Jitsi Meet" is Jitsi
    others = [w for w in words if w not in _PLATFORMS and w not in _GENERIC_ONLINE and w not in _ONLINE_FILLER
              and w.removesuffix("s") not in _ONLINE_FILLER and not w.isdigit()]
    if others or len(platforms) > 1 or not (platforms or any(w in _GENERIC_ONLINE for w in words)):
        return None
    return next(iter(platforms), "")


def _namesake(head: tuple[str, ...], extra: list[tuple[str, ...]]) -> bool:
    """An added qualifier names a country or state other than that of the best-known city called
    ``head``: another city of that name ("Paris" / "Paris, Texas"; "Lisbon, Portugal" is Lisbon). A two-letter
    code that is the city's own country's (ISO 3166) names that country, whatever state it also abbreviates
    ("Berlin, DE" is no city in Delaware, "The Hague, NL" none in Newfoundland and Labrador)."""
    town = gazetteer.city(_key(head))
    if town is None:
        return False
    for q in extra:
        where = gazetteer.region(_key(q))
        if len(q) == 1 and q[0].upper() == town.country:
            continue
        if where is not None and (where.country != town.country or where.state not in ("", town.state)):
            return True
    return False


@lru_cache(maxsize=65536)
def _tagged(location: str, hits: frozenset[str]) -> Parsed:
    """A location with the names of known places as tokens (:mod:`proevent.evaluate.aliases`),
    ``hits`` the places whose cues the event's description has; the parse itself when none."""
    return _tag(parse(location), hits)


def _tag(parsed: Parsed, hits: frozenset[str]) -> Parsed:
    parts = _aliases().tag_parts(parsed.parts, hits)
    if parts == parsed.parts:
        return parsed
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p))


def _respelled(pa: Parsed, pb: Parsed) -> Parsed:
    """``pa`` with its words that are typos of ``pb``'s written as ``pb`` writes them ("Acropolis
    Musuem" against "Acropolis Museum"), so that a known place is found under a typo; ``pa`` when
    none is."""
    pinned = _pinned(pa.flat, pb.flat)
    others = [y for y in pb.flat if _BIND not in y and y[:1] != TOKEN and not y.endswith(_HOME_MARK)]

    def fix(x: str) -> str:
        if x in pb.flat or _BIND in x or x.endswith(_HOME_MARK):
            return x
        return next((y for y in others if y not in pa.flat and word_match(x, y, pinned)), x)

    parts = tuple(tuple(fix(x) for x in part) for part in pa.parts)
    if parts == pa.parts:
        return pa
    return pa._replace(parts=parts, flat=tuple(w for p in parts for w in p))


def _home(parsed: Parsed) -> bool:
    """The head is someone's home ("Tom's place", "Tom's flat")."""
    return any(w.endswith(_HOME_MARK) for w in parsed.parts[0])


def _tokens(parsed: Parsed) -> set[str]:
    return {w for w in parsed.parts[0] if w[:1] == TOKEN}


@lru_cache(maxsize=4096)
def hits(description: str) -> frozenset[str]:
    """The places of the alias table whose cues an event's description has, and ``#venue`` when it
    names a kind of business (a bar, a shop: see :data:`_VENUE_WORDS`), and the city or region it says
    the event is in (:func:`~proevent.evaluate.placecities.said_in`)."""
    found = _aliases().hits(description) | said_in(description)
    if not _VENUE_WORDS.isdisjoint(normalize_location(description).split()):
        found |= {_VENUE_CUE}
    return found


def same_place(a: str, b: str, cues: frozenset[str] = frozenset()) -> bool:
    """The ``places`` rule on two location strings (symmetric; see the module docstring); ``cues`` are the known
    places the event's description points at (:func:`hits`). Known places decide when both heads name some: the
    same when they share one ("JFK" / "John F. Kennedy International Airport"), different when they share none
    ("Louvre" / "Louvre-Lens"); the written forms decide the rest, read with and without the known places' tokens.
    A typo of the other side's word is read as the other side writes it, and the rule asked again; then the parts
    in their other readings (:func:`_rearranged`, :func:`_city_apart`, :func:`room_named`). Two meetings with
    different codes or channels are two meetings (:func:`meeting`)."""
    if cues and (resolved(a, b, cues) or kin_resolved(a, b, cues) or said_resolved(a, b, cues, _chain_length)):
        return True  # "her place" for dinner with Ana is Ana's place; "nonna's" for lunch at Nonna Lucia's
    cues = frozenset(c for c in cues if not c.startswith(SAID))  # the description's words are read above only
    if (usual(a) and usual(b)) or couple_home(a, b) or own_place(a) is not None and own_place(a) == own_place(b) \
            or paired_short(a, b):
        return True  # "the usual" / "the usual spot"; "parents' house" / "Mum and Dad's"; "work" / "the office";
        # "the Dog" / "the Dog and Duck"
    (ca, wa), (cb, wb) = call_with(a), call_with(b)
    if wa or wb:  # "FaceTime w/ Nana" is a FaceTime call, not FaceTime w/ Grandpa
        if wa and wb and wa != wb:
            return False
        a, b = ca, cb
    ma, mb = meeting(a), meeting(b)
    if ma is not None and mb is not None:
        return ma == mb  # "meet.google.com/xyz-..." is not "meet.google.com/qrs-...", but "Meet link xyz-..."
    pa, pb = parse(a), parse(b)
    if _VENUE_CUE not in cues and (says_business(pa) or says_business(pb)):
        cues = cues | {_VENUE_CUE}  # "Davids (the restaurant on Queen St)" is no one's home
    if titles_apart(a, b) and _online(pa.parts) is not None and _online(pb.parts) is not None:
        return False  # "Teams – 'Weekly Ops'" is not "Teams – 'Monthly Ops Review'"
    if numbers_swapped(pa, pb) or streets_apart(pa, pb) or uses_apart(a.lower(), b.lower()):
        return False  # "Calle 45 #12-30" is not "Calle 12 #45-30", "Mill Street Church" not "Church Street Mill"
    if cues and elsewhere_than_said(pa, pb, cues):
        return False  # "Museum of Fine Arts, Houston" for an exhibit in Boston
    if _known_apart(pa, pb, cues) and _known_apart(_respelled(pa, pb), pb, cues) \
            and _known_apart(pa, _respelled(pb, pa), cues):
        return False  # two known places, in no other reading one ("Portland Art Museum" / "... Museum of Art")
    xa, xb = _rearranged(pa), _rearranged(pb)  # the parts in their other reading
    rooms = all(any(_labelled(w) for w in p.flat) for p in (xa, xb))  # a room on one side only is not moved
    readings = [(pa, pb)]
    if room_named(a) != a or room_named(b) != b:  # "Room 1.04 (Turing)" is the Turing room
        readings.append((parse(room_named(a)), parse(room_named(b))))
    if (xa is not pa or xb is not pb) and (rooms or not any(_labelled(w) for w in xa.flat + xb.flat)):
        readings.append((xa, xb))
    for other_reading in _OTHER_READINGS:  # each side read against the other, kept where one changes
        ra, rb = other_reading(pa, pb), other_reading(pb, pa)
        if ra is not pa or rb is not pb:
            readings.append((ra, rb))
    if FLIGHT in cues:  # one's own flight: the airport, whichever terminal
        ta, tb = _tag(pa, cues), _tag(pb, cues)
        da, db = terminal_dropped(ta, tb, _airport), terminal_dropped(tb, ta, _airport)
        if da is not ta or db is not tb:
            readings.append((da, db))
    for ra, rb in readings:
        if _decide(ra, rb, cues):
            return True
        sa, sb = _respelled(ra, rb), _respelled(rb, ra)
        if (sa is not ra and _decide(sa, rb, cues)) or (sb is not rb and _decide(ra, sb, cues)):
            return True
    ka, kb = _known_typo(pa, pb, cues), _known_typo(pb, pa, cues)
    return (ka is not pa and _decide(ka, pb, cues)) or (kb is not pb and _decide(pa, kb, cues)) \
        or _room_pinned(pa, pb) or _room_pinned(pb, pa)


_FIRST_WORD = re.compile(r"\s*[^\s,(]+")


def _first_word(location: str) -> str:
    """The first word of a location, lower-cased (a cheap test before parsing: a chain's two sides share it)."""
    first = _FIRST_WORD.match(location)
    return first.group(0).strip().lower() if first else ""


def _bare_chain(location: str) -> bool:
    """A chain's name alone, or with "near the office": a branch the description may name."""
    head = parse(location).parts
    return len(head) == 1 and 0 < _chain_length(head[0]) >= len(head[0]) - 3


def _airport(head: tuple[str, ...]) -> bool:
    """A head that names an airport: a known airport, or a name with the word "airport"."""
    return "airport" in head or any("airport" in _aliases().kinds(w) for w in head if w[:1] == TOKEN)


def _room_pinned(short: Parsed, long: Parsed) -> bool:
    """One room named by both sides with the same numbers (one of them labelled), every distinctive word
    of ``short`` found in ``long``, and no kind of building on each side that the other lacks: the room
    is pinned, and what ``long`` adds (the building's word, the grounds, the city) says where it is
    ("Block C Room 305" / "Room 305, Block C, Strathmore University"; "Huxley 1.12" / "Room 1.12, Huxley
    Building, Imperial College"). It takes two things named: a number and a name, or two labelled numbers
    ("Room 5" / "Room 5, Hilton" is left to the rule); never for a chain, nor when a part of ``long`` holding
    a name of ``short`` adds a word of its own besides kinds and cities ("Room 12, University of Leeds" / "Room
    12, Leeds Beckett University")."""
    mine = codes(short)
    if not mine or not same_codes(mine, codes(long)) or not any(_labelled(w) for w in short.flat + long.flat):
        return False
    if any(_chain(p) for p in short.parts + long.parts):
        return False
    names = [w for w in short.flat if _BIND not in w and w[:1] != TOKEN and not any(c.isdigit() for c in w)
             and w not in _GENERIC and len(w) > 1]
    if not names and sum(_labelled(w) for w in short.flat) < 2:
        return False
    if not all(any(word_match(w, v) for v in long.flat) for w in names):
        return False
    for part in long.parts:  # a name grown by a word of its own is another ("Leeds" / "Leeds Beckett")
        if any(word_match(w, v) for w in names for v in part) and not all(
                v in _GENERIC or _BIND in v or v[:1] == TOKEN or any(c.isdigit() for c in v)
                or any(word_match(w, v) for w in short.flat) or _place_word(v) for v in part):
            return False
    kinds_short = {w for w in short.flat if w in BUILDING_KINDS} - set(long.flat)
    kinds_long = {w for w in long.flat if w in BUILDING_KINDS} - set(short.flat)
    return not (kinds_short and kinds_long)


def _known_typo(pa: Parsed, pb: Parsed, cues: frozenset[str]) -> Parsed:
    """``pa`` with a word one letter off the other side's (added, dropped, put for another or swapped;
    4 letters or more, the first letter kept, no digits) written as there, when ``pb``'s head names a
    known place and ``pa`` so written names it too ("Barcelona Sans" / "Barcelona Sants": a slip the
    general typo rule refuses in a short word, taken when it spells a known place's name); never a word
    that is itself a city or region ("Stamford" / "Stanford"); ``pa`` when not."""
    known = _tokens(_tag(pb, cues))
    if not known or _tokens(_tag(pa, cues)):
        return pa
    others = [y for y in pb.flat if y not in pa.flat and y[:1] != TOKEN and _BIND not in y and y.isalpha()]

    def near(x: str, y: str) -> bool:
        return min(len(x), len(y)) >= 4 and x[0] == y[0] and x.isalpha() and not gazetteer.is_place_name(x) \
            and OSA.distance(x, y, score_cutoff=1) <= 1  # "Stamford", a town, is no slip of "Stanford"

    parts = tuple(tuple(x if x in pb.flat else next((y for y in others if near(x, y)), x) for x in part)
                  for part in pa.parts)
    if parts == pa.parts:
        return pa
    fixed = pa._replace(parts=parts, flat=tuple(w for p in parts for w in p))
    mine = _tokens(_tag(fixed, cues))
    return fixed if any(tokens_match(x, y) for x in mine for y in known) else pa


def _known_apart(pa: Parsed, pb: Parsed, cues: frozenset[str]) -> bool:
    """Both heads name known places, and no place of one is one of the other's."""
    known_a, known_b = _tokens(_tag(pa, cues)), _tokens(_tag(pb, cues))
    return bool(known_a and known_b) and not any(tokens_match(x, y) for x in known_a for y in known_b)


def _branch_of(parsed: Parsed, other: Parsed) -> Parsed:
    """:func:`_branch_apart` of ``parsed`` where ``other`` has a qualifier to meet it."""
    return _branch_apart(parsed) if len(other.parts) > 1 else parsed


def _chain_store(parsed: Parsed, other: Parsed) -> Parsed:
    return chain_store(parsed, other, _chain_length, _same_spot)  # "the big tesco on purley way"


@lru_cache(maxsize=4096)
def _chain_length(head: tuple[str, ...]) -> int:
    """The most words of ``head`` that a chain's name starts it with (0: none)."""
    return max(_chain_index().starting(head), default=0)


def _same_spot(q: tuple[str, ...], r: tuple[str, ...]) -> bool:
    """Two qualifiers that match and pick a spot smaller than a city: a street, an area, an address (no room:
    "Room 5", "Ballroom")."""
    return not gazetteer.is_place_name(_key(q)) and not any(_BIND in w for w in q + r) and not room_alone(q) \
        and _qualifier_match(q, r)


def _venue_at_address(parsed: Parsed, other: Parsed) -> Parsed:
    return venue_at_address(parsed, other, words_match)  # "Harbour Gallery, 12B Tanner Street" / "12B Tanner Street"


def _chain_named(parsed: Parsed, other: Parsed) -> Parsed:
    return chain_named(parsed, other, _chain)  # "The Rose and Crown (Wetherspoons), High Street"


def _initials(parsed: Parsed, other: Parsed) -> Parsed:
    return initials_apart(parsed, other, _acronym)  # "Van Nuys DMV"


def _street_tail(parsed: Parsed, other: Parsed) -> Parsed:
    return street_tail(parsed, other, _qualifier_match)  # "maccies union st"


def _at_address(parsed: Parsed, other: Parsed) -> Parsed:
    """Someone's home given with its street address read as the address, against a side whose name is
    that address and that names no one's home ("Tom's place, 14 Rue Oberkampf" / "14 Rue Oberkampf, 75011
    Paris": the address says where the home is); ``parsed`` when not."""
    if len(parsed.parts) < 2 or not _home(parsed) or len(parsed.parts[0]) != 1 or any(
            w.endswith(_HOME_MARK) for w in other.flat):
        return parsed
    address = next((p for p in parsed.parts[1:] if street_address(p)), None)
    if address is None or not words_match(address, other.parts[0]):
        return parsed
    parts = tuple(p for p in parsed.parts[1:])
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)


def _swapped(pa: Parsed, pb: Parsed) -> bool:
    """Both sides give a name and qualifiers, and each name holds a word the other side has only in a
    qualifier, and neither name is a part of the other side: words moved between the name and its
    qualifiers make another name ("Café Roma, Paris" / "Café Paris, Roma"; "Ritz Paris, Bar Hemingway" is
    "Bar Hemingway, Ritz Paris"); rooms and numbers (bound words) aside."""
    if len(pa.parts) < 2 or len(pb.parts) < 2:
        return False
    ha, hb = pa.parts[0], pb.parts[0]

    def moved(head: tuple[str, ...], other: Parsed) -> bool:
        rest = {w for p in other.parts[1:] for w in p}
        return not any(words_match(head, p) or set(head) == set(p) for p in other.parts) and any(
            _BIND not in w and w in rest and w not in other.parts[0] for w in head)

    return moved(ha, pb) and moved(hb, pa)  # not the same parts in another order ("Ritz Paris, Bar Hemingway")


def _venues_apart(pa: Parsed, pb: Parsed) -> bool:
    """Each head has a word naming a kind of hall or stage that the other lacks: two venues of one
    complex ("Barbican Hall" / "Barbican Theatre"; "Barbican" / "Barbican Hall" is left to the rule)."""
    ha, hb = pa.parts[0], pb.parts[0]
    return any(w in _VENUE_HEADS and w not in hb for w in ha) and any(w in _VENUE_HEADS and w not in ha for w in hb)


def _decide(pa: Parsed, pb: Parsed, cues: frozenset[str]) -> bool:
    if _venues_apart(pa, pb):
        return False  # two halls of one centre
    ta, tb = _tag(pa, cues), _tag(pb, cues)
    if _VENUE_CUE in cues and _home(ta) != _home(tb):
        return False  # at a bar, "Sophie's" is the bar, not "Sophie's flat"
    known_a, known_b = _tokens(ta), _tokens(tb)
    if known_a and known_b:  # both name known places: they decide, read as known places
        return any(tokens_match(x, y) for x in known_a for y in known_b) and not _aliases().namesake(
            ta.parts, tb.parts) and (_same(ta, tb) or _same(_head_tagged(ta, pa), _head_tagged(tb, pb)))
    if _aliases().namesake(ta.parts, tb.parts):
        return False  # "Hyde Park, Chicago" is not London's Hyde Park
    if _same(pa, pb):
        return True
    return (ta is not pa or tb is not pb) and _same(ta, tb)


def _head_tagged(tagged: Parsed, parsed: Parsed) -> Parsed:
    """``tagged``'s head (its known places as tokens) with ``parsed``'s qualifiers as written: a known place's name
    inside a longer qualifier ("Fifth Avenue" in a street corner, "5th Ave & Pine St") is read as the words it is,
    against a side that writes the corner without street types ("5th and Pine")."""
    if len(tagged.parts) != len(parsed.parts) or tagged.parts[1:] == parsed.parts[1:]:
        return tagged
    parts = (tagged.parts[0], *parsed.parts[1:])
    return tagged._replace(parts=parts, flat=tuple(w for p in parts for w in p))


def _same(pa: Parsed, pb: Parsed) -> bool:
    """The rule on two parsed locations."""
    if (words_match(pa.flat, pb.flat) and _in_order(pa, pb, pa.flat, pb.flat) and not _swapped(pa, pb)) \
            or _acronym(pa.norm, pb.norm) or _acronym(pb.norm, pa.norm):
        return True
    oa, ob = _online(pa.parts), _online(pb.parts)
    if oa is not None or ob is not None:
        return oa is not None and ob is not None and (oa == ob or ("" in (oa, ob) and "phone" not in (oa, ob)))
    ha, hb = pa.parts[0], pb.parts[0]
    heads = (words_match(ha, hb) and _in_order(pa, pb, ha, hb)) or _code_of(ha, hb) or _code_of(hb, ha) \
        or (len(ha) == 1 and _acronym(ha[0], " ".join(hb))) or (len(hb) == 1 and _acronym(hb[0], " ".join(ha))) \
        or _initials_head(ha, pb) or _initials_head(hb, pa)
    if not (heads or _extended(ha, hb, pb.raw_head, pa.raw_head) or _extended(hb, ha, pa.raw_head, pb.raw_head)
            or _trimmed(ha, hb) or _trimmed(hb, ha) or possessive_venue(ha, hb, pa.raw_head, pb.raw_head)
            or possessive_venue(hb, ha, pb.raw_head, pa.raw_head)):
        return False
    fewer, more = sorted((list(pa.parts[1:]), list(pb.parts[1:])), key=len)
    for q in fewer:
        hit = next((i for i, r in enumerate(more) if _qualifier_match(q, r)), None)
        if hit is None:
            return False
        del more[hit]
    if gazetteer.is_place_name(_key(ha)) and any(_venue_named(q) for q in more):
        return False  # a city against a venue in it ("Leeds" / "Leeds, Kirkgate Market")
    if more and (_grounds(ha) or _grounds(hb)) and any(_building(q) for q in more):
        return False  # a campus or fairground against a building or hall in it
    if any(_namesake(q, more) for q in fewer):
        return False  # a city both name, a state that does not hold it added ("Café Luna, Melbourne, TX")
    return not _namesake(ha, more) and not ((_chain(ha) or _chain(hb)) and any(_branch(q) for q in more)
                                           and not any(_branch(q) for q in fewer)) \
        and not cities_apart(pa, pb)


def _initials_head(head: tuple[str, ...], other: Parsed) -> bool:
    """A head of initials and the initial of the name's last word ("IIT-B", "IIT B") against the name written out
    in ``other``'s head as written there ("Indian Institute of Technology Bombay", whose "Bombay" the fold tables
    read as Mumbai), the qualifiers then compared as usual ("IIT-B, Powai")."""
    return len(head) == 2 and len(head[1]) == 1 and _acronym(" ".join(head), normalize_location(other.raw_head))


@lru_cache(maxsize=1)
def _chain_index() -> ChainIndex:
    names = {_words(name)[0] for name in gazetteer.chain_names()}  # a name read as a common word is left out
    return ChainIndex(tuple(n for n in names if any(w not in _GENERIC for w in n)), words_match)  # ("Doutor": "Dr")


@lru_cache(maxsize=4096)
def _chain(head: tuple[str, ...]) -> bool:
    """The head names a chain (``data/chain_names.txt``): "Costa Coffee", "Pret A Manger"."""
    return any(_chain_index().starting(head)) or any("chain" in _aliases().kinds(w) for w in head)


def _branch_apart(parsed: Parsed) -> Parsed:
    """A chain's branch written in its head read as a qualifier after it ("Java House Junction
    Mall" is "Java House, Junction Mall"; a room or floor ending it apart again), for comparing with
    a side that names its branch in qualifiers; ``parsed`` itself when its head is no chain's name
    with more words."""
    head = parsed.parts[0]
    n = next(_chain_index().starting(head, longer=True), 0)
    if not n:
        return parsed
    branch = head[n:]
    if all(w in _GENERIC for w in branch):
        return parsed  # a kind after the chain's name names a brand of it ("Premier Inn Hub")
    rooms = next((i for i in range(len(branch)) if all(_labelled(w) for w in branch[i:])), len(branch))
    parts = tuple(p for p in (head[:n], branch[:rooms], branch[rooms:]) if p) + parsed.parts[1:]
    return parsed._replace(parts=parts, free_order=True)


def _branch(q: tuple[str, ...]) -> bool:
    """A qualifier that picks a branch of a chain: a street, station, area, address or an airport's
    terminal ("Costa, Heathrow T5"); not a city or region ("Nando's, Leeds" is any Nando's in Leeds), nor
    a room or floor ("Hilton, Room 204", "Hilton, Ballroom")."""
    if any(terminal(w) for w in q):
        return True
    if any(_BIND in w for w in q) or gazetteer.is_place_name(_key(q)) or room_alone(q):
        return False  # a city, a room ("Room 204", "Ballroom")
    return not all(gazetteer.is_place_name(w) or (len(w) <= 3 and w.isalpha()) for w in q)


def _grounds(head: tuple[str, ...]) -> bool:
    """A head that names grounds of many buildings or halls: a university, college or campus, a
    fairground or exhibition grounds ("Stanford University", "Messe Frankfurt"), by its words or the
    names of the known place it is."""
    return any(w in _GROUNDS for w in head) or any(
        not _GROUNDS.isdisjoint(name) for w in head if w[:1] == TOKEN for name in _aliases().spellings(w))


def _building(q: tuple[str, ...]) -> bool:
    """A qualifier naming one building or hall: a labelled hall, building, block, wing, pavilion or
    stand ("Halle 3.1", "Stand C45"), or a name ending in a building's word ("Gates Computer Science
    Building", "Robarts Library"); not a room alone ("Room 311"), a street or a city."""
    return any(w.partition(_BIND)[0] in _BUILDING_LABELS for w in q if _BIND in w) or (
        len(q) >= 2 and q[-1] in _BUILDING_WORDS and any(w not in _GENERIC for w in q[:-1]))


def _code_of(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """``a`` is a labelled code and ``b`` that code alone ("Room S12" / "S12"; a letter and a digit)."""
    if len(a) != 1 or len(b) != 1 or _BIND not in a[0]:
        return False
    code = a[0].partition(_BIND)[2]
    return code == b[0] and any(c.isdigit() for c in code) and any(c.isalpha() for c in code)


class PlacesJudge(LocationJudge):
    """Offline judge of metrics version 2: heads and qualifiers, folded words, typos, acronyms,
    online platforms (see :mod:`proevent.evaluate.places`)."""

    name = "places"

    def same(self, a: str | None, b: str | None, context: Any = None) -> bool:
        description = _description(context)
        cues = hits(description)
        if a is not None and b is not None and (unresolved(a) or unresolved(b)):
            cues |= owner_cues(description)  # "her place" for dinner at Ana's
        if a is not None and b is not None and (kin_home(a) or kin_home(b)):
            cues |= named_cues(description)  # "nonna's" for lunch at Nonna Lucia's
        if a is not None and b is not None and (names_terminal(a) or names_terminal(b)):
            cues |= flight_cues(description)  # "Heathrow Terminal 5" for a flight from Heathrow
        if a is not None and b is not None and (vague(a) or vague(b) or (
                _first_word(a) == _first_word(b) and (_bare_chain(a) or _bare_chain(b)))):
            cues |= said_cues(description)  # "the usual" for pints at the Tipsy Cow
        if not cues or a is None or b is None:
            return super().same(a, b, context)
        key = (a, b, cues) if a <= b else (b, a, cues)
        hit = self._cued.get(key)
        if hit is None:
            hit = self._cued[key] = normalize_location(a) == normalize_location(b) or same_place(a, b, cues)
        return hit

    def __init__(self) -> None:
        super().__init__()
        self._cued: dict[tuple[str, str, frozenset[str]], bool] = {}
        """Decisions that the description's cues took part in (cached apart from the plain ones)."""

    def decide(self, na: str, nb: str, a: str, b: str, context: Any) -> bool:
        return same_place(a, b)

    def decisions(self) -> list[dict[str, Any]]:
        """The plain decisions, then those the description's cues took part in (with the cues)."""
        cued = [{"a": a, "b": b, "cues": sorted(cues), "same": same} for (a, b, cues), same in self._cued.items()]
        return super().decisions() + sorted(cued, key=lambda d: (d["a"], d["b"], d["cues"]))


def _description(context: Any) -> str:
    """The event descriptions a judge's context carries: a labelled pair's, or those of the gold
    and predicted events (or operations' events) the scorer passes."""
    items = context if isinstance(context, tuple) else (context,)
    texts = []
    for item in items:
        text = getattr(item, "description", None)
        if text is None:
            text = getattr(getattr(item, "event", None), "description", None)
        if isinstance(text, str):
            texts.append(text)
    return " ".join(texts)


_OTHER_READINGS = (_city_apart, split_as, _at_address, unbuilt, _branch_of, _initials, _street_tail, stopped,
                   state_apart, _chain_store, number_rejoined, use_dropped, commas_moved, german_at, _chain_named,
                   _venue_at_address, department_apart)
"""The other readings :func:`same_place` asks, in order: a city told apart, a head split as the other
side's, a home at its address, a building named without its word, a branch apart, initials with a
place, a street ending a head, a word cut short with a full stop, a city and its state ending a head, a
chain's store by its street, a house number after its street's part, a hospital's or room's use dropped, the
same words split by commas elsewhere, a German "am" read as " at ", a venue's chain named after it, a venue read
as its address, a hospital's department apart from its name."""
