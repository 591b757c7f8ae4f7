"""What the realism report reads in one message: words, word 4-grams, emoji, clock times given as a bare number.

Kept apart from :mod:`proevent.generate.realism` so that each rule is stated once, next to its code,
and can be tested on single strings.
"""

from __future__ import annotations

import re
from datetime import datetime

import regex

from proevent.timeexpr import date_spans, time_spans

_WORD_EDGE = re.compile(r"^[^\w]+|[^\w]+$")
_HAS_ALNUM = re.compile(r"[^\W_]")


def words(text: str) -> list[str]:
    """The words of a message: its whitespace-separated pieces that hold a letter or digit, with
    punctuation stripped from both ends. "ok 👍" has one word, "👍" none, "12:30 works?" two."""
    out: list[str] = []
    for piece in text.split():
        if _HAS_ALNUM.search(piece):
            out.append(_WORD_EDGE.sub("", piece))
    return out


def four_grams(text: str) -> set[str]:
    """The distinct lower-cased word 4-grams of a message (the words of :func:`words`, joined by a space)."""
    w = [x.lower() for x in words(text)]
    return {" ".join(w[i:i + 4]) for i in range(len(w) - 3)}


_EMOJI = regex.compile(r"(?![©®™])[\p{Extended_Pictographic}\p{Regional_Indicator}]")
"""``regex`` (a dependency of dateparser, hence always installed) knows the Unicode emoji properties."""


def has_emoji(text: str) -> bool:
    """True when the message holds an emoji: a character with the Unicode property
    Extended_Pictographic (©, ® and ™ excepted) or a regional indicator (flags)."""
    return _EMOJI.search(text) is not None


_MARKED = re.compile(r"a\.?m\b|p\.?m\b|[:.]\d|o'?clock|noon|midday|midnight|half|quarter|ish\b", re.I)
_MARKED_AFTER = re.compile(
    r"\s*(?:(?:-|–|to|till|til|until)\s*\d{1,2}(?:[:.]\d{2})?)?\s*(?:a\.?m\b|p\.?m\b|o'?\s?clock|-?ish\b|[:.h]\d)", re.I
)
"""After an hour, what gives it a mark: am/pm, "o'clock", "ish" or minutes, also at the end of a range ("6-9pm")."""
_MARKED_BEFORE = re.compile(r"(?:a\.?m|p\.?m|\d[:.]\d{2})\s*(?:-|–|to|till|til|until)\s*$", re.I)
"""Before an hour, a marked range start ("7pm-9", "6:30 to 8")."""
_NUMBER = re.compile(r"(?<![\w/:.,$£€#+])(\d{1,2})(?![\w/:%'])(?![.,]\d)")
_AFTER_OK = frozenset(
    "or and works work worked fine good ok okay k then instead not is it's it still sharp latest tho though "
    "better earliest works? pls please on at tomorrow tmrw tonight start finish til till until to yeah ya "
    "cool perfect great same ish that this if".split()
)
"""Words that may follow a bare hour ("9 works", "8 or 9", "7 it is", "at 6 that day")."""
_BEFORE_NO = frozenset(
    "in of x no nr number room gate platform bus line top only all the my our your his her their "
    "about over under ages age aged page level floor step table party group team seats tickets "
    "minus plus times every per each last first next another are were cost costs pay paid owe owes with than "
    "got have has had need bring buy those these pitch court field door terminal studio unit flat apt screen "
    "lane track stage hall block zone ward bay section row seat pier exit suite building ep episode season part "
    "chapter vol round tram train route".split()
)
"""Words after which a lone number is a count, a label or a duration, not an hour ("in 10", "room 4")."""
_BOOKED_FOR = frozenset("table booking reservation seats tickets room space spot spots party".split())
"""Words before "for N" that make N a head count ("table for 4")."""
_DAYS = frozenset(
    "mon monday tue tues tuesday wed weds wednesday thu thur thurs thursday fri friday sat saturday sun sunday "
    "tomorrow tmrw tonight today".split()
)


