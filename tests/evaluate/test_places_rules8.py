"""Rules of the ``places`` judge added after the eighth set, each on pairs written for the tests
(not taken from any labelled set) with the near-misses it must keep apart."""

from __future__ import annotations

import pytest

from proevent.evaluate.placeparse import canonical_name, meeting
from proevent.evaluate.places import PlacesJudge, same_place
from proevent.evaluate.placeset import PairContext


@pytest.mark.parametrize(("a", "b", "same"), [
    # labels abbreviated or in another language, a letter after a label its code, the room and its
    # building in any order
    ("Hörsaal 5, Universität Graz", "HS 5 Universität Graz", True),
    ("Bâtiment C, salle 12", "Salle 12 Bât. C", True),
    ("Building B Room 4", "Room 4, Building B", True),
    ("Raum 7, Hauptgebäude", "Raum 7 main building", True),
    ("Seminarraum 4, Institut für Chemie", "Room 4, Institut für Chemie", True),
    ("Seminarraum 4, Institut für Chemie", "Seminarraum 5, Institut für Chemie", False),
    ("HS 1, Hauptgebäude", "HS 2, Hauptgebäude", False),
    ("Bâtiment A, salle 12", "Bâtiment B, salle 12", False),
    ("Building A Room 4", "Building B Room 4", False),
    # a room in a building named without the word "building"
    ("Room 2, Physics Building", "Physics Room 2", True),
    ("LT 4, Biology Building", "Biology LT4", True),
    ("Room 2, Physics Building", "Physics Room 3", False),
    ("Room 2, Physics Building", "Chemistry Room 2", False),
    ("Room 2, Physics Building", "Physics Hall, Room 2", False),  # a hall is another building
])
def test_rooms_and_their_buildings(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Bergmannstraße 4", "Bergmann Str. 4", True),
    ("Linienstrasse 20, Berlin", "Linienstraße 20", True),
    ("Café Anker, Mariahilfer Straße 3", "Cafe Anker, Mariahilferstrasse 3", True),
    ("Bergmannstraße 4", "Bergmannstraße 5", False),
    ("Linienstraße 20", "Lindenstraße 20", False),
])
def test_compound_street_names(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


def test_compound_street_names_read_apart() -> None:
    assert canonical_name("Mariahilferstrasse") == canonical_name("Mariahilfer Straße") == "mariahilfer street"
    assert canonical_name("Strasse") == "street"  # too short to hold a name


@pytest.mark.parametrize(("a", "b", "same"), [
    # a meeting's code said in words after its platform is the code of its link
    ("meet.google.com/kpq-wxyz-rst", "Meet code kpq-wxyz-rst", True),
    ("zoom.us/j/98765432101", "Zoom meeting ID 987 6543 2101", True),
    ("Google Meet", "Google Meet kpq-wxyz-rst", True),  # the platform alone is any of its meetings
    ("meet.google.com/kpq-wxyz-rst", "Google Meet kpq-wxyz-rsu", False),
    ("Zoom ID 987 654 3210", "Zoom ID 987 654 3211", False),
    ("Zoom 987 654 3210", "Teams", False),
])
def test_meeting_codes_said_in_words(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


def test_a_phone_number_is_no_meeting_code() -> None:
    assert meeting("phone 020 7946 0321") is None and meeting("Meet kpq-wxyz-rst") == "meet/kpq-wxyz-rst"


@pytest.mark.parametrize(("a", "b", "same"), [
    # words moved between a name and its qualifier make another name
    ("Hotel Berlin, Vienna", "Hotel Vienna, Berlin", False),
    ("Bar Milano, Torino", "Bar Torino, Milano", False),
    ("Bar Centrale, Hotel Roma", "Hotel Roma, Bar Centrale", True),  # the same parts in another order
    ("Hotel Vienna, Berlin", "Berlin, Hotel Vienna", True),
    ("Room 3, Hall 2", "Hall 2, Room 3", True),
])
def test_a_name_and_its_city_swapped(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # two kinds of hall or stage, one on each side, are two venues of one complex
    ("Lincoln Center Theater", "Lincoln Center Hall", False),  # both read as the known Lincoln Center
    ("Barbican Cinema", "Barbican Hall", False),
    ("Sage Auditorium", "Sage Arena", False),
    ("Lincoln Center", "Lincoln Center Theater", True),  # a kind on one side only is left to the rule
    ("Usher Hall", "Usher Hall, Edinburgh", True),
    ("Teatro Colón", "Colon Theatre", True),
])
def test_two_venues_of_one_complex(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # one letter put for one that sounds like it, where another distinctive word holds the name
    ("Trattoria Elsa Sorrentina", "Trattoria Elza Sorrentina", True),
    ("Bistro Marco Vecchio", "Bistro Marko Vecchio", True),
    ("Trattoria Elsa Sorrentina", "Trattoria Elta Sorrentina", False),  # t is no s
    ("Elsa", "Elza", False),  # nothing else holds the name
    ("Cafe Mars 12", "Cafe Marz 12", False),  # a kind and a number are not distinctive
])
def test_letters_that_sound_alike(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Alpe d'Huez", "Alpe d'Huez ski resort", True),
    ("Sun Valley", "Sun Valley Resort", True),
    ("Kew Gardens", "Kew Gardens resort", False),  # a resort named after a known place or a kind
    ("Miami", "Miami resort", False),  # a resort in a city is one of many
    ("Hilton", "Hilton resort", False),  # a chain's resort is one of its branches
])
def test_a_resort_named_by_its_place(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "description", "same"), [
    # a reference the description resolves: the one person the event is with, a doctor it names
    ("Jonas's place", "his place", "board games with Jonas", True),
    ("Dr. Mensah's surgery", "the doctor's", "appointment with Dr. Mensah", True),
    ("Jonas's place", "his place", "board games", False),
    ("Jonas's place", "his place", "board games with Jonas and Mia", False),  # whose is not said
    ("Jonas's place", "his place", "board games with Jonas's cousin", False),  # the event is with another
    ("Jonas's place, 4 Elm Road", "his place", "board games with Jonas", False),  # nor the address
    ("Dr. Mensah's surgery", "the doctor's", "appointment with Dr. Ruiz", False),
    ("Jonas's place", "his place", "dinner at Jonas's", False),  # a host alone: the labelled sets disagree
])
def test_references_the_description_resolves(a: str, b: str, description: str, same: bool) -> None:
    judge = PlacesJudge()
    ctx = PairContext(description)
    assert judge.same(a, b, ctx) is same and judge.same(b, a, ctx) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # one room both sides number alike pins the place; the other side's building word, grounds or city say
    # where it is
    ("Block D Room 210", "Room 210, Block D, Kenyatta University", True),
    ("Sherfield 2.05", "Room 2.05, Sherfield Building, Imperial College", True),
    ("Bay 4, Level 3", "Level 3 Bay 4, Q-Park Trinity", True),
    ("Ward 12, St Mary's University Hospital", "St Mary's Hospital Leeds, ward 12", True),
    ("Room 12, Huxley Building", "Room 12, Sherfield Building", False),  # another building
    ("Room 2, Physics Building", "Room 2, Physics Hall, Kenyatta University", False),  # another kind of building
    ("Room 12, University of Leeds", "Room 12, Leeds Beckett University", False),  # a name grown by a word
    ("Apartment 4B, 12 Elm Road", "Apartment 4B, 12 Oak Road", False),
    ("Room 3, Tower A", "Room 3, Tower B", False),
    ("Building 12, Room 3", "Building 3, Room 12", False),  # each number keeps its label
    ("Room 101, Hilton", "Room 101, Hilton Park Lane", False),  # a chain's branch
])
def test_a_room_pins_its_place(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # standard nicknames and street addresses of famous places, from general knowledge
    ("Dodger Stadium", "Chavez Ravine", True),
    ("Chrysler Building", "405 Lexington Ave, New York", True),
    ("Lambeau Field", "the Frozen Tundra", True),
    ("Chrysler Building", "407 Lexington Ave", False),  # another number of the street
    ("Flatiron Building", "Chrysler Building", False),
])
def test_known_nicknames_and_addresses(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # someone's home given with its street address is that address
    ("Lena's flat, 7 Rue des Rosiers", "7 Rue des Rosiers, 75004 Paris", True),
    ("Joao's place, Rua do Carmo 12", "Rua do Carmo 12, 2º Dto, Lisboa", True),
    ("Lena's flat, 7 Rue des Rosiers", "9 Rue des Rosiers, Paris", False),  # another number
    ("Lena's flat, 7 Rue des Rosiers", "Café Lune, 7 Rue des Rosiers", False),  # a café there
    ("Lena's flat, 7 Rue des Rosiers", "Marc's flat, 7 Rue des Rosiers", False),  # another home in the building
    ("Lena's flat", "7 Rue des Rosiers", False),  # the address is not said on both sides
])
def test_a_home_at_its_address(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # kinds and their descriptive words in other languages; a vowel dropped where the name holds
    ("Kaffeehaus Hawelka", "Café Hawelka, Dorotheergasse 6", True),
    ("Jardin Botanique de Montréal", "Montreal Botanical Garden", True),
    ("Kaffeehaus Hawelka", "Café Landtmann", False),
    ("Jardin Botanique de Montréal", "Montreal Biodome", False),
    ("Anytime Fitness Wembley Junction", "Anytime Fitness Wembley Jnction", True),
    ("Dalston Junction", "Dalton Junction", False),  # a consonant, and nothing distinctive besides
])
def test_kinds_in_other_languages_and_dropped_vowels(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # a big city's name cut short as abbreviations are, where every other word of the name holds
    ("Uni Syd Law School", "University of Sydney Law School", False),  # "Syd": 3 letters
    ("Univ. of Birm.", "University of Birmingham", True),
    ("Adel Uni", "Adelaide University", True),
    ("Park Rose", "Park Rosemary", False),  # a word of its own (cut after a vowel)
    ("Hotel Port", "Hotel Portland", False),  # cut before a consonant
    ("Birm", "Birmingham", False),  # nothing else holds the name
    ("Hotel Alex", "Hotel Alexandra", False),  # a name's short form, not a big city's
])
def test_a_word_cut_short(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same and same_place(b, a) is same
