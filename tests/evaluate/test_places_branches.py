"""Branches, chains and new places named after old ones (fourth-set gaps): pairs written for the
test, not taken from any labelled set, each rule with the near-misses it must keep apart."""

from __future__ import annotations

import pytest

from proevent.evaluate.places import same_place

SAME = [
    # a chain's branch on both sides, or only a city or room added
    ("Chatime, Taipei 101", "Chatime Taipei 101"),
    ("Din Tai Fung, Singapore", "Din Tai Fung"),
    ("Bangkok Hospital, Room 12", "Bangkok Hospital"),
    # a chain's branch written in its head against the branch in a qualifier, a floor added ("2F")
    ("Gong Cha Hongdae, Seoul", "Gong Cha, Hongdae"),
    ("Starbucks, Canal Walk", "Starbucks Canal Walk 2F"),
    ("Nando's Oxford Road", "Nando's, Oxford Road, Manchester"),
    # a chain's branch picked on both sides alike, an address added to one
    ("WeWork Moorgate", "WeWork, 1 Fore St, Moorgate"),
    ("Starbucks, Soho", "Starbucks, Soho, 12 Old Compton St"),
    # a modifier before a name without its kind at the end, or inside, stays the same place
    ("Cafe Tortoni", "Gran Cafe Tortoni"),
    ("Holyrood Palace", "Holyrood Royal Palace"),
    # a kind of place after a name that names none (coworking spaces, clinics, bookshops)
    ("Espacio Verde coworking, Carrera 7 #45-10", "Espacio Verde"),
    ("Libreria Acqua Alta bookshop", "Libreria Acqua Alta"),
    # a state against a city in it
    ("Mount Sinai Hospital, New York", "Mount Sinai Hospital NYC"),
    ("Trinity College Dublin", "Trinity College, Ireland"),
    # the alias table says which names with a modifier are one place
    ("Albert Hall", "Royal Albert Hall"),
]

DIFFERENT = [
    # a chain (worldwide, not only British and American brands) with a branch on one side only
    ("Gong Cha, Hongdae", "Gong Cha"),
    ("Paris Baguette, Gangnam Station", "Paris Baguette"),
    ("Watsons, Orchard Road", "Watsons"),
    ("Starbucks Canal Walk", "Starbucks, Sea Point"),
    ("Costa Coffee Euston", "Costa"),
    ("Starbucks, Soho", "Starbucks, Covent Garden, 12 Long Acre"),
    ("Costa, Manchester Road", "Costa, Manchester, 3 Deansgate"),
    ("Premier Inn, Leeds", "Premier Inn Hub"),  # a kind after the chain names a brand of it
    # branches of a hospital group named by a street, an area or a city
    ("Apollo Hospital, Jubilee Hills", "Apollo Hospital Navi Mumbai"),
    ("Bangkok Hospital, Soi Soonvijai", "Bangkok Hospital Pattaya"),
    ("Fortis Hospital, Mulund", "Fortis Hospital"),
    # a city on one side outside the state or country the other names: namesakes
    ("Mount Sinai Hospital, New York", "Mount Sinai Hospital Toronto"),
    ("Trinity College Dublin", "Trinity College, England"),
    # two kinds of place of one name
    ("Lotus Clinic", "Lotus Spa"),
    ("Harbour Clinic", "Harbour Clinic Pharmacy"),
    # a new place named after an old one: a modifier before a name ending in its kind
    ("Egyptian Museum", "Grand Egyptian Museum"),
    ("Carlton Theatre", "New Carlton Theatre"),
    ("Vic Theatre", "Old Vic Theatre"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_same(a: str, b: str) -> None:
    assert same_place(a, b) and same_place(b, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different(a: str, b: str) -> None:
    assert not same_place(a, b) and not same_place(b, a)
