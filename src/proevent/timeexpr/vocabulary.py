"""The words of dates and times, loaded once from ``data/vocabulary.json``.

Everything a reader or a renderer needs to know about English date and time words lives in that
file (weekday and month names and their abbreviations, relative-day words, parts of the day with
their hours, number words, approximate markers, correction markers, the words that show a number
is a count, a price or an address rather than a clock time); this module only turns it into the
typed :class:`Vocabulary` and the regular-expression alternations built from it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

FORMAT = "proevent-timeexpr-vocabulary/1"


@dataclass(frozen=True)
class Vocabulary:
    """The vocabulary file, typed. Hours are ``(first, end)`` with ``end`` exclusive (24 = midnight)."""

    weekdays: tuple[str, ...]
    weekday_abbreviations: dict[str, int]
    weekday_casual: tuple[str, ...]
    months: tuple[str, ...]
    month_abbreviations: dict[str, int]
    relative_days: dict[str, int]
    """The relative-day words the candidate reader (:mod:`~proevent.timeexpr.spans`) knows."""
    more_relative_days: dict[str, int]
    """Further spellings only :func:`~proevent.timeexpr.read` knows (kept apart: the agents' reading is fixed)."""
    weekend_words: tuple[str, ...]
    weekend: tuple[int, int]
    weekend_modifiers: dict[str, str]
    """The words before a weekend word that name one ("the weekend": ``"this"``, "next weekend": ``"next"``)."""
    parts_of_day: dict[str, tuple[int, int]]
    """Canonical part of the day ("morning") -> its hours."""
    part_words: dict[str, str]
    """Every word for a part of the day ("arvo") -> its canonical name ("afternoon")."""
    parts_after_day_only: frozenset[str]
    day_part_words: dict[str, str]
    activity_hours: dict[str, tuple[int, int]]
    number_words: dict[str, int]
    article_numbers: dict[str, int]
    duration_units: dict[str, int]
    duration_modifiers: tuple[str, ...]
    """Words between a number and its unit ("an extra hour", "2 more hours", "a full hour")."""
    whole_day: tuple[str, ...]
    """Phrases that are a duration of one day ("all day")."""
    not_duration_followers: tuple[str, ...]
    approximate_before: tuple[str, ...]
    approximate_after: tuple[str, ...]
    correction_markers: tuple[str, ...]
    contrast_words: tuple[str, ...]
    time_after_of: tuple[str, ...]
    """Phrases after which a number is a time, not a count ("any chance of 8", "instead of 7")."""
    proposal_before: tuple[str, ...]
    agreement_after: tuple[str, ...]
    relay_before: tuple[str, ...]
    """Verbs that relay someone's time ("mom says 11")."""
    time_labels: tuple[str, ...]
    """Labels a clock time follows after a colon or dash ("time: 8", "doors - 7")."""
    relation_words: dict[str, int]
    relation_intensifiers: tuple[str, ...]
    bare_anchors: tuple[str, ...]
    anchor_determiners: tuple[str, ...]
    anchor_stops: frozenset[str]
    non_time_followers: tuple[str, ...]
    street_words_lowercase_ok: tuple[str, ...]
    street_words_capitalised: tuple[str, ...]
    count_before: tuple[str, ...]

    def weekday_number(self, name: str) -> int:
        """0 for "monday"/"mon", ... 6 for "sunday"/"sun"."""
        low = name.lower().rstrip(".")
        return self.weekdays.index(low) if low in self.weekdays else self.weekday_abbreviations[low]

    def month_number(self, name: str) -> int:
        """1 for "january"/"jan", ... 12; "sept" is September."""
        low = name.lower().rstrip(".")
        return self.months.index(low) + 1 if low in self.months else self.month_abbreviations[low]

    def day_offset(self, word: str) -> int:
        """Days from the send time of a relative-day word ("tmrw": 1), either list."""
        return {**self.relative_days, **self.more_relative_days}[word]


def _hours(pair: list[int]) -> tuple[int, int]:
    first, end = int(pair[0]), int(pair[1])
    if not 0 <= first < end <= 24:
        raise ValueError(f"vocabulary.json: bad hour range {pair}")
    return first, end


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The package's vocabulary (read once)."""
    raw = json.loads(resources.files("proevent.timeexpr").joinpath("data/vocabulary.json").read_text("utf-8"))
    if raw.get("format") != FORMAT:
        raise ValueError(f"vocabulary.json: format {raw.get('format')!r}, expected {FORMAT!r}")
    weekdays = tuple(w["name"] for w in raw["weekdays"])
    first, last = raw["weekend"]["first"], raw["weekend"]["last"]
    parts = raw["parts_of_day"]
    return Vocabulary(
        weekdays=weekdays,
        weekday_abbreviations={a: i for i, w in enumerate(raw["weekdays"]) for a in w["abbreviations"]},
        weekday_casual=tuple(w["casual"] for w in raw["weekdays"]),
        months=tuple(m["name"] for m in raw["months"]),
        month_abbreviations={a: i + 1 for i, m in enumerate(raw["months"]) for a in m["abbreviations"]},
        relative_days={k: int(v) for k, v in raw["relative_days"].items()},
        more_relative_days={k: int(v) for k, v in raw["more_relative_days"].items()},
        weekend_words=tuple(raw["weekend_words"]),
        weekend=(weekdays.index(first), weekdays.index(last)),
        weekend_modifiers=dict(raw["weekend_modifiers"]),
        parts_of_day={k: _hours(v["hours"]) for k, v in parts.items()},
        part_words={w: k for k, v in parts.items() for w in v["words"]},
        parts_after_day_only=frozenset(raw["parts_after_day_only"]),
        day_part_words=dict(raw["day_part_words"]),
        activity_hours={k: _hours(v) for k, v in raw["activity_hours"].items()},
        number_words={k: int(v) for k, v in raw["number_words"].items()},
        article_numbers={k: int(v) for k, v in raw["article_numbers"].items()},
        duration_units={k: int(v) for k, v in raw["duration_units"].items()},
        duration_modifiers=tuple(raw["duration_modifiers"]),
        whole_day=tuple(raw["whole_day"]),
        not_duration_followers=tuple(raw["not_duration_followers"]),
        approximate_before=tuple(raw["approximate_markers"]["before"]),
        approximate_after=tuple(raw["approximate_markers"]["after"]),
        correction_markers=tuple(raw["correction_markers"]),
        contrast_words=tuple(raw["contrast_words"]),
        time_after_of=tuple(raw["time_after_of"]),
        proposal_before=tuple(raw["proposal_before"]),
        agreement_after=tuple(raw["agreement_after"]),
        relay_before=tuple(raw["relay_before"]),
        time_labels=tuple(raw["time_labels"]),
        relation_words={k: int(v) for k, v in raw["relation_words"].items()},
        relation_intensifiers=tuple(raw["relation_intensifiers"]),
        bare_anchors=tuple(raw["bare_anchors"]),
        anchor_determiners=tuple(raw["anchor_determiners"]),
        anchor_stops=frozenset(raw["anchor_stops"]),
        non_time_followers=tuple(raw["non_time_followers"]),
        street_words_lowercase_ok=tuple(raw["street_words"]["lowercase_ok"]),
        street_words_capitalised=tuple(raw["street_words"]["capitalised_only"]),
        count_before=tuple(raw["count_before"]),
    )


_RE_DIGIT = re.compile(r"\d")
_RE_LETTERS = re.compile(r"[a-z]+")
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


_RE_DIGIT_H = re.compile(r"\d[hH]")
_NOT_A_LENGTH = r"(?<![\w:.£$€])(?<!for )(?<!in )(?<!of )(?<!takes )(?<!take )(?<!took )"
"""Before a clock written with "h": nothing glued to it, and not "for", "in", "of", "takes" (a length)."""
_RE_H_CLOCK = re.compile(rf"{_NOT_A_LENGTH}([7-9]|1\d|2[0-3])h(\d\d)?(?![\w:])", re.I)
"""A clock written with "h" and minutes ("18h30", "7h45"): the form of much of Europe and Latin
America. Not "1h30" (a length: from 7h on only)."""
RE_H24 = re.compile(rf"{_NOT_A_LENGTH}(1[3-9]|2[0-3])\s?h(?![\w:])", re.I)
"""A whole hour of the 24-hour clock written with "h" ("15h?", "15h fechado", "at 20 h"): 13h-23h
are clock times, not lengths (those are "2h", "9h", or follow "for", "in", "of", "takes").
:mod:`~proevent.timeexpr.spans` reads it as a clock, :mod:`~proevent.timeexpr.durations` skips it."""
_RE_H_MORNING = re.compile(
    r"(?:(?<=\bat )|(?<=@ )|(?<=@)|(?<=\bfrom )|(?<=\btill )|(?<=\buntil )|(?<=\bàs )|(?<=\bas )"
    r"|(?<![\w:.£$€])(?=(?:[7-9]|1[0-2])\s?h\s+(?:in\s+the\s+(?:morning|evening)|this\s+morning|tonight)\b))"
    r"([7-9]|1[0-2])\s?h(?![\w:])", re.I)
_RE_H_ALONE = re.compile(r"^\W*(?:[^\W\d]+\W+){0,2}(?<!\ba )(?<!\ban )(?<!\bis )(?<!\bwas )(?<!\blasts )"
                         rf"{_NOT_A_LENGTH}([7-9]|1[0-2])\s?h(?![\w:])\W*(?:[^\W\d]+\W*){{0,2}}$", re.I)


def h_clocks(text: str) -> list[tuple[int, int, int]]:
    """The whole hours written with "h" that are clock times, as ``(start, end, hour)``: 13h-23h
    (:data:`RE_H24`); 7h-12h after "at", "from", "till" or "às", before "in the morning" or "tonight"
    ("got us 10h in the morning"), or as the only number of a short message ("fechou, 10h") -- else
    "9h" is a length ("a 9h flight")."""
    if "h" not in text and "H" not in text:
        return []
    found = [(m.start(), m.end(), int(m.group(1))) for m in RE_H24.finditer(text)]
    found += [(m.start(1), m.end(), int(m.group(1))) for m in _RE_H_MORNING.finditer(text)]
    alone = _RE_H_ALONE.match(text)
    if alone is not None and sum(ch.isdigit() for ch in text) <= 2:
        end = alone.end(1) + text[alone.end(1):].lower().index("h") + 1
        found.append((alone.start(1), end, int(alone.group(1))))
    return sorted(set(found))


def fold(text: str) -> str:
    """``text`` with the four non-ASCII letters that case-insensitive patterns match as ASCII ones
    ("ſ" as "s", the Kelvin sign as "k", dotted and dotless "i") written as those, one character
    for one (offsets stay): what a pattern matches is then always a vocabulary word; and a clock
    written with "h" and minutes as one with a colon ("18h30" as "18:30"), again one character for
    one ("19h" stays, read as a whole hour of the 24-hour clock by :mod:`proevent.timeexpr.spans`)."""
    if ("h" in text or "H" in text) and _RE_DIGIT_H.search(text):
        text = _RE_H_CLOCK.sub(_h_clock, text)
    return text if text.isascii() else text.translate(_FOLD)


def _h_clock(m: re.Match[str]) -> str:
    hour, minutes = m.group(1), m.group(2)
    if minutes is not None:
        return f"{hour}:{minutes}"
    return m.group(0)  # "17h" stays: RE_H24 reads it ("15h?", "15h fechado")


@lru_cache(maxsize=4096)
def tokens(text: str) -> frozenset[str]:
    """The lower-case letter runs of ``text``: a cheap test of whether a pattern can match at all."""
    return frozenset(_RE_LETTERS.findall(text.lower()))


def first_words(phrases: object) -> frozenset[str]:
    """The first letter run of each phrase ("this morning" -> "this"), for :func:`tokens` tests."""
    return frozenset(m.group(0) for p in phrases if (m := re.search(r"[a-z]+", str(p).lower())))  # type: ignore[union-attr]


def alternation(words: object) -> str:
    """A regex alternation of ``words`` (escaped, longest first, so a longer word wins)."""
    unique = list(dict.fromkeys(str(w) for w in words))  # type: ignore[union-attr]
    return "|".join(re.escape(w) for w in sorted(unique, key=len, reverse=True))
