"""The offline rules baseline and its calendar arithmetic."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixtures import load_tiny
from proevent.agents import build_observation, create_agent
from proevent.agents.rules.cues import load_cues
from proevent.agents.rules.places import find_place, mask
from proevent.evaluate import evaluate
from proevent.io import load_run
from proevent.model import Timetable
from proevent.runner import run_agent
from proevent.timeexpr import add_duration, find_times, resolve_date

WEDNESDAY = datetime(2026, 3, 11, 10, 0)


@pytest.mark.parametrize(("text", "expected"), [
    ("next Friday", date(2026, 3, 20)),  # the following week's Friday (dateparser would say the 13th)
    ("Friday", date(2026, 3, 13)),
    ("this Friday", date(2026, 3, 13)),
    ("on Wednesday", date(2026, 3, 18)),  # a weekday named on that weekday is a week ahead
    ("tomorrow", date(2026, 3, 12)),
    ("the day after tomorrow", date(2026, 3, 13)),
    ("the 14th", date(2026, 3, 14)),
    ("the 2nd", date(2026, 4, 2)),
    ("April 3", date(2026, 4, 3)),
    ("3 April", date(2026, 4, 3)),
    ("in 3 days", date(2026, 3, 14)),  # dateparser
])
def test_resolve_date(text, expected):
    assert resolve_date(text, WEDNESDAY) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("hike on saturday, 9 till 1", [((9, 0), (13, 0))]),
    ("12:30 to 13:30 works", [((12, 30), (13, 30))]),
    ("7-9pm?", [((19, 0), (21, 0))]),
    ("at 7pm", [((19, 0), None)]),
    ("can we start at 8 instead", [((8, 0), None)]),
    ("meet at 3", [((15, 0), None)]),
    ("noon works", [((12, 0), None)]),
    ("no times here, room 12", []),
])
def test_find_times(text, expected):
    assert [(s, e) for _, s, e in find_times(text)] == expected


def test_add_duration():
    assert add_duration("2026-03-14T23:30", minutes=45) == "2026-03-15T00:15"
    assert add_duration("2026-03-14T09:00", hours=1, days=2) == "2026-03-16T10:00"


def test_rules_reads_an_agreed_time_change():
    case = load_tiny().case("tiny-01")
    obs = build_observation(case, 2, Timetable(case.steps[0].gold_timetable), mode="single")
    action = asyncio.run(create_agent("rules").act(obs))
    assert action.ops == [{"op": "update", "id": "e2", "attribute": "start", "value": "2026-03-14T08:00"}]


def test_rules_beats_null_on_recall_and_never_sees_gold(tmp_path):
    ds = load_tiny()
    metrics = {}
    for name in ("null", "rules"):
        run_agent(ds, name, tmp_path / name)
        metrics[name] = evaluate(ds, load_run(tmp_path / name), ci=False).metrics
    assert metrics["null"]["single"]["recall"] == 0.0
    assert metrics["rules"]["single"]["recall"] > 0.3
    assert metrics["rules"]["single"]["fdr"] == 0.0  # quiet steps stay quiet on this dataset
    assert metrics["rules"]["multi"]["esr"] > metrics["null"]["multi"]["esr"]


@pytest.mark.parametrize(("text", "expected"), [
    ("train trip next Wednesday, 7 AM until 9 AM at Emeryville Amtrak station, if that suits you.",
     "Emeryville Amtrak station"),
    ("Lunch on Thursday at Cafe Nero? 12:30?", "Cafe Nero"),
    ("at St. Mary's Hall.", "St. Mary's Hall"),
    ("sunday lunch is at kofi's now", "kofi's"),  # lower case kept as written
    ("your table for 5 at The Lord Nelson on Friday 8 May from 5:30pm is confirmed", "The Lord Nelson"),
    ("quick sync over zoom tmrw?", "Zoom"),
    ("at the moment I am busy", None),
    ("meet at 3", None),
    ("see you at the match", None),  # an event, not a place
])
def test_place_extraction(text, expected):
    ref = datetime(2026, 5, 5, 9)
    cues = load_cues()
    assert find_place(mask(text, ref), cues) == expected


@given(day=st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31)),
       weekday=st.sampled_from(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]))
def test_weekday_expressions_land_on_that_weekday_in_the_right_week(day, weekday):
    ref = datetime.combine(day, datetime.min.time()).replace(hour=10)
    bare, nxt = resolve_date(weekday, ref), resolve_date(f"next {weekday}", ref)
    assert bare.strftime("%A") == weekday == nxt.strftime("%A")
    assert 1 <= (bare - day).days <= 7  # the coming one, never today
    monday = day - timedelta(days=day.weekday())
    assert monday + timedelta(days=7) <= nxt < monday + timedelta(days=14)  # the following week


@given(st.text(alphabet="aAbeEoOsS’'ſKıİ !?.yY🙂", max_size=24))
def test_fold_fast_path_is_the_elongation_rule(text: str) -> None:
    """``fold`` skips its elongation regex when no letter stands three times: same result either way."""
    import re

    from proevent.agents.rules.cues import fold

    assert fold(text) == re.sub(r"([a-z])\1{2,}", r"\1", text.lower().replace("’", "'"), flags=re.I)
    assert fold("yesss") == "yes" and fold("Noooo!") == "no!" and fold("see you") == "see you"


def _kinds_by_search(text: str) -> frozenset[str]:
    cues = load_cues()
    return frozenset(k for k, rx in cues.phrases.items() if rx.search(text))


def _phrases_of(pattern: str) -> list[str]:
    import re

    body = pattern.removeprefix("(?<![\\w'])(?:").removesuffix(")(?![\\w'])")
    return [re.sub(r"\\(.)", r"\1", w) for w in body.split("|")]


_CUE_WORDS = sorted({w for rx in load_cues().phrases.values() for w in _phrases_of(rx.pattern)})


@given(st.lists(st.one_of(st.sampled_from(_CUE_WORDS), st.text(alphabet="ab'’ -_é!?,.🙂\n", max_size=5),
                          st.sampled_from(["can't", "sounds good", "i'm in", "no", "yes", "ok", "'s", "x"])),
                max_size=8).map(" ".join))
def test_kinds_after_the_token_index_are_the_kinds_a_search_finds(text: str) -> None:
    """``Cues.kinds_in`` finds one-token phrases by set tests and searches the other phrases only
    when all their tokens are in the text (``TokenIndex``): the kinds it finds are those a search of
    every pattern finds (on folded text)."""
    from proevent.agents.rules.cues import fold

    assert load_cues().kinds_in(fold(text)) == _kinds_by_search(fold(text))


def _written_texts(folder: str) -> list[str]:
    """Every message text of a hand-written example set (``examples/<folder>``)."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / folder / "cases.jsonl"
    return [m["text"] for line in path.read_text(encoding="utf-8").splitlines()
            for step in json.loads(line)["steps"] for m in step["messages"]]


