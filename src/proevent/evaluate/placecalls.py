"""Who an online call is with, for the ``places`` judge (:mod:`proevent.evaluate.places`): "FaceTime w/ Nana",
"Zoom with the design team", "Webex Personal Room - Dr. Kaur". The platform is the place; the person it is with (or
whose personal room it is) names the call as a meeting's code or title does: one person on one platform is one call,
two people two calls, and the platform alone is any of them. Deciding stays in ``places``."""

from __future__ import annotations

import re
from functools import lru_cache

from proevent.evaluate.normalize import normalize_location
from proevent.evaluate.placeowners import _KIN
from proevent.evaluate.placeparse import _GENERIC_ONLINE, _PLATFORMS

_WITH = re.compile(r"\s+(?:w/\s*|with\s+)(\S.*)$", re.IGNORECASE)
"""A call's person after "w/" or "with" ("FaceTime w/ Nana")."""
_DASHED = re.compile(r"\s+[-–—]\s+(\S.*)$")
"""A remark after a dash ("Webex - Dr. Kaur")."""
_TITLED = re.compile(r"^(?:dr|prof|mr|mrs|ms|mx)\s+[^\W\d_]+(?:\s+[^\W\d_]+)?$")
"""A person named with a title (normalised words: "dr kaur", "prof ana silva")."""
_PERSONAL_ROOM = re.compile(r"\s+personal\s+(?:meeting\s+)?room(?!\w)", re.IGNORECASE)
"""A platform's room that belongs to its host ("Webex Personal Room", "Zoom personal meeting room")."""


def _online(text: str) -> bool:
    """Every word a platform's name or an online word, and one of them a platform ("FaceTime", "Zoom video")."""
    words = normalize_location(text).split()
    return bool(words) and any(w in _PLATFORMS for w in words) and all(
        w in _PLATFORMS or w in _GENERIC_ONLINE or w in ("call", "chat", "meeting") for w in words)


def _person(remark: str) -> str | None:
    """A person as a dash writes one after a platform: a title and a name, or a family word ("Nana", "Auntie Jo")."""
    words = normalize_location(remark)
    return words if _TITLED.match(words) or (words.split() and words.split()[0] in _KIN and len(words.split()) <= 2) \
        else None


@lru_cache(maxsize=65536)
def call_with(location: str) -> tuple[str, str]:
    """An online call's platform and the person it is with (or whose personal room it is), in normalised words
    (``("FaceTime", "nana")`` for "FaceTime w/ Nana"); ``(location, "")`` when the location is no such call.
    What comes after "w/" or "with" is the person when the words before are a platform's (a café "with a view"
    is no call); after a dash only a titled person or a family word is ("Zoom - Paris office" is left)."""
    text = location.strip()
    bare = _PERSONAL_ROOM.sub("", text)
    for pattern, who in ((_WITH, lambda r: normalize_location(r) or None), (_DASHED, _person)):
        found = pattern.search(bare)
        if found is not None and _online(bare[:found.start()]):
            person = who(found.group(1))
            if person and len(person.split()) <= 4:
                return bare[:found.start()].strip(), person
    if bare != text and _online(bare):
        return bare, ""  # "Webex Personal Room": the platform
    return text, ""
