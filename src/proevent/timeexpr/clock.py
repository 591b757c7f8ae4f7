"""Clock times in a message, read as people mean them (the time half of :func:`proevent.timeexpr.read`).

The explicit phrases are those of :func:`proevent.timeexpr.time_spans`. On top of them this
module reads what real chats write: ranges without am/pm ("7-9", "9 till 1"), bare hours licensed
by their context (next to a day, "fri 8?", "8 tmrw"; a proposal or an agreement, "say 8", "9
works", "8?"; an option, "7 or 8"; a correction, "wait no, 8 not 7"; an approximation, "about 8";
a relay or a label, "mom says 11", "time: 8"; a duration after it, "6 for 2.5h"; a place after it
at the start of a sentence, "5 at the tap"; "after 5", "at 6 that day", "drinks 8") and hours in
words ("at seven", "half seven", "seven's good"). A number that a price, a count, an address, a
street, a date or a duration explains is not a clock time ("£8", "8 of us", "12 Mill Road",
"table for 8", "the 8th", "for 2 hours", "2 people instead of 3").

An hour without am/pm keeps both readings in ``times``; ``best`` prefers, in order, the part of
the day said in the message ("8 tonight", "sat morning at 9"), the caller's usual hours for the
event (``usual_hours``), the usual hours of an activity the message names ("dinner at 7"), and
else 1-7 as afternoon or evening and 8-11 as morning.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from proevent.timeexpr.mentions import Clock, ClockMention, DayMention, Duration, PartOfDay
from proevent.timeexpr.spans import both_halves, default_pick, time_spans
from proevent.timeexpr.vocabulary import _RE_DIGIT, alternation, first_words, tokens, vocabulary

_V = vocabulary()
Hours = tuple[int, int]

_RE_ACTIVITY = re.compile(rf"\b({alternation(_V.activity_hours)})\b", re.I)
_ACTIVITY_FIRST = first_words(_V.activity_hours)
_AMPM_AHEAD = r"\s*(?:a\.?m\b|p\.?m\b|a\.m\.|p\.m\.)"
_RE_RANGE = re.compile(
    r"(?<![\d:.£$€/#])\b(?:(from|between)\s+)?(\d{1,2})(?:([:.])(\d{2}))?\s*(-|–|to|till|til|until|and)\s*"
    rf"(\d{{1,2}})(?:([:.])(\d{{2}}))?\b(?!{_AMPM_AHEAD}|[:.]\d|\s*(?:st|nd|rd|th)\b|\s*-?ish)", re.I)
_RE_NUMBER = re.compile(
    r"(?<![\w£$€#.,:/'’-])(\d{1,2})(?:\.(\d{2}))?(?!(?!ish\b)[\w%:/'’]|[.,]\d|" + _AMPM_AHEAD + ")", re.I)
_HOUR_WORDS = {w: n for w, n in _V.number_words.items() if 1 <= n <= 12}
_HOUR_WORD_SET = frozenset(_HOUR_WORDS)
_RE_HOUR_WORD = re.compile(
    rf"\b(?:(at|around|about|by|till|until|from|half past|half|quarter past|quarter to)\s+)?"
    rf"({alternation(_HOUR_WORDS)})(?:[\s-](thirty|fifteen|forty[\s-]five|o'?clock))?(\s*-?ish)?"
    r"(?![\w-]|['’](?!s\b))", re.I)
_RE_MONTH_AFTER = re.compile(rf"\s*(?:of\s+)?(?:{alternation([*_V.months, *_V.month_abbreviations])})\b", re.I)
_RE_FOLLOWER = re.compile(rf"\s*(?:{alternation(_V.non_time_followers)})(?![\w])", re.I)
_RE_COUNT_BEFORE = re.compile(rf"(?:^|\b)(?:{alternation(_V.count_before)})\s*$", re.I)
_RE_ADDRESS = re.compile(
    rf"\s+(?:[A-Z][\w'’-]*\s+){{1,3}}(?:{alternation([*_V.street_words_capitalised, *_V.street_words_lowercase_ok])})"
    rf"\b(?!\w)", re.I)
_RE_ADDRESS_CAPS = re.compile(r"\s+[A-Z]")
_RE_ADDRESS_LOWER = re.compile(
    rf"\s+(?:[a-z][\w'’-]*\s+){{1,2}}(?:{alternation(_V.street_words_lowercase_ok)})\b", re.I)
_RE_PROPOSAL = re.compile(rf"\b(?:{alternation(_V.proposal_before)})\s+$", re.I)
_RE_APPROX = re.compile(rf"\b(?:{alternation(_V.approximate_before)})\s+$", re.I)
_RE_AGREEMENT = re.compile(rf"\s*(?:{alternation(_V.agreement_after)})(?!\w)", re.I)
_CONTRAST = alternation(_V.contrast_words)
_RE_CONTRAST_AFTER = re.compile(rf"\s*,?\s*(?:{_CONTRAST})\s+(?:at\s+)?\d", re.I)
_RE_CONTRAST_BEFORE = re.compile(rf"\b(?:{_CONTRAST})\s+(?:at\s+)?$", re.I)
_RE_CORRECTION_BEFORE = re.compile(
    rf"(?:\b(?:{alternation(_V.correction_markers)})\b|^\s*\*)[\s,.:;!—–-]*(?:(?:i\s+)?(?:meant|mean)\s+)?"
    r"(?:(?:it'?s|its)\s+|make (?:it|that)\s+)?(?:at\s+)?$", re.I)
_RE_OPTION_AFTER = re.compile(
    r"\s*(?:or|/)\s*(?:at\s+|like\s+|maybe\s+|around\s+|about\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:\?|!|$|,|\.|works|ok|am|pm|-?ish)",
    re.I)
_RE_OR_BEFORE = re.compile(r"\d\s*(?:or|/)\s*(?:at\s+)?$", re.I)
_RE_DAY_GAP_BEFORE = re.compile(r"\s*,?\s*(?:at\s+|@\s*|around\s+|about\s+|like\s+)?", re.I)
_RE_DAY_GAP_AFTER = re.compile(r"\s*,?\s*(?:on\s+)?", re.I)
_RE_ONLY = re.compile(r"[\s?!.,*]*")
_RE_UNTIL_BEFORE = re.compile(r"\b(?:until|till|til)\s+$", re.I)
_RE_EXPLICIT = re.compile(r"[ap]\.?m\b|[ap]\.m\.|:\d\d|noon|midday|midnight", re.I)
_RE_APPROX_AFTER = re.compile(r"\s*(?:or so|-?ish)\b", re.I)
_RE_UNTIL = re.compile(r"(?:until|till|til)\b", re.I)
_RE_WORD_AGREE = re.compile(
    r"(?:'s|’s)?\s+(?:good|fine|works|ok|okay|better|perfect|it is|then|suits?|sharp|instead|is too|too early"
    r"|too late)\b", re.I)
_RE_DET_BEFORE = re.compile(r"\b(?:the|a|that|this|which|any|no|every|each)\s+$", re.I)
_RE_EMOJI_AFTER = re.compile("\\s*[\u2600-\u27bf\U0001f300-\U0001faff]")
_RE_PADDED = re.compile(r"0\d:\d\d")
_RE_AMPM = re.compile(r"[ap]\.?m\b|[ap]\.m\.", re.I)
_RE_END_BEFORE = re.compile(r"(?:\d\s*(?:[ap]\.?m\.?)?\s*(?:-|–|\bto)|\buntil|\btill|\btil)\s*$", re.I)
_RE_ARRIVAL_BEFORE = re.compile(
    r"\d[^,;!?\d]{0,60}?\b(?:and\s+)?(?:arrives?|arriving|arrival)\b[^,;!?\d]{0,40}?\b(?:at|by)\s*$", re.I)
"""A journey's arrival after its departure ("leaves Cambridge at 08:40 and arrives at London Kings Cross at 09:31"):
the arrival is its end."""
_RE_BACK_BEFORE = re.compile(r"\d.*?(?:[,.;]\s*|\band\s+)back\b[^,;!?\d]{0,30}?\b(?:at|by|around|about)\s*$", re.I)
"""Coming back after a start said earlier ("meeting at 6:30 at the hall, back in the city around 19:00"):
the return is the end."""
_RE_CORRECTION_AFTER = re.compile(
    rf"[\s,.…:;!—–-]*\b(?:{alternation(_V.correction_markers)})\b[^\d]{{0,24}}\d", re.I)
_RE_TIME_AFTER_OF = re.compile(rf"\b(?:{alternation(_V.time_after_of)})\s*$", re.I)
_RE_COUNT_CONTRAST = re.compile(rf"\d\s*(?:{alternation(_V.non_time_followers)})\s*$", re.I)
_RE_RELAY = re.compile(rf"\b(?:{alternation(_V.relay_before)})\s+$", re.I)
_RE_LABEL = re.compile(rf"\b(?:{alternation(_V.time_labels)})\s*[:\-–]\s*$", re.I)
_RE_AT_BEFORE = re.compile(r"(?:\bat|@)\s*$", re.I)
_RE_SENTENCE_BEFORE = re.compile(r"[.!?]\s+$")
_RE_AT_PLACE_AFTER = re.compile(r"\s+(?:at|@)\s+[^\W\d]", re.I)
_RE_FOR_GAP = re.compile(r"\s+for\s+(?:about\s+|around\s+|like\s+)?", re.I)
_RE_ACTIVITY_LICENCE = re.compile(rf"\b(?:{alternation(_V.activity_hours)})\s+$", re.I)
_RE_LINK = re.compile(
    rf"(?:[\s,.:;!?—–*-]|\b(?:or|{_CONTRAST}|{alternation(_V.correction_markers)}|i meant|i mean|make it|at)\b)+", re.I)


def usual_hours(text: str) -> Hours | None:
    """The usual hours of the first activity ``text`` names ("Dinner with Tom" → (17, 24)), else ``None``."""
    if text.isascii() and tokens(text).isdisjoint(_ACTIVITY_FIRST):
        return None  # no activity's first word: the pattern cannot match (a set test before the regex)
    m = _RE_ACTIVITY.search(text)
    return _V.activity_hours[m.group(1).lower()] if m else None


def prefer(cands: Iterable[Clock], *hints: Hours | None) -> Clock:
    """The reading of an hour without am/pm: the one candidate inside the first hint that has
    exactly one, else the common default (1-7 afternoon or evening, 8-11 morning)."""
    options = set(cands)
    for hours in hints:
        if hours is not None:
            inside = [c for c in options if hours[0] <= c[0] < hours[1]]
            if len(inside) == 1:
                return inside[0]
    return default_pick(options)


def _hm(h: str, m: str | None, sep: str | None) -> set[Clock]:
    """The candidates of a number read as a clock time: 1-12 both halves, 0 and 13-23 with minutes
    only; a zero-padded hour with minutes ("07:00") is a 24-hour clock."""
    hour, minute = int(h), int(m or 0)
    if minute > 59 or (sep == "." and minute % 15) or hour > 23:
        return set()
    if sep == ":" and h.startswith("0"):
        return {(hour, minute)}
    if not 1 <= hour <= 12:
        return {(hour, minute)} if sep == ":" else set()
    return both_halves(hour, minute)


def _negative(text: str, start: int, end: int) -> bool:
    """A number that is a price, a count, an address or a unit, not a clock time."""
    before = text[max(0, start - 16):start]
    if before.endswith(("£", "$", "€", "#")):
        return True
    if _RE_COUNT_BEFORE.search(before):
        of = _RE_TIME_AFTER_OF.search(before)  # "instead of 7" is a time, "2 people instead of 3" a count
        if not of or _RE_COUNT_CONTRAST.search(text, 0, start - len(before) + of.start()):
            return True
    if _RE_FOLLOWER.match(text, end) or _RE_MONTH_AFTER.match(text, end):
        return True
    if _RE_ADDRESS_CAPS.match(text, end) and _RE_ADDRESS.match(text, end):
        return True
    m = _RE_ADDRESS_LOWER.match(text, end)
    return bool(m and not any(w.lower() in _V.anchor_stops for w in m.group(0).split()[:-1]))


def read_clocks(text: str, days: list[DayMention], parts: list[PartOfDay], taken: list[tuple[int, int]],
                hint: Hours | None = None, durations: Sequence[Duration] = ()) -> list[ClockMention]:
    """The clock times of ``text``; ``taken`` are spans already read as something else (days,
    durations, relative times), ``hint`` the caller's usual hours for the event, ``durations``
    the durations read ("6 for 2 hours": the number before "for" and a duration is a start)."""
    lengths = frozenset(d.start for d in durations)
    part = next((p.hours for p in parts), None)
    activity = usual_hours(text)
    out: list[ClockMention] = []

    def free(a: int, b: int) -> bool:
        return not any(x < b and a < y for x, y in taken) and not any(
            c.start < b and a < c.end and (c.start, c.end) != (a, b) for c in out)

    def pick(cands: set[Clock], a: int, b: int) -> Clock:
        return prefer(cands, _local_part(text, a, b, parts), _local_activity(text, a, b), hint, part, activity)

    def in_part(cands: frozenset[Clock], a: int, b: int) -> frozenset[Clock]:
        """The candidates a part of the day said right next to the time allows ("10 in the morning")."""
        near = _local_part(text, a, b, parts) if len(cands) > 1 else None
        kept = frozenset(c for c in cands if near is not None and near[0] <= c[0] < near[1])
        return kept or cands

    def approx(a: int, b: int) -> bool:
        return bool(_RE_APPROX.search(text[max(0, a - 20):a]) or _RE_APPROX_AFTER.match(text, b)
                    or re.match(r"(?:around|about|roughly|like|approx)\b", text[a:b], re.I) or "ish" in text[a:b])

    legacy = time_spans(text)
    arrival = "rriv" in text  # the one test before the arrival pattern ("arrives", "Arrival")
    back = "back" in text or "Back" in text
    digits = bool(_RE_DIGIT.search(text))
    ranges = _ranges(text, days, parts, hint, activity, pick) if digits else []
    for s in legacy:
        phrase = text[s.start:s.end]
        bare = not _RE_EXPLICIT.search(phrase)
        if any(r.start < s.end and s.start < r.end for r in ranges) and not _RE_AMPM.search(phrase):
            continue  # "7 till 10", "7:30-9": the range reads both
        number = list(re.finditer(r"\d+", phrase))
        at = s.start + number[-1].start() if number else s.start
        ends_in_number = bool(number) and number[-1].end() == len(phrase)
        if not free(s.start, s.end) or bare and ends_in_number and _negative(text, at, s.end):
            continue
        times = in_part(s.times, s.start, s.end)
        if _RE_PADDED.fullmatch(phrase):  # "05:00", "09:30": a 24-hour clock
            times = frozenset({(int(phrase[:2]), int(phrase[3:]))})
        twin = any(o is not s and o.start == s.start for o in legacy)  # "7-9pm": its own start and end
        best = next(iter(times)) if len(times) == 1 else s.best if twin else pick(set(times), s.start, s.end)
        # "till 10" alone ends something; so do an arrival and a return ("back by 2")
        role = "end" if _RE_UNTIL.match(phrase) or arrival and _RE_ARRIVAL_BEFORE.search(
            text, max(0, s.start - 120), s.start) or back and any(
                _RE_BACK_BEFORE.search(text, max(0, x - 160), x) for x in (s.start, at)) else s.role
        out.append(ClockMention(s.start, s.end, times, best, role, bare or len(times) > 1,
                                approx(s.start, s.end)))
    for r in ranges:
        if free(r.start, r.end):
            out.append(r)
    for m in _RE_NUMBER.finditer(text) if digits else ():
        cands = _hm(m.group(1), m.group(2), "." if m.group(2) else None)
        dotted = not cands and m.group(2) is not None and 1 <= int(m.group(1)) <= 12 and int(m.group(2)) < 60
        if dotted:
            cands = _hm(m.group(1), m.group(2), ":")  # "5.20", licensed by its context below, not by its form
        if not cands or not free(m.start(), m.end()) or _negative(text, m.start(), m.end()):
            continue
        if not (m.group(2) and not dotted or _licensed(text, m, days, parts, lengths)):
            continue  # "7.30" (quarter hours after a dot) is a time by its form; "5.20 thurs" by its day
        role = "end" if _RE_END_BEFORE.search(text, max(0, m.start() - 14), m.start()) or back and (
            _RE_BACK_BEFORE.search(text, max(0, m.start() - 160), m.start())) else "start"
        kept = in_part(frozenset(cands), m.start(), m.end())
        out.append(ClockMention(m.start(), m.end(), kept, pick(set(kept), m.start(), m.end()), role,
                                True, approx(m.start(), m.end())))
    for m in _RE_HOUR_WORD.finditer(text) if tokens(text) & _HOUR_WORD_SET else ():
        cands = _word_clock(m)
        if cands and free(m.start(), m.end()) and not _negative(text, m.start(), m.end()):
            agreed = _RE_WORD_AGREE.match(text, m.end()) and not _RE_DET_BEFORE.search(text, max(0, m.start() - 10),
                                                                                         m.start())
            if m.group(1) or m.group(3) or m.group(4) or agreed:  # "at seven", "sevenish", "seven's good"
                out.append(ClockMention(m.start(), m.end(), frozenset(cands), pick(cands, m.start(), m.end()),
                                        "start", True, approx(m.start(), m.end())))
    out.sort(key=lambda c: (c.start, c.role != "start"))
    if not (part or hint or activity):
        out = _same_half(text, out)
    return _ends(text, out)


def hours_matter(text: str, clocks: Sequence[ClockMention]) -> bool:
    """Whether :func:`read_clocks` of ``text`` with a ``hint`` may differ from ``clocks``, its reading
    without one. The hint enters in three places only: the pick among an hour's candidates (one
    candidate is picked whatever the hint), the licence of a range without am/pm (none without a
    match of its pattern) and the same-half rule (only for hours of two candidates); what is found
    does not depend on it otherwise. So when every clock time read without a hint has one candidate
    and the text holds no bare range, the reading with any hint is the same."""
    return any(len(c.times) > 1 for c in clocks) or _RE_RANGE.search(text) is not None


def _local_part(text: str, a: int, b: int, parts: list[PartOfDay]) -> Hours | None:
    """The part of the day said right next to a time ("8 tonight", "sat morning at 9")."""
    for p in parts:
        if p.end <= a and not text[p.end:a].strip(" ,@at") or b <= p.start and not text[b:p.start].strip(" ,"):
            return p.hours
    return None


_RE_ACTIVITY_BEFORE = re.compile(rf"\b({alternation(_V.activity_hours)})(?:'s)?\s*(?:at|@|,|around|about)?\s*$", re.I)
_RE_ACTIVITY_AFTER = re.compile(rf"\s*(?:for\s+)?({alternation(_V.activity_hours)})\b", re.I)


def _local_activity(text: str, a: int, b: int) -> Hours | None:
    """The usual hours of an activity named right next to a time ("dinner at 7", "brunch 11?", "8 drinks?")."""
    m = _RE_ACTIVITY_BEFORE.search(text, max(0, a - 24), a) or _RE_ACTIVITY_AFTER.match(text, b)
    return _V.activity_hours[m.group(1).lower()] if m else None


def _word_clock(m: re.Match[str]) -> set[Clock]:
    lead = (m.group(1) or "").lower()
    h = _HOUR_WORDS[m.group(2).lower()]
    tail = (m.group(3) or "").lower().replace("-", " ")
    if lead.startswith("half"):
        return both_halves(h, 30) if not tail else set()
    if lead.startswith("quarter"):
        return set() if tail else both_halves(h, 15) if lead.endswith("past") else both_halves((h - 2) % 12 + 1, 45)
    minute = {"thirty": 30, "fifteen": 15, "forty five": 45}.get(tail, 0)
    return both_halves(h, minute)


def _licensed(text: str, m: re.Match[str], days: list[DayMention], parts: list[PartOfDay],
              lengths: frozenset[int] = frozenset()) -> bool:
    """Whether the context makes a bare number a clock time (see the module docstring); ``lengths``
    are where the durations of the message begin."""
    a, b = m.start(), m.end()
    before, after = text[max(0, a - 40):a], text[b:]
    for d in days:
        if d.end <= a and _RE_DAY_GAP_BEFORE.fullmatch(text, d.end, a):
            return True
        if b <= d.start and _RE_DAY_GAP_AFTER.fullmatch(text, b, d.start):
            return True
    if any(p.end <= a and _RE_DAY_GAP_BEFORE.fullmatch(text, p.end, a)
           or b <= p.start and _RE_DAY_GAP_AFTER.fullmatch(text, b, p.start) for p in parts):
        return True
    if _RE_ONLY.fullmatch(text, b) and (_RE_ONLY.fullmatch(text, 0, a) or re.search(r",\s*$", before)):
        return True  # the whole message, "8?", or its last word after a comma, "my place, 7"
    return bool(_RE_PROPOSAL.search(before) or _RE_APPROX.search(before) or _RE_APPROX_AFTER.match(text, b)
                or _RE_AGREEMENT.match(after) or _RE_CONTRAST_AFTER.match(after) or _RE_CONTRAST_BEFORE.search(before)
                or _RE_CORRECTION_BEFORE.search(before) or _RE_OPTION_AFTER.match(after) or _RE_OR_BEFORE.search(before)
                or _RE_CORRECTION_AFTER.match(after) or _RE_UNTIL_BEFORE.search(before) or _RE_EMOJI_AFTER.match(after)
                or re.match(r"\s*\*", after) and _RE_ONLY.fullmatch(text, 0, a)
                or _more_licences(text, a, b, before, lengths))


def _more_licences(text: str, a: int, b: int, before: str, lengths: frozenset[int]) -> bool:
    """The rarer contexts of a bare number: a duration after it, a place after it at the start of
    a sentence, a relay, a label, "at", an activity before it."""
    if lengths and (gap := _RE_FOR_GAP.match(text, b)) and gap.end() in lengths:
        return True  # "6 for 2.5h", "got the time, 3 for 45 min"
    if _RE_AT_PLACE_AFTER.match(text, b) and (_RE_ONLY.fullmatch(text, 0, a) or _RE_SENTENCE_BEFORE.search(before)):
        return True  # "5 at the tap fri", "always. 7 at goals"
    return bool(_RE_RELAY.search(before) or _RE_LABEL.search(before) or _RE_AT_BEFORE.search(before)
                or _RE_ACTIVITY_LICENCE.search(before))  # "mom says 11", "time: 8", "at 6 that day", "drinks 8"


def _ranges(text: str, days: list[DayMention], parts: list[PartOfDay], hint: Hours | None, activity: Hours | None,
            pick: Callable[[set[Clock], int, int], Clock]) -> list[ClockMention]:
    """Ranges without am/pm ("7-9", "from 7 till 10", "between 6 and 8")."""
    out: list[ClockMention] = []
    context = bool(days or parts or hint or activity)
    for m in _RE_RANGE.finditer(text):
        lead, sep = (m.group(1) or "").lower(), m.group(5).lower()
        if sep == "and" and lead != "between":
            continue
        licensed = (lead or context or _RE_ONLY.fullmatch(text, 0, m.start()) or _RE_AGREEMENT.match(text, m.end())
                    or _RE_PROPOSAL.search(text, 0, m.start())
                    or _RE_ONLY.fullmatch(text, m.end()) and re.search(r",\s*$", text[:m.start()]))  # "sure, 2-3"
        if sep in ("-", "–") and not licensed:
            continue  # "we lost 3-5": a score
        if _negative(text, m.start(2), m.end()) or _RE_MONTH_AFTER.match(text, m.end()):
            continue
        starts, ends = _hm(m.group(2), m.group(4), m.group(3)), _hm(m.group(6), m.group(8), m.group(7))
        if (not starts or not ends) and m.group(3) is None and m.group(7) is None and (days or lead) and (
                7 <= int(m.group(2)) < int(m.group(6)) <= 23 and int(m.group(6)) >= 13):
            starts, ends = {(int(m.group(2)), 0)}, {(int(m.group(6)), 0)}  # "wed, 17-19": hours of the 24-hour day
        if not starts or not ends:
            continue
        s = pick(starts, m.start(), m.end())
        later = sorted(e for e in ends if 0 < (e[0] * 60 + e[1]) - (s[0] * 60 + s[1]) <= 12 * 60)
        if not later:
            continue
        bare_s, bare_e = m.group(3) != ":", m.group(7) != ":"
        out.append(ClockMention(m.start(), m.end(), frozenset(starts), s, "start", bare_s))
        out.append(ClockMention(m.start(), m.end(), frozenset(ends), later[0], "end", bare_e))
    return out


def _same_half(text: str, clocks: list[ClockMention]) -> list[ClockMention]:
    """Two bare hours offered or corrected against each other ("7 or 8?", "8 not 7") are read in
    the same half of the day: the default reads 7 as 19:00 but 8 as 08:00, so both go to the evening."""
    out = list(clocks)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if not (a.bare and b.bare and len(a.times) == len(b.times) == 2 and _RE_LINK.fullmatch(text, a.end, b.start)):
            continue
        close = abs(a.best[0] % 12 - b.best[0] % 12) <= 2  # "7 or 8", not "10 or 2"
        if close and (a.best[0] < 12) != (b.best[0] < 12):
            out[i], out[i + 1] = (replace(c, best=max(c.times)) for c in (a, b))
    return out


def _ends(text: str, clocks: list[ClockMention]) -> list[ClockMention]:
    """An end ("till 10", "until half 9") after a start reads as the first candidate after that start."""
    out: list[ClockMention] = []
    for c in clocks:
        starts = [o for o in out if o.role == "start" and o.start < c.start]
        near = starts and c.start - starts[-1].end <= 30 and not re.search(r"[.?!]", text[starts[-1].end:c.start])
        if c.role == "end" and near and len(c.times) > 1 and not any(o.start == c.start for o in out):
            s = starts[-1].best
            later = sorted(t for t in c.times if t > s)
            c = ClockMention(c.start, c.end, c.times, later[0] if later else c.best, "end", c.bare, c.approximate)
        out.append(c)
    return out
