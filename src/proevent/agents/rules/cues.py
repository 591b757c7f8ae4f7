"""Cue phrases (package data ``data/cues.json``) and the step detector ``gated`` uses."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict

from proevent.agents.protocol import Observation
from proevent.agents.timecalc import find_dates, find_times
from proevent.model import parse_time


class CueFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    version: int
    proposal: list[str]
    agreement: list[str]
    change: list[str]
    cancel: list[str]
    hedge: list[str]
    location_prefixes: list[str]
    location_stops: list[str]
    activities: list[str]


def _pattern(words: list[str]) -> re.Pattern[str]:
    alts = "|".join(re.escape(w).replace("'", "['’]") for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w']){'(?:' + alts + ')'}(?![\w'])", re.I)


@dataclass(frozen=True)
class Cues:
    version: int
    proposal: re.Pattern[str]
    agreement: re.Pattern[str]
    change: re.Pattern[str]
    cancel: re.Pattern[str]
    hedge: re.Pattern[str]
    activities: list[str]
    location_stops: frozenset[str]


@lru_cache(maxsize=1)
def load_cues() -> Cues:
    text = resources.files("proevent.agents.rules").joinpath("data/cues.json").read_text(encoding="utf-8")
    f = CueFile.model_validate(json.loads(text))
    return Cues(f.version, _pattern(f.proposal), _pattern(f.agreement), _pattern(f.change), _pattern(f.cancel),
                _pattern(f.hedge), f.activities, frozenset(f.location_stops))


def needs_attention(obs: Observation) -> bool:
    """Does any new message of the step look like scheduling (a date, a time, or a cue phrase)?

    Deliberately generous: ``gated`` skips the model only where this says no, so a miss here is a
    missed need, while a false alarm only costs one request.
    """
    cues = load_cues()
    for msg in obs.new_messages:
        text = msg.text
        if cues.cancel.search(text) or cues.change.search(text) or cues.proposal.search(text):
            return True
        if find_times(text) or find_dates(text, parse_time(msg.time)):
            return True
    return False
