"""General rules of the ``places`` judge added for generalisation: each with pairs written for the
test (not taken from any labelled set) and the near-misses that must stay different places."""

from __future__ import annotations

import pytest

from proevent.evaluate.places import same_place

SAME = [
    # a word that is a typo of the other side's is read as written there, known places included
    ("Tate Moden", "Tate Modern"),
    ("Heathrow Airprot", "LHR"),
    ("Britsh Museum", "British Museum"),
    # a kind's word with one letter more or less when the distinctive name holds
    ("Kinkakuji Temple", "Kinkakuji Tempe"),
    # abbreviations of kinds and departments
    ("Conf Room 2, Level 3", "Conference Room 2, Level 3"),
    ("LT2, Physics Building", "Lecture Theatre 2, Phys Building"),
    ("Carnegie Deli", "Carnegie Delicatessen"),
    # a hotel's kind added to its name
    ("the Langham", "Langham Hotel"),
]

DIFFERENT = [
    ("Riverside Craft Brewery", "Riverside Craft Brewey"),  # no kind's word: a consonant is not a slip
    ("Silverdale Sands", "Silverdale Stands"),
    ("LT2, Physics Building", "LT3, Physics Building"),  # another lecture theatre
    ("Screen 2, Vue Islington", "Screen 3, Vue Islington"),  # another screen
    ("Brighton", "Brighton Hotel"),  # a city with a kind is a venue
    ("Big Ben", "Big Ben Hotel"),  # a known place with a kind is another place
    ("Wembley Stadum", "Wembley Arena"),  # respelling does not merge two known places
    ("Louvre Musem", "Louvre-Lens"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_same(a: str, b: str) -> None:
    assert same_place(a, b) and same_place(b, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different(a: str, b: str) -> None:
    assert not same_place(a, b) and not same_place(b, a)
