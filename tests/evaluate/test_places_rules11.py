"""Rules of the ``places`` judge added after the eleventh set, each on pairs written for the tests
(not taken from any labelled set) with the near-misses it must keep apart."""

from __future__ import annotations

import pytest

from proevent.evaluate.places import PlacesJudge, same_place
from proevent.evaluate.placeset import PairContext


@pytest.mark.parametrize(("a", "b", "same"), [
    # a numeric postcode beside its town on one side only; a house number after its street's part
    ("Gartenstraße 7, 79098 Freiburg", "Gartenstr. 7, Freiburg", True),
    ("Gartenstraße 7, 79098 Freiburg", "Gartenstr. 9, Freiburg", False),
    ("Gartenstraße 7, 79098 Freiburg", "Gartenstraße 7, 79100 Freiburg", False),
    ("Gartenstraße 7, 79098 Freiburg", "Gartenstraße 7, Stuttgart", False),
    ("Calle Olmo 14, 41003 Sevilla", "C/ Olmo, 14, Sevilla", True),
    ("Calle Olmo 14, Sevilla", "C/ Olmo, 16, Sevilla", False),
    ("C/ Olmo, 14", "C/ Pino, 14", False),
    ("Rua das Flores 200, 4050-262 Porto", "Rua das Flores, 200, Porto", True),
    ("Rua das Flores 200, 4050-262 Porto", "Rua das Flores, 202, Porto", False),
    ("Hotel Sol, 28013", "Hotel Sol, Madrid", False),  # a postcode alone names no town
    # street types as national addresses cut them
    ("Viale Piave 21, Milano", "V.le Piave, 21, Milan", True),
    ("Piazza Cavour 3, 00193 Roma", "P.zza Cavour 3, Rome", True),
    ("Piazza Cavour 3, Roma", "P.zza Garibaldi 3, Rome", False),
    ("Avinguda Diagonal 400, Barcelona", "Avgda. Diagonal, 400, Barcelona", True),
    ("Estr. da Luz 45, 1600-153 Lisboa", "Estrada da Luz 45, Lisbon", True),
    ("Estr. da Luz 45", "Estrada da Luz 47", False),
    ("Praça da Alegria 12", "Pça. da Alegria, 12", True),
    ("Jalan Kenanga 9, Kuala Lumpur", "Jln. Kenanga 9, Kuala Lumpur", True),
    ("Jalan Kenanga 9, Kuala Lumpur", "Jln. Kemuning 9, Kuala Lumpur", False),
    # a room's letter written with a dot before its number
    ("Tutorial Room B.14", "Tutorial Room B14", True),
    ("Room C.2.11, Hartley Building", "Room C2.11, Hartley Building", True),
    ("Tutorial Room B.14", "Tutorial Room B.15", False),
    ("Tutorial Room B.14", "Tutorial Room D14", False),
    # an online call with a person after "w/" or "with", or a host's personal room: the platform is the place
    ("WhatsApp video", "WhatsApp video w/ Grandpa", True),
    ("Skype", "skype with Auntie Rose", True),
    ("Zoom Personal Room - Prof. Adeyemi", "Zoom", True),
    ("Zoom Personal Room - Prof. Adeyemi", "zoom personal meeting room", True),
    ("Skype w/ Grandpa", "Skype w/ Auntie Rose", False),  # two people, two calls
    ("Zoom Personal Room - Prof. Adeyemi", "Zoom Personal Room - Dr. Lindqvist", False),
    ("WhatsApp video w/ Grandpa", "FaceTime w/ Grandpa", False),  # two platforms
    ("Skype w/ Grandpa", "Grandpa's house", False),
    ("Café Lindo with the garden", "Café Lindo", False),  # no platform: "with" is no call's person
    ("Zoom - Leeds office", "Zoom", False),  # after a dash only a titled person or a family word is a person
    # "the usual" however said; parents and grandparents are the two said by family words
    ("the usual", "our usual spot", True),
    ("the usual place", "usual", True),
    ("the usual", "the spot", False),
    ("our usual spot", "Café Lindo", False),
    ("Mam and Dad's house", "my parents' place", True),
    ("Nan and Grandad's", "grandparents' house", True),
    ("Mam and Dad's house", "grandparents' house", False),
    ("Mum's", "parents' house", False),  # one of the two
    ("Mum and Dad's", "Priya's parents' house", False),  # someone else's parents
    ("Mum and Auntie Jo's", "parents' house", False),
    # a code after initials names a branch or a part, not where the place is
    ("Northfield Institute of Design", "NID B2", False),
    ("Northfield Institute of Design", "NID Annex 2", False),
    ("Northfield Institute of Design, Elm Street", "NID Elm St", True),
    # a street's name is bound to its type: words moved across it make another place
    ("School Lane Pharmacy", "Pharmacy Lane School", False),
    ("Chapel Road Garage", "Garage Road Chapel", False),
    ("Chapel Road Garage", "Garage, Chapel Road", True),
    ("Chapel Road Garage", "garage on chapel rd", True),
    ("St Anne's Church", "Church of St Anne", True),
    # a station named in another language's word order
    ("Stazione di Santa Lucia Nuova, Verona", "Santa Lucia Nuova station", True),
    ("Estación de Valdemora", "Valdemora station", True),
    ("Estação do Rossio Velho", "Rossio Velho station", True),
    ("Stazione di Santa Lucia Nuova", "Santa Lucia Vecchia station", False),
    ("Gare de Lyon", "Lyon station", False),  # a French "gare" is named after where its trains go
    # a word saying whom a hospital serves, or what a numbered room is for, said on one side only
    ("Ashcombe Children's Hospital", "Ashcombe Hospital", True),
    ("Ashcombe General Hospital", "Ashcombe Hospital, Dale Road", True),
    ("Ashcombe Women's Hospital", "Ashcombe Children's Hospital", False),
    ("Bristol Children's Hospital", "Bristol Hospital", False),  # a city's name: many hospitals
    ("Ashcombe Children's Hospital", "Ashcombe Children's Clinic", False),
    ("Ashcombe Hospital", "Ashcombe Children's Clinic", False),
    ("Operating Theatre 4, North Wing", "Theatre 4, North Wing", True),
    ("Seminar Room 12", "Room 12", True),
    ("Lecture Theatre 4", "Operating Theatre 4", False),
    ("Operating Theatre 4", "Theatre 5", False),
    # a possessive's name of 8 letters or more stands for its pub or eatery, its apostrophe written or not
    ("Donnellan's Old Ale House", "Donnellans", True),
    ("Donnellan's", "Donnellan's Irish Pub", True),
    ("Donnellan's", "Donnellan's Oyster Bar", True),
    ("Hendricksons", "Hendrickson's Public House", True),
    ("Rosie's", "Rosie's Tavern", False),  # a first name: it may be Rosie's home
    ("Donnellan's Old Ale House", "Donnelly's Old Ale House", False),
    # a famous street of the alias table takes a house number, as a street with its type does
    ("Pret Fifth Avenue", "Pret, 425 5th Ave", True),
    ("Pret Oxford Street", "Pret A Manger, 11 Oxford St", True),
    ("Pret Fifth Avenue", "Pret, 425 Madison Ave", False),
    ("Pret, 425 Fifth Avenue", "Pret, 427 5th Ave", False),
    # a two-letter code of the city's own country is that country, whatever state it also abbreviates
    ("Cafe Hana, Berlin, DE", "Cafe Hana, Berlin", True),
    ("Hamburg", "Hamburg, DE", True),
    ("Berlin", "Berlin, CT", False),
    ("Paris", "Paris, TX", False),
    # initials with the initial of the name's last word, against the name written out, its qualifiers as usual
    ("Birla Institute of Technology Mesra", "BIT-M, Ranchi", True),
    ("Birla Institute of Technology Mesra", "BIT-P, Ranchi", False),
    ("Birla Institute of Technology Mesra, Ranchi", "BIT-M, Patna", False),
    # a room of a building named by its kind alone is inside it: it picks no branch of a chain
    ("Marriott Riverside", "Marriott Riverside, Grand Ballroom", True),
    ("Marriott", "Marriott, Lobby", True),
    ("Marriott Riverside, Ballroom", "Marriott Docklands, Ballroom", False),
    ("Marriott Riverside, Ballroom", "Marriott Riverside, Ballroom B", False),
    ("Marriott", "Marriott, Canal Street", False),
    # the same words in the same order, split by commas elsewhere
    ("St Luke's Hospital, Outpatients Clinic 2", "St Luke's Hospital Outpatients, Clinic 2, Level 1", True),
    ("Harbour Arts Centre, Studio Theatre", "Harbour Arts Centre Studio, Theatre", True),
    ("St Luke's Hospital, Outpatients Clinic 2", "St Luke's Hospital Outpatients, Clinic 3", False),
    ("Hotel Lisboa, Porto", "Hotel Porto, Lisboa", False),
    # a number before a name of two words or more on one side only: the name is the address
    ("Equinox Harbour Yards", "Equinox at 20 Harbour Yards", True),
    ("Equinox, 20 Harbour Yards", "Equinox, 22 Harbour Yards", False),
    ("Equinox Harbour Yards", "Equinox at 20 Harbour Square", False),
    # German "am" before a part the other side names: " at "
    ("Bäckerei Sonne am Rathausplatz", "Rathausplatz, Bäckerei Sonne", True),
    ("Bäckerei Sonne am Rathausplatz", "Bäckerei Sonne, Rathausplatz", True),
    ("Bäckerei Sonne am Rathausplatz", "Rathausplatz, Bäckerei Mond", False),
    ("Bäckerei Sonne am Rathausplatz", "Bäckerei Sonne, Marktplatz", False),
    # a venue's own name with its chain after it: that chain's branch, picked by the name and the rest
    ("The Rose and Crown (Wetherspoons), High Street", "spoons on high st", True),
    ("The Rose and Crown (Wetherspoons), High Street", "Wetherspoons, High Street", True),
    ("The Rose and Crown (Wetherspoons), High Street", "spoons on market st", False),
    ("The Rose and Crown (Wetherspoons), High Street", "Wetherspoons", False),  # any branch
    # a venue given with its street address against that address alone
    ("Harbour Gallery, 12B Tanner Street, Leith", "12B Tanner Street", True),
    ("Harbour Gallery, 12B Tanner Street", "12B Tanner St", True),
    ("Harbour Gallery, 12B Tanner Street", "14 Tanner Street", False),
    ("Harbour Gallery, 12B Tanner Street, Leith", "12B Tanner Street, Glasgow", False),
    ("Harbour Gallery", "12B Tanner Street", False),  # the address said on one side only
    ("Meeting Room 3, 4th floor, 12B Tanner Street", "12B Tanner Street", False),  # a room: one door of many
])
def test_rules_after_the_eleventh_set(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same
    assert same_place(b, a) is same


@pytest.mark.parametrize(("a", "b", "description", "same"), [
    # an event on or during a trip, holiday or weekend named by a city is in that city
    ("Five Guys", "Five Guys, Lisbon", "lunch on our Porto trip", False),
    ("Five Guys", "Five Guys, Porto", "lunch on our Porto trip", True),
    ("Five Guys", "Five Guys, Lisbon", "lunch during the Porto weekend", False),
    ("Five Guys", "Five Guys, Lisbon", "packing for our Porto trip", True),  # not during it
    ("Five Guys", "Five Guys, Lisbon", "lunch with Ana", True),
])
def test_rules_after_the_eleventh_set_read_with_the_description(a: str, b: str, description: str, same: bool) -> None:
    judge = PlacesJudge()
    assert judge.same(a, b, PairContext(description)) is same
    assert judge.same(b, a, PairContext(description)) is same
