"""Presentation of a paired comparison (computed by :mod:`proevent.evaluate.compare`): its JSON form."""

from __future__ import annotations

from proevent.evaluate.compare import Comparison


def comparison_json(cmp: Comparison, label_a: str, label_b: str) -> dict:
    """The ``proevent.compare/1`` JSON object of a comparison (``proevent compare --json``)."""
    return {
        "format": "proevent.compare/1",
        "a": label_a,
        "b": label_b,
        "cases": cmp.cases,
        "n_boot": cmp.n_boot,
        "seed": cmp.seed,
        "repeats": {"a": cmp.repeats[0], "b": cmp.repeats[1]},
        "metrics": {
            d.key: {
                "a": d.a,
                "b": d.b,
                "diff": d.diff,
                "ci": list(d.ci) if d.ci else None,
                "p_value": d.p_value,
                "resamples": d.resamples,
            }
            for d in cmp.metrics
        },
        "disagreements": [
            {
                "case_id": d.case_id,
                "single_steps": [{"t": t, "a_exact": x, "b_exact": y} for t, x, y in d.single_steps],
                "tsr": list(d.tsr) if d.tsr else None,
                "esr": list(d.esr) if d.esr else None,
            }
            for d in cmp.disagreements
        ],
    }


__all__ = ["comparison_json"]
