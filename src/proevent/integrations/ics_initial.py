"""An initial timetable taken from an ``.ics`` file (``--initial-ics``): a user's real calendar as S_0.

The generator builds cases with their own initial events; this module adds the events of an
iCalendar file to every case, *after* generation, without touching anything the cases already
hold:

- the events get ids ``ics-1``, ``ics-2`` ... in file order. They are not of the form ``e<n>``, so
  the id rule (the largest ``e<n>`` ever seen) and hence every gold id stay as they were;
- they are put in front of the initial timetable S_0 *and* of every gold timetable S_t (no gold
  operation touches them, so replaying the gold operations from the new S_0 gives exactly the
  new S_t; this is checked);
- the case's user is added to their participants when missing (the format says participants
  include the user);
- with ``align="week"`` every event is moved by whole weeks so that the earliest one falls in the
  week (Monday to Sunday) of the case's start, keeping weekdays and times of day; with
  ``align="none"`` the dates stay as in the file;
- times with a zone (``TZID``) or in UTC become wall times of the case's own ``timezone`` (or of
  ``timezone=`` when given): 17:00Z is 09:00 in a Los Angeles case in winter, not 17:00;
- a recurring event (``RRULE``/``RDATE``) becomes its occurrences within the case's span (from
  its start to the end of its last step; with ``align="week"`` the span is taken before the
  shift), each an event of its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Literal

from proevent.io import Dataset, FormatError, load_dataset, write_dataset
from proevent.io.ics import IcsError, first_start, has_recurring, ics_to_events
from proevent.model import Case, Event, Timetable
from proevent.model.times import format_date, format_time, is_date, parse_time

Align = Literal["none", "week"]
ALIGNS: tuple[str, ...] = ("none", "week")
ID_PREFIX = "ics-"


def load_initial_ics(path: str | Path, *, timezone: str | None = None,
                     horizon: tuple[str, str] | None = None) -> list[Event]:
    """The events of an ``.ics`` file with ids ``ics-1`` ... (file order; a recurring event's
    occurrences within ``horizon`` in time order, in its place).

    Raises:
        ValueError: the file is missing, is not iCalendar, has no event, or repeats an event
            and no ``horizon`` is given.
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p}: file not found")
    try:
        events = ics_to_events(p.read_bytes(), timezone=timezone, horizon=horizon)
    except IcsError as exc:
        raise ValueError(f"{p}: {exc}") from None
    if not events:
        raise ValueError(f"{p}: no VEVENT in the calendar" + (" within the case's span" if horizon else ""))
    return [ev.model_copy(update={"id": f"{ID_PREFIX}{k}"}) for k, ev in enumerate(events, start=1)]


def _shift(value: str | None, days: int) -> str | None:
    if value is None or days == 0:
        return value
    moved = parse_time(value) + timedelta(days=days)
    return format_date(moved.date()) if is_date(value) else format_time(moved)


def week_shift_days(events: Sequence[Event], case_start: str) -> int:
    """Whole weeks (in days) that move the earliest dated event into the week of ``case_start``."""
    starts = [parse_time(v).date() for ev in events for v in (ev.start, ev.end) if v is not None]
    if not starts:
        return 0
    first = min(starts)
    target = parse_time(case_start).date()

    def monday(d: date) -> date:
        return d - timedelta(days=d.weekday())

    return (monday(target) - monday(first)).days


def case_horizon(case: Case) -> tuple[str, str]:
    """The case's span: its start to the end of its last step."""
    return case.start, case.steps[-1].end if case.steps else case.start


def events_for_case(case: Case, events: Sequence[Event], *, align: Align = "none", days: int | None = None,
                    ) -> list[Event]:
    """The events as they enter ``case``: aligned (by ``days``, default the week shift of ``events``),
    with the user among the participants."""
    if align not in ALIGNS:
        raise ValueError(f"unknown align {align!r}; use one of {', '.join(ALIGNS)}")
    if align == "none":
        days = 0
    elif days is None:
        days = week_shift_days(events, case.start)
    out = []
    for ev in events:
        people = list(ev.participants)
        if case.user not in people:
            people.insert(0, case.user)
        out.append(ev.model_copy(update={"start": _shift(ev.start, days), "end": _shift(ev.end, days),
                                         "participants": people}))
    return out


def add_initial_events(case: Case, events: Sequence[Event], *, align: Align = "none", days: int | None = None,
                       ) -> Case:
    """``case`` with ``events`` in front of S_0 and of every S_t (see the module docstring).

    Raises:
        ValueError: an event id is already used by the case, or the gold replay no longer holds.
    """
    extra = events_for_case(case, events, align=align, days=days)
    used = {ev.id for ev in case.initial_timetable} | {ev.id for s in case.steps for ev in s.gold_timetable}
    clash = sorted(used & {ev.id for ev in extra})
    if clash:
        raise ValueError(f"case {case.case_id}: ids {', '.join(clash)} are already used by the case")
    steps = [s.model_copy(update={"gold_timetable": [*extra, *s.gold_timetable]}) for s in case.steps]
    new = case.model_copy(update={"initial_timetable": [*extra, *case.initial_timetable], "steps": steps})
    check_gold_replay(new)
    return new


