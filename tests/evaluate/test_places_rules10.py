"""Rules of the ``places`` judge added after the tenth set, each on pairs written for the tests
(not taken from any labelled set) with the near-misses it must keep apart."""

from __future__ import annotations

import pytest

from proevent.evaluate.places import PlacesJudge, same_place
from proevent.evaluate.placeset import PairContext


@pytest.mark.parametrize(("a", "b", "same"), [
    # a kind alone is no place in particular, whatever place's name follows it on the other side
    ("Parque Palermo", "the park", False),
    ("Jardim Coimbra", "the garden", False),
    ("Parque Palermo", "Parque Palermo, Buenos Aires", True),
    ("Café Central, Herrengasse", "Café Central Vienna", True),
    # an online meeting's title in quotes names one meeting; a platform alone is any of them
    ("Zoom – 'Quarterly Budget' call", "Zoom – 'Design Review' call", False),
    ('Google Meet "Standup"', 'Google Meet "Retro"', False),
    ("Zoom – 'Quarterly Budget' call", "Zoom", True),
    ("Zoom – 'Quarterly Budget' call", 'zoom - "quarterly budget"', True),
    ("Zoom – 'Quarterly Budget' call", "Teams – 'Quarterly Budget' call", False),
    # chat's "vid" for video
    ("Signal video call", "signal vid call", True),
    ("Signal video call", "telegram vid call", False),
    ("vid call", "online", True),
    # two words written as one, a slip elsewhere in the name
    ("Pet Shop Luna Rossa", "Petshop Luna Rosa", True),
    ("Nail Bar Rosa Linda", "Nailbar Rosa Linda", True),
    ("Pet Shop Luna Rossa", "Petshop Luna Rosa Nera", False),
    ("Pet Shop Luna Rossa", "Petshop Lupa Rossa", False),
    # a letter dropped inside a name whose first and last words hold, one of them distinctive
    ("Grace Baptist Church", "Grace Batist Church", True),
    ("Elmwood Optical Centre", "Elmwood Opical Centre", True),
    ("Elmwood Optical Centre", "Elmwood Opical Cinema", False),
    ("Elmwood Optical", "Elmwood Opical", False),  # a name of two words
    ("Dalston Road Surgery", "Dalton Road Surgery", False),  # the leading name
    ("Larkspur Music Studios", "Larkspur Music Stuios", False),  # the last word
    ("Hollybrook Oakfield Surgery", "Hollybrook Oakfied Surgery", False),  # a place-name part lost
    # initials leave out articles and "of", a person's title and suffix, a regnal number; initials with stops
    ("Museum of Fine Arts, Huntington Avenue", "MOFA Huntington Ave", True),
    ("Museum of Fine Arts, Huntington Avenue", "MFA Huntington Ave", True),
    ("Museum of Fine Arts, Huntington Avenue", "MOFA Boylston St", False),
    ("Dr. Ellen Grace Wilson Jr. Library", "EGW Library", True),
    ("Dr. Ellen Grace Wilson Jr. Library", "EGW Park", False),
    ("Dr. Ellen Grace Wilson Jr. Library", "EGM Library", False),
    ("Queen Mary II Grammar School, Leeds", "QMGS Leeds", True),
    ("Queen Mary II Grammar School, Leeds", "QMGS York", False),
    ("Queen Mary II Grammar School, Leeds", "QEGS Leeds", False),
    ("Hospital Clínico San Carlos", "H.C. San Carlos", True),
    ("Hospital Clínico San Carlos", "H.U. San Carlos", False),
    ("Hospital Clínico San Carlos", "H.C. San Rafael", False),
    # a word cut short with a full stop is the other side's word it begins
    ("Oak Hill Comm. Ctr", "Oak Hill Community Centre", True),
    ("Hillcrest Presb. Church", "Hillcrest Presbyterian Church", True),
    ("Elm Park Gen. Store", "Elm Park General Store, Leeds", True),
    ("Oak Hill Comm. Ctr", "Oak Hill Medical Centre", False),
    ("Hillcrest Presb. Church", "Hillcrest Baptist Church", False),
    ("Elm Park Gen. Store", "Elm Park Garden Store", False),
    # a postcode's district against the whole postcode of that district, its town said or not
    ("The Fox, 12 Mill Lane, Leeds LS6 2QA", "The Fox, Mill Ln, LS6", True),
    ("The Fox, Mill Lane, LS6 2QA", "The Fox, Mill Lane, LS6", True),
    ("The Fox, 12 Mill Lane, Leeds LS6 2QA", "The Fox, Mill Ln, LS7", False),
    ("The Fox, 12 Mill Lane, Leeds LS6 2QA", "The Fox, Mill Ln, LS16", False),
    ("The Fox, Mill Lane, LS6 2QA", "The Fox, Mill Lane, LS6 3PB", False),
    # a city and the state that holds it ending a head; a state that does not hold it makes a namesake
    ("Lotus Spa Austin TX", "Lotus Spa, Austin", True),
    ("Lotus Spa Brisbane QLD", "Lotus Spa, Brisbane", True),
    ("Lotus Spa Brisbane QLD", "Lotus Spa, Perth", False),
    ("Lotus Spa Melbourne TX", "Lotus Spa, Melbourne", False),
    ("Lotus Spa, Melbourne, TX", "Lotus Spa, Melbourne", False),
    ("Lotus Spa, Austin, TX", "Lotus Spa, Austin", True),
    # a chain's store picked by its street on both sides, its format or a word describing it said on one
    ("Asda Superstore, Kings Road", "the big asda on kings rd", True),
    ("Asda Superstore, Kings Road", "the big asda on queens rd", False),
    ("the big asda on kings rd", "the little asda on Kings Road", False),
    ("Asda Superstore", "the big asda", False),  # no street: no store picked
    ("Asda Superstore, Leeds", "the big asda, Leeds", False),  # a city picks no store
    ("Tesco Extra, Purley Way", "Tesco Express, Purley Way", False),  # a store of another kind
    ("Hilton Garden Inn, Purley Way", "Hilton, Purley Way", False),
])
def test_rules_after_the_tenth_set(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same
    assert same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "description", "same"), [
    # one's own flight: the airport and one of its terminals are one place; someone else's, the terminal counts
    ("Gatwick Airport", "Gatwick South Terminal", "flight to Faro", True),
    ("Schiphol Airport", "Schiphol Terminal 2", "fly to Oslo, boarding 9:40", True),
    ("Munich Airport", "MUC T2", "flying to Rome", True),
    ("Gatwick Airport", "Gatwick South Terminal", "pick up Mia from her flight", False),
    ("Munich Airport", "MUC T2", "meet Jan at arrivals", False),
    ("Schiphol Airport", "Schiphol Terminal 2", "drop off Anke for her flight", False),
    ("Gatwick Airport", "Gatwick South Terminal", "school run", False),
    ("Munich Airport Terminal 1", "MUC T2", "flight to Rome", False),  # two terminals
    ("Munich Airport", "Hilton Munich Airport, Terminal 2", "flight to Rome", False),  # a hotel there
    ("Frankfurt Airport", "Terminal 1", "flight to Rome", False),  # a terminal of no airport said
    # a family word's home, resolved by the description: a relative named by a family word and a name, or one of
    # two owners said by a family word; a bare name, another relative, another kind of place stay apart
    ("Auntie Jo's flat", "auntie's", "tea with Auntie Jo", True),
    ("Auntie Jo's flat", "Jo's", "tea with Auntie Jo", True),
    ("Auntie Jo's flat", "auntie's", "tea and cake", False),
    ("Auntie Jo's flat", "auntie's", "tea with Auntie Meg", False),
    ("Auntie Jo's flat", "uncle's", "tea with Auntie Jo", False),
    ("Mum and Dad's house", "dad's", "barbecue with Dad", True),
    ("Mum and Dad's house", "dad's", "barbecue", False),
    ("Mum and Dad's house", "gran's", "barbecue at Gran's", False),
    ("Mum and Dad's house", "dad's office", "barbecue with Dad", False),
    ("Tom and Ana's flat", "Ana's", "dinner at Ana's", False),
    # a terminal picks a chain's branch, as a street does; a room does not
    ("Costa", "Costa Coffee, Gatwick South Terminal", "coffee before flight", False),
    ("Caffè Nero", "Caffè Nero, Terminal 3", "coffee", False),
    ("Hilton", "Hilton, Room 204", "conference", True),
])
def test_rules_after_the_tenth_set_read_with_the_description(a: str, b: str, description: str, same: bool) -> None:
    judge = PlacesJudge()
    assert judge.same(a, b, PairContext(description)) is same
    assert judge.same(b, a, PairContext(description)) is same
