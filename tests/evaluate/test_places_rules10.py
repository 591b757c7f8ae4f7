"""Rules of the ``places`` judge added after the tenth set, each on pairs written for the tests
(not taken from any labelled set) with the near-misses it must keep apart."""

from __future__ import annotations

import pytest

from proevent.evaluate.places import same_place


@pytest.mark.parametrize(("a", "b", "same"), [
    # a kind alone is no place in particular, whatever place's name follows it on the other side
    ("Jardín del Turia", "the garden", False),
    ("Parc de la Tête d'Or", "the park", False),
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
    # two words written as one
    ("Nail Bar Rosa Linda", "Nailbar Rosa Linda", True),
    ("Golden Gate Bakery", "Goldengate Bakery", True),
    ("Nail Bar Rosa Linda", "Nailbar Rosa Lina", False),
    ("Golden Gate Bakery", "Goldengate Brewery", False),
    # a letter dropped inside a name whose first and last words hold, one of them distinctive
    ("Hollybrook Veterinary Hospital", "Hollybrook Veterinay Hospital", True),
    ("Ashgrove Orthodontic Clinic", "Ashgrove Orthodonic Clinic", True),
    ("Ashgrove Orthodontic Clinic", "Ashgrove Paediatric Clinic", False),
    ("Dalston Road Surgery", "Dalton Road Surgery", False),  # the leading name
    ("Larkspur Music Studios", "Larkspur Music Stuios", False),  # the last word
    ("Hollybrook Medical", "Hollybrook Medial", False),  # a name of two words
    ("Hollybrook Oakfield Surgery", "Hollybrook Oakfied Surgery", False),  # a place-name part lost
])
def test_rules_after_the_tenth_set(a: str, b: str, same: bool) -> None:
    assert same_place(a, b) is same
    assert same_place(b, a) is same
