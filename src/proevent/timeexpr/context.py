"""Reading the time forms of real chats that need their context: bare hours, durations, offsets
from another event, weekends, day ranges.

:mod:`proevent.timeexpr` reads the phrases that carry their own clock time or date ("7pm",
"at 7", "Friday", "the 14th"). People also write "fri 8?", "9 works", "7 or 8", "seven's good",
"for two hours", "an hour before the match", "push it back 30 min", "this weekend", "fri-sun".
The functions here read those forms as candidate sets (a bare 8 is 08:00 or 20:00), the view the
validator needs: a value counts as expressed when it is among the candidates. :func:`bare_hours`
never reads a number inside a phrase that :func:`proevent.timeexpr.time_spans` already reads, so
"7pm" never also yields a bare 07:00.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from proevent.timeexpr import WEEKDAYS, ClockMention, TimeSpan, time_spans

_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
_WD = {name: i for i, name in enumerate(WEEKDAYS)} | {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3,
    "fri": 4, "sat": 5, "sun": 6,
}
_WD_NAMES = "|".join(sorted(_WD, key=len, reverse=True))
_DAY_WORDS = rf"(?:{_WD_NAMES}|today|tonight|tomorrow|tmrw|tmr|tmrow|2moro|morning|afternoon|evening|night)"

_HOUR = r"(1[0-2]|0?[1-9]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_NUM = rf"(?<![\d£$€#/.:,+-])\b{_HOUR}(?![\d:/%]|\.\d|[a-z])"
"""An hour as a standalone number or word: not part of 7:30, 3/4, £8, 1.5, 8%, 8th, 8pm, 8ish."""
_QUANTITY = re.compile(
    r"\s*(?:-\s*)?(?:of\s+(?:us|them|you|those|these|the|my|our)\b|people|ppl|persons?|guests?|pax|kids|"
    r"adults|friends|tickets?|seats?|spots?|places|tables?|rooms?|nights?|days?|weeks?|months?|years?|yrs?|"
    r"hours?|hrs?|h\b|mins?|minutes?|m\b|secs?|km|k\b|miles?|mi\b|laps?|sets?|reps?|games?|rounds?|times|"
    r"x\b|pm\b|am\b|p\.m|a\.m|o'?clock|ish|euros?|dollars?|bucks|quid|pounds?|points?|goals?|more|others|"
    r"bottles?|pints?|beers?|drinks?|slices?|pieces?|courses?|floors?|stops?|st\b|nd\b|rd\b|th\b|"
    r"(?:st|nd|rd|th)?\s*(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)",
    re.I,
)
_BEFORE = re.compile(  # what makes the next bare number a clock time
    rf"(?:\b{_DAY_WORDS}\.?,?|\b(?:or|not|nah|no|say|make\s+it|maybe|how\s+about|what\s+about|how\s+abt|"
    r"wbu|prob|probably|like|before|after|then|from|between|and|earliest|latest|ok|okay|k|instead\s+of|"
    r"rather|meet|start|starts|starting|leave|leaving|pick\s+(?:you\s+)?up|come|arrive|be\s+there|"
    r"dinner|lunch|breakfast|brunch|drinks|coffee|run|class|practice|session|call|game|match|kickoff|says|said|"
    r"doors|show|movie|film|gym|to|do|doing|time|when)|[?!,;:(])\s*$",
    re.I,
)
_AFTER = re.compile(  # ... or the words after it
    rf"\s*(?:[?!]|(?:'s|is)\s+(?:good|fine|ok|okay|better|great|perfect|best)|works?|worked|work\s+for|"
    r"suits?|ok\b|okay|fine|good|better|then|sharp|latest|at\s+the\s+latest|earliest|instead|or\b|not\b|"
    r"is\s+too|too\s+(?:early|late)|tonight|tmrw|tomorrow|today|in\s+the\s+(?:morning|evening|afternoon)|"
    rf"at\s+night|on\s+(?:{_WD_NAMES})|(?:{_WD_NAMES})\b|then|start|kick\s*off|it\s+is|it\s+'?s|"
    r"-\s*ish|ish|at\b)",
    re.I,
)
_RANGE = re.compile(rf"{_NUM}\s*(?:-|–|to|till|til|until)\s*{_HOUR}(?![\d:%]|[a-z])", re.I)
_RE_WORDISH = re.compile(r"[^\W_]", re.UNICODE)
_RE_ANY_HOUR = re.compile(rf"\d|\b(?:{'|'.join(_NUMBER_WORDS)})\b", re.I)
_RE_ANY_UNIT = re.compile(r"\d\s*[hm]|hour|hr|min|day|night|week", re.I)
_RE_ANY_RANGE = re.compile(r"[-–]|\b(?:to|till|til|until|thru|through)\b", re.I)
_HALF = re.compile(rf"\bhalf\s+(?:past\s+)?({'|'.join(_NUMBER_WORDS)})\b", re.I)

_DURATION_NUM = (
    r"(\d{1,3}(?:[.,]\d)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"a\s+couple\s+(?:of\s+)?|couple\s+(?:of\s+)?|a\s+few|few|half\s+an?|half\s+a)"
)
_RE_DURATION = re.compile(
    rf"\b{_DURATION_NUM}\s*(?:(?:extra|more|full|whole|additional|solid|good|quick)\s+)?(hours?|hrs?|h|minutes?|mins?|m|days?|nights?|weeks?)(?:\b|(?=\d))"
    r"(\s+and\s+a\s+half|\s*(?:and\s+)?(\d{1,2})\s*(?:minutes?|mins?|m)\b|(?<=[hH])(\d{2})\b)?",
    re.I,
)
_RE_HOUR_AND_HALF = re.compile(r"\b(?:an?\s+)?hour\s+and\s+a\s+half\b|\b(?:an?\s+)?hour\s+(?:&|n)\s+a\s+half\b", re.I)
_RE_ALL_DAY = re.compile(r"\b(all\s+day|the\s+whole\s+day)\b", re.I)

_LATER = r"(?:later|after|afterwards|back|on\s+from)"
_EARLIER = r"(?:earlier|before|forward|up|sooner|ahead)"
_RE_OFFSET = re.compile(
    rf"\b{_DURATION_NUM}\s*(hours?|hrs?|h|minutes?|mins?|m)\b(\s+and\s+a\s+half)?\s*({_LATER}|{_EARLIER})\b",
    re.I,
)
_RE_MOVE_BY = re.compile(  # "push it back an hour", "bring it forward 30 min", "move it up by 15 mins"
    rf"\b(?:push|pushing|pushed|move|moving|moved|bump|bumping|bumped|shift|shifting|shifted|bring|bringing|"
    rf"brought|put)\s+(?:it|this|that|things|everything|dinner|us|the\s+\w+)?\s*({_LATER}|{_EARLIER})\s+"
    rf"(?:by\s+)?{_DURATION_NUM}\s*(hours?|hrs?|h|minutes?|mins?|m)\b(\s+and\s+a\s+half)?",
    re.I,
)

_RE_WEEKEND = re.compile(r"\b(next|this|the|over\s+the|on\s+the)?\s*(weekend|wknd|wkend)\b", re.I)
_RE_IN_DAYS = re.compile(
    r"\bin\s+(\d{1,2}|a|one|two|three|four|five|six|seven|a\s+couple\s+of)\s+(days?|weeks?)\b", re.I)
_RE_WD_RANGE = re.compile(rf"\b({_WD_NAMES})\.?\s*(?:-|–|to|till|til|until|through|thru)\s*({_WD_NAMES})\b", re.I)
_RE_WD_ORDINAL = re.compile(rf"\b({_WD_NAMES})\.?,?\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)\b", re.I)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_RE_DAY_RANGE = re.compile(
    r"\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|to|till|til|until|through|thru)\s*(?:the\s+)?"
    r"(\d{1,2})(?:st|nd|rd|th)?\b(?:\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?)?",
    re.I,
)
_RE_MONTH_DAY_RANGE = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s*"
    r"(?:-|–|to|till|til|until|through|thru)\s*(\d{1,2})(?:st|nd|rd|th)?\b",
    re.I,
)


def _hour_value(word: str) -> int:
    return _NUMBER_WORDS.get(word.lower()) or int(word)


def _both(h: int, minute: int = 0) -> set[tuple[int, int]]:
    return {(h % 12, minute), (h % 12 + 12, minute)}


def _covered(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


def bare_hours(text: str, spans: Sequence[TimeSpan | ClockMention] | None = None) -> set[tuple[int, int]]:
    """Clock times said as a bare hour that only the context marks as a time.

    "fri 8?", "9 works", "7 or 8", "8 not 7", "seven's good", "make it 9", "9-11", "half seven",
    a message that is only "8?": each hour gives both readings ((8, 0) and (20, 0)). A number
    followed by a quantity ("2 of us", "3 days", "table for 4 people", "8th") or inside a phrase
    that :func:`proevent.timeexpr.time_spans` reads is not read here. A bare "one" counts only
    after "at"/"till" (it is a word more often than a time). ``spans``: the clock phrases the
    caller already read (:func:`~proevent.timeexpr.time_spans` by default, or the clocks of
    :func:`proevent.timeexpr.read`); a number inside one is not read again.
    """
    out: set[tuple[int, int]] = set()
    if not _RE_ANY_HOUR.search(text):
        return out
    taken = [(s.start, s.end) for s in (time_spans(text) if spans is None else spans)]
    for m in _HALF.finditer(text):
        if not _covered(m.start(), taken):
            out |= _both(_hour_value(m.group(1)), 30)
            taken.append((m.start(), m.end()))
    for m in _RANGE.finditer(text):
        if _covered(m.start(), taken) or _QUANTITY.match(text, m.end()):
            continue
        h1, h2 = _hour_value(m.group(1)), _hour_value(m.group(2))
        if h1 != h2 and not (m.group(1).isalpha() and m.group(1).lower() == "one"):
            out |= _both(h1) | _both(h2)
            taken.append((m.start(), m.end()))
    words_before = re.compile(r"(?:\bat|\btill|\buntil|@)\s*$", re.I)
    for m in re.finditer(_NUM, text, re.I):
        if _covered(m.start(), taken) or _QUANTITY.match(text, m.end()):
            continue
        before, word = text[max(0, m.start() - 40): m.start()], m.group(1)
        if word.lower() == "one" and not words_before.search(before):
            continue
        if word.isalpha() and not (words_before.search(before) or _AFTER.match(text, m.end())):
            continue  # "seven" is read when "at seven" or "seven works", not after a day word alone
        alone = not _RE_WORDISH.search(text[:m.start()] + text[m.end():])  # "8?", "9 👍"
        if alone or _BEFORE.search(before) or _AFTER.match(text, m.end()) or words_before.search(before):
            out |= _both(_hour_value(word))
    return out


def _amount(word: str) -> float:
    w = " ".join(word.lower().split())
    if w.startswith("half"):
        return 0.5
    if "couple" in w:
        return 2
    if "few" in w:
        return 3
    if w in ("a", "an"):
        return 1
    return float(_NUMBER_WORDS.get(w) or w.replace(",", "."))


def _minutes(amount: str, unit: str, half: str | None, extra_minutes: str | None = None) -> int:
    u = unit.lower()
    n = _amount(amount) + (0.5 if half and "half" in half.lower() else 0)
    per = 1 if u.startswith("m") else 60 if u.startswith("h") else 7 * 1440 if u.startswith("w") else 1440
    return round(n * per) + (int(extra_minutes) if extra_minutes else 0)


def durations(text: str) -> set[int]:
    """Lengths of time the text names, in minutes: "for two hours" 120, "an hour and a half" 90,
    "90 min" 90, "2h30" 150, "half an hour" 30, "a couple of hours" 120, "for 3 days" 4320,
    "all day" 1440. What they are the length of is the caller's question (an event's end is its
    start plus a duration the chat gives)."""
    out: set[int] = set()
    if not _RE_ANY_UNIT.search(text):
        return out
    for m in _RE_DURATION.finditer(text):
        if m.group(1).strip().lower() in ("a", "an") and m.group(2).lower() in ("m", "h"):
            continue  # "a m..." is a word, not a minute
        out.add(_minutes(m.group(1), m.group(2), m.group(3), m.group(4) or m.group(5)))
    if _RE_HOUR_AND_HALF.search(text):
        out.add(90)
    if _RE_ALL_DAY.search(text):
        out.add(1440)
    return {d for d in out if d > 0}


def offsets(text: str) -> set[int]:
    """Signed shifts in minutes relative to another time: "an hour before the match" -60, "30 min
    after" +30, "push it back an hour" +60, "bring it forward half an hour" -30. "Straight after
    the gym" is a shift of 0 from that event's end, which needs no reading here."""
    out: set[int] = set()
    if not _RE_ANY_UNIT.search(text):
        return out
    for m in _RE_OFFSET.finditer(text):
        sign = 1 if re.fullmatch(_LATER, m.group(4), re.I) else -1
        out.add(sign * _minutes(m.group(1), m.group(2), m.group(3)))
    for m in _RE_MOVE_BY.finditer(text):
        sign = 1 if re.fullmatch(_LATER, m.group(1), re.I) else -1
        out.add(sign * _minutes(m.group(2), m.group(3), m.group(4)))
    return {o for o in out if o}


