"""Single-step (teacher-forced) scoring of one question: P_t against G_t on the gold S_{t-1}."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from proevent.evaluate.equivalence import Comparator, is_cosmetic
from proevent.evaluate.matching import max_matching
from proevent.model import OP_TYPES, AnyOp, Case, InvalidOp

_TYPE_KEYS = tuple((t, (f"p_{t}", f"g_{t}", f"m_{t}")) for t in OP_TYPES)


@dataclass
class QuestionScore:
    """How one predicted step compares with the gold, after cosmetic operations are removed.

    ``pred`` and ``gold`` are the non-cosmetic operations; indices in ``matches``,
    ``unmatched_pred``, ``unmatched_gold`` and ``invalid`` refer to them.
    """

    case_id: str
    t: int
    pred: list[AnyOp]
    gold: list[AnyOp]
    matches: list[tuple[int, int]] = field(default_factory=list)
    invalid: list[int] = field(default_factory=list)
    invalid_reasons: dict[int, str] = field(default_factory=dict)
    missing: bool = False
    error: str | None = None

    @property
    def unmatched_pred(self) -> list[int]:
        done = {i for i, _ in self.matches}
        return [i for i in range(len(self.pred)) if i not in done]

    @property
    def unmatched_gold(self) -> list[int]:
        done = {j for _, j in self.matches}
        return [j for j in range(len(self.gold)) if j not in done]

    @property
    def exact(self) -> bool:
        """Exactly right: answered without error, every operation valid and matched both ways
        (read from :meth:`counts`). The rule the viewer and the comparison read."""
        c = self.counts()
        return not (self.missing or self.error) and c["invalid_ops"] == 0 and c["m"] == c["p"] == c["g"]

    def counts(self) -> dict[str, int]:
        """What this question adds to the spec's sums (the aggregation's ``SINGLE_FIELDS``): a
        question with no gold operation is ``empty`` (a false detection when anything is
        predicted), one with gold operations ``need``s an answer (missed when nothing is
        predicted); |P|, |G| and |P∩G| overall and per operation type; missing and errored lines
        and invalid operations. The one count function: ``evaluate``, the inspect scorer, the
        viewer and the comparison all read it."""
        matched = [self.gold[j] for _, j in self.matches]
        return dict(zip(COUNT_KEYS, count_row(self.pred, self.gold, matched, missing=self.missing,
                                              error=self.error is not None, invalid=len(self.invalid))))


COUNT_KEYS: tuple[str, ...] = (
    "questions", "empty", "fd", "need", "mn", "p", "g", "m", *(k for _, keys in _TYPE_KEYS for k in keys),
    "missing", "errors", "invalid_ops",
)
"""The names of :func:`count_row`'s values, in its order (the aggregation's ``SINGLE_FIELDS``)."""


def count_row(pred: Sequence[AnyOp], gold: Sequence[AnyOp], matched: Sequence[AnyOp], *, missing: bool, error: bool,
              invalid: int) -> list[int]:
    """The count rule of one question (:meth:`QuestionScore.counts`) as values in :data:`COUNT_KEYS`
    order, from its non-cosmetic predicted and gold operations and the gold operations matched."""
    g, p, m = len(gold), len(pred), len(matched)
    types = [0] * (3 * len(OP_TYPES))  # per type: predicted, gold, matched
    for offset, ops in ((0, pred), (1, gold), (2, matched)):
        for op in ops:
            k = _TYPE_SLOT.get(op.op)
            if k is not None:  # an operation of no known type counts in none
                types[k + offset] += 1
    return [1, int(g == 0), int(g == 0 and p > 0), int(g > 0), int(g > 0 and p == 0), p, g, m, *types,
            int(missing), int(error), invalid]


_TYPE_SLOT = {t: 3 * k for k, t in enumerate(OP_TYPES)}
"""Where an operation type's three counts start among :func:`count_row`'s per-type values."""


def refused_ops(ops: Sequence[AnyOp], ids_before: set[str]) -> dict[int, str]:
    """Indices of operations that cannot be applied to a timetable holding ``ids_before``,
    by the same rule as :meth:`proevent.model.Timetable.apply`, with the reason."""
    refused: dict[int, str] = {}
    deleted: set[str] = set()
    for i, op in enumerate(ops):
        if isinstance(op, InvalidOp):
            refused[i] = op.reason
        elif op.op != "insert":
            if op.id not in ids_before:
                refused[i] = f"unknown id {op.id!r}"
            elif op.id in deleted:
                refused[i] = f"id {op.id!r} was deleted earlier in this step"
            elif op.op == "delete":
                deleted.add(op.id)
    return refused


def score_question(
    case: Case,
    t: int,
    pred_ops: Sequence[AnyOp],
    comparator: Comparator,
    *,
    missing: bool = False,
    error: str | None = None,
) -> QuestionScore:
    """Score one single-step question. An errored or missing line is passed as no operations."""
    pred, gold, matches, invalid, reasons = _compare(case, t, pred_ops, comparator)
    return QuestionScore(case_id=case.case_id, t=t, pred=pred, gold=gold, matches=matches, invalid=invalid,
                         invalid_reasons=reasons, missing=missing, error=error)


def question_row(
    case: Case, t: int, pred_ops: Sequence[AnyOp], comparator: Comparator, *, missing: bool = False,
    error: str | None = None,
) -> list[int]:
    """``score_question(...).counts()``'s values (in :data:`COUNT_KEYS` order) without the score:
    what a scoring that keeps only count vectors needs."""
    pred, gold, matches, invalid, _ = _compare(case, t, pred_ops, comparator)
    return count_row(pred, gold, [gold[j] for _, j in matches], missing=missing, error=error is not None,
                     invalid=len(invalid))


def _compare(
    case: Case, t: int, pred_ops: Sequence[AnyOp], comparator: Comparator
) -> tuple[list[AnyOp], list[AnyOp], list[tuple[int, int]], list[int], dict[int, str]]:
    """The non-cosmetic predicted and gold operations, the maximum matching, the invalid predicted
    operations (indices into the non-cosmetic ones) and why."""
    step = case.steps[t - 1]
    before = case.timetable_before(t)
    gold = [op for op in step.gold_ops if not is_cosmetic(op)]
    if not pred_ops:
        return [], gold, [], [], {}
    ids_before = {ev.id for ev in before}
    refused = refused_ops(pred_ops, ids_before)
    pred, invalid, reasons = [], [], {}
    for i, op in enumerate(pred_ops):
        if is_cosmetic(op):
            continue
        if i in refused:
            invalid.append(len(pred))
            reasons[len(pred)] = refused[i]
        pred.append(op)
    bad = set(invalid)
    adj = [
        [] if i in bad else [j for j, g in enumerate(gold) if comparator.ops_equivalent(p, g)]
        for i, p in enumerate(pred)
    ]
    return pred, gold, max_matching(len(pred), adj), invalid, reasons
