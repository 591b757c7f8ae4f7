"""Rules of the ``places`` judge added after the thirteenth set, each on pairs written for the tests
(not taken from any labelled set) with the near-misses it must keep apart."""

from __future__ import annotations

import pytest

from proevent.evaluate.places import PlacesJudge, same_place
from proevent.evaluate.placeset import PairContext


@pytest.mark.parametrize(("a", "b", "description", "same"), [
    # a reference ("the usual", "school", "the office") the description names; a chain's bare name at the branch
    # the description names
    ("the usual", "The Crooked Lantern, Mill Lane", "Thursday quiz @ Crooked Lantern", True),
    ("our usual spot", "Crooked Lantern", "drinks at the crooked lantern", True),
    ("the usual", "The Crooked Lantern, Mill Lane", "Thursday quiz", False),  # nothing names it
    ("the usual", "The Crooked Lantern, Mill Lane", "Thursday quiz at the Lantern Rooms", False),  # "crooked" unsaid
    ("school", "Hollybrook Primary School", "collect Noor from Hollybrook", True),
    ("the kids' school", "Hollybrook Academy", "parents' evening at Hollybrook", True),
    ("school", "Hollybrook Leisure Centre", "swimming at Hollybrook", False),  # no school
    ("school", "Hollybrook Primary School", "collect Noor from Ashdown", False),
    ("the office", "Vantara House, 3 Quay St", "Vantara offsite planning", True),
    ("work", "Vantara Tower", "Vantara all-hands", True),
    ("the office", "Vantara Grill", "Vantara team dinner", False),  # a restaurant, not an office
    ("the office", "Vantara House", "team dinner", False),
    ("Costa Coffee", "Costa Coffee, Gatwick North Terminal", "coffee, Gatwick North Terminal", True),
    ("Pret", "Pret, Gatwick Terminal 3", "breakfast before our flight from Gatwick T3", True),
    ("Pret", "Pret, Gatwick Terminal 3", "breakfast before our flight from Gatwick T4", False),  # another terminal
    ("Costa Coffee", "Costa Coffee, Gatwick North Terminal", "flat white with Jo", False),  # no branch said
    ("Nando's near the office", "Nando's Sandton", "team lunch (Sandton office)", True),
    ("Nando's near the office", "Nando's Sandton", "team lunch", False),
    ("Nando's", "Nando's Sandton City Mall", "lunch in Sandton", False),  # "city mall" unsaid
    ("Starbucks", "Starbucks Reserve Roastery, Tokyo", "coffee tasting in Tokyo", False),  # a roastery unsaid
])
def test_a_reference_the_description_names(a: str, b: str, description: str, same: bool) -> None:
    judge = PlacesJudge()
    assert judge.same(a, b, PairContext(description)) is same
    assert judge.same(b, a, PairContext(description)) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # a market in other languages before its name ("Chợ", "Pasar", "Pazarı", "Rynek", "Targ")
    ("Chợ Hòa Bình", "Hoa Binh Market", True),
    ("Pasar Gede, Solo", "Gede Market", True),
    ("Chợ Hòa Bình", "Hoa Binh Park", False),  # another kind
    ("Chợ Hòa Bình", "Hoa Lac Market", False),
    ("Rynek Jeżycki", "Jezycki Market, Poznań", True),
    # a compass point cut to its letters after a street's type
    ("88 Dundas Street East, Toronto", "88 Dundas St E, Toronto", True),
    ("Elm Cafe, 40 King St NW", "Elm Cafe, 40 King Street Northwest", True),
    ("88 Dundas Street East", "88 Dundas St W", False),  # another half of the street
    ("Block W, Dundas campus", "Block West, Dundas campus", False),  # a block's letter is no compass point
])
def test_market_words_and_compass_letters(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same
    assert same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    # streets named by numbers keep their types: the types swapped is another corner
    ("Calle 8 con Carrera 52, Cali", "Carrera 8 con Calle 52, Cali", False),
    ("Calle 8 con Carrera 52, Cali", "Calle 8 con Carrera 52", True),
    ("Calle 8 con Carrera 52, Cali", "Carrera 52 con Calle 8, Cali", True),  # the same corner in another order
    # a room's floor written apart by a stop: the digits together are the room
    ("Room 2.07, Darwin Building", "Room 207, Darwin Building", True),
    ("Rm 12.31, Darwin Building", "room 1231, Darwin Building", True),
    ("Room 2.07, Darwin Building", "Room 270, Darwin Building", False),
    ("Room 2.07, Darwin Building", "Room 2.70, Darwin Building", False),
    ("Hall 4.1, Messe Essen", "Hall 41, Messe Essen", False),  # a hall's level, not a room on a floor
    # two uses before one room's label and number are two rooms; a use on one side only is dropped
    ("Seminar Room 2, Kellner Library", "Study Room 2, Kellner Library", False),
    ("Lecture Theatre 3, Kellner Building", "Operating Theatre 3, Kellner Building", False),
    ("Seminar Room 2, Kellner Library", "Room 2, Kellner Library", True),
    ("Seminar Room 2, Kellner Library", "Kellner Library, seminar room 2", True),
    ("Treatment Room 3, Oakfield Clinic", "Oakfield Clinic, room 3", True),  # "clinic," ends no room's use
])
def test_street_numbers_room_floors_and_uses(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same
    assert same_place(b, a) is same
