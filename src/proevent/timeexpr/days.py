"""Days, parts of the day and date ranges in a message (the day half of :func:`proevent.timeexpr.read`).

Days are the phrases of :func:`proevent.timeexpr.date_spans` (a bare ordinal naming a street, "on
5th", left out as the agents do) plus a few spellings only this reader knows ("tonite", "this
arvo"). A part of the day is read with the day it follows ("sat morning", "tmrw night", "fri eve")
or on its own ("tonight", "in the morning": the message's only day, if it says one). A date range
is two days joined by "to", "-", "till", "through" ("fri to sun", "mon-wed", "the 12th-14th",
"12-14 March") or a weekend ("this weekend", "all weekend"). A weekday with an ordinal is the next
day that is both ("sun 21st"); "in 3 days" counts from the send day. The days inside a range take
the range's reading, so "fri to sun" said on a Saturday ends on the Sunday after that Friday, not
tomorrow (tomorrow stays among that day's candidates). A range has a second reading where the
words allow one (``DateRange.also``): "next weekend" and "next sat to mon" are loosely the coming
ones too, and "this weekend" said on a Sunday is the coming weekend or, loosely, that Sunday.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, timedelta

from proevent.timeexpr.mentions import DateRange, DayMention, PartOfDay
from proevent.timeexpr.picks import _street_number
from proevent.timeexpr.resolve import month_day_dates, ordinal_date, relative_day, weekday_date, weekend
from proevent.timeexpr.spans import date_spans
from proevent.timeexpr.vocabulary import _RE_DIGIT, alternation, first_words, tokens, vocabulary

_V = vocabulary()
_MORE_FIRST = first_words([*_V.more_relative_days, *_V.day_part_words])
_PART_FIRST = first_words([*_V.part_words, *_V.day_part_words])
_WD_WORDS = frozenset([*_V.weekdays, *_V.weekday_abbreviations])
_WEEKEND_WORDS = frozenset(_V.weekend_words)
_IN_UNITS = frozenset({"day", "days", "week", "weeks"})
_WD = alternation([*_V.weekdays, *_V.weekday_abbreviations])
_MONTH = alternation([*_V.months, *_V.month_abbreviations])
_MONTH_RUNS = frozenset(run for w in [*_V.months, *_V.month_abbreviations] for run in re.findall("[a-z]+", w.lower()))
"""The letter runs of the month words: a month range ("may 3-5") holds one of them (a set test before its pattern)."""
_TO = r"\s*(?:-|–|—|->|\bto\b|\btill\b|\btil\b|\buntil\b|\bthru\b|\bthrough\b)\s*"
_TO_WORDS = frozenset({"to", "till", "til", "until", "thru", "through"})
_TO_MARKS = ("-", "–", "—")
"""What :data:`_TO` needs: one of these words (a letter run of the text) or marks (a set test before the
two patterns of ranges that need it: ranges of numbers and of a month's days)."""
_RE_LETTER_RUN = re.compile(r"[a-z]+")
if any(not _RE_LETTER_RUN.fullmatch(w) for w in _WD_WORDS):
    raise ValueError("vocabulary.json: a weekday word that is not one letter run (the weekday-range gate counts runs)")
_RE_MORE_DAYS = re.compile(rf"\b({alternation([*_V.more_relative_days, *_V.day_part_words])})\b", re.I)
_RE_DAY_PART = re.compile(rf"\b({alternation(_V.day_part_words)})\b", re.I)
_RE_PART = re.compile(rf"\b({alternation(_V.part_words)})\b", re.I)
_RE_PART_AFTER_DAY = re.compile(rf"\s*,?\s*(?:in the\s+|at\s+)?({alternation(_V.part_words)})\b", re.I)
_RE_PART_ALONE = re.compile(rf"\b(?:in the|this)\s+({alternation(_V.part_words)})\b", re.I)
_RE_WD_RANGE = re.compile(
    rf"\b(?:from\s+|between\s+)?(?:(next|this)\s+)?({_WD})\b\.?(?:{_TO}|\s+and\s+)(?:(?:next|this)\s+)?({_WD})\b\.?",
    re.I)
_ORD = r"(\d{1,2})(st|nd|rd|th)?"
_RE_NUM_RANGE = re.compile(
    rf"(?<![\d:.£$€])\b(?:from\s+)?(?:the\s+)?{_ORD}{_TO}(?:the\s+)?{_ORD}\b(?![:.]\d)(?:\s+(?:of\s+)?({_MONTH})\b)?",
    re.I)
_RE_MONTH_RANGE = re.compile(rf"\b({_MONTH})\.?\s+{_ORD}{_TO}{_ORD}\b(?![:.]\d)", re.I)
_RE_WD_ORDINAL = re.compile(rf"\b({_WD})\.?,?\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{_MONTH})\b)",
                            re.I)
_RE_IN_DAYS = re.compile(
    rf"\bin\s+(?:about\s+|like\s+)?(\d{{1,2}}|{alternation([*_V.number_words, 'a', 'an'])})\s+(days?|weeks?)\b", re.I)
_RE_WEEKEND = re.compile(
    rf"\b({alternation(_V.weekend_modifiers)})\s+({alternation(_V.weekend_words)})\b(?!\s+of\s+(?:the\s+)?\d)", re.I)
"""'this weekend', 'the weekend'; not "the weekend of 21-22 March" (the dates after it say which)."""


def read_days(text: str, ref: datetime) -> tuple[list[DayMention], list[PartOfDay], list[DateRange]]:
    """The days, parts of the day and date ranges of ``text`` said at ``ref``, each in text order."""
    today = ref.date()
    days = [DayMention(s.start, s.end, s.days, s.best) for s in date_spans(text, ref) if not _street_number(text, s)]
    words, digits = tokens(text), bool(_RE_DIGIT.search(text))
    for m in _RE_MORE_DAYS.finditer(text) if words & _MORE_FIRST else ():
        if not any(d.start < m.end() and m.start() < d.end for d in days):
            word = m.group(1).lower()
            d = today if word in _V.day_part_words else relative_day(word, today)
            days.append(DayMention(m.start(), m.end(), frozenset({d}), d))
    if digits and words & _WD_WORDS:
        days = _weekday_ordinals(text, today, days)
    if "in" in words and words & _IN_UNITS:
        days += _in_days(text, today, days)
    days.sort(key=lambda d: d.start)
    ranges, seconds = _ranges(text, today, words, digits)
    if len(days) > 1:
        ranges, seconds = _joined(text, days, ranges, seconds)
    days = [_in_range(d, ranges, seconds) for d in days] if ranges else days
    return days, _parts(text, days, today) if words & _PART_FIRST else [], ranges


def _weekday_ordinals(text: str, today: date, days: list[DayMention]) -> list[DayMention]:
    """"sun 21st": the next day that is both a Sunday and a 21st (May's 21st may be a Thursday:
    then it is 21 June); the mention spans the weekday and the ordinal."""
    out = list(days)
    for m in _RE_WD_ORDINAL.finditer(text):
        wd, n = _V.weekday_number(m.group(1)), int(m.group(2))
        d = _next_on(today, n, wd)
        if d is not None:
            out = [x for x in out if not (m.start() <= x.start and x.end <= m.end())]
            out.append(DayMention(m.start(), m.end(), frozenset({d}), d))
    return out


def _next_on(today: date, n: int, wd: int) -> date | None:
    """The first day of the 400 from ``today`` on that is an ``n``-th and a weekday ``wd`` (month by
    month: only one day a month can be an ``n``-th)."""
    last = today + timedelta(days=399)
    year, month = today.year, today.month
    while date(year, month, 1) <= last:
        try:
            d = date(year, month, n)
        except ValueError:
            d = None
        if d is not None and today <= d <= last and d.weekday() == wd:
            return d
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def _in_days(text: str, today: date, days: list[DayMention]) -> list[DayMention]:
    """"in 3 days", "in a week", "in two weeks": counted from the send day."""
    out: list[DayMention] = []
    for m in _RE_IN_DAYS.finditer(text):
        if any(x.start < m.end() and m.start() < x.end for x in days):
            continue
        word = m.group(1).lower()
        n = int(word) if word.isdigit() else _V.number_words.get(word, 1)
        d = today + timedelta(days=n * (7 if m.group(2).lower().startswith("w") else 1))
        out.append(DayMention(m.start(), m.end(), frozenset({d}), d))
    return out


def _parts(text: str, days: list[DayMention], today: date) -> list[PartOfDay]:
    out: list[PartOfDay] = []

    def add(start: int, end: int, part: str, day: date | None) -> None:
        if not any(p.start < end and start < p.end for p in out):
            out.append(PartOfDay(start, end, part, _V.parts_of_day[part], day))

    for m in _RE_DAY_PART.finditer(text):  # "tonight", "this morning": a day and its part in one phrase
        add(m.start(), m.end(), _V.day_part_words[m.group(1).lower()], _day_at(days, m))
    for d in days:
        m = _RE_PART_AFTER_DAY.match(text, d.end)
        if m:
            add(d.start, m.end(), _V.part_words[m.group(1).lower()], d.best)
    only = days[0].best if len({d.best for d in days}) == 1 else None
    for m in _RE_PART_ALONE.finditer(text):
        word = m.group(1).lower()
        if word not in _V.parts_after_day_only:
            day = only if m.group(0).lower().startswith("in ") else today
            add(m.start(), m.end(), _V.part_words[word], day)
    return sorted(out, key=lambda p: p.start)


def _day_at(days: list[DayMention], m: re.Match[str]) -> date | None:
    """The day of the day mention that overlaps the match ("tonight" is itself a day mention)."""
    for d in days:
        if d.start < m.end() and m.start() < d.end:
            return d.best
    return None


def _ranges(text: str, today: date, words: frozenset[str], digits: bool) -> tuple[list[DateRange], list[int]]:
    """The ranges in text order, and where the second day of each begins."""
    out: list[tuple[DateRange, int]] = []

    def add(m: re.Match[str], first: date | None, last: date | None, second: int | None = None,
            also: frozenset[date] = frozenset()) -> None:
        if first is None or last is None or last <= first or (last - first).days > 31:
            return
        if not any(r.start < m.end() and m.start() < r.end for r, _ in out):
            out.append((DateRange(m.start(), m.end(), first, last, also=also - _days(first, last)),
                        m.end() if second is None else second))

    for m in _RE_WD_RANGE.finditer(text) if _two_weekdays(text, words) else ():
        first = weekday_date(m.group(2), today, m.group(1))
        span = (_V.weekday_number(m.group(3)) - first.weekday()) % 7 or 7
        near = weekday_date(m.group(2), today)  # "next sat to mon": loosely the coming one too
        add(m, first, first + timedelta(days=span), m.start(3), _days(near, near + timedelta(days=span)))
    to = _has_to(text, words)
    for m in _RE_MONTH_RANGE.finditer(text) if to and digits and (words & _MONTH_RUNS or not text.isascii()) else ():
        month = _V.month_number(m.group(1))
        firsts = sorted(d for d in month_day_dates(month, int(m.group(2)), today) if d >= today)
        if firsts:
            add(m, firsts[0], _same_month(firsts[0], int(m.group(4))), m.start(4))
    for m in _RE_NUM_RANGE.finditer(text) if to and digits else ():
        if not (m.group(2) or m.group(4) or m.group(5)):
            continue  # "7-9" alone is a clock range; "the 12th-14th", "12-14 March" are days
        d1, d2 = int(m.group(1)), int(m.group(3))
        if m.group(5):
            firsts = sorted(d for d in month_day_dates(_V.month_number(m.group(5)), d1, today) if d >= today)
            first = firsts[0] if firsts else None
        else:
            first = ordinal_date(d1, today)
        last = None if first is None else _same_month(first, d2) if d2 > d1 else ordinal_date(d2, first)
        add(m, first, last, m.start(3))
    for m in _RE_WEEKEND.finditer(text) if words & _WEEKEND_WORDS else ():
        mod = _V.weekend_modifiers[" ".join(m.group(1).lower().split())]
        near, far = weekend(today), weekend(today, "next")
        if near[0] == near[1]:  # said on a Sunday: the coming weekend, or loosely today
            add(m, *far, also=_days(*near) if mod == "this" else frozenset())
        elif mod == "next":  # the following week's, and loosely the coming one
            add(m, *far, also=_days(*near))
        else:
            add(m, *near)
    out.sort(key=lambda p: p[0].start)
    return [r for r, _ in out], [second for _, second in out]


_RE_JOIN_TO = re.compile(rf"{_TO}(?:(?:{_WD})\.?,?\s+)?$", re.I)
_RE_JOIN_OUT = re.compile(rf"\s*(?:for\s+\w+\s+nights?\s*)?[,;]?\s*(?:and\s+)?(?:check(?:ing)?[- ]?out|departure|"
                          rf"depart(?:ing)?)\s*(?:is\s+)?(?:on\s+|:\s*)?(?:(?:{_WD})\.?,?\s+)?$", re.I)
_RE_CHECK_IN = re.compile(r"(?:check(?:ing)?[- ]?in|arrival|arriv(?:e|ing)|from)\s*(?:is\s+)?(?:on\s+|:\s*)?\S*\s*$",
                          re.I)


def _joined(text: str, days: list[DayMention], ranges: list[DateRange], seconds: list[int]
            ) -> tuple[list[DateRange], list[int]]:
    """Two days said as one stay: joined by "to", "till" or a dash ("from Friday 13 March to Monday 16
    March"), or a check-in's day and a check-out's ("check-in Friday 13 March, check-out Sunday 15 March"),
    added to ``ranges`` (with where the second day begins) where no range holds them already."""
    pairs = list(zip(ranges, seconds))
    for d1, d2 in zip(days, days[1:]):
        between = text[d1.end:d2.start]
        if len(between) > 60 or any(r.start < d2.end and d1.start < r.end for r, _ in pairs):
            continue
        if not (_RE_JOIN_TO.match(between) or _RE_JOIN_OUT.match(between) and _RE_CHECK_IN.search(
                text, max(0, d1.start - 24), d1.start)):
            continue
        if d1.best < d2.best and (d2.best - d1.best).days <= 31:
            pairs.append((DateRange(d1.start, d2.end, d1.best, d2.best), d2.start))
    pairs.sort(key=lambda p: p[0].start)
    return [r for r, _ in pairs], [second for _, second in pairs]


def _has_to(text: str, words: frozenset[str]) -> bool:
    """Whether ``text`` may hold :data:`_TO` ("fri to sun", "12-14"): a mark or a word of it."""
    return not words.isdisjoint(_TO_WORDS) or any(mark in text for mark in _TO_MARKS)


def _two_weekdays(text: str, words: frozenset[str]) -> bool:
    """Whether ``text`` may hold a weekday range: it names weekdays twice (each weekday word of the
    range's pattern stands between word boundaries, so it is a whole letter run of the text)."""
    found = words & _WD_WORDS
    if len(found) != 1:
        return len(found) > 1
    return sum(run in _WD_WORDS for run in _RE_LETTER_RUN.findall(text.lower())) > 1


def _days(first: date, last: date) -> frozenset[date]:
    return frozenset(first + timedelta(days=k) for k in range((last - first).days + 1))


def _same_month(first: date, day: int) -> date | None:
    try:
        return first.replace(day=day)
    except ValueError:
        return None


def _in_range(d: DayMention, ranges: list[DateRange], seconds: list[int]) -> DayMention:
    """A day inside a range reads as the range's first or last day ("sun" in "fri to sun"); the
    day's own readings stay among its candidates (a range read wrong must not hide them)."""
    for r, second in zip(ranges, seconds):
        if r.start <= d.start and d.end <= r.end:
            pick = r.first if d.end <= second else r.last
            return replace(d, days=d.days | {pick}, best=pick)
    return d