def _marked(text: str, start: int, end: int) -> bool:
    return bool(_MARKED.search(text[start:end]) or _MARKED_AFTER.match(text, end)
                or _MARKED_BEFORE.search(text[max(0, start - 16):start]))


_FOR_DURATION = re.compile(r"for\s+(?:[\w.]+\s+){0,4}?(?:[\d.]+\s*)?(?:min|mins|minutes|hours?|hrs?|h)\b", re.I)
"""An hour followed by a duration ("11 for 30 min", "8 for 3 hours"), not a head count ("2 for me")."""
_DAY_RANGE = re.compile(
    r"\s*[-–]\s*\d{1,2}(?:(?:st|nd|rd|th)\b|\s*(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))", re.I
)
"""A range of days ("12-14 june", "24-26th"), not of hours."""


def _bare_number(text: str, start: int, end: int) -> bool:
    if _DAY_RANGE.match(text, end):
        return False
    after = text[end:].lstrip()
    if after and not (after[0] in "?!.,;)-–~…" or has_emoji(after[0]) or after[0] == "\n"):
        nxt = re.match(r"[\w']+", after)
        if not nxt or (nxt.group(0).lower() not in _AFTER_OK and not _FOR_DURATION.match(after)):
            return False
    before = re.findall(r"[\w']+", text[:start])
    if before and re.search(r"[\w']\s*$", text[:start]):  # the word right before, no punctuation between
        prev = before[-1]
        if prev.lower() in _BEFORE_NO:
            return False
        if prev.lower() == "for" and len(before) > 1 and before[-2].lower() in _BOOKED_FOR:
            return False
        sentence_start = re.search(r"(^|[.!?]\s+)\S+\s*$", text[:start]) is not None
        if prev[0].isupper() and prev.lower() not in _DAYS and prev != "I" and not sentence_start:
            return False  # "Studio 5", "Pier 9": part of a name
    return True


def gives_bare_hour(text: str, at: datetime) -> bool:
    """True when the message gives a clock time as a bare number: an hour written with digits
    only, with no mark on it: no am/pm, minutes, "o'clock", "ish", "half" or "quarter", also not
    at the other end of a range ("6-9pm" and "7pm-9" are marked). Two ways to find one:

    - a clock-time phrase that :func:`proevent.timeexpr.time_spans` reads ("at 7", "around 8",
      "till 1") without a mark;
    - a number from 1 to 12 standing alone ("fri 8?", "9 works", "7 or 8?", "8 it is"): not part
      of a date that :func:`proevent.timeexpr.date_spans` reads at ``at`` (the message's send time),
      a longer number, a decimal, a fraction, an amount, an ordinal or a percentage, and not the
      start of a range of days ("12-14 june"); followed by the end of the message, punctuation, an
      emoji, one of a few words that go with a time ("or", "works", "then", "instead"...) or a
      duration ("11 for 30 min"); not right after a word that makes it a count, label or duration
      ("in 10", "room 4", "the 3 of us"), nor after "for" that follows such a word ("table for
      4"), nor after a capitalised word in mid-sentence other than a weekday ("Studio 5").

    A head count said alone ("ok 3 then") reads as an hour: the rule sees no meaning.
    Words for numbers ("at eight") are not counted.
    """
    spans = time_spans(text)
    for s in spans:
        if any(ch.isdigit() for ch in text[s.start:s.end]) and not _marked(text, s.start, s.end):
            return True
    taken = [(s.start, s.end) for s in spans] + [(d.start, d.end) for d in date_spans(text, at)]
    for m in _NUMBER.finditer(text):
        if not 1 <= int(m.group(1)) <= 12 or any(a <= m.start() < b for a, b in taken):
            continue
        if not _marked(text, m.start(), m.end()) and _bare_number(text, m.start(), m.end()):
            return True
    return False
