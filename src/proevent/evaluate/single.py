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
        g, p, m = len(self.gold), len(self.pred), len(self.matches)
        pred = [op.op for op in self.pred]
        gold = [op.op for op in self.gold]
        matched = [gold[j] for _, j in self.matches]
        out = {
            "questions": 1, "empty": int(g == 0), "fd": int(g == 0 and p > 0), "need": int(g > 0),
            "mn": int(g > 0 and p == 0), "p": p, "g": g, "m": m,
        }
        for t, (pk, gk, mk) in _TYPE_KEYS:  # an operation of no known type counts in none
            out[pk], out[gk], out[mk] = pred.count(t), gold.count(t), matched.count(t)
        out["missing"] = int(self.missing)
        out["errors"] = int(self.error is not None)
        out["invalid_ops"] = len(self.invalid)
        return out


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
    step = case.steps[t - 1]
    ids_before = {ev.id for ev in case.timetable_before(t)}
    refused = refused_ops(pred_ops, ids_before)
    pred, invalid, reasons = [], [], {}
    for i, op in enumerate(pred_ops):
        if is_cosmetic(op):
            continue
        if i in refused:
            invalid.append(len(pred))
            reasons[len(pred)] = refused[i]
        pred.append(op)
    gold = [op for op in step.gold_ops if not is_cosmetic(op)]
    bad = set(invalid)
    adj = [
        [] if i in bad else [j for j, g in enumerate(gold) if comparator.ops_equivalent(p, g)]
        for i, p in enumerate(pred)
    ]
    return QuestionScore(
        case_id=case.case_id,
        t=t,
        pred=pred,
        gold=gold,
        matches=max_matching(len(pred), adj),
        invalid=invalid,
        invalid_reasons=reasons,
        missing=missing,
        error=error,
    )