@pytest.mark.parametrize("folder", ["handwritten", "booking"])
def test_kinds_of_the_written_messages_are_those_a_search_finds(folder: str) -> None:
    from proevent.agents.rules.cues import fold

    texts = _written_texts(folder)
    assert texts
    for text in texts:
        assert load_cues().kinds_in(fold(text)) == _kinds_by_search(fold(text)), text


def _activity_by_search(folded: str) -> str | None:
    """The first activity of the list whose pattern a search finds (what ``activity_of`` gives)."""
    import re

    for word in load_cues().activities:
        if re.search(rf"(?<![\w']){re.escape(word)}s?(?![\w'])", folded):
            return word
    return None


_ACTIVITY_WORDS = list(load_cues().activities)


@given(st.lists(st.one_of(st.sampled_from(_ACTIVITY_WORDS), st.sampled_from([w + "s" for w in _ACTIVITY_WORDS]),
                          st.text(alphabet="abcs'’ -_é!?,.🙂\n", max_size=5),
                          st.sampled_from(["catch", "up", "book", "check", "the", "my", "s", "'s", "x"])),
                max_size=8).map(" ".join))
def test_the_activity_found_by_its_tokens_is_the_first_a_search_finds(text: str) -> None:
    """``activity_of`` tries only the activities whose first token (or that token and an "s") is a
    token of the text, and matches a one-token activity by that alone: the same activity as a
    search of every pattern in the list's order."""
    from proevent.agents.rules.cues import fold
    from proevent.agents.rules.reading import activity_of

    assert activity_of(fold(text), load_cues()) == _activity_by_search(fold(text))


@pytest.mark.parametrize("folder", ["handwritten", "booking"])
def test_the_activity_of_the_written_messages_is_the_first_a_search_finds(folder: str) -> None:
    from proevent.agents.rules.cues import fold
    from proevent.agents.rules.reading import activity_of

    texts = _written_texts(folder)
    assert texts
    for text in texts:
        assert activity_of(fold(text), load_cues()) == _activity_by_search(fold(text)), text


_MARK_PIECES = ["straight after", "right after my", "just after the gym", "after", "where", "which place", "what place",
                "which spot", "any ideas for a place", "place tbc", "venue tbd", "location to be confirmed",
                "where undecided", "look for another place", "finding a new spot", "searching a different venue",
                "tba", "a new", "another", "spot", "place", "instead", "x"]


