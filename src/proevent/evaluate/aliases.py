"""Known places' names for the ``places`` judge, from the hand-written alias table
(``data/place_aliases.json``, read by :func:`proevent.evaluate.gazetteer.alias_table`).

A location's words are first *folded*: a city's other name (another language's, an old name, a
nickname) is read as its English one ("München" is "Munich", "Philly" is "Philadelphia"), and a
city's central station written in any of its usual ways is one word ("Amsterdam Centraal",
"Amsterdam CS", "Munich Hbf", "Milano Centrale", "Zürich HB": the city and "hauptbahnhof").
Then the words that name a place of the table are *tagged*: the longest run of words that is one
of its names becomes one token ``@id`` (``@id1|id2`` when the name is several places'), with the
kind's words around it taken in ("Heathrow Airport", "Estadio Santiago Bernabéu"). A code (an
IATA airport code, an acronym written in capitals in the table) tags only a part that is the code
alone or with its kind's words, a terminal or a labelled number ("LHR", "JFK Airport", "LHR T5",
"MUC gate B12"), so that a common word ("sea", "man") inside a name is left alone; after an
airport "T5" is "Terminal 5". An ``ask`` nickname that is a common word ("the Garden", "the Met")
tags only when the event's description has one of the place's cues ("Knicks game").

An ambiguous name is narrowed first by a kind word after it ("the Met museum", "the Met Opera"),
then by the description's cues; two tokens are the same place when their sets share a place, so
an ambiguous name is the same as another side only when that side names one of its places.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from proevent.evaluate import gazetteer
from proevent.evaluate.gazetteer import AliasTable
from proevent.evaluate.normalize import normalize_location

TOKEN = "@"
"""Starts a tagged place's token ("@LHR", "@tate-britain|tate-modern")."""
_STATION = "hauptbahnhof"
_CENTRAL_FORMS = (("centraal", "station"), ("central", "station"), ("main", "station"), ("centraal",),
                  ("centrale",), ("cs",), ("hb",), ("hovedbanegard",), ("centralstation",), ("hlavni", "nadrazi"),
                  ("glowny",), ("central", "railway", "station"), ("hauptbahnhof",))
"""Ways of writing a city's central station after the city's name (with "Hbf" already folded)."""
_BIG_CITY = 500
"""Thousands of people from which a city's name beside a known place is that city, not a district
elsewhere of the same name ("Westminster" is also a town in Colorado)."""
_NEAR_KM = 50.0
_TERMINAL = re.compile(r"^t(\d{1,2}[a-z]?)$")


