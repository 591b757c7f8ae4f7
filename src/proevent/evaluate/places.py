"""The ``places`` location judge (metrics version 2): the same place when a person would go to the
same spot, decided offline by general rules on the written forms and a small gazetteer
(``gazetteer.py``), measured on the labelled pairs (``placeset.py``).

A location is read as a head (the place) and qualifiers (city, street, address, room): the parts
after a comma, a parenthesis, " - ", or the words " on ", " at ", " in ". Words are canonical:
the metrics spec's normalisation, articles and "of/and" dropped, street types and common
abbreviations folded ("St"/"Street"/"Saint", "Rd"/"Road", "Str."/"straße", "5th"/"fifth",
"Forty-Second"/"42nd"), and a home word after a possessive dropped ("Tom's place" is "Tom's",
whose "s" then must stay: not "Tom", a person). Two locations are the same when

1. their words are the same bag; the order is free when either side has a qualifier, an "of" or
   article inside, a possessive or a number, or a word other than place kinds and modifiers
   ("Ritz Hotel" / "Hotel Ritz"), else it must agree ("Central Park" is not "Park Central"), or
2. their heads are the same (in that order rule) or one head is the other with a venue kind, a
   compass point, a city or region (the gazetteer's; no place kind) before or after it, or one
   capitalised name that is no place kind after a distinctive name (two words, or one of 7
   letters or more) -- never when the shorter head is itself a city or region ("Brooklyn" /
   "Brooklyn Bowl", "Lisbon" / "Lisbon Cafe": the added words make a venue) -- and each qualifier
   of the side with fewer qualifiers matches one of the other side's, and no added qualifier
   names a country or state other than that of the best-known city named by the head ("Paris" /
   "Paris, Texas" are namesakes; "Lisbon" / "Lisbon, Portugal" are one), or
3. both are online meetings (every word a platform name or a word like "call", "meeting",
   "online") on the same platform, or one names no platform ("online", "video call").

Words match when equal, equal but for a trailing "s" (possessives), equal with their spaces
removed ("Star bucks"), or a typo apart: same first letter (and second, below 9 letters), no
digits, at least 5 letters, optimal-string-alignment distance 1 (2 from 10 letters), no
place-name part ("town", "ford", "field", ...) gained or lost but by swapped letters
("Kingston" / "Kingstown"); one letter put for another only from 9 letters; a letter more or
less below 8 letters only as a vowel, an "h" or a doubled letter ("Staton", "Dalston" is not
"Dalton"). A short word (3 letters or more) may lose or gain a doubled letter when another
distinctive word of the name is equal ("Primrose Hil"). Numbers and one-letter words must be
equal. An acronym of 2-5 letters matches the initials of the other side ("MSG"). A city against
a venue, a room without its building, or "his place" against "Tom's place" has different heads
and is refused.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple

from rapidfuzz.distance import OSA

from proevent.evaluate import gazetteer
from proevent.evaluate.judges import LocationJudge
from proevent.evaluate.normalize import normalize_location

_STOP = frozenset("the a an of and de la le les l el los las der die das du des da do di del della y und et".split())
_FOLD = {
    "st": "street", "saint": "street", "str": "street", "rd": "road", "ave": "avenue", "av": "avenue",
    "avda": "avenue", "avenida": "avenue", "blvd": "boulevard", "bd": "boulevard", "ln": "lane", "dr": "drive",
    "doctor": "drive", "ct": "court", "pkwy": "parkway", "sq": "square", "pl": "place", "plaza": "place",
    "hwy": "highway", "mt": "mount", "ft": "fort", "pt": "point", "hosp": "hospital", "univ": "university",
    "uni": "university", "natl": "national", "intl": "international", "stn": "station", "bldg": "building",
    "rm": "room", "laboratory": "lab", "center": "centre", "theater": "theatre", "hbf": "hauptbahnhof",
    "apt": "apartment", "fl": "floor", "first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th",
    "fifth": "5th", "sixth": "6th", "seventh": "7th", "eighth": "8th", "ninth": "9th", "tenth": "10th",
}
"""Abbreviations to one written-out form ("St" is both Street and Saint, "Dr" both Drive and Doctor:
one word stands for both, as a reader takes whichever fits)."""
_ACRONYM_SKIP = frozenset({"the", "of", "and", "a", "an", "for"})
_HOME = frozenset({"place", "house", "flat", "apartment", "home"})
"""Home words: "Tom's place" = "Tom's house" = "Tom's"."""
_STREET_TYPES = frozenset({"street", "road", "avenue", "boulevard", "lane", "drive", "court", "parkway", "square",
                           "highway", "way", "close", "crescent", "terrace"})
_COMPASS = frozenset({"n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west"})
_VENUE_TYPES = frozenset({"pub", "bar", "cafe", "coffee", "restaurant", "studio", "gym"})
"""A venue's kind, added to its name: "Old Bell" = "Old Bell pub"."""
_PLACE_KINDS = _STREET_TYPES | _HOME | _VENUE_TYPES | frozenset({
    "beach", "station", "airport", "hauptbahnhof", "market", "express", "hub", "inn", "hotel", "motel", "park",
    "garden", "gardens", "centre", "mall", "shop", "store", "hall", "museum", "gallery", "church", "school",
    "college", "university", "hospital", "library", "office", "stadium", "arena", "terminal", "gate", "platform",
    "room", "floor", "building", "court", "pitch", "field", "car", "bridge", "tower", "castle", "palace",
    "opera", "theatre", "cinema", "zoo", "lake", "river", "hill", "bay", "port", "harbour", "pier", "quay",
    "grill", "kitchen", "diner", "bakery", "thai", "deli", "roastery", "reserve", "outlet", "annex", "wing",
})
"""Words that make a different place when added to a name ("Brighton" / "Brighton Beach")."""
_TRANSLIT = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"})
_PLATFORMS = {
    "zoom": "zoom", "meet": "meet", "hangouts": "meet", "teams": "teams", "skype": "skype", "facetime": "facetime",
    "webex": "webex", "discord": "discord", "whatsapp": "whatsapp", "slack": "slack", "twitch": "twitch",
    "phone": "phone", "telephone": "phone",
}
_GENERIC_ONLINE = frozenset({"online", "virtual", "video", "videocall", "remote", "web"})
_ONLINE_FILLER = frozenset({
    "call", "meeting", "chat", "voice", "huddle", "link", "invite", "id", "microsoft", "ms", "google", "cisco",
    "com", "in", "on", "via", "conference",
})
_SPLIT = re.compile(r"\s*(?:[,;()\[\]]|\s-\s|\s–\s|\s(?:on|at|in)\s)\s*", re.IGNORECASE)
_STR_ABBREV = re.compile(r"(?<=\w)str\.(?=\s|$)", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['’ʼ]s?$")
_MODIFIERS = frozenset({
    "central", "main", "grand", "royal", "old", "new", "upper", "lower", "great", "little", "big", "high", "city",
    "national", "international", "public", "general", "union", "inner", "outer", "middle", "green", "red", "blue",
    "white", "black", "golden",
}) | _COMPASS
"""Common modifiers: a name made only of them and place kinds is read in its order ("Central Park"
is not "Park Central")."""
_GENERIC = _PLACE_KINDS | _MODIFIERS
_TOPONYM_PARTS = ("town", "ville", "ford", "field", "mouth", "stead", "borough", "bury", "dorf", "stadt")
"""Parts of place names that a one-letter slip would not make ("Kingston" / "Kingstown")."""
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_UNIT = re.compile(r"^([1-9])(st|nd|rd|th)$")
_HOME_MARK = "'"
"""Ends an owner's word whose home word was dropped ("Tom's place" -> "toms'"): it keeps its "s"
("Tom's place" is "Tom's" but not "Tom", a person)."""


class Parsed(NamedTuple):
    """A location read once (cached): its parts (head first), all their words, its normalised text,
    its raw head, and whether its words may be read in any order (a part after a comma, an "of"
    or article inside, a possessive or a number: "Library, Main", "University of Lisbon")."""

    parts: tuple[tuple[str, ...], ...]
    flat: tuple[str, ...]
    norm: str
    raw_head: str
    free_order: bool


def _words(part: str) -> tuple[tuple[str, ...], bool]:
    """Canonical words of one part of a location (raw text), and whether its order is free."""
    raw = _STR_ABBREV.sub("strasse", part).split()  # "Hauptstr." is "Hauptstraße" (casefolded)
    poss = [bool(_POSSESSIVE.search(w)) for w in raw]
    words: list[str] = []
    for w, p in zip(raw, poss):
        for i, piece in enumerate(normalize_location(w).translate(_TRANSLIT).split()):
            words.append(piece if i else (piece + "\x00" if p else piece))
    # an article or "of" is dropped where more words follow ("Conference Room A" keeps its "a")
    out = [w for i, w in enumerate(words) if w.rstrip("\x00") not in _STOP or i == len(words) - 1] or words
    leading = bool(words) and words[0] in _STOP
    free = len(out) < len(words) - leading or any(poss) or any(c.isdigit() for c in part)
    folded: list[tuple[str, bool]] = []
    for w in out:
        mark, w = w.endswith("\x00"), w.rstrip("\x00")
        w = _FOLD.get(w, w)
        unit = _UNIT.match(w)
        if unit and folded and folded[-1][0] in _TENS:  # "Forty-Second" is "42nd"
            w = f"{_TENS[folded.pop()[0]] // 10}{w}"
        folded.append((w, mark))
    if len(folded) > 1 and folded[-1][0] in _HOME and folded[-2][1]:
        folded.pop()  # "Tom's place" -> "toms'"
        folded[-1] = (folded[-1][0] + _HOME_MARK, False)
    if len(folded) == 2 and folded[0][0] in {"my", "at"} and folded[1][0] in _HOME:
        folded = [("home", False)]
    elif len(folded) == 2 and folded[0][0] == "at":
        folded = folded[1:]
    return tuple(w for w, _ in folded), free


def canonical_name(name: str) -> str:
    """A name's canonical words joined by spaces (the gazetteer's keys)."""
    return " ".join(_words(name)[0])


@lru_cache(maxsize=65536)
def parse(location: str) -> Parsed:
    """The head and qualifiers of a location, each as canonical words (empty parts left out)."""
    raw_parts = _SPLIT.split(location.strip())
    read = [_words(p) for p in raw_parts]
    parts = tuple(w for w, _ in read if w)
    norm = normalize_location(location).translate(_TRANSLIT)
    if not parts:
        parts = ((norm,),)
    free = len(parts) > 1 or any(f for _, f in read)
    return Parsed(parts, tuple(w for p in parts for w in p), norm, raw_parts[0], free)


def _doubling(x: str, y: str) -> bool:
    """``y`` is ``x`` with one letter written twice, or the other way round ("Hil" / "Hill")."""
    short, long = sorted((x, y), key=len)
    return len(long) == len(short) + 1 and any(
        long[i] == long[i - 1] and long[:i] + long[i + 1:] == short for i in range(1, len(long)))


def _vowel_slip(x: str, y: str) -> bool:
    """``y`` is ``x`` with one vowel or "h" more or less ("Staton" / "Station", "Vinchi" / "Vinci")."""
    short, long = sorted((x, y), key=len)
    return len(long) == len(short) + 1 and any(
        long[i] in "aeiouyh" and long[:i] + long[i + 1:] == short for i in range(len(long)))


@lru_cache(maxsize=65536)
def word_match(x: str, y: str, pinned: bool = False) -> bool:
    """Equal, equal but for a trailing "s", or a typo apart (see the module
    docstring); ``pinned`` (the rest of the name matched a distinctive word) lets a short word
    lose or gain a doubled letter."""
    hx, hy = x.endswith(_HOME_MARK), y.endswith(_HOME_MARK)
    if hx or hy:  # an owner's home: "toms'" is "toms", never "tom"
        x, y = x.rstrip(_HOME_MARK), y.rstrip(_HOME_MARK)
        return x == y or (x.rstrip("s") == y.rstrip("s") and x.endswith("s") and y.endswith("s"))
    if x == y or x.rstrip("s") == y.rstrip("s"):
        return True
    if not x or not y or x[0] != y[0] or any(c.isdigit() for c in x + y):
        return False
    shortest = min(len(x), len(y))
    if pinned and shortest >= 3 and _doubling(x, y):
        return True
    if shortest < 5 or (shortest < 9 and x[1] != y[1]):
        return False  # the first two letters carry a short name ("Carlton" / "Charlton")
    limit = 2 if shortest >= 10 else 1
    if OSA.distance(x, y, score_cutoff=limit) > limit:
        return False
    swapped = len(x) == len(y) and sorted(x) == sorted(y)
    if not swapped and any(x.count(t) != y.count(t) for t in _TOPONYM_PARTS):
        return False
    if len(x) != len(y) and shortest < 8 and not _doubling(x, y) and not _vowel_slip(x, y):
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
    if len(a) != len(b):
        return False
    pinned = _pinned(a, b)
    rest = list(b)
    for x in sorted(a, key=lambda w: (w not in rest, w)):
        for i, y in enumerate(rest):
            if word_match(x, y, pinned):
                del rest[i]
                break
        else:
            return False
    return True


def _in_order(a: Parsed, b: Parsed, wa: tuple[str, ...], wb: tuple[str, ...]) -> bool:
    """Matched words ``wa`` / ``wb`` may be read in another order: one side's order is free, the
    words pair in order, or a word besides place kinds and modifiers names the place ("Trailhead
    Blue Ridge"; not "Park Central" for "Central Park")."""
    if a.free_order or b.free_order or len(wa) != len(wb) or any(w not in _GENERIC for w in wa + wb):
        return True
    return all(word_match(x, y) for x, y in zip(wa, wb))


def _acronym(a: str, b: str) -> bool:
    """``a`` is one word of 2-5 letters (or all one-letter words) spelling the initials of ``b``'s
    words, with or without its articles ("MSG", "MoMA", "M&S")."""
    short_words, long_words = a.split(), b.split()
    if len(short_words) == 1 and short_words[0].isalpha() and 2 <= len(short_words[0]) <= 5:
        short = short_words[0]
    elif len(short_words) > 1 and all(len(w) == 1 and w.isalpha() for w in short_words):
        short = "".join(short_words)
    else:
        return False
    content = [w for w in long_words if w not in _ACRONYM_SKIP]
    return len(long_words) > 1 and short in {"".join(w[0] for w in long_words), "".join(w[0] for w in content)}


def _qualifier_match(q: tuple[str, ...], r: tuple[str, ...]) -> bool:
    """Qualifiers match as words, or with a street type or compass point only one of them has
    ("Yonge" / "Yonge Street", "Pennsylvania Avenue" / "Pennsylvania Avenue NW")."""
    if words_match(q, r):
        return True
    for drop in (_STREET_TYPES, _COMPASS):
        if any(w in drop for w in q) != any(w in drop for w in r):
            q2, r2 = tuple(w for w in q if w not in drop), tuple(w for w in r if w not in drop)
            if q2 and r2 and words_match(q2, r2):
                return True
    return False


def _place_word(word: str) -> bool:
    """A city's or region's name that is no common word of places ("Hub", "Riverside", "Bath")."""
    return word not in _GENERIC and gazetteer.is_place_name(word)


def _extended(short: tuple[str, ...], long: tuple[str, ...], raw_long: str) -> bool:
    """``long`` is ``short`` with a venue kind added ("Old Bell pub"), a city or region before or
    after it ("Paris Gare du Nord", "Paradiso Amsterdam"), or one capitalised name after it
    ("Dishoom Shoreditch") when ``short`` is distinctive (two words, or one of 7 letters or more),
    no city or region itself ("Brooklyn" / "Brooklyn Bowl": the added word makes a venue), and the
    added word is no kind of place ("Brighton Beach")."""
    if len(long) != len(short) + 1:
        return False
    short_is_place = gazetteer.is_place_name(" ".join(short))
    if words_match(short, long[1:]):  # a city before a name of its own ("Paris Gare du Nord")
        return not short_is_place and any(w not in _GENERIC for w in short) and _place_word(long[0])
    if not words_match(short, long[: len(short)]):
        return False
    extra = long[-1]
    if extra in _COMPASS:  # "1600 Pennsylvania Ave NW"
        return not any(w in _COMPASS for w in short)
    if short_is_place:
        return False
    if extra in _VENUE_TYPES:
        return not any(w in _VENUE_TYPES for w in short)
    if _place_word(extra):
        return True
    last_raw = raw_long.split()[-1] if raw_long.split() else ""
    distinctive = len(short) >= 2 or len(short[0]) >= 7
    return distinctive and extra.isalpha() and len(extra) >= 3 and last_raw[:1].isupper() and extra not in _PLACE_KINDS


def _online(parts: tuple[tuple[str, ...], ...]) -> str | None:
    """The platform of an online meeting (``""`` when it names none); ``None`` for a place."""
    words = [w for part in parts for w in part]
    platforms = {_PLATFORMS[w] for w in words if w in _PLATFORMS}
    others = [w for w in words if w not in _PLATFORMS and w not in _GENERIC_ONLINE and w not in _ONLINE_FILLER
              and not w.isdigit()]
    if others or len(platforms) > 1 or not (platforms or any(w in _GENERIC_ONLINE for w in words)):
        return None
    return next(iter(platforms), "")


def _namesake(head: tuple[str, ...], extra: list[tuple[str, ...]]) -> bool:
    """An added qualifier names a country or state other than that of the best-known city called
    ``head``: another city of that name ("Paris" / "Paris, Texas"; "Lisbon, Portugal" is Lisbon)."""
    town = gazetteer.city(" ".join(head))
    if town is None:
        return False
    for q in extra:
        where = gazetteer.region(" ".join(q))
        if where is not None and (where.country != town.country or where.state not in ("", town.state)):
            return True
    return False


def same_place(a: str, b: str) -> bool:
    """The ``places`` rule on two location strings (symmetric; see the module docstring)."""
    pa, pb = parse(a), parse(b)
    if (words_match(pa.flat, pb.flat) and _in_order(pa, pb, pa.flat, pb.flat)) or _acronym(pa.norm, pb.norm) \
            or _acronym(pb.norm, pa.norm):
        return True
    oa, ob = _online(pa.parts), _online(pb.parts)
    if oa is not None or ob is not None:
        return oa is not None and ob is not None and (oa == ob or ("" in (oa, ob) and "phone" not in (oa, ob)))
    ha, hb = pa.parts[0], pb.parts[0]
    heads = words_match(ha, hb) and _in_order(pa, pb, ha, hb)
    if not (heads or _extended(ha, hb, pb.raw_head) or _extended(hb, ha, pa.raw_head)):
        return False
    fewer, more = sorted((list(pa.parts[1:]), list(pb.parts[1:])), key=len)
    for q in fewer:
        hit = next((i for i, r in enumerate(more) if _qualifier_match(q, r)), None)
        if hit is None:
            return False
        del more[hit]
    return not _namesake(ha, more)


class PlacesJudge(LocationJudge):
    """Offline judge of metrics version 2: heads and qualifiers, folded words, typos, acronyms,
    online platforms (see :mod:`proevent.evaluate.places`)."""

    name = "places"

    def decide(self, na: str, nb: str, a: str, b: str, context: Any) -> bool:
        return same_place(a, b)
