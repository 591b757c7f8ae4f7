"""Online meetings named by a title in quotes, for the ``places`` judge (:mod:`proevent.evaluate.places`).

A platform names any meeting held on it ("Teams" / "Teams – 'Weekly Ops' meeting" stay one place), but a
title in quotes names one meeting, as a code or a channel does (:func:`~proevent.evaluate.placeparse.meeting`):
two titles that differ on one platform are two meetings ("Teams – 'Weekly Ops' meeting" / "Teams – 'Monthly
Ops Review' meeting"), while the same title written in another case or with other filler words is one."""

from __future__ import annotations

import re
from functools import lru_cache

from proevent.evaluate.placeparse import _words

_QUOTED = re.compile(r"(?<!\w)['‘\"“«]([^'‘’\"“”«»]*[^\W_][^'‘’\"“”«»]*)['’\"”»](?!\w)")
"""A title in single, double or angle quotes, with a letter or digit inside; an apostrophe inside a word
("Tom's") opens no quote."""


@lru_cache(maxsize=4096)
def meeting_title(location: str) -> tuple[str, ...] | None:
    """The canonical words of the title in quotes a location gives (``None`` when it gives none)."""
    found = _QUOTED.search(location)
    if found is None:
        return None
    return tuple(sorted(_words(found.group(1))[0])) or None


def titles_apart(a: str, b: str) -> bool:
    """Both locations give a title in quotes, and the titles' words differ."""
    ta, tb = meeting_title(a), meeting_title(b)
    return ta is not None and tb is not None and ta != tb


__all__ = ["meeting_title", "titles_apart"]
