"""Rooms written with their building in another order or language, and online meetings named by a
web address or slang (fourth-set gaps): pairs written for the test, with near-misses kept apart."""

from __future__ import annotations

import pytest

from proevent.evaluate.places import same_place

SAME = [
    # a room ending a head after its building's name is that building's room
    ("Consultation room 3, Sakura Clinic", "Sakura Clinic room 3"),
    ("Hartley Dental, Room 5", "Hartley Dental room 5"),
    # a head that is the other side's room and building written together, in either order
    ("Harbour Room, Hotel Miramar, level 3", "Hotel Miramar Harbour Room"),
    ("Kingsway Building Lecture Theatre B", "Lecture Theatre B, Kingsway Building"),
    # labels in other languages before a number: sala, salle, Raum, aula, Halle, piso
    ("Sala 2, Museo del Prado", "Room 2, Prado Museum"),
    ("Salle 12, Hôtel de Ville", "Room 12, Hotel de Ville"),
    ("Raum 3.07, Hauptgebäude", "Room 3.07, Hauptgebaude"),
    ("Meeting room 3, Acme HQ", "Acme HQ, sala de reuniones 3"),
    ("Halle 4, Koelnmesse", "Koelnmesse, Hall 4, Entrance East"),
    ("Aula 3, Edificio Central", "Room 3, Central Building"),
    ("Bahnhof Friedrichstraße", "Friedrichstrasse station"),
    ("Discord", "discord vc"),
    # a meeting's web address is its platform; its path and subdomain say nothing more
    ("Jitsi Meet", "meet.jit.si/team-sync"),
    ("Zoom call", "https://us02web.zoom.us/j/88123456"),
    ("Google Meet", "https://meet.google.com/abc-defg-hij"),
    ("Google Meet", "gmeet"),
    ("MS Teams", "teams.microsoft.com link"),
    ("Whereby", "whereby.com/acme"),
]

DIFFERENT = [
    ("Consultation room 3, Sakura Clinic", "Sakura Clinic room 4"),
    ("Sakura Clinic room 3", "Room 3"),  # a room without its building
    ("Salle 5, Louvre", "Room 6, Louvre"),
    ("Harbour Room, Hotel Miramar", "Hotel Miramar Garden Room"),
    ("Kingsway Building Lecture Theatre B", "Lecture Theatre C, Kingsway Building"),
    ("Halle 7, Messe Frankfurt", "Messe Frankfurt, Halle 8"),
    ("Halle", "Hall"),  # the German city is no hall
    ("Sala", "Room"),
    ("Jitsi Meet", "Google Meet"),
    ("Zoom", "meet.jit.si"),
    ("teams.microsoft.com", "zoom.us"),
    ("Jitsi Meet", "Meet Cafe"),
    ("Google Meet", "www.google.com"),  # an address of no platform stays what it is
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_same(a: str, b: str) -> None:
    assert same_place(a, b) and same_place(b, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different(a: str, b: str) -> None:
    assert not same_place(a, b) and not same_place(b, a)
