"""The word lists of the ``rules`` agent (package data ``data/cues.json``); ``needs_attention``, the step
detector ``gated`` uses (:mod:`proevent.agents.rules.detect`).

Every list is a field of :class:`CueFile` (``extra="forbid"``: a key nobody reads is an error, not
a silently dead list). The lists are general English, each named for what its words do in a chat
(agreeing, declining, hedging, asking, changing, cancelling, ...); :mod:`reading` combines them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from proevent.agents.protocol import Observation

if TYPE_CHECKING:
    from proevent.agents.rules.detect import StepDetector

PHRASE_KINDS = (
    "agree", "decline", "hedge", "ask", "change", "cancel", "dropout", "join", "remind", "late", "confirmed",
    "failed", "request", "others", "reason", "self", "service_names", "video_calls",
)
"""The lists matched as phrases (a word or a few words, on word boundaries)."""


class CueFile(BaseModel):
    """The schema of ``cues.json``: every key is read, none may be added unnoticed."""

    model_config = ConfigDict(extra="forbid")
    comment: str = Field(alias="_comment")
    version: int
    agree: list[str]
    decline: list[str]
    hedge: list[str]
    ask: list[str]
    change: list[str]
    cancel: list[str]
    dropout: list[str]
    join: list[str]
    remind: list[str]
    late: list[str]
    confirmed: list[str]
    failed: list[str]
    request: list[str]
    others: list[str]
    reason: list[str]
    self_: list[str] = Field(alias="self")
    service_names: list[str]
    video_calls: list[str]
    place_stops: list[str]
    not_places: list[str]
    activities: list[str]

    def words(self, kind: str) -> list[str]:
        return list(getattr(self, "self_" if kind == "self" else kind))


_RE_ELONGATED = re.compile(r"([a-z])\1{2,}", re.I)
_RE_TRIPLE = re.compile("|".join(c * 3 for c in "abcdefghijklmnopqrstuvwxyz"))
"""A letter three times: in ASCII lower-case text, where :data:`_RE_ELONGATED` can match (a faster test)."""


def fold(text: str) -> str:
    """Lower case, curly apostrophes straight, elongations folded ("yesss" -> "yes", "noooo" -> "no")."""
    low = text.lower().replace("’", "'")
    if low.isascii() and not _RE_TRIPLE.search(low):
        return low
    return _RE_ELONGATED.sub(r"\1", low)


def _pattern(words: list[str]) -> re.Pattern[str]:
    alts = "|".join(re.escape(fold(w)) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w']){'(?:' + alts + ')'}(?![\w'])")


_RE_TOKEN = re.compile(r"[\w']+")


def tokens_of(folded: str) -> frozenset[str]:
    """The tokens of a folded text (runs of letters, digits and apostrophes): a phrase matched on the
    boundaries of :func:`_pattern` holds only whole tokens, so a set test on them rules patterns out."""
    return frozenset(_RE_TOKEN.findall(folded))


@dataclass(frozen=True, eq=False)
class TokenIndex:
    """Which kinds a text's tokens may hold, found by set tests so that few patterns are searched.

    Two facts about a phrase matched on word boundaries that count the apostrophe as a letter
    (:func:`_pattern`): each of its tokens (runs of letters, digits, apostrophes) is then a whole
    token of the text; and a phrase that is one token matches exactly where it is a token of the
    text. So a kind is found at once when a text token is one of its one-token phrases, and its
    pattern of the other phrases (``rest``) is searched only when every token of one of them is a
    text token (both looked up in ``by_token``; a phrase of several tokens is listed under its
    longest) or the kind has phrases without a token ("👍", ``bare``: these need a non-ASCII text
    when ``bare_ascii_free``).
    """

    by_token: dict[str, tuple[tuple[str, ...], tuple[tuple[str, frozenset[str]], ...]]]
    """Token -> (the kinds that have it as a one-token phrase, and per other phrase that holds it,
    its kind and all its tokens)."""
    bare: tuple[str, ...]
    """The kinds with a phrase that holds no token."""
    bare_ascii_free: bool
    """Every phrase without a token has a non-ASCII character (an ASCII text holds none of them)."""
    rest: dict[str, re.Pattern[str]]
    """Per kind, the pattern of its phrases that are not one token (none when it has none)."""

    def kinds_in(self, text: str, tokens: frozenset[str] | set[str] | None = None) -> frozenset[str]:
        """The kinds ``text`` holds a phrase of; ``tokens``: its tokens, if the caller has them."""
        if tokens is None:
            tokens = set(_RE_TOKEN.findall(text))
        found: set[str] = set()
        maybe: set[str] = set()
        by_token = self.by_token
        for token in by_token.keys() & tokens:  # the text's tokens that open or are a phrase
            singles, needs = by_token[token]
            found.update(singles)
            for kind, need in needs:
                if need <= tokens:
                    maybe.add(kind)
        if self.bare and not (self.bare_ascii_free and text.isascii()):
            maybe.update(self.bare)
        for kind in maybe - found:
            if self.rest[kind].search(text):
                found.add(kind)
        return frozenset(found)


def token_index(lists: dict[str, list[str]]) -> TokenIndex:
    """The :class:`TokenIndex` of the phrase lists (kind -> phrases as written in the cue file)."""
    singles: dict[str, list[str]] = {}
    needs: dict[str, list[tuple[str, frozenset[str]]]] = {}
    bare: list[str] = []
    bare_phrases: list[str] = []
    rest: dict[str, re.Pattern[str]] = {}
    for kind, words in lists.items():
        others = []
        for word in words:
            folded = fold(word)
            if _RE_TOKEN.fullmatch(folded):
                singles.setdefault(folded, []).append(kind)
                continue
            others.append(word)
            toks = _RE_TOKEN.findall(folded)
            if not toks:
                bare_phrases.append(folded)
                if kind not in bare:
                    bare.append(kind)
                continue
            key = max(toks, key=len)  # any of its tokens would do; a long one is rarer
            needs.setdefault(key, []).append((kind, frozenset(toks)))
        if others:
            rest[kind] = _pattern(others)
    by_token = {token: (tuple(singles.get(token, ())), tuple(needs.get(token, ()))) for token in {*singles, *needs}}
    return TokenIndex(by_token, tuple(bare), all(not p.isascii() for p in bare_phrases), rest)


@dataclass(frozen=True, eq=False)  # hashed by identity: loaded once, used as a cache key
class Cues:
    version: int
    phrases: dict[str, re.Pattern[str]]
    place_stops: frozenset[str]
    not_places: frozenset[str]
    activities: tuple[str, ...]
    index: TokenIndex

    def has(self, kind: str, text: str) -> bool:
        """Does ``text`` (already :func:`fold`-ed) hold a phrase of ``kind``?"""
        return self.phrases[kind].search(text) is not None

    def kinds_in(self, text: str, tokens: frozenset[str] | None = None) -> frozenset[str]:
        """The kinds of :data:`PHRASE_KINDS` whose phrases ``text`` (folded) holds (what a search
        of each kind's pattern finds; :class:`TokenIndex` searches few of them). ``tokens``: the
        text's tokens (:func:`tokens_of`), when the caller has them."""
        return self.index.kinds_in(text, tokens)

    def find(self, kind: str, text: str) -> list[re.Match[str]]:
        return list(self.phrases[kind].finditer(text))


def load_cue_file(text: str) -> CueFile:
    """Validate the text of a cue file (raises :class:`pydantic.ValidationError`)."""
    return CueFile.model_validate(json.loads(text))


@lru_cache(maxsize=1)
def load_cues() -> Cues:
    text = resources.files("proevent.agents.rules").joinpath("data/cues.json").read_text(encoding="utf-8")
    f = load_cue_file(text)
    phrases = {kind: _pattern(f.words(kind)) for kind in PHRASE_KINDS}
    return Cues(f.version, phrases, frozenset(f.place_stops), frozenset(f.not_places), tuple(f.activities),
                token_index({kind: f.words(kind) for kind in PHRASE_KINDS}))


@lru_cache(maxsize=1)
def _detector() -> StepDetector:
    from proevent.agents.rules.detect import StepDetector  # it reads with the agent, which reads the cues

    return StepDetector()


def needs_attention(obs: Observation) -> bool:
    """Does the step need the model? :class:`proevent.agents.rules.detect.StepDetector`, one per
    process (its chats' state is keyed by case, mode, repeat and chat and checked against each
    step's context, so steps of several runs can share it)."""
    return _detector()(obs)
