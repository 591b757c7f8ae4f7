"""An airport and its terminal on a flight of one's own, for the ``places`` judge (:mod:`proevent.evaluate.places`).

Whoever takes a flight goes to the airport and the flight decides the terminal, so for one's own flight an airport
and one of its terminals are one place ("Heathrow Airport" / "Heathrow Terminal 5" on a flight to Lisbon). Picking
someone up, meeting them or seeing them off, the terminal is where to wait, and the labelled sets call the airport
and a terminal two places there ("pick up Dad"). Two terminals are two places whatever the trip."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from proevent.evaluate.placeparse import _BIND, Parsed

FLIGHT = "#flight"
"""The cue of a description that says a flight of one's own (see :func:`flight_cues`)."""
_FLIGHT = re.compile(r"(?<!\w)(?:flights?|fly|flying|flies|departs?|departing|departure|boarding|board)(?!\w)",
                     re.IGNORECASE)
_SOMEONE = re.compile(r"(?<!\w)(?:pick(?:ing)?[- ]?up|collect\w*|meet\w*|drop(?:ping)?[- ]?off|see(?:ing)? off|"
                      r"send[- ]?off|arrivals?|arriv\w+|lands?|landing|welcome)(?!\w)", re.IGNORECASE)
"""Words of a trip that is someone else's: picked up, met, dropped off, seen off at the airport."""


@lru_cache(maxsize=4096)
def flight_cues(description: str) -> frozenset[str]:
    """:data:`FLIGHT` when the description says a flight ("flight to Lisbon", "fly home", "boarding") and no one
    is picked up, met, dropped off or seen off ("pick up Dad from his flight" is none)."""
    if _FLIGHT.search(description) and not _SOMEONE.search(description):
        return frozenset({FLIGHT})
    return frozenset()


_TERMINAL_TEXT = re.compile(r"(?<![^\W\d_])(?:terminal|t\d)", re.IGNORECASE)


def names_terminal(location: str) -> bool:
    """A location that may name a terminal ("Terminal 5", "T5"), checked before the description is read."""
    return bool(_TERMINAL_TEXT.search(location))


def terminal(word: str) -> bool:
    """A terminal bound to its number or compass point ("terminal_5", "south_terminal")."""
    label, bind, code = word.partition(_BIND)
    return bool(bind) and "terminal" in (label, code)


def terminal_dropped(parsed: Parsed, other: Parsed, airport: Callable[[tuple[str, ...]], bool]) -> Parsed:
    """``parsed`` (known places tagged) without its one terminal, when ``other`` names no terminal and what is
    left is an airport (``airport`` of its head): "Heathrow Terminal 5" read as Heathrow against "Heathrow
    Airport"; not a venue at a terminal ("Costa Coffee, Heathrow T5"); ``parsed`` when not."""
    if any(terminal(w) for w in other.flat) or sum(terminal(w) for w in parsed.flat) != 1:
        return parsed
    parts = tuple(kept for kept in (tuple(w for w in p if not terminal(w)) for p in parsed.parts) if kept)
    if not parts or not airport(parts[0]):
        return parsed
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p))


__all__ = ["FLIGHT", "flight_cues", "names_terminal", "terminal", "terminal_dropped"]