@given(st.lists(st.one_of(st.sampled_from(_MARK_PIECES), st.text(alphabet="aeiorstlp'’ -_é!?,.\n", max_size=6)),
                max_size=8).map(" ".join))
def test_substring_tests_before_the_marks_and_the_cleared_place_skip_only_texts_they_cannot_match(text: str) -> None:
    """``marks`` ("straight after X", "where") and the cleared-place test search their patterns only
    when the text holds a word each form needs: the same as searching every text."""
    from proevent.agents.rules.clues import _RE_AFTER, _RE_WHERE
    from proevent.agents.rules.clues import marks as _marks
    from proevent.agents.rules.cues import fold
    from proevent.agents.rules.reading import _CLEAR_PLACE_WORDS, _RE_CLEAR_PLACE, features

    folded = fold(text)
    f = features(text, datetime(2026, 3, 10, 9, 0), load_cues())
    after, where = _marks.__wrapped__(f)
    full = _RE_AFTER.search(folded)
    assert (after is None) == (full is None) and (after is None or after.span() == full.span())
    assert where == (_RE_WHERE.search(folded) is not None)
    if _RE_CLEAR_PLACE.search(folded):
        assert any(word in folded for word in _CLEAR_PLACE_WORDS)


_PART_PIECES = ["morning", "the afternoon one", "lunch time", "lunchtime", "arvo", "eve", "evening", "night", "nite",
                "tonight", "no standup thursday", "no practice tonight", "no rush tomorrow", "no", "sat", "thu", "x",
                "no yoga", "mornings", "pm"]


@given(st.lists(st.one_of(st.sampled_from(_PART_PIECES), st.text(alphabet="aeinorst'’ -_é!?,.\n", max_size=6)),
                max_size=8).map(" ".join))
def test_set_tests_before_the_part_words_and_no_event_keep_what_the_patterns_find(text: str) -> None:
    """The part-of-day words a message names without a day, and its "no standup thursday", are
    looked for only when the message holds what each pattern needs: the same as looking always."""
    from proevent.agents.rules.links import _part_pattern, _part_words
    from proevent.agents.rules.reading import _RE_NO_EVENT, _no_event_at, activity_of, features

    cues = load_cues()
    f = features(text, datetime(2026, 3, 10, 9, 0), cues)
    pattern, hours, _ = _part_pattern()
    assert _part_words(f) == [hours[m.group(0)] for m in pattern.finditer(f.folded)]
    r = f.reading
    starts = {d.start for d in r.days if not d.retracted} | {p.start for p in r.parts}
    assert _no_event_at(f.folded, r, cues) == [m.start(1) for m in _RE_NO_EVENT.finditer(f.folded)
                                               if m.end() in starts and activity_of(m.group(1), cues)]


@pytest.mark.parametrize("folder", ["handwritten", "booking"])
def test_the_substring_and_token_tests_skip_no_written_match(folder: str) -> None:
    """The tests before "straight after", "where", the cleared place, the part-of-day words and
    "no standup thursday" keep what the patterns find on the written chats."""
    from pathlib import Path

    from proevent.agents.rules.clues import _RE_AFTER, _RE_WHERE
    from proevent.agents.rules.clues import marks as _marks
    from proevent.agents.rules.links import _part_pattern, _part_words
    from proevent.agents.rules.reading import (
        _CLEAR_PLACE_WORDS,
        _RE_CLEAR_PLACE,
        _RE_NO_EVENT,
        _no_event_at,
        activity_of,
        features,
    )
    from proevent.io import load_dataset

    cues = load_cues()
    pattern, hours, _ = _part_pattern()
    for case in load_dataset(Path(__file__).resolve().parents[2] / "examples" / folder).cases:
        for step in case.steps:
            for m in step.messages:
                f = features(m.text, datetime.fromisoformat(m.time), cues)
                after, where = _marks.__wrapped__(f)
                full = _RE_AFTER.search(f.folded)
                assert (after is None) == (full is None) and (after is None or after.span() == full.span())
                assert where == (_RE_WHERE.search(f.folded) is not None)
                if _RE_CLEAR_PLACE.search(f.folded):
                    assert any(word in f.folded for word in _CLEAR_PLACE_WORDS)
                assert _part_words(f) == [hours[x.group(0)] for x in pattern.finditer(f.folded)]
                r = f.reading
                starts = {d.start for d in r.days if not d.retracted} | {p.start for p in r.parts}
                assert _no_event_at(f.folded, r, cues) == [x.start(1) for x in _RE_NO_EVENT.finditer(f.folded)
                                                           if x.end() in starts and activity_of(x.group(1), cues)]
