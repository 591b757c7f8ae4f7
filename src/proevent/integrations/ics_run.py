"""What an agent believes, as calendars: a run's multi-step timetables exported to ``.ics``.

For each case, the agent's own timetable Ŝ_t is rebuilt exactly as the evaluator does it: start
from S_0 and apply, step by step, the operations of the run's ``multi`` lines with
:meth:`proevent.model.Timetable.apply` (invalid operations are not applied; a missing or errored
line counts as no operation). Ids are the agent's own ids, so the ``UID`` of an event stays the same
across exports at different steps and calendar apps show the changes as updates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from proevent.evaluate import line_ops
from proevent.io import Dataset, Run
from proevent.io.ics import count_changes, gold_sequences, timetable_to_ics
from proevent.model import Case, Timetable

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass
class CaseReplay:
    """The agent's timetable of one case after ``step`` and what was missing on the way."""

    case_id: str
    step: int
    timetable: Timetable
    missing_steps: list[int] = field(default_factory=list)
    error_steps: list[int] = field(default_factory=list)
    refused_ops: int = 0
    """Operations that could not be applied (invalid, unknown id ...)."""
    sequences: dict[str, int] = field(default_factory=dict)
    """Event id -> the steps that changed it (the iCalendar ``SEQUENCE``)."""


def agent_timetable(case: Case, run: Run, *, step: int | None = None, repeat: int = 0) -> CaseReplay:
    """Replay the run's multi-step operations of ``case`` up to ``step`` (default: the last step).

    Raises:
        ValueError: ``step`` is not 0..T for this case.
    """
    last = case.steps[-1].t if case.steps else 0
    upto = last if step is None else step
    if not 0 <= upto <= last:
        raise ValueError(f"case {case.case_id!r} has steps 0..{last}, not {upto}")
    replay = CaseReplay(case.case_id, upto, Timetable(case.initial_timetable))
    for s in case.steps:
        if s.t > upto:
            break
        line = run.lines.get((case.case_id, "multi", s.t, repeat))
        if line is None:
            replay.missing_steps.append(s.t)
        elif line.error is not None:
            replay.error_steps.append(s.t)
        result = replay.timetable.apply(line_ops(line))
        replay.refused_ops += len(result.errors)
        count_changes(replay.sequences, replay.timetable.events, result.timetable.events)
        replay.timetable = result.timetable
    return replay


def ics_filename(case_id: str) -> str:
    """A portable file name for a case id (characters outside ``A-Za-z0-9._-`` become ``_``)."""
    return _UNSAFE.sub("_", case_id) + ".ics"


@dataclass
class RunExport:
    folder: Path
    files: list[Path]
    replays: list[CaseReplay]

    @property
    def missing_cases(self) -> list[str]:
        """Cases with no multi-step line at all (their calendar is just S_0)."""
        return [r.case_id for r in self.replays if r.missing_steps and len(r.missing_steps) >= r.step]


def export_run_ics(
    dataset: Dataset,
    run: Run,
    out: str | Path,
    *,
    step: int | None = None,
    repeat: int = 0,
    with_gold: bool = False,
    cases: list[str] | None = None,
) -> RunExport:
    """Write one ``<case_id>.ics`` per case: the agent's own timetable after ``step`` (default last).

    Args:
        dataset: the dataset the run answered.
        run: the run; only its ``multi`` lines are used.
        out: folder for the files (created).
        step: export Ŝ_step instead of the final timetable (0 = the initial timetable).
        repeat: which repeat of the run to replay.
        with_gold: also write ``<case_id>.gold.ics`` with the gold S_step, for comparison.
        cases: only these case ids (default all).

    Raises:
        ValueError: the run has no multi-step line, or an unknown case id / step is asked for.
    """
    if not any(k[1] == "multi" and k[3] == repeat for k in run.lines):
        raise ValueError(f"the run has no multi-step predictions for repeat {repeat} "
                         "(run the agent with --mode multi or both)")
    selected = [dataset.case(c) for c in cases] if cases else dataset.cases
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    replays: list[CaseReplay] = []
    names: dict[str, str] = {}
    agent = run.manifest.agent + (f" / {run.manifest.model}" if run.manifest.model else "")
    for case in selected:
        replay = agent_timetable(case, run, step=step, repeat=repeat)
        replays.append(replay)
        name = ics_filename(case.case_id)
        if name in names:
            raise ValueError(f"case ids {names[name]!r} and {case.case_id!r} give the same file name {name}")
        names[name] = case.case_id
        path = folder / name
        path.write_bytes(timetable_to_ics(
            replay.timetable.events, user=case.user, timezone=case.timezone, case_id=case.case_id,
            name=f"{case.user}: {case.case_id} as {agent} sees it (step {replay.step})", sequences=replay.sequences,
        ))
        files.append(path)
        if with_gold:
            gold = case.timetable_before(replay.step + 1)
            gold_path = folder / (name.removesuffix(".ics") + ".gold.ics")
            gold_path.write_bytes(timetable_to_ics(
                gold, user=case.user, timezone=case.timezone, case_id=case.case_id,
                name=f"{case.user}: {case.case_id}, gold (step {replay.step})",
                sequences=gold_sequences(case, replay.step),
            ))
            files.append(gold_path)
    return RunExport(folder=folder, files=files, replays=replays)


__all__ = ["CaseReplay", "RunExport", "agent_timetable", "export_run_ics", "ics_filename"]
