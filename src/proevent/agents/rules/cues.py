"""Cue phrases (package data ``data/cues.json``) and the step detector ``gated`` uses."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict

from proevent.agents.protocol import Observation
from proevent.model import parse_time
from proevent.timeexpr import find_dates, find_times

PHRASE_KINDS = (
    "proposal", "agreement", "reject", "defer", "change", "cancel", "cancel_implicit", "abandon", "dropout",
    "remove_person", "add_person", "drop_time", "drop_place", "link_time", "link_place", "link_people", "hedge",
    "undecided", "narration", "neutral",
)
"""The cue lists matched as phrases (each a list of words or phrases in ``cues.json``)."""


class CueFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    version: int
    proposal: list[str]
    agreement: list[str]
    reject: list[str]
    defer: list[str]
    change: list[str]
    cancel: list[str]
    cancel_implicit: list[str]
    abandon: list[str]
    dropout: list[str]
    remove_person: list[str]
    add_person: list[str]
    drop_time: list[str]
    drop_place: list[str]
    link_time: list[str]
    link_place: list[str]
    link_people: list[str]
    hedge: list[str]
    undecided: list[str]
    narration: list[str]
    neutral: list[str]
    location_stops: list[str]
    activities: list[str]
    strong_place_patterns: list[str]
    place_patterns: list[str]
    echo_patterns: list[str]
    place_trailers: list[str]
    place_leaders: list[str]
    place_openers: list[str]
    person_patterns: list[str]


def _pattern(words: list[str]) -> re.Pattern[str]:
    alts = "|".join(re.escape(w).replace("'", "['’]") for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w']){'(?:' + alts + ')'}(?![\w'])", re.I)


@dataclass(frozen=True, eq=False)  # hashed by identity: loaded once, used as a cache key
class Cues:
    version: int
    phrases: dict[str, re.Pattern[str]]
    activities: list[str]
    location_stops: frozenset[str]
    strong_place_patterns: list[re.Pattern[str]]
    place_patterns: list[re.Pattern[str]]
    echo_patterns: list[re.Pattern[str]]
    place_trailers: frozenset[str]
    place_leaders: frozenset[str]
    place_openers: frozenset[str]
    person_patterns: list[re.Pattern[str]]

    def has(self, kind: str, text: str) -> bool:
        return _has(self, kind, text)

    # the names the v2 agent used, kept for the step detector and old callers
    @property
    def proposal(self) -> re.Pattern[str]:
        return self.phrases["proposal"]

    @property
    def change(self) -> re.Pattern[str]:
        return self.phrases["change"]

    @property
    def cancel(self) -> re.Pattern[str]:
        return self.phrases["cancel"]


@lru_cache(maxsize=262144)
def _has(cues: Cues, kind: str, text: str) -> bool:
    return cues.phrases[kind].search(text) is not None


@lru_cache(maxsize=1)
def load_cues() -> Cues:
    text = resources.files("proevent.agents.rules").joinpath("data/cues.json").read_text(encoding="utf-8")
    f = CueFile.model_validate(json.loads(text))
    phrases = {kind: _pattern(getattr(f, kind)) for kind in PHRASE_KINDS}
    return Cues(
        f.version, phrases, f.activities, frozenset(f.location_stops),
        [re.compile(p) for p in f.strong_place_patterns], [re.compile(p) for p in f.place_patterns],
        [re.compile(p) for p in f.echo_patterns],
        frozenset(f.place_trailers), frozenset(f.place_leaders), frozenset(f.place_openers),
        [re.compile(p) for p in f.person_patterns],
    )


def needs_attention(obs: Observation) -> bool:
    """Does any new message of the step look like scheduling (a date, a time, or a cue phrase)?

    Deliberately generous: ``gated`` skips the model only where this says no, so a miss here is a
    missed need, while a false alarm only costs one request.
    """
    cues = load_cues()
    kinds = ("cancel", "cancel_implicit", "change", "proposal", "dropout", "remove_person", "add_person",
             "drop_time", "drop_place", "link_time", "link_place", "link_people")
    for msg in obs.new_messages:
        text = msg.text
        if any(cues.has(k, text) for k in kinds):
            return True
        if find_times(text) or find_dates(text, parse_time(msg.time)):
            return True
    return False
