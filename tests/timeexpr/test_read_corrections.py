"""Self-corrections: the corrected value wins, the value corrected away is retracted."""

from __future__ import annotations

from datetime import date, datetime

from proevent.timeexpr import read

REF = datetime(2026, 3, 10, 9, 0)  # Tuesday; Wed 11, Thu 12, Fri 13, Sat 14


def test_wait_no_8_not_7():
    r = read("wait no, 8 not 7", REF)
    assert r.start_time() == (20, 0)  # read in the same half as the 7 it corrects
    assert r.retracted_times() == {(19, 0)}
    assert [(c.corrects, c.retracted) for c in r.clocks] == [(True, False), (False, True)]
    assert (7, 0) not in r.times() and (19, 0) not in r.times()


def test_the_event_hours_read_both_sides():
    r = read("8 not 7, sorry", REF, (17, 24))
    assert (r.start_time(), r.retracted_times()) == ((20, 0), {(19, 0)})


def test_sorry_i_meant_thursday_alone_is_a_correction_of_an_earlier_message():
    r = read("sorry I meant thursday", REF)
    assert r.day() == date(2026, 3, 12)
    assert r.days[0].corrects and not r.days[0].retracted


def test_a_day_corrected_in_the_same_message():
    r = read("thursday not wednesday", REF)
    assert r.day() == date(2026, 3, 12) and r.retracted_dates() == {date(2026, 3, 11)}
    r = read("fri, wait no, sat", REF)
    assert r.day() == date(2026, 3, 14) and r.retracted_dates() == {date(2026, 3, 13)}


def test_a_marker_retracts_every_earlier_value_of_its_kind():
    r = read("let's do 7 — wait no, 8", REF)
    assert r.start_time() == (20, 0) and r.retracted_times() == {(19, 0)}


def test_explicit_and_bare_sides():
    r = read("8pm not 7", REF)
    assert r.start_time() == (20, 0) and r.retracted_times() == {(19, 0)}
    r = read("not 7, 8", REF)
    assert r.start_time() == (20, 0) and r.retracted_times() == {(19, 0)}


def test_an_asterisk_corrects():
    r = read("*8", REF)
    assert r.clocks[0].corrects


def test_an_apology_that_refuses_is_not_a_correction():
    r = read("sorry fri doesn't work", REF)
    assert not any(d.corrects or d.retracted for d in r.days)
    r = read("sorry, running late", REF)
    assert r.clocks == () and r.days == ()


def test_instead_of_keeps_the_proposed_value():
    r = read("climbing wed instead of fri?", REF)
    assert r.day() == date(2026, 3, 11) and r.retracted_dates() == {date(2026, 3, 13)}
