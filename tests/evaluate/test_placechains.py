"""The chain-name index asks ``words_match`` only where it can hold, and so finds what asking it of
every chain name finds, in the same order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.evaluate import gazetteer, places
from proevent.evaluate.placechains import ChainIndex, odd
from proevent.evaluate.placeparse import _words, parse

DATA = Path(places.__file__).parent / "data"
CHAINS = tuple({_words(name)[0] for name in gazetteer.chain_names()})
INDEX = ChainIndex(CHAINS, places.words_match)


def naive(head: tuple[str, ...], longer: bool) -> list[int]:
    """Every chain name asked (what ``_chain`` and ``_branch_apart`` did before the index)."""
    return [len(c) for c in CHAINS if (len(head) > len(c) if longer else len(head) >= len(c))
            and places.words_match(c, head[: len(c)])]


def heads() -> list[tuple[str, ...]]:
    """The heads of every location of the judge's pair sets, and of every chain name."""
    out = set()
    for path in sorted(DATA.glob("location_pairs*.jsonl")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.strip():
                pair = json.loads(raw)
                for key in ("gold", "pred"):
                    if isinstance(pair.get(key), str):
                        for part in parse(pair[key]).parts:
                            out.add(part)
    return sorted(out | set(CHAINS))


HEADS = heads()


def test_there_is_something_to_compare() -> None:
    assert len(CHAINS) > 100 and len(HEADS) > 1000
    assert sum(bool(naive(h, False)) for h in HEADS) > 50  # heads that do name a chain


@pytest.mark.parametrize("longer", [False, True])
def test_every_head_of_the_pair_sets_finds_the_same_chains(longer: bool) -> None:
    for head in HEADS:
        assert list(INDEX.starting(head, longer=longer)) == naive(head, longer), head


words = st.sampled_from(sorted({w for c in CHAINS for w in c} | {w for h in HEADS[:400] for w in h}))
typo = st.tuples(words, st.integers(0, 8), st.sampled_from("aeiosx@'_")).map(
    lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1:])


@settings(max_examples=400, deadline=None)
@given(st.lists(words | typo, min_size=1, max_size=5), st.booleans())
def test_made_up_heads_find_the_same_chains(head: list[str], longer: bool) -> None:
    assert list(INDEX.starting(tuple(head), longer=longer)) == naive(tuple(head), longer)


@settings(max_examples=600, deadline=None)
@given(words | typo, words | typo, st.booleans())
def test_two_words_pair_only_with_one_first_letter_unless_one_is_odd(x: str, y: str, pinned: bool) -> None:
    """The fact the index rests on (``word_match``'s every path but an odd word's keeps the first letter)."""
    if places.word_match(x, y, pinned):
        assert odd(x) or odd(y) or x[0] == y[0]
