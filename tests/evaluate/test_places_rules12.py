"""Rules of the ``places`` judge added after the twelfth set, each on pairs written for the tests
(not taken from any labelled set) with the near-misses it must keep apart."""

from __future__ import annotations

import pytest

from proevent.evaluate.places import same_place


@pytest.mark.parametrize(("a", "b", "same"), [
    # "blk" is a block, a label binding its number; "MR4" glued is meeting room 4
    ("Blk 7 Unit 15", "Block 7, Unit 15", True),
    ("Blk 7 Unit 15", "Unit 7 Blk 15", False),  # numbers swapped between the labels
    ("Blk 7 Apt 3", "Blk 7 Apt 4", False),
    ("MR4", "Meeting Room 4", True),
    ("MR4 (big meeting room)", "meeting room 4", True),
    ("MR4", "Meeting Room 5", False),
    ("MR4", "Room 4B", False),
    # a British postcode ending a part on one side only: the town or street without it
    ("The Swan, Market Place, Thame OX9 2AB", "The Swan, Thame", True),
    ("Lucky Noodle, 41 Mare St E8", "Lucky Noodle, Mare Street", True),
    ("Lucky Noodle, 41 Mare St E8", "Lucky Noodle, 41 Mare St", True),
    ("Lucky Noodle, 41 Mare St E8", "Lucky Noodle, 43 Mare St", False),  # the house number still counts
    ("The Swan, Thame OX9 2AB", "The Swan, Wallingford", False),
    ("Lucky Noodle, Mare St E8", "Lucky Noodle, Mare St N1", False),  # two districts
    ("Lucky Noodle, Mare St E8", "Lucky Noodle, Mare St E8 4RP", True),
    # typos: g for j (a soft g), two letters swapped in a word of 4, where the rest of the name holds
    ("Cantina San Jorge, Calle Real", "cantina san jorje calle real", True),
    ("Padaria Rogerio", "Padaria Rojerio", True),
    ("Jorge's", "Jorje's", False),  # nothing else holds the name
    ("The Grey Hose, Clapham", "the grey hoes clapham", True),
    ("The Slat House, Clapham", "The Salt House, Clapham", True),
    ("The Grey Hose", "The Grey Hoes", False),  # a short word alone: another name
    ("The Grey Hose, Clapham", "The Grey Hope, Clapham", False),  # a letter changed, not swapped
    # a hospital's department in any order and wording; a department makes its place a hospital
    ("Radiology, Northfield General", "Northfield General Hospital radiology dept", True),
    ("ST OSWALD HOSPITAL maternity unit", "the st oswald, maternity", True),
    ("RVH A&E", "Royal Victoria Hospital, Accident and Emergency", True),
    ("Casualty, Royal Victoria Hospital", "Royal Victoria Hospital ER", True),
    ("Radiology, Northfield General", "Northfield General Hospital, Maternity", False),  # another department
    ("Radiology, Northfield General", "Southfield General Hospital radiology dept", False),
    ("RVH A&E", "Royal Free Hospital, A&E", False),  # other initials
    ("the st oswald, maternity", "St Oswald Hotel, maternity", False),  # a hospital's word only
    # a part of a park or grounds is a kind of place: added to a name it makes another spot
    ("Ravenscourt Park playground", "Ravenscourt Park", False),
    ("Ravenscourt Park skatepark", "Ravenscourt Park", False),
    ("ravenscourt park playground", "Ravenscourt Park Playground, London", True),
    # a location that says its name is a business's ("(the bar)") is no one's home
    ("Marcos (the bar on Leith Walk)", "Marcos house", False),
    ("Marcos", "Marcos house", True),  # said nothing, a possessive may be a home
    ("Marcos (the bar on Leith Walk)", "Marcos", True),
    ("Marcos, the cafe", "Marco's place", False),
    ("Marcos (the bar on Leith Walk)", "Marcos bar, Leith Walk", True),
    # one's own workplace or children's school said without a name is one reference
    ("work", "my office", True),
    ("at work", "the workplace", True),
    ("school", "the kids' school", True),
    ("nursery", "the kids nursery", True),
    ("work", "Northwind Ltd, 4 Dock Street", False),
    ("Dad's office", "work", False),  # someone else's
    ("school", "the kids nursery", False),
    ("school", "work", False),
    ("school", "Hillside Primary School", False),
    # a street corner with its street types on one side only, a known street's name inside it
    ("Pret, 5th and 44th", "Pret A Manger, 5th Ave & 44th St", True),
    ("Starbucks, 5th and Lenora", "starbucks 5th ave & lenora st", True),
    ("Pret, 5th and 44th", "Pret A Manger, 6th Ave & 44th St", False),
    ("Pret, 5th and 44th", "Pret A Manger, 5th Ave & 45th St", False),
    ("Starbucks, 5th and Lenora", "Starbucks, 5th Ave", False),  # a corner picks one branch
    # a name of two words joined by "and" (pubs) called by its first word with the article
    ("the Hare", "The Hare and Hounds", True),
    ("the badger", "badger & ferret", True),
    ("the Hounds", "The Hare and Hounds", False),  # its second word
    ("Hare", "The Hare and Hounds", False),  # no article: a name of its own
    ("the Hare", "The Hare Inn", False),
    ("the Inn", "The Inn and Tavern", False),  # a kind of place
])
def test_forms_of_the_twelfth_set(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same
    assert same_place(b, a) is same
