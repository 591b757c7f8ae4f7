"""Canonical forms for scoring (metrics spec, "Attribute equality")."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_APOSTROPHES = {"'", "\u2019", "\u02bc"}


@lru_cache(maxsize=65536)
def canonical_name(name: str) -> str:
    """NFKC, casefold, white space collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@lru_cache(maxsize=65536)
def normalize_location(location: str) -> str:
    """NFKD without combining marks, casefold, apostrophes dropped, other P/S characters made spaces,
    white space collapsed, a leading "the " dropped."""
    decomposed = unicodedata.normalize("NFKD", location)
    chars = []
    for ch in decomposed.casefold():
        if ch in _APOSTROPHES:
            continue
        cat = unicodedata.category(ch)
        if cat[0] == "M":
            continue
        chars.append(" " if cat[0] in "PS" else ch)
    text = " ".join("".join(chars).split())
    return text[4:] if text.startswith("the ") else text


class People:
    """The people of a case (the user and its chats' members), for name canonicalisation.

    A name stands for a person when, canonicalised, it is the first word of exactly one person.
    """

    __slots__ = ("_first", "_sets")

    def __init__(self, people: Iterable[str]) -> None:
        by_first: dict[str, set[str]] = {}
        for person in people:
            full = canonical_name(person)
            if full:
                by_first.setdefault(full.split(" ")[0], set()).add(full)
        self._first = {first: next(iter(fulls)) for first, fulls in by_first.items() if len(fulls) == 1}
        self._sets: dict[tuple[str, ...], frozenset[str]] = {}
        """:meth:`canonical_set` by names: a case's events repeat a few lists of participants through
        every step (an event changed in its time keeps them)."""

    def canonical(self, name: str) -> str:
        c = canonical_name(name)
        return self._first.get(c, c)

    def canonical_set(self, names: Iterable[str]) -> frozenset[str]:
        key = tuple(names)
        found = self._sets.get(key)
        if found is None:
            found = self._sets[key] = frozenset(self.canonical(n) for n in key)
        return found