class AliasIndex:
    """The alias table read in a judge's canonical words (``canon``: a name to its words)."""

    def __init__(self, table: AliasTable, canon: Callable[[str], tuple[str, ...]],
                 is_city: Callable[[str], bool]) -> None:
        self._is_city = is_city
        self.city_names: dict[tuple[str, ...], tuple[str, ...]] = {}
        for english, others in (*table.city_names.items(), *table.region_names.items()):
            forms = [canon(n) for n in (english, *others)]  # read as the gazetteer's name ("Köln", not "Cologne")
            target = next((f for f in forms if is_city(" ".join(f))), forms[0])
            for form in forms:
                self.city_names[form] = target  # the target too, so that it is read whole
        self.kind_of = {p.id: p.kind for p in table.places}
        self.city_of = {p.id: " ".join(self.fold(canon(p.city))) for p in table.places if p.city}
        """A place's city as the gazetteer's key ("new york city")."""
        self.kind_words = {k: tuple(sorted({self.fold(canon(w)) for w in ws}, key=len, reverse=True))
                           for k, ws in table.kinds.items()}
        self.names: dict[tuple[str, ...], set[str]] = {}
        self._keys: dict[str, list[tuple[str, ...]]] = {}
        self.codes: dict[tuple[str, ...], set[str]] = {}
        self.ask: dict[tuple[str, ...], set[str]] = {}
        self.cues: dict[str, tuple[str, ...]] = {}
        for place in table.places:
            kind_words = {w for kw in self.kind_words[place.kind] for w in kw}
            for book, names in ((self.names, place.names), (self.codes, place.codes), (self.ask, place.ask)):
                for name in names:
                    key = self.fold(canon(name))
                    if not key or (len(key) == 1 and key[0].isdigit()) or (
                            book is self.names and all(w in kind_words for w in key)) or (
                            book is self.codes and key != (name.lower(),)):
                        continue  # "LA Airport" is no name of its own, nor "Number 10"; "STN" reads as "station"
                    book.setdefault(key, set()).add(place.id)
                    if book is self.names:
                        self._keys.setdefault(place.id, []).append(key)
                    if place.kind == "airport" and key[-1] == "airport" and len(key) > 1:
                        book.setdefault((*key[:-1], "international"), set()).add(place.id)  # "SFO International"
            if place.cues:
                self.cues[place.id] = tuple(f" {normalize_location(c)} " for c in place.cues)
        self.longest = max(len(k) for k in [*self.names, *self.ask, *self.city_names])

    def fold(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """Cities' other names in English, and a city's central station as one word."""
        out: list[str] = []
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + 4), i, -1):
                hit = self.city_names.get(words[i:j])
                if hit is not None:
                    out.extend(hit)
                    i = j
                    break
            else:
                out.append(words[i])
                i += 1
        return self._station(tuple(out))

    def _station(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """A city's name and a central-station form after it as the city and "hauptbahnhof", a
        "station" before or after taken in ("Station Utrecht Centraal", "Utrecht CS")."""
        for start in range(len(words)):
            for cut in range(start + 1, len(words)):
                if not self._is_city(" ".join(words[start:cut])):
                    continue
                for form in _CENTRAL_FORMS:
                    end = cut + len(form)
                    if words[cut:end] == form:
                        head = words[:start - 1] if start and words[start - 1] == "station" else words[:start]
                        end += words[end:end + 1] == ("station",)
                        return (*head, *words[start:cut], _STATION, *words[end:])
        return words

    def hits(self, description: str) -> frozenset[str]:
        """The places whose cues the description has (whole words)."""
        if not description:
            return frozenset()
        text = f" {normalize_location(description)} "
        return frozenset(pid for pid, cues in self.cues.items() if any(c in text for c in cues))

    def _kind_word(self, words: tuple[str, ...], at: int, ids: set[str], before: bool) -> tuple[int, set[str]]:
        """The length of a kind word of one of ``ids`` ending (``before``) or starting at ``at``,
        and the places of that kind (``0`` and ``ids`` when there is none)."""
        for kind in sorted({self.kind_of[i] for i in ids}):
            for kw in self.kind_words[kind]:
                span = words[at - len(kw):at] if before else words[at:at + len(kw)]
                if kw and span == kw and (not before or at - len(kw) >= 0):
                    return len(kw), {i for i in ids if self.kind_of[i] == kind}
        return 0, ids

    def _code(self, words: tuple[str, ...]) -> tuple[str, ...] | None:
        """A part that is a code alone or with its kind's words or a terminal, tagged."""
        for i in range(len(words)):
            for j in range(len(words), i, -1):
                ids = self.codes.get(words[i:j])
                if ids is None:
                    continue
                before, ids1 = self._kind_word(words, i, set(ids), before=True)
                after, ids2 = self._kind_word(words, j, ids1, before=False)
                rest = words[j + after:]
                if i - before == 0 and all(_TERMINAL.match(w) or "_" in w for w in rest):  # "LHR T5", "MUC gate B12"
                    return self._terminals((self._token(ids2), *rest))
        return None

    def _token(self, ids: Iterable[str]) -> str:
        return TOKEN + "|".join(sorted(ids))

    def _terminals(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """After an airport, "T5" is "Terminal 5"."""
        if not any(w.startswith(TOKEN) and "airport" in self.kinds(w) for w in words):
            return words
        return tuple(f"terminal_{m.group(1)}" if (m := _TERMINAL.match(w)) else w for w in words)

    def tag(self, words: tuple[str, ...], hits: frozenset[str]) -> tuple[str, ...]:
        """``words`` with the runs that name a place of the table as tokens (see the module docstring)."""
        coded = self._code(words)
        if coded is not None:
            return coded
        out: list[str] = []
        i = 0
        while i < len(words):
            found: tuple[int, set[str]] | None = None
            for j in range(min(len(words), i + self.longest), i, -1):
                span = words[i:j]
                ids = set(self.names.get(span, ())) | (self.ask.get(span, set()) & hits)
                if ids:
                    found = (j, ids)
                    break
            if found is None:
                out.append(words[i])
                i += 1
                continue
            j, ids = found
            after, ids = self._kind_word(words, j, ids, before=False)
            before, ids = self._kind_word(tuple(out), len(out), ids, before=True)
            del out[len(out) - before:]
            if len(ids) > 1 and ids & hits:
                ids &= hits
            out.append(self._token(ids))
            i = j + after
        return self._terminals(tuple(out))

    def tag_parts(self, parts: tuple[tuple[str, ...], ...], hits: frozenset[str]) -> tuple[tuple[str, ...], ...]:
        """Each part tagged; first a name written across parts is one ("University of California,
        Berkeley", "Columbia University in the City of New York")."""
        for k in range(len(parts), 1, -1):
            joined = tuple(w for p in parts[:k] for w in p)
            if joined in self.names:
                return ((self._token(self.names[joined]),), *(self.tag(p, hits) for p in parts[k:]))
        return tuple(self.tag(p, hits) for p in parts)

    def namesake(self, a: Parts, b: Parts) -> bool:
        """A known place that is one side's whole head, and a city or region the other side does not
        name beside it that lies elsewhere (see :func:`proevent.evaluate.places.same_place`)."""
        beside = _mentions(a) ^ _mentions(b)  # cities and regions one side names and the other does not
        return bool(beside) and (self._elsewhere(_whole(a), beside) or self._elsewhere(_whole(b), beside))

    def _elsewhere(self, tokens: set[str], mentions: set[str]) -> bool:
        """A mentioned region lies in another country (or US state) than every place a token may
        be, or a mentioned big city (half a million people or more: not a district's name) lies
        far from all of them ("Hyde Park, Leeds"); unknown when a place has no city in the gazetteer."""
        for token in tokens:
            homes = [self.city_of.get(p, "") for p in ids(token)]
            wheres = [gazetteer.city(h) for h in homes]
            if not wheres or any(w is None for w in wheres):
                continue
            for m in mentions:  # every reading of the mention ("WA": Washington, or Wa in Ghana) elsewhere
                region, far = gazetteer.region(m), _far(m, homes)
                if (region is not None and all(_apart(region, w) for w in wheres if w) and far is not False) or (
                        region is None and far):
                    return True
        return False

    def spellings(self, token: str) -> list[tuple[str, ...]]:
        """The names of the places a token names, as words ("kings cross station", ...)."""
        return [k for p in sorted(ids(token)) for k in self._keys.get(p, ())]

    def kinds(self, token: str) -> set[str]:
        """The kinds of the places a token names (empty for a word)."""
        return {self.kind_of[i] for i in ids(token)}


Parts = tuple[tuple[str, ...], ...]
"""A location's parts (head first), each its canonical words."""


def _key(words: tuple[str, ...]) -> str:
    return " ".join(words).replace("_", " ")


def _mentions(parts: Parts) -> set[str]:
    """The cities and regions a location names beside a known place: its qualifiers that are one,
    and the other words of a head with a known place ("Chicago Hyde Park")."""
    found = {_key(q) for q in parts[1:] if gazetteer.is_place_name(_key(q))}
    if any(w[:1] == TOKEN for w in parts[0]):
        found |= {w for w in parts[0] if w[:1] != TOKEN and gazetteer.is_place_name(w)}
    return found


def _whole(parts: Parts) -> set[str]:
    """The known place that is the whole head, but for cities and regions beside it ("Chicago Hyde
    Park"; not "Taj Mahal Palace", another place whose name holds one)."""
    found = {w for w in parts[0] if w[:1] == TOKEN}
    rest = [w for w in parts[0] if w[:1] != TOKEN]
    return found if len(found) == 1 and all(gazetteer.is_place_name(w) for w in rest) else set()


def _far(name: str, homes: list[str]) -> bool | None:
    """A big city more than 50 km from every one of the places' cities; ``None`` when it is no big city."""
    here = gazetteer.town(name)
    if here is None or here.thousands < _BIG_CITY:
        return None
    towns = [gazetteer.town(h) for h in homes]
    return all(t is not None and gazetteer.distance_km(here, t) > _NEAR_KM for t in towns)


def _apart(at: gazetteer.Where, where: gazetteer.Where) -> bool:
    """In another country, or in another US state."""
    return at.country != where.country or (at.country == "US" and "" not in (at.state, where.state)
                                           and at.state != where.state)


@lru_cache(maxsize=65536)
def ids(token: str) -> frozenset[str]:
    """The places a token names (empty for a plain word)."""
    return frozenset(token[1:].split("|")) if token.startswith(TOKEN) else frozenset()


def tokens_match(x: str, y: str) -> bool:
    """Two tokens name a common place."""
    return bool(ids(x) & ids(y))
