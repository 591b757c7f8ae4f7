"""References the event's description resolves, for the ``places`` judge (:mod:`proevent.evaluate.places`): "her
place" is Priya's place when the event is with Priya alone ("movie night with Priya"), and "the doctor's office" is
Dr. Okafor's when the description names Dr. Okafor. A reference with no such name in the description stays
unresolved (a different place from any named one); so does one where the description only names the host ("dinner
at Sophie's": the labelled sets disagree there, the packaged one calling "her flat" another place)."""

from __future__ import annotations

import re
from functools import lru_cache

from proevent.evaluate.normalize import normalize_location

OWNER = "#owner:"
DOCTOR = "#dr:"
_HOMES = r"(?:place|house|flat|apartment|home)"
_PRONOUN_HOME = re.compile(rf"^(?:his|her|their)\s+{_HOMES}$", re.IGNORECASE)
_THE_DOCTOR = re.compile(r"^(?:the\s+)?(?:doctor|gp)['’]?s(?:\s+(?:office|clinic|surgery|practice))?$", re.IGNORECASE)
_OWNER_HOME = re.compile(rf"^([A-Z][\w-]+)['’]s(?:\s+{_HOMES})?$")
_DOCTOR_PLACE = re.compile(r"^(?:Dr\.?|Doctor)\s+([A-Z][\w-]+)['’]s(?:\s+(?:office|clinic|surgery|practice))?$")
_NAMED = re.compile(r"(?:(?<=\bwith\s)|(?<=\band\s)|(?<=&\s))([A-Z][\w-]+)\b(?!\s+[A-Z]|['’]s)")
_NAMED_DOCTOR = re.compile(r"\b(?:Dr\.?|Doctor)\s+([A-Z][\w-]+)")


def unresolved(location: str) -> bool:
    """A place that names no one: "his place", "her flat", "the doctor's office"."""
    text = location.strip()
    return bool(_PRONOUN_HOME.match(text) or _THE_DOCTOR.match(text))


@lru_cache(maxsize=4096)
def owner_cues(description: str) -> frozenset[str]:
    """The one person the event is with ("movie night with Priya"; none for "with Tom and Ana"), and the
    doctors the description names ("check-up with Dr. Okafor"), as cues."""
    doctors = {normalize_location(m.group(1)) for m in _NAMED_DOCTOR.finditer(description)}
    people = {normalize_location(m.group(1)) for m in _NAMED.finditer(description)} - doctors
    people = {p for p in people if p not in ("dr", "doctor")}
    found = {DOCTOR + d for d in doctors}
    if len(people) == 1:
        found.add(OWNER + people.pop())
    return frozenset(found)


def resolved(a: str, b: str, cues: frozenset[str]) -> bool:
    """One side names no one ("her place", "the doctor's") and the other is the place of the one the
    description names so ("Priya's place" for movie night with Priya, "Dr. Okafor's clinic" for a check-up
    with Dr. Okafor), with nothing else said (no address: the reference does not tell it)."""
    for vague, named in ((a.strip(), b.strip()), (b.strip(), a.strip())):
        if _PRONOUN_HOME.match(vague):
            owner = _OWNER_HOME.match(named)
            if owner and OWNER + normalize_location(owner.group(1)) in cues:
                return True
        elif _THE_DOCTOR.match(vague):
            doctor = _DOCTOR_PLACE.match(named)
            if doctor and DOCTOR + normalize_location(doctor.group(1)) in cues:
                return True
    return False
