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


def _firsts(words: list[str]) -> frozenset[str] | None:
    """The first tokens of a list's phrases; ``None`` when a phrase starts with no word (an emoji).

    A phrase matches only where its first token is a token of the text (a one-word phrase also
    with a plural "s" is no concern: the pattern has none), so a text none of whose tokens is
    among them holds no phrase of the list: a set test before the regular expression.
    """
    out = set()
    for w in words:
        m = _RE_TOKEN.match(fold(w))
        if m is None:
            return None
        out.add(m.group(0))
    return frozenset(out)


@dataclass(frozen=True, eq=False)  # hashed by identity: loaded once, used as a cache key
class Cues:
    version: int
    phrases: dict[str, re.Pattern[str]]
    place_stops: frozenset[str]
    not_places: frozenset[str]
    activities: tuple[str, ...]
    firsts: dict[str, frozenset[str] | None]

    def has(self, kind: str, text: str) -> bool:
        """Does ``text`` (already :func:`fold`-ed) hold a phrase of ``kind``?"""
        return self.phrases[kind].search(text) is not None

    def kinds_in(self, text: str) -> frozenset[str]:
        """The kinds of :data:`PHRASE_KINDS` whose phrases ``text`` (folded) holds."""
        tokens = set(_RE_TOKEN.findall(text))
        return frozenset(k for k, first in self.firsts.items()
                         if (first is None or not tokens.isdisjoint(first)) and self.phrases[k].search(text))

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
    firsts = {kind: _firsts(f.words(kind)) for kind in PHRASE_KINDS}
    return Cues(f.version, phrases, frozenset(f.place_stops), frozenset(f.not_places), tuple(f.activities), firsts)


@lru_cache(maxsize=1)
def _detector() -> StepDetector:
    from proevent.agents.rules.detect import StepDetector  # it reads with the agent, which reads the cues

    return StepDetector()


def needs_attention(obs: Observation) -> bool:
    """Does the step need the model? :class:`proevent.agents.rules.detect.StepDetector`, one per
    process (its chats' state is keyed by case, mode, repeat and chat and checked against each
    step's context, so steps of several runs can share it)."""
    return _detector()(obs)