def check_gold_replay(case: Case) -> None:
    """Replaying the gold operations from S_0 must give every gold S_t (ids and attributes).

    Raises:
        ValueError: naming the case and the first step that differs.
    """
    table = Timetable(case.initial_timetable)
    for step in case.steps:
        result = table.apply(step.gold_ops)
        if result.errors:
            raise ValueError(f"case {case.case_id}: step {step.t}: gold operation {result.errors[0].index} "
                             f"cannot be applied: {result.errors[0].reason}")
        table = result.timetable
        if [e.model_dump() for e in table] != [e.model_dump() for e in step.gold_timetable]:
            raise ValueError(f"case {case.case_id}: step {step.t}: replaying the gold operations does not "
                             "give the gold timetable")


def _generator_validation(before: Sequence[Case], after: Sequence[Case]) -> list[str]:
    """Errors of the generator's own checks (when that package is present) that the change
    introduced; errors the dataset already had are not this step's to report."""
    try:
        from proevent.generate.validate import validate_case
    except ImportError:
        return []

    def errors(case: Case) -> list[str]:
        return [str(i) for i in validate_case(case) if i.severity == "error"]

    out: list[str] = []
    for old, new in zip(before, after):
        found = errors(new)
        if found:  # the old case is checked only where the new one has errors
            known = set(errors(old))
            out += [e for e in found if e not in known]
    return out


def apply_initial_ics(
    dataset: str | Path,
    ics_file: str | Path,
    *,
    out: str | Path | None = None,
    align: Align = "none",
    timezone: str | None = None,
    overwrite: bool = False,
) -> Dataset:
    """Add the events of ``ics_file`` to every case of a dataset and write it (in place by default).

    The manifest keeps its name, version and ``created``; ``generator.initial_ics`` records the
    file's name, sha256, the number of events and the alignment. The result is validated again
    (the gold replay, and the generator's checks when available) and re-read from disk.

    Raises:
        FormatError: the dataset is not valid, or a case fails validation after the change.
        ValueError: the ``.ics`` file cannot be used.
        FileExistsError: ``out`` is another folder that holds a dataset and ``overwrite`` is not set.
    """
    src = Path(dataset)
    ds = load_dataset(src)
    dest = Path(out) if out is not None else src
    if dest.resolve() != src.resolve() and (dest / "cases.jsonl").exists() and not overwrite:
        raise FileExistsError(f"{dest / 'cases.jsonl'} exists; pass --force to replace it")
    data = Path(ics_file).read_bytes() if Path(ics_file).is_file() else b""
    try:
        recurring = has_recurring(data) if data else False
    except IcsError as exc:
        raise ValueError(f"{ics_file}: {exc}") from None
    loaded: dict[tuple[str | None, tuple[str, str] | None], list[Event]] = {}
    problems: list[str] = []
    cases: list[Case] = []
    counts: set[int] = set()
    firsts: dict[str | None, str | None] = {}
    for case in ds.cases:
        zone = timezone or case.timezone
        days = 0
        if align == "week":
            if zone not in firsts:
                firsts[zone] = first_start(data, timezone=zone)
            first = firsts[zone]
            days = week_shift_days([Event(id="x", start=first, end=None, location=None, participants=[],
                                          description=None)], case.start) if first else 0
        horizon: tuple[str, str] | None = None
        if recurring:
            lo, hi = case_horizon(case)
            horizon = (str(_shift(lo, -days)), str(_shift(hi, -days)))
        key = (zone, horizon)
        if key not in loaded:
            try:
                loaded[key] = load_initial_ics(ics_file, timezone=zone, horizon=horizon)  # type: ignore[arg-type]
            except ValueError as exc:
                if horizon is None or "no VEVENT" not in str(exc):
                    raise
                loaded[key] = []  # a series with no occurrence in this case's span
        counts.add(len(loaded[key]))
        try:
            cases.append(add_initial_events(case, loaded[key], align=align, days=days))
        except ValueError as exc:
            problems.append(str(exc))
    if not problems:
        problems += _generator_validation(ds.cases, cases)
    if problems:
        raise FormatError(problems)
    generator: dict[str, Any] = dict(ds.manifest.generator)
    generator["initial_ics"] = {
        "file": Path(ics_file).name,
        "sha256": hashlib.sha256(Path(ics_file).read_bytes()).hexdigest(),
        "events": max(counts) if counts else 0,
        "recurring": recurring,
        "align": align,
    }
    extra = dict(ds.manifest.model_extra or {})
    write_dataset(dest, cases, name=ds.manifest.name, version=ds.manifest.version, generator=generator,
                  created=ds.manifest.created, extra=extra, overwrite=True)
    return load_dataset(dest)


__all__ = [
    "ALIGNS", "add_initial_events", "apply_initial_ics", "case_horizon", "check_gold_replay", "events_for_case",
    "load_initial_ics", "week_shift_days",
]
