"""Which chain names a location's head starts with, asking :func:`~proevent.evaluate.places.words_match`
only where it can hold.

The ``places`` judge asks, for every head it reads, whether its first words spell one of some two
hundred chain names (:func:`~proevent.evaluate.places._chain`, :func:`~proevent.evaluate.places._branch_apart`):
a third of the judge's time at 10,000 cases went to comparing each head with every name. Two
word lists of one length match (``words_match``) only when their letters run together are equal,
or when every word of one pairs with a word of the other; and ``word_match`` pairs two words only
when they start with the same letter, unless one is an *odd* word (:func:`odd`): a known place's
token, an owner's home, a labelled word. So a chain none of whose plain words' first letters
appears among the head's first letters (and with other letters run together) cannot match, and
is not asked: the same answers, in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from proevent.evaluate.aliases import TOKEN
from proevent.evaluate.placeparse import _BIND, _HOME_MARK

Words = tuple[str, ...]


def odd(word: str) -> bool:
    """A word ``word_match`` may pair with a word of another first letter (or an empty one): a known
    place's token (``@...``), an owner's home (``...'``), a label bound to its number (``room_12``)."""
    return not word or word[0] == TOKEN or word.endswith(_HOME_MARK) or _BIND in word


class ChainIndex:
    """Chain names (word tuples, in the order given), each with its letters run together and the
    first letters of its plain words."""

    def __init__(self, chains: tuple[Words, ...], words_match: Callable[[Words, Words], bool]) -> None:
        self._match = words_match
        self._chains = [(c, "".join(c), frozenset(w[0] for w in c if not odd(w))) for c in chains]

    def starting(self, head: Words, *, longer: bool = False) -> Iterator[int]:
        """The length of every chain name that ``words_match`` the first words of ``head`` (with
        ``longer``: only names shorter than the head), in the chains' order."""
        n = len(head)
        joined, firsts, odd_at = [""], [frozenset()], [False]  # per prefix length k: head[:k]'s
        for w in head:
            joined.append(joined[-1] + w)
            firsts.append(firsts[-1] | {w[:1]})
            odd_at.append(odd_at[-1] or odd(w))
        match = self._match
        for c, letters, needed in self._chains:
            k = len(c)
            if k > n or (longer and k == n):
                continue
            if (odd_at[k] or needed <= firsts[k] or letters == joined[k]) and match(c, head[:k]):
                yield k


__all__ = ["ChainIndex", "odd"]
