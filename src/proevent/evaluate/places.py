"""The ``places`` location judge (metrics version 2): the same place when a person would go to the
same spot, decided offline by general rules on the written forms (tuned on the dev part of the
labelled pairs, ``placeset.py``).

A location is read as a head (the place) and qualifiers (city, street, address, room): the parts
after a comma, a parenthesis, " - ", or the words " on ", " at ", " in ". Words are canonical:
the metrics spec's normalisation, articles and "of/and" dropped, street types and common
abbreviations folded ("St"/"Street"/"Saint", "Rd"/"Road", "Str."/"straße", "5th"/"fifth"), and a
home word after a possessive dropped ("Tom's place" is "Tom's"). Two locations are the same when

1. their words are the same bag (word order is free), or
2. their heads are the same and each qualifier of the side with fewer qualifiers matches one of
   the other side's (a prediction that adds a city or an address to the gold's venue is right; one
   that names another city, street number, floor or room is not), or
3. both are online meetings (every word a platform name or a word like "call", "meeting",
   "online") on the same platform, or one names no platform ("online", "video call").

Words match when equal, equal but for a trailing "s" (possessives), equal with their spaces
removed ("Star bucks"), or a typo apart: same first letter, no digits, at least 5 letters and
optimal-string-alignment distance 1 (2 from 10 letters). Numbers and one-letter words must be
equal. An acronym of 2-5 letters matches the initials of the other side ("MSG"). A city against a
venue, a room without its building, or "his place" against "Tom's place" has different heads and
is refused.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import OSA

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
_POSSESSIVE = re.compile(r"['’ʼ]s?$")


def _words(part: str) -> tuple[str, ...]:
    """Canonical words of one part of a location (raw text)."""
    raw = part.split()
    poss = [bool(_POSSESSIVE.search(w)) for w in raw]
    words: list[str] = []
    for w, p in zip(raw, poss):
        for i, piece in enumerate(normalize_location(w).translate(_TRANSLIT).split()):
            words.append(piece if i else (piece + "\x00" if p else piece))
    # an article or "of" is dropped where more words follow ("Conference Room A" keeps its "a")
    out = [w for i, w in enumerate(words) if w.rstrip("\x00") not in _STOP or i == len(words) - 1] or words
    folded = []
    for w in out:
        mark, w = w.endswith("\x00"), w.rstrip("\x00")
        if w.endswith("str") and len(w) > 5:
            w += "asse"  # "Hauptstr." is "Hauptstraße" (casefolded to "strasse")
        folded.append((_FOLD.get(w, w), mark))
    if len(folded) > 1 and folded[-1][0] in _HOME and folded[-2][1]:
        folded.pop()  # "Tom's place" -> "Tom's"
    if len(folded) == 2 and folded[0][0] in {"my", "at"} and folded[1][0] in _HOME:
        folded = [("home", False)]
    elif len(folded) == 2 and folded[0][0] == "at":
        folded = folded[1:]
    return tuple(w for w, _ in folded)


@lru_cache(maxsize=65536)
def parse(location: str) -> tuple[tuple[str, ...], ...]:
    """The head and qualifiers of a location, each as canonical words (empty parts left out)."""
    parts = [_words(p) for p in _SPLIT.split(location.strip())]
    return tuple(p for p in parts if p) or ((normalize_location(location),),)


def word_match(x: str, y: str) -> bool:
    """Equal, equal but for a trailing "s", or a typo apart (see the module docstring)."""
    if x == y or x.rstrip("s") == y.rstrip("s"):
        return True
    if not x or not y or x[0] != y[0] or any(c.isdigit() for c in x + y):
        return False
    shortest = min(len(x), len(y))
    if shortest < 5:
        return False
    limit = 2 if shortest >= 10 else 1
    if OSA.distance(x, y, score_cutoff=limit) > limit:
        return False
    # one letter put for another in a short word mostly spells another name (Merton / Morton,
    # Grandma / Grandpa); slips that drop, double or swap letters are typos at any length
    return shortest >= 9 or len(x) != len(y) or sorted(x) == sorted(y) or limit > 1


def words_match(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The same bag of words up to typos (a greedy one-to-one pairing), or the same letters."""
    if "".join(a) == "".join(b):
        return True
    if len(a) != len(b):
        return False
    rest = list(b)
    for x in sorted(a, key=lambda w: (w not in rest, w)):
        for i, y in enumerate(rest):
            if word_match(x, y):
                del rest[i]
                break
        else:
            return False
    return True


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


def _extended(short: tuple[str, ...], long: tuple[str, ...], raw_long: str) -> bool:
    """``long`` is ``short`` with a venue kind added ("Old Bell pub"), or with one capitalised name
    after it ("Paradiso Amsterdam", "Dishoom Shoreditch") when ``short`` is distinctive (two words,
    or one of 7 letters or more) and the added word is no kind of place ("Brighton Beach")."""
    if len(long) != len(short) + 1 or not words_match(short, long[: len(short)]):
        return False
    extra = long[-1]
    if extra in _VENUE_TYPES:
        return not any(w in _VENUE_TYPES for w in short)
    if extra in _COMPASS:  # "1600 Pennsylvania Ave NW"
        return not any(w in _COMPASS for w in short)
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


def same_place(a: str, b: str) -> bool:
    """The ``places`` rule on two location strings (symmetric; see the module docstring)."""
    pa, pb = parse(a), parse(b)
    flat_a, flat_b = tuple(w for p in pa for w in p), tuple(w for p in pb for w in p)
    na, nb = normalize_location(a).translate(_TRANSLIT), normalize_location(b).translate(_TRANSLIT)
    if words_match(flat_a, flat_b) or _acronym(na, nb) or _acronym(nb, na):
        return True
    oa, ob = _online(pa), _online(pb)
    if oa is not None or ob is not None:
        return oa is not None and ob is not None and (oa == ob or ("" in (oa, ob) and "phone" not in (oa, ob)))
    ha, hb = pa[0], pb[0]
    raw_head_a, raw_head_b = _SPLIT.split(a.strip())[0], _SPLIT.split(b.strip())[0]
    if not (words_match(ha, hb) or _extended(ha, hb, raw_head_b) or _extended(hb, ha, raw_head_a)):
        return False
    fewer, more = sorted((list(pa[1:]), list(pb[1:])), key=len)
    for q in fewer:
        hit = next((i for i, r in enumerate(more) if _qualifier_match(q, r)), None)
        if hit is None:
            return False
        del more[hit]
    return True


class PlacesJudge(LocationJudge):
    """Offline judge of metrics version 2: heads and qualifiers, folded words, typos, acronyms,
    online platforms (see :mod:`proevent.evaluate.places`)."""

    name = "places"

    def decide(self, na: str, nb: str, a: str, b: str, context: Any) -> bool:
        return same_place(a, b)
