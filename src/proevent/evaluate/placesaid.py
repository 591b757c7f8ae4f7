"""References the event's description names, for the ``places`` judge (:mod:`proevent.evaluate.places`): "the usual"
is The Tipsy Cow for "Friday pints @ Tipsy Cow", "school" is St Anne's Primary School for "pick up Amara from St
Anne's", "the office" is Safaricom House for "Safaricom team lunch", and a chain's bare name ("Costa Coffee") is its
branch at Heathrow Terminal 2 for "coffee before our flight from Heathrow T2". A person reading the event knows which
place a reference means when the description says its name; without the name in the description the reference may
be anywhere of its kind and stays apart from a named place. Only the name's own words count (not kinds, articles,
cities), and every one of them must be said, so that a description naming another place resolves nothing.
Deciding stays in ``places``."""

from __future__ import annotations

import re
from collections.abc import Callable

from proevent.evaluate.normalize import normalize_location
from proevent.evaluate.placeowners import own_place, usual
from proevent.evaluate.placeparse import _BIND, _GENERIC, _STOP, parse

SAID = "#said:"
"""Prefix of a cue that is a word the description says (canonical, as a location's words are)."""
_SCHOOL_WORDS = frozenset({"school", "primary", "elementary", "secondary", "academy", "nursery", "kindergarten",
                           "daycare", "preschool", "montessori", "creche", "junior", "infants"})
"""Words that make a named place a school, for "school" / "the kids' school"."""
_OFFICE_WORDS = frozenset({"house", "tower", "building", "office", "offices", "hq", "headquarters", "centre",
                           "campus", "plaza", "place", "court", "park", "works", "studio", "studios"})
"""Words that end an office building's or a workplace's name ("Safaricom House", "Acme HQ"), for "work" / "the
office"."""
_NEAR = re.compile(r"^(.+?)\s+(?:near|by|close\s+to|next\s+to)\s+(?:the\s+|my\s+|our\s+)?(?:office|work|school|home|"
                   r"house|station)$", re.IGNORECASE)
"""A place named by what it is near that names no place ("Nando's near the office")."""


def said_cues(description: str) -> frozenset[str]:
    """The description's words, canonical, as cues."""
    return frozenset(SAID + w for w in parse(description).flat) if description.strip() else frozenset()


def vague(location: str) -> bool:
    """A reference that a description may name: "the usual", one's own workplace or school."""
    return usual(location) or own_place(location) is not None


def _said(word: str, said: frozenset[str]) -> bool:
    """``word`` is in the description, a labelled number also as its label's initial and the number ("terminal_2" as
    "T2")."""
    if SAID + word in said:
        return True
    label, _, code = word.partition(_BIND)
    return bool(code) and (SAID + label[:1] + code.replace(_BIND, "") in said)


def _name_said(words: tuple[str, ...], said: frozenset[str]) -> bool:
    """Every word of a name besides kinds (a school's, an office's) and articles said, one of them of 3 letters or
    more."""
    own = [w for w in words if w not in _GENERIC and w not in _STOP and w not in _SCHOOL_WORDS
           and w not in _OFFICE_WORDS]
    return any(len(w) >= 3 for w in own) and all(_said(w, said) for w in own)


def said_resolved(a: str, b: str, cues: frozenset[str], chain: Callable[[tuple[str, ...]], int]) -> bool:
    """One side a reference ("the usual", "school", "the office"), the other a named place of its kind whose name
    the description says; or one side a chain's bare name (or the chain "near the office") and the other the chain
    at a branch the description names. ``chain`` gives how many words a chain's name starts a head with."""
    said = frozenset(c for c in cues if c.startswith(SAID))
    if not said:
        return False
    for ref, named in ((a, b), (b, a)):
        if not vague(ref) or vague(named):
            continue
        head = parse(named).parts[0]
        kind = own_place(ref)
        if kind == "school" and _SCHOOL_WORDS.isdisjoint(head):
            continue  # "school" is a school, not "Nando's"
        if kind == "work" and head[-1:] and head[-1] not in _OFFICE_WORDS:
            continue
        if _name_said(head, said):
            return True
    return _branch_said(a, b, said, chain) or _branch_said(b, a, said, chain)


def _branch_said(bare: str, branch: str, said: frozenset[str], chain: Callable[[tuple[str, ...]], int]) -> bool:
    """``bare`` a chain's name alone or "near the office", ``branch`` the same chain at a branch whose words the
    description all says ("Nando's Rosebank" for a dinner at the Rosebank office)."""
    near = _NEAR.match(bare.strip())
    pa, pb = parse(near.group(1) if near else bare), parse(branch)
    head = pa.parts[0]
    if not chain(head) or len(pa.parts) > 1 or pb.parts[0][:len(head)] != head:
        return False
    rest = tuple(w for w in pb.parts[0][len(head):] + tuple(w for p in pb.parts[1:] for w in p))
    return bool(rest) and normalize_location(bare) != normalize_location(branch) and all(
        _said(w, said) for w in rest) and any(w not in _GENERIC for w in rest)
