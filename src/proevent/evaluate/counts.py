"""From prediction lines to the counts each question and each case adds to the spec's sums.

What a question counts for is :meth:`QuestionScore.counts` (and :attr:`QuestionScore.exact`,
read from it); a case, :func:`case_counts`. ``evaluate``, the inspect scorer, the viewer and the
paired comparison all read them, so a rule changed there changes every figure.
"""

from __future__ import annotations

from collections.abc import Mapping

from proevent.evaluate.equivalence import Comparator
from proevent.evaluate.multi import CaseTrace, replay_case
from proevent.evaluate.single import QuestionScore, question_row, score_question
from proevent.model import AnyOp, Case, PredictionLine, parse_ops


def line_ops(line: PredictionLine | None) -> list[AnyOp]:
    """The operations a line counts with: none for a missing or errored line."""
    if line is None or line.error is not None:
        return []
    return parse_ops(line.ops)


def score_line(case: Case, t: int, line: PredictionLine | None, comparator: Comparator) -> QuestionScore:
    """Score the single-step line of step ``t`` (``None``: the run has no line, a missing question)."""
    return score_question(case, t, line_ops(line), comparator, missing=line is None,
                          error=line.error if line else None)


def line_row(case: Case, t: int, line: PredictionLine | None, comparator: Comparator) -> list[int]:
    """``question_counts(score_line(...))``'s values in ``SINGLE_FIELDS`` order, without the score."""
    return question_row(case, t, line_ops(line), comparator, missing=line is None, error=line.error if line else None)


def replay_lines(case: Case, lines: Mapping[int, PredictionLine], comparator: Comparator) -> CaseTrace:
    """Score a case in multi-step mode from its lines by step ``t``; a step without a line is missing."""
    missing = [s.t for s in case.steps if s.t not in lines]
    errors = {s.t: lines[s.t].error for s in case.steps if s.t in lines and lines[s.t].error is not None}
    preds = {s.t: line_ops(lines.get(s.t)) for s in case.steps}
    return replay_case(case, preds, comparator, missing=missing, errors=errors)  # type: ignore[arg-type]


def multi_counts(case: Case, lines: Mapping[int, PredictionLine], comparator: Comparator) -> dict[str, int]:
    """``case_counts(replay_lines(case, lines, comparator))`` without the per-step traces (what
    ``proevent evaluate`` keeps of a case): the missing and errored steps are read off the lines,
    as :func:`replay_lines` labels them."""
    trace = replay_case(case, {s.t: line_ops(lines.get(s.t)) for s in case.steps}, comparator,
                        keep_steps=False)  # type: ignore[arg-type]
    return {
        "cases": 1, "targets": len(trace.targets), "successes": sum(trace.event_success.values()),
        "tables_ok": int(trace.timetable_success), "missing": sum(1 for s in case.steps if s.t not in lines),
        "errors": sum(1 for s in case.steps if s.t in lines and lines[s.t].error is not None),
    }


def question_counts(q: QuestionScore) -> dict[str, int]:
    """What one single-step question adds to the sums: :meth:`QuestionScore.counts`."""
    return q.counts()


def case_counts(trace: CaseTrace) -> dict[str, int]:
    """What one case adds in multi-step mode (the ``MULTI_FIELDS``): its target events, those right
    at every step, whether its timetable stayed right, its missing and errored steps."""
    return {
        "cases": 1, "targets": len(trace.targets), "successes": sum(trace.event_success.values()),
        "tables_ok": int(trace.timetable_success), "missing": trace.missing_steps, "errors": trace.errors,
    }


__all__ = ["case_counts", "line_ops", "line_row", "multi_counts", "question_counts", "replay_lines", "score_line"]
