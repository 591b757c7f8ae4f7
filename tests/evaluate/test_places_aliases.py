"""The places judge's alias table (data/place_aliases.json): known places, codes and terminals,
other-language city names, central stations, ambiguous and common-word nicknames."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.evaluate import gazetteer
from proevent.evaluate.places import PlacesJudge, _tagged, canonical_name, hits, same_place
from proevent.evaluate.placeset import PairContext

SAME = [
    ("LHR", "Heathrow Airport"),  # an IATA code and the airport's name
    ("JFK", "John F. Kennedy International Airport"),
    ("JFK Airport", "JFK"),  # the kind's word taken in
    ("ohare", "O'Hare International Airport"),
    ("Frankfurt International Airport", "Frankfurt Airport"),  # "International" before "Airport"
    ("LHR T5", "Heathrow Terminal 5"),  # T5 after an airport is Terminal 5
    ("CDG T2", "Paris Charles de Gaulle, Terminal 2"),
    ("MUC T2 gate B12", "Gate B12, Terminal 2, Munich Airport"),  # a code with labelled numbers
    ("Amsterdam CS", "Amsterdam Centraal"),  # a city's central station, however written
    ("Station Utrecht Centraal", "Utrecht Centraal station"),
    ("Munich Hbf", "München Hauptbahnhof"),  # and the city's other-language name
    ("Milano Centrale", "Milan Central Station"),
    ("Roma", "Rome"),
    ("the Bernabeu", "Santiago Bernabéu Stadium"),
    ("Estadio Santiago Bernabéu", "Bernabeu"),  # a kind's word before the name
    ("Ku'damm", "Kurfürstendamm"),
    ("Ally Pally", "Alexandra Palace"),
    ("the Tate", "Tate Modern"),  # an ambiguous name and one of its places
    ("Spoons, Leeds", "Wetherspoons, Leeds"),  # a chain's nickname, a city added
    ("University of California, Berkeley", "UC Berkeley"),  # a name written across parts
    ("Sagrada Familia", "Sagrada Familai"),  # a typo the table does not know: the written forms decide
    ("Lecture Hall H3", "H3, main building"),
    ("Ristorante Da Enzo", "Da Enzo, Roma"),  # a venue's kind before its name
    ("Pret A Manger, King's Cross station", "Pret at Kings Cross"),  # a station qualifier without "station"
    ("King's Cross station", "London King's Cross"),
    ("the Golden Gate", "Golden Gate Bridge"),  # an ambiguous name (the bridge, the park) and one of its places
]
DIFFERENT = [
    ("Heathrow Terminal 5", "Heathrow Terminal 3"),
    ("LHR T5", "LHR T2"),
    ("LHR", "LGW"),
    ("LHR gate 5", "Heathrow Gate 6"),
    ("JFK", "LaGuardia"),
    ("Heathrow", "London"),  # an airport is not its city
    ("Frankfurt Airport", "Frankfurt"),
    ("Berlin", "Berlin Hbf"),  # nor is a station
    ("Amsterdam Centraal", "Rotterdam Centraal"),
    ("Munich Hbf", "Munich Airport"),
    ("Louvre", "Louvre-Lens"),  # known places that share no place decide, whatever the words say
    ("Tate Modern", "Tate Britain"),
    ("the Met", "the Met Opera"),
    ("Metropolitan Opera", "the Met museum"),  # a kind's word after an ambiguous name narrows it
    ("Guggenheim Bilbao", "Guggenheim New York"),
    ("Old Trafford", "Old Trafford cricket ground"),
    ("Wembley Stadium", "Wembley Arena"),
    ("Madison Square Garden", "Covent Garden"),
    ("Heathrow Airport Hotel", "Heathrow Airport"),  # a place kind added makes another place
    ("Hyde Park", "Hyde Park Corner"),
    ("Sea Life Centre", "Seattle-Tacoma International Airport"),  # a code inside a name is a word
    ("Man Cave", "Manchester Airport"),
    ("McDonald's Soho", "Maccies"),  # a chain's nickname keeps the branch rule
    ("Pret, Leeds station", "Pret, Leeds"),  # a station named after a city is not the city
    ("Restaurant Krone", "Krone Bar"),
    ("Allianz Arena", "Allianz Stadium"),  # Munich's and Turin's
    ("Golden Gate Bridge", "Golden Gate Park"),
    ("Big Ben", "Big Ben pub"),  # a venue named after a known place
    ("Tate Modern", "Tate Modern café"),
    ("Gatwick", "Gatwick Hilton"),  # a chain's branch named after one
    ("Colosseum", "Colosseum Metro"),
]


NAMESAKES = [
    ("Hyde Park", "Hyde Park, Chicago", False),  # a known place's namesake in another country
    ("Central Park", "Central Park, Denver", False),  # in another US state
    ("Central Park", "Central Park, Texas", False),
    ("Hyde Park", "Hyde Park, Leeds", False),  # a big city far from London
    ("Hyde Park", "Hyde Park, London", True),
    ("Hyde Park", "Hyde Park, Westminster", True),  # a district (Westminster, Colorado is small)
    ("Central Park", "Central Park, Brooklyn", True),  # near New York City
    ("Pike Place Market", "Pike Place Market, Seattle, WA", True),  # WA: Washington, not Wa in Ghana
    ("Louvre", "Louvre, Paris, France", True),
    ("Taj Mahal Palace", "Taj Mahal Palace, Mumbai", True),  # a hotel whose name holds the Taj Mahal (Agra)
]
"""A known place and a city or region beside it elsewhere: a namesake."""


@pytest.mark.parametrize(("a", "b", "same"), [(a, b, True) for a, b in SAME] + [(a, b, False) for a, b in DIFFERENT]
                         + NAMESAKES)
def test_pairs(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


def test_the_gazetteer_knows_where_cities_are() -> None:
    london, leeds = gazetteer.town("london"), gazetteer.town("leeds")
    assert london is not None and leeds is not None and london.thousands > 8000
    assert 250 < gazetteer.distance_km(london, leeds) < 290  # 272 km by the great circle
    assert gazetteer.distance_km(london, london) == 0 and gazetteer.town("golden dragon") is None


def test_common_word_nicknames_need_the_description() -> None:
    """"the Met" and "the Garden" name a place only when the description points at it; an
    ambiguous nickname is the same as another side only when that side names one of its places."""
    art, opera, knicks = hits("art day"), hits("opera night"), hits("Knicks game")
    assert "met-museum" in art and "met-opera" not in art and "met-opera" in opera and "met-museum" not in opera
    assert "msg" in knicks and "td-garden" not in knicks
    assert same_place("the Met", "Metropolitan Museum of Art", art)
    assert not same_place("the Met", "Metropolitan Museum of Art")  # no cue: "met" is a word
    assert not same_place("the Met", "Metropolitan Opera", art)
    assert same_place("the Met", "Metropolitan Opera", opera)
    assert not same_place("the Met", "Metropolitan Museum of Art", opera)
    assert same_place("the Garden", "Madison Square Garden", knicks)
    assert not same_place("the Garden", "Madison Square Garden", hits("BBQ with the neighbours"))
    assert not same_place("the Garden", "TD Garden", knicks)  # the Knicks play at MSG, not Boston's Garden
    assert same_place("Sydney Opera House", "the Opera House", hits("concert in Sydney"))
    assert not same_place("Royal Opera House", "the Opera House", hits("concert in Sydney"))
    assert hits("") == frozenset() and hits("startup meetup") == frozenset()  # whole words only ("art")


def test_the_judge_reads_the_description_and_caches_by_it() -> None:
    judge = PlacesJudge()
    assert judge.same("the Met", "Metropolitan Museum of Art", PairContext("art day"))
    assert not judge.same("the Met", "Metropolitan Museum of Art", PairContext("opera night"))
    assert not judge.same("the Met", "Metropolitan Museum of Art", PairContext("lunch"))
    assert judge.same("LHR", "Heathrow", None) and judge.same("LHR", "Heathrow", PairContext("art day"))
    cued = [d for d in judge.decisions() if "cues" in d]  # listed with the cues that took part
    assert [(d["a"], d["b"], "met-opera" in d["cues"], d["same"]) for d in cued] == [
        ("Heathrow", "LHR", False, True), ("Metropolitan Museum of Art", "the Met", False, True),
        ("Metropolitan Museum of Art", "the Met", True, False)]

    class Event:  # the scorer passes the gold and predicted events (or operations with an event)
        description = "Knicks game"

    class Op:
        event = Event()

    assert judge.same("the Garden", "Madison Square Garden", (Event(), Op()))
    assert not judge.same("the Garden", "Madison Square Garden", (object(), object()))


def test_the_table() -> None:
    table = gazetteer.alias_table()
    airports = [p for p in table.places if p.kind == "airport"]
    assert len(table.places) >= 850 and len(airports) >= 250 and len(table.city_names) >= 70
    assert {p.id for p in airports} >= {"LHR", "JFK", "CDG", "HND", "DXB", "SIN", "GRU", "JNB", "SYD", "ORD"}
    assert all(p.codes == (p.id,) for p in airports)


def test_every_name_names_its_own_place() -> None:
    """Each name and code of the table, read alone, is one token that includes its own place; a code
    that reads as an abbreviation is left to the abbreviation ("STN" is "station", not Stansted)."""
    folded = set()
    for place in gazetteer.alias_table().places:
        for name in (*place.names, *place.codes):
            if name in place.codes and canonical_name(name) != name.lower():
                folded.add(name)
                continue
            parsed = _tagged(name, frozenset())
            assert len(parsed.parts) == 1 and len(parsed.parts[0]) == 1, (place.id, name, parsed.parts)
            assert place.id in parsed.parts[0][0][1:].split("|"), (place.id, name)
    assert folded == {"STN"}


def test_only_the_known_names_are_ambiguous() -> None:
    """Names shared by several places are deliberate (a new collision is a mistake in the table)."""
    seen: dict[str, set[str]] = {}
    for place in gazetteer.alias_table().places:
        for name in (*place.names, *place.codes, *place.ask):
            seen.setdefault(" ".join(_tagged(name, frozenset()).parts[0]) if name not in place.ask else name.lower(),
                            set()).add(place.id)
    shared = {name for name, ids in seen.items() if len(ids) > 1}
    assert {n for n in shared if not n.startswith("@")} == {"met", "garden", "opera house"}  # ask: need a cue
    assert {n for n in shared if n.startswith("@")} == {
        "@duomo-firenze|duomo-milano", "@getty-center|getty-villa", "@golden-gate|golden-gate-park",
        "@guggenheim-bilbao|guggenheim-ny", "@universal-hollywood|universal-japan|universal-orlando",
        "@tate-britain|tate-liverpool|tate-modern|tate-st-ives", "@vu-melbourne|vuw"}


def _table(**change: object) -> str:
    row = {"about": ["x"], "kinds": {"airport": ["airport"]}, "city_names": {},
           "places": [{"id": "LHR", "kind": "airport", "names": ["Heathrow"], "codes": ["LHR"]}]}
    row.update(change)
    return json.dumps(row)


@pytest.mark.parametrize(("change", "message"), [
    ({"extra": 1}, "field extra: Extra inputs are not permitted"),
    ({"places": [{"id": "LHR", "kind": "airport", "names": ["Heathrow"], "iata": "LHR"}]}, "field places.0.iata"),
    ({"places": [{"id": "LHR", "kind": "port", "names": ["Heathrow"]}]}, "places.0.kind: 'port' is not one of"),
    ({"places": [{"id": "A", "kind": "airport", "names": ["x"]}, {"id": "A", "kind": "airport", "names": ["y"]}]},
     "places.1.id: 'A' appears twice"),
    ({"places": [{"id": "LHR", "kind": "airport", "codes": ["lhr"]}]}, "field places.0.codes"),
    ({"places": [{"id": "M", "kind": "airport", "names": ["x"], "ask": ["Met"]}]}, "'ask' nickname needs 'cues'"),
    ({"places": [{"id": "M", "kind": "airport"}]}, "neither names nor codes"),
])
def test_a_bad_table_names_the_field(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match="aliases.json: ") as err:
        gazetteer.read_alias_table(_table(**change), "aliases.json")
    assert message in str(err.value)
    assert gazetteer.read_alias_table(_table()).places[0].codes == ("LHR",)


names = st.sampled_from(sorted({n for p in gazetteer.alias_table().places for n in (*p.names, *p.codes)}))
_ACCENTED = {"a": "á", "e": "é", "i": "í", "o": "ö", "u": "ü", "c": "ç", "n": "ñ"}


def _noise(name: str, flips: list[bool], pad: int) -> str:
    """``name`` with letters' case flipped, vowels and c/n accented where ``flips`` says, and
    extra spaces: a person's writing of the same place."""
    out = []
    for ch, flip in zip(name, flips + [False] * len(name)):
        if flip and ch.lower() in _ACCENTED:
            ch = _ACCENTED[ch.lower()] if ch.islower() else _ACCENTED[ch.lower()].upper()
        elif flip:
            ch = ch.swapcase()
        out.append(ch)
    return " " * pad + "  ".join("".join(out).split(" ")) + " " * pad


@settings(max_examples=300, deadline=None)
@given(names, st.lists(st.booleans(), max_size=60), st.integers(0, 3))
def test_noise_keeps_a_known_place_the_same(name: str, flips: list[bool], pad: int) -> None:
    assert same_place(name, _noise(name, flips, pad))


@settings(max_examples=300, deadline=None)
@given(names, names, st.sampled_from(["", "art day", "Knicks game", "opera night", "flight to Rome"]))
def test_symmetric_with_known_places(a: str, b: str, description: str) -> None:
    cues = hits(description)
    assert same_place(a, b, cues) == same_place(b, a, cues)
