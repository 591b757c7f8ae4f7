"""The whole-message gate of :func:`proevent.timeexpr.read`: a message it lets through unread
(no digit, none of the words the readers need) must be one the full reader finds nothing in,
so gated and ungated reading are the same on every text."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.generate import GeneratorConfig, generate_dataset
from proevent.io import load_dataset
from proevent.timeexpr import Reading, read, vocabulary
from proevent.timeexpr.reader import NEEDED, nothing_to_read, read_all
from proevent.timeexpr.vocabulary import fold
from proevent.timeexpr.vocabulary import tokens as vocabulary_tokens

ROOT = Path(__file__).resolve().parents[2]
REF = datetime(2026, 3, 10, 21, 30)  # a Tuesday evening


def _vocabulary_words() -> list[str]:
    """Every word and phrase of the vocabulary file: the material any reader pattern is made of."""
    v = vocabulary()
    out: list[str] = []
    for value in vars(v).values():
        items = value.keys() if isinstance(value, dict) else value if isinstance(value, (tuple, frozenset)) else ()
        out += [w for w in items if isinstance(w, str)]
    return sorted(set(out))


WORDS = _vocabulary_words()
FILLER = ["lol", "ok", "sounds good", "see you", "the", "at", "in the", "on", "next", "this", "it", "mine",
          "half", "quarter", "past", "to", "o'clock", "oclock", "ish", "-ish", "or", "not", "wait no", "*", "@", "£",
          "x", "am", "a.m.", "p.m", "pm", "st", "nd", "th", ":", ".", "-", "2026-03-14", "7:30", "dinner", "brunch",
          "2h", "1h30", "90min", "2-hour", "fri-sat", "mon and wed", "sat to sat", "–", "—",
          "->", "thru", "12-14", "may 3-5", "the 12th-14th"]
PIECES = st.one_of(st.sampled_from(WORDS), st.sampled_from(FILLER), st.sampled_from(sorted(NEEDED)),
                   st.text(alphabet="aeioustnrlmkıİſK’'-_ .,!?é🙂\n", max_size=6),
                   st.text(max_size=4), st.integers(0, 40).map(str))
SEPARATORS = st.sampled_from([" ", "  ", ", ", "-", "", "'", "’", "_", "é", "!", "\n"])
TEXTS = st.lists(st.tuples(PIECES, SEPARATORS), max_size=8).map(lambda xs: "".join(p + s for p, s in xs))


def _empty(r: Reading) -> bool:
    return not (r.days or r.clocks or r.parts or r.durations or r.relatives or r.ranges)


def _agree(text: str, ref: datetime, hours: tuple[int, int] | None = None) -> None:
    full = read_all(text, fold(text), ref, hours)
    assert read(text, ref, hours) == full
    if nothing_to_read(fold(text)):
        assert _empty(full), text


@settings(max_examples=600, deadline=None)
@given(TEXTS, st.sampled_from([str.lower, str.upper, str.title, lambda s: s]),
       st.integers(0, 6 * 24 * 4).map(lambda q: REF + timedelta(minutes=15 * q)),
       st.sampled_from([None, (17, 24), (7, 11)]))
def test_gated_reading_equals_full_reading_on_random_text(text: str, case, ref: datetime, hours) -> None:
    _agree(case(text), ref, hours)


@pytest.mark.parametrize("folder", ["handwritten", "booking", "tiny"])
def test_gated_reading_equals_full_reading_on_written_chats(folder: str) -> None:
    ds = load_dataset(ROOT / "examples" / folder)
    for case in ds.cases:
        for step in case.steps:
            for m in step.messages:
                _agree(m.text, datetime.fromisoformat(m.time))
                _agree(m.text, datetime.fromisoformat(m.time), (17, 24))


def test_gated_reading_equals_full_reading_on_generated_chats(tmp_path: Path) -> None:
    ds = generate_dataset(GeneratorConfig(cases=40, seed=3), tmp_path / "gen")
    gated = 0
    for case in ds.cases:
        for step in case.steps:
            for m in step.messages:
                _agree(m.text, datetime.fromisoformat(m.time))
                gated += nothing_to_read(fold(m.text))
    assert gated > 0  # the gate is exercised, not only the full reader


@pytest.mark.parametrize("text", ["lol", "sounds good 🙂", "ok see you there", "can't wait!", "I am in", "may be"])
def test_texts_without_a_time_are_not_read(text: str) -> None:
    assert nothing_to_read(fold(text))
    assert _empty(read(text, REF))


@pytest.mark.parametrize("text", ["8?", "tmrw", "sat", "after work", "half an hour", "at seven", "noon",
                                  "this arvo", "in the morning", "all day", "this weekend", "2moro", "ſat",
                                  "\u212aick off at noon"])
def test_texts_with_a_digit_or_a_needed_word_are_read(text: str) -> None:
    assert not nothing_to_read(fold(text))
    assert not _empty(read(text, REF))


def _never(rx, text: str) -> None:
    assert rx.search(text) is None, (rx.pattern[:60], text)


@pytest.mark.parametrize("text", ["half an hourly", "quarter of an hourglass", "90minutes", "2h", "for 1h30"])
def test_the_duration_set_test_lets_through_what_the_pattern_reads(text: str) -> None:
    """The duration pattern's "half an hour" and "quarter of an hour" forms need no whole unit run
    ("half an hourly" reads half an hour): the set test lets them through by "half" and "quarter"."""
    from proevent.timeexpr import durations

    assert durations._RE_DURATION.search(text)
    assert not vocabulary_tokens(text).isdisjoint(durations._DURATION_RUNS)
    assert durations.read_durations(text)[0] or durations.read_durations(text)[1]


@settings(max_examples=600, deadline=None)
@given(TEXTS, st.sampled_from([str.lower, str.upper, str.title, lambda s: s]))
def test_a_pattern_skipped_by_its_set_test_cannot_match(text: str, case) -> None:
    """Each set test before a pattern (spans, usual hours) skips only patterns that cannot match."""
    from proevent.timeexpr import clock, days, spans

    t = fold(case(text))
    digits, words = spans._gates(t)
    if "-" not in t:
        _never(spans._RE_ISO_DATE, t)
    if not spans._may(words, spans._MONTH_WORDS):
        _never(spans._RE_MONTH_DAY, t)
        _never(spans._RE_DAY_MONTH, t)
    if not spans._may(words, spans._ORDINAL_SUFFIXES):
        _never(spans._RE_ORDINAL, t)
    if not spans._may(words, spans._AMPM_RUNS):
        for rx in (spans._RE_RANGE, spans._RE_DOT_AMPM, spans._RE_H_AMPM):
            _never(rx, t)
    if ":" not in t:
        _never(spans._RE_CLOCK, t)
    if "." not in t:
        _never(spans._RE_DOT_AMPM, t)
    for rx, needed in ((spans._RE_ISH, spans._ISH), (spans._RE_OCLOCK, spans._OCLOCK), (spans._RE_HALF, spans._HALF),
                       (spans._RE_QUARTER, spans._QUARTER), (spans._RE_WORDS, spans._CLOCK_WORDS)):
        if not spans._may(words, needed):
            _never(rx, t)
    if not spans._may(words, spans._BARE_LEADS) and "@" not in t:
        _never(spans._RE_BARE, t)
    raw = case(text)
    if raw.isascii() and vocabulary_tokens(raw).isdisjoint(clock._ACTIVITY_FIRST):
        _never(clock._RE_ACTIVITY, raw)
    if t.isascii() and vocabulary_tokens(t).isdisjoint(days._MONTH_RUNS):
        _never(days._RE_MONTH_RANGE, t)
    _check_range_and_duration_gates(raw)


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=date(2000, 1, 1), max_value=date(2098, 12, 31)), st.integers(1, 31), st.integers(0, 6))
def test_the_next_weekday_ordinal_found_month_by_month_is_the_first_of_400_days(today: date, n: int, wd: int) -> None:
    """``_next_on`` ("sun 21st") equals the day-by-day search it replaces."""
    from proevent.timeexpr.days import _next_on

    days_on = (today + timedelta(days=k) for k in range(400))
    assert _next_on(today, n, wd) == next((d for d in days_on if d.day == n and d.weekday() == wd), None)


HOURS = st.sampled_from([(17, 24), (7, 11), (11, 15), (0, 24), (5, 9), (12, 13), (20, 22)])


@settings(max_examples=600, deadline=None)
@given(TEXTS, st.sampled_from([str.lower, str.upper, lambda s: s]),
       st.integers(0, 6 * 24 * 4).map(lambda q: REF + timedelta(minutes=15 * q)), HOURS)
def test_a_reading_whose_hours_do_not_matter_is_the_reading_without_them(text: str, case, ref: datetime,
                                                                         hours: tuple[int, int]) -> None:
    """``read`` with usual hours returns the reading without them when no clock time of that reading
    has two candidates and the text holds no bare range (``clock.hours_matter``): the full reader
    with the hours finds the same."""
    from proevent.timeexpr.clock import hours_matter

    text = case(text)
    plain = read_all(text, fold(text), ref, None)
    hinted = read_all(text, fold(text), ref, hours)
    if not hours_matter(fold(text), plain.clocks):
        assert hinted == plain, text
    assert read(text, ref, hours) == hinted


@pytest.mark.parametrize("text", ["7pm?", "sat at 19:30", "dinner 7-9", "at 7", "8 or 9?", "7 till 10", "noon tmrw",
                                  "from 6:30pm to 8pm", "in 20 min", "2 hours"])
@pytest.mark.parametrize("hours", [(17, 24), (7, 11), (0, 24)])
def test_reading_with_usual_hours_is_the_full_reading(text: str, hours: tuple[int, int]) -> None:
    _agree(text, REF, hours)


def _check_range_and_duration_gates(text: str) -> None:
    from proevent.timeexpr import days, durations

    t = fold(text)
    words = vocabulary_tokens(t)
    if not days._has_to(t, words):
        _never(days._RE_MONTH_RANGE, t)
        _never(days._RE_NUM_RANGE, t)
    if not days._two_weekdays(t, words):
        _never(days._RE_WD_RANGE, t)
    if words.isdisjoint(durations._DURATION_RUNS):
        _never(durations._RE_DURATION, t)


@pytest.mark.parametrize("folder", ["handwritten", "booking", "tiny"])
def test_the_range_and_duration_set_tests_skip_no_written_match(folder: str) -> None:
    """The set tests before the weekday-range, number-range, month-range and duration patterns
    skip none that matches on the written chats (random texts: the test above)."""
    for case in load_dataset(ROOT / "examples" / folder).cases:
        for step in case.steps:
            for m in step.messages:
                _check_range_and_duration_gates(m.text)
