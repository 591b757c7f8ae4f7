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

from proevent.evaluate import gazetteer
from proevent.evaluate.aliases import TOKEN
from proevent.evaluate.placeparse import _BIND, _HOME_MARK, _MODIFIERS, _PLACE_KINDS, Parsed

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




def chain_store(parsed: Parsed, other: Parsed, chain_length: Callable[[Words], int],
                same_branch: Callable[[Words, Words], bool]) -> Parsed:
    """A head that is a chain's name with one word before or after it, read as the chain's name alone, when
    ``other``'s head holds that name too and both sides pick the same branch by a qualifier (a street): the word
    is the store's format ("Tesco Extra") or says which store ("the big Tesco"), and the street picks it ("the big
    tesco on Purley Way" / "Tesco Extra, Purley Way"). The word must be no kind of place, city or number (a
    "Tesco Express" is a store of another kind; "Hilton Garden Inn" another hotel). ``parsed`` when not."""
    head = parsed.parts[0]
    if len(head) < 2 or len(parsed.parts) < 2 or len(other.parts) < 2:
        return parsed
    for name, extra in ((head[:-1], head[-1]), (head[1:], head[0])):
        if not extra.isalpha() or extra in _PLACE_KINDS or not set(name) <= set(other.parts[0]) \
                or chain_length(name) != len(name) or gazetteer.is_place_name(extra):
            continue
        if extra in _MODIFIERS and any(w in _MODIFIERS and w != extra for w in other.parts[0]):
            continue  # "the big Asda" and "the little Asda" on one street are two stores
        if any(same_branch(q, r) for q in parsed.parts[1:] for r in other.parts[1:]):
            return parsed._replace(parts=(name, *parsed.parts[1:]), flat=name + tuple(
                w for p in parsed.parts[1:] for w in p))
    return parsed


def chain_named(parsed: Parsed, other: Parsed, is_chain: Callable[[Words], bool]) -> Parsed:
    """A venue's own name followed by its chain's as a part of its own ("The Rose and Crown (Wetherspoons), High
    Street") read as the chain with the venue's name as a qualifier: a branch of the chain, picked by that name
    and by the rest ("spoons on high st" names it by the same street; a bare "Wetherspoons" is any branch, and so
    another place). ``parsed`` when its second part is no chain's name alone, or its first is one. (``other`` plays
    no part.)"""
    if len(parsed.parts) < 2 or is_chain(parsed.parts[0]) or not is_chain(parsed.parts[1]) \
            or any(_BIND in w for w in parsed.parts[0]):
        return parsed
    parts = (parsed.parts[1], parsed.parts[0], *parsed.parts[2:])
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)


__all__ = ["ChainIndex", "chain_named", "chain_store", "odd"]