def _coming(wd: int, today: date, *, include_today: bool = False) -> date:
    ahead = (wd - today.weekday()) % 7
    return today + timedelta(days=ahead if ahead or include_today else 7)


def context_dates(text: str, ref: datetime) -> set[date]:
    """Days named by forms :func:`proevent.timeexpr.date_spans` does not read, said at ``ref``.

    "this weekend" / "the weekend": the coming Saturday and Sunday (today and tomorrow on a
    Saturday); "next weekend": the following week's, and loosely the coming one. "in 3 days",
    "in a week". A weekday with an ordinal is the next day that is both ("sun 21st" said in
    May is 21 June when May's 21st is a Thursday). Ranges give both ends and the days between:
    "fri-sun", "friday to sunday", "14-16 march", "the 14th to the 16th", "march 14-16".
    """
    today = ref.date()
    out: set[date] = set()
    lower = text.lower()
    for m in _RE_WEEKEND.finditer(text) if "w" in lower and "k" in lower else ():
        sat = today + timedelta(days=5 - today.weekday())  # this week's Saturday (yesterday on a Sunday)
        days = {sat, sat + timedelta(days=1)}
        if (m.group(1) or "").lower() == "next" or today.weekday() == 6:
            days |= {sat + timedelta(days=7), sat + timedelta(days=8)}
        out |= {d for d in days if d >= today}
    for m in _RE_IN_DAYS.finditer(text) if "in " in lower else ():
        n = _amount(m.group(1))
        out.add(today + timedelta(days=round(n * (7 if m.group(2).lower().startswith("w") else 1))))
    for m in _RE_WD_ORDINAL.finditer(text):  # "sun 21st": the next Sunday that is a 21st
        wd, n = _WD[m.group(1).lower()], int(m.group(2))
        d = today
        for _ in range(400):
            if d.day == n and d.weekday() == wd:
                out.add(d)
                break
            d += timedelta(days=1)
    if not _RE_ANY_RANGE.search(text):
        return out
    for m in _RE_WD_RANGE.finditer(text):
        first = _coming(_WD[m.group(1).lower().rstrip(".")], today, include_today=False)
        last = _coming(_WD[m.group(2).lower()], first, include_today=True)
        out |= {first + timedelta(days=k) for k in range((last - first).days + 1)}
    for m in _RE_MONTH_DAY_RANGE.finditer(text):
        out |= _day_range(int(m.group(2)), int(m.group(3)), _MONTHS.index(m.group(1).lower()[:3]) + 1, today)
    for m in _RE_DAY_RANGE.finditer(text):
        month = _MONTHS.index(m.group(3).lower()[:3]) + 1 if m.group(3) else None
        has_ordinal = re.search(r"\d(?:st|nd|rd|th)", m.group(0), re.I)
        if month is None and not has_ordinal:
            continue  # "7-9" alone is a time range, not days
        out |= _day_range(int(m.group(1)), int(m.group(2)), month, today)
    return out


def _day_range(first: int, last: int, month: int | None, today: date) -> set[date]:
    """The days ``first``..``last`` of ``month`` (the coming occurrence), or of this or next month."""
    if not 1 <= first <= last <= 31 or last - first > 31:
        return set()
    months = [month] if month else [today.month, today.month % 12 + 1]
    for mo in months:
        year = today.year + (1 if mo < today.month - 1 else 0)
        try:
            start, end = date(year, mo, first), date(year, mo, last)
        except ValueError:
            continue
        if end >= today:
            return {start + timedelta(days=k) for k in range((end - start).days + 1)}
    return set()
