"""Clock times as chats write them: bare hours read from context, approximations, ranges, ends.

Reference: Tuesday 2026-03-10 09:00 (Fri 13, Sat 14, Sun 15 March).
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from proevent.timeexpr import read, usual_hours

REF = datetime(2026, 3, 10, 9, 0)
DINNER = (17, 24)


def starts(text: str, hint: tuple[int, int] | None = None) -> list[tuple[int, int]]:
    return [c.best for c in read(text, REF, hint).clocks if c.role == "start"]


@pytest.mark.parametrize(
    ("text", "best", "cands"),
    [
        ("fri 8?", (8, 0), {(8, 0), (20, 0)}),
        ("9 works", (9, 0), {(9, 0), (21, 0)}),
        ("dinner at 7", (19, 0), {(7, 0), (19, 0)}),
        ("run sat 9?", (9, 0), {(9, 0), (21, 0)}),
        ("8?", (8, 0), {(8, 0), (20, 0)}),
        ("say 6", (18, 0), {(6, 0), (18, 0)}),
        ("can we do 4 instead", (16, 0), {(4, 0), (16, 0)}),
        ("8 tmrw?", (8, 0), {(8, 0), (20, 0)}),
        ("my place, 7", (19, 0), {(7, 0), (19, 0)}),
        ("7.30 at the pub?", (19, 30), {(7, 30), (19, 30)}),
        ("see you at seven", (19, 0), {(7, 0), (19, 0)}),
        ("half seven?", (19, 30), {(7, 30), (19, 30)}),
        ("seven's good", (19, 0), {(7, 0), (19, 0)}),
        ("9 👍", (9, 0), {(9, 0), (21, 0)}),
        ("bear peak 7 ✔️", (19, 0), {(7, 0), (19, 0)}),
    ],
)
def test_bare_hours_read_from_context(text, best, cands):
    clocks = read(text, REF).clocks
    assert len(clocks) == 1
    assert clocks[0].bare
    assert clocks[0].best == best
    assert clocks[0].times == cands


def test_the_event_usual_hours_decide_a_bare_hour():
    assert starts("fri 8?") == [(8, 0)]
    assert starts("fri 8?", DINNER) == [(20, 0)]
    assert starts("9 works", (17, 24)) == [(21, 0)]
    assert starts("9 works", (6, 12)) == [(9, 0)]
    # a hint that fits both readings, or neither, leaves the common default
    assert starts("9 works", (0, 24)) == [(9, 0)]
    assert starts("9 works", (13, 15)) == [(9, 0)]


def test_words_of_the_message_decide_before_the_default():
    assert starts("dinner 8?") == [(20, 0)]  # an activity next to the time
    assert starts("8 tonight") == [(20, 0)]  # a part of the day
    assert starts("sat morning at 7") == [(7, 0)]
    assert starts("breakfast at 8") == [(8, 0)]
    # the part of the day said next to the time wins over the caller's usual hours
    assert starts("tmrw morning at 9?", DINNER) == [(9, 0)]


def test_usual_hours_of_a_description():
    assert usual_hours("Dinner with Tom") == (17, 24)
    assert usual_hours("Team standup") == (8, 12)
    assert usual_hours("Project review with Ana") is None


@pytest.mark.parametrize(
    ("text", "best"),
    [("7ish", (19, 0)), ("around 8", (8, 0)), ("about 8?", (8, 0)), ("8 or so", (8, 0)), ("like 6?", (18, 0)),
     ("9.30ish", (9, 30))],
)
def test_approximate_times_count_as_that_time(text, best):
    (clock,) = read(text, REF).clocks
    assert clock.approximate and clock.best == best


def test_exact_times_are_not_approximate():
    assert not any(c.approximate for c in read("7pm at rosa's", REF).clocks)


@pytest.mark.parametrize(
    ("text", "hint", "start", "end"),
    [
        ("7-9", None, (19, 0), (21, 0)),
        ("9 till 1", None, (9, 0), (13, 0)),
        ("from 7 to 9:30", None, (19, 0), (21, 30)),
        ("between 6 and 8", None, (18, 0), (20, 0)),
        ("sat 11-2", None, (11, 0), (14, 0)),
        ("8-10", DINNER, (20, 0), (22, 0)),
        ("7pm until half 9", None, (19, 0), (21, 30)),
        ("at 7 till 10", None, (19, 0), (22, 0)),
        ("4 am til 5", None, (4, 0), (5, 0)),
        ("7-9pm", None, (19, 0), (21, 0)),
        ("from 09:00 to 17:45", None, (9, 0), (17, 45)),
    ],
)
def test_ranges_and_end_times(text, hint, start, end):
    r = read(text, REF, hint)
    assert (r.start_time(), r.end_time()) == (start, end)


def test_an_end_alone_is_an_end():
    r = read("till 10", REF)
    assert [c.role for c in r.clocks] == ["end"]
    assert r.start_time() is None and r.end_time() == (10, 0)


def test_an_end_far_from_the_start_is_not_paired():
    r = read("can we push to 11? stuck on a train till 10:30", REF)
    assert r.start_time() == (11, 0) and r.end_time() is None


def test_a_duration_gives_the_end():
    r = read("fri 7pm for two hours", REF)
    assert (r.start_time(), r.end_time()) == ((19, 0), (21, 0))


def test_options_are_read_in_the_same_half_of_the_day():
    assert starts("7 or 8?") == [(19, 0), (20, 0)]
    assert starts("wed 10 or 2?") == [(10, 0), (14, 0)]


def test_a_padded_time_is_a_24_hour_clock():
    (clock,) = read("push it to 05:00", REF).clocks
    assert clock.times == {(5, 0)} and clock.best == (5, 0)


def test_explicit_forms_keep_their_single_reading():
    assert [c.times for c in read("19:00 or 7:30pm or noon", REF).clocks] == [{(19, 0)}, {(19, 30)}, {(12, 0)}]


def test_the_day_comes_with_the_time():
    r = read("fri 8?", REF, DINNER)
    assert r.day() == date(2026, 3, 13) and r.start_time() == (20, 0)


@pytest.mark.parametrize(
    ("text", "clocks", "minutes"),
    [
        ("yoga from 18h30 till 19h30", [((18, 30), "start"), ((19, 30), "end")], []),  # "18h30": a clock
        ("dinner at 20h", [((20, 0), "start")], []),  # a 24-hour "h" after "at"
        ("rdv 7h45 devant la gare", [((7, 45), "start")], []),  # (both halves kept, as for "7:45")
        ("the drive takes 1h30", [], [90]),  # small hours with minutes: a length
        ("for 2h", [], [120]),
        ("for 8h30 straight", [], [510]),  # after "for": a length, whatever the hour
        ("14h I'm at the site 😕 15h?", [((14, 0), "start"), ((15, 0), "start")], []),  # bare 13h-23h: clocks
        ("15h fechado", [((15, 0), "start")], []),
        ("the flight takes 14h", [], [840]),  # a length asked for
        ("for 16h straight", [], [960]),
        ("à 20 h devant la gare", [((20, 0), "start")], []),  # a space before the "h" too
        ("a drive of 15h", [], [900]),  # after "of": a length
        ("a 9h flight", [], [540]),  # below 13h without minutes: a length ...
        ("it takes 10h to drive", [], [600]),
        ("9h", [((9, 0), "start")], []),  # ... unless it is all a short message says ("fechou, 10h")
        ("fechou, 10h", [((10, 0), "start")], []),
        ("got us 10h in the morning, 1h. who's in?", [((10, 0), "start")], [60]),  # or a part of the day follows
        ("see u at 9h", [((9, 0), "start")], []),  # or "at" leads
    ],
)
def test_a_clock_written_with_h_is_read_as_a_clock_and_a_length_stays_a_length(text, clocks, minutes):
    r = read(text, REF)
    assert [(clock in c.times, c.role) for c, (clock, _) in zip(r.clocks, clocks, strict=False)] == [
        (True, role) for _, role in clocks]
    assert len(r.clocks) == len(clocks)
    assert [d.minutes for d in r.durations] == minutes


@pytest.mark.parametrize(
    ("text", "sent", "day"),
    [
        ("your booking is changed: 30/4 at 14:30", datetime(2026, 4, 20, 9), date(2026, 4, 30)),  # month 30: day/month
        ("on 4/30 at 2pm", datetime(2026, 4, 20, 9), date(2026, 4, 30)),  # month/day
        ("your table is now Friday 10/4 at 21:00", datetime(2026, 4, 7, 9), date(2026, 4, 10)),  # the Friday
        ("see you 2/5 at 3pm", datetime(2026, 4, 20, 9), date(2026, 5, 2)),  # both dates: the coming one
        ("ref 12/05/2026", datetime(2026, 4, 20, 9), date(2026, 5, 12)),
        ("open 24/7", datetime(2026, 4, 20, 9), None),
        ("rated it 4/5", datetime(2026, 4, 20, 9), None),
        ("5/6 of us", datetime(2026, 4, 20, 9), None),
    ],
)
def test_a_date_in_figures_is_read_where_it_reads_as_a_date(text, sent, day):
    assert read(text, sent).day() == day


def test_the_weekend_of_given_dates_is_those_dates():
    r = read("your reservation for the weekend of 21-22 March is confirmed", datetime(2026, 3, 10, 20))
    assert [(x.first, x.last) for x in r.ranges] == [(date(2026, 3, 21), date(2026, 3, 22))]


def test_the_midnight_sun_is_no_time():
    assert read("midnight sun makes me stupid", datetime(2026, 7, 8, 23)).clocks == ()
    assert [c.best for c in read("back by midnight", datetime(2026, 7, 8, 20)).clocks] == [(0, 0)]


@pytest.mark.parametrize(("text", "roles"), [
    ("sunday 10 at the park, back by 2", [((10, 0), "start"), ((14, 0), "end")]),
    ("meeting at 8:30 at the hall, back in the city around 19:00", [((8, 30), "start"), ((19, 0), "end")]),
    ("i'm back at 5, dinner at 7?", [((17, 0), "start"), ((19, 0), "start")]),  # no start before the return
])
def test_a_return_after_a_start_is_its_end(text, roles):
    assert [(c.best, c.role) for c in read(text, REF).clocks] == roles


def test_a_range_of_whole_24_hour_hours_is_a_clock_range_beside_a_day_only():
    r = read("ok done. got group room 5 again for wed, 17-19", REF)
    assert [(c.best, c.role) for c in r.clocks] == [((17, 0), "start"), ((19, 0), "end")]
    assert read("we'll take 16-17 please", REF).clocks == ()  # days of a stay, as likely as hours
    assert read("we lost 13-15", REF).clocks == ()


@pytest.mark.parametrize(("text", "best"), [
    ("interview moved to 5.20 thurs 👍", (17, 20)),  # a dotted time that is no quarter hour, beside a day
    ("5.20 please!", (17, 20)),  # or as the whole answer
    ("can do 4.50 or 5.20 on Thursday", (16, 50)),
])
def test_a_dotted_time_off_the_quarter_hours_is_read_where_its_context_makes_it_one(text, best):
    assert read(text, REF).clocks[0].best == best


@pytest.mark.parametrize("text", ["it was 5.20 for the coffee", "costs 12.99", "the 3.40 slot"])
def test_a_dotted_number_off_the_quarter_hours_is_no_time_without_such_a_context(text):
    assert read(text, REF).clocks == ()


def test_a_room_abbreviated_rm_is_no_time():
    assert [c.best for c in read("booked for 5.20pm Thursday in Rm 12 🙂", REF).clocks] == [(17, 20)]
