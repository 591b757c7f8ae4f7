"""Dataset statistics: the paper's figure 3(b)/(c) and table 3 for any dataset."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from proevent.model import Case, DeleteOp, InsertOp, UpdateOp


def _hist(values: Iterable[Any]) -> dict[str, int]:
    c = Counter(str(v) for v in values)
    return dict(sorted(c.items(), key=lambda kv: (len(kv[0]), kv[0])))


def _ratio(texts: list[str]) -> float | None:
    return round(len(set(texts)) / len(texts), 4) if texts else None


def compute_stats(dataset: Any) -> dict[str, Any]:
    """Counts and distributions of a dataset (a :class:`~proevent.io.Dataset` or a list of cases)."""
    cases: list[Case] = list(dataset.cases if hasattr(dataset, "cases") else dataset)
    steps = [s for c in cases for s in c.steps]
    ops = Counter()
    updates = Counter()
    for s in steps:
        for op in s.gold_ops:
            if isinstance(op, InsertOp):
                ops["insert"] += 1
            elif isinstance(op, DeleteOp):
                ops["delete"] += 1
            elif isinstance(op, UpdateOp):
                ops["update"] += 1
                updates[op.attribute] += 1
    texts = [m.text for s in steps for m in s.messages]
    meta = [c.meta for c in cases]
    noise_flags = Counter(k for m in meta for k, v in (m.get("noise") or {}).items() if v)
    subcats = Counter(f"{m.get('category')}/{m.get('subcategory')}" for m in meta if m.get("category"))
    patterns = {m["scheduling_pattern"] for m in meta if m.get("scheduling_pattern")}
    return {
        "cases": len(cases),
        "steps": len(steps),
        "single_step_questions": len(steps),
        "questions_with_gold": sum(1 for s in steps if s.gold_ops),
        "questions_without_gold": sum(1 for s in steps if not s.gold_ops),
        "steps_without_messages": sum(1 for s in steps if not s.messages),
        "operations": {k: ops.get(k, 0) for k in ("insert", "update", "delete")},
        "updates_by_attribute": dict(sorted(updates.items())),
        "categories": dict(sorted(Counter(m.get("category") for m in meta if m.get("category")).items())),
        "n_categories": len({m.get("category") for m in meta if m.get("category")}),
        "subcategories": dict(sorted(subcats.items())),
        "n_subcategories": len(subcats),
        "negotiation_turns": _hist(m["negotiation_turns"] for m in meta if "negotiation_turns" in m),
        "concurrent_chats": _hist(m["concurrent_chats"] for m in meta if "concurrent_chats" in m),
        "noise": dict(sorted(noise_flags.items())),
        "noise_content": dict(sorted(Counter(x for m in meta for x in m.get("noise_content") or []).items())),
        "atomic_ops": dict(sorted(Counter(x for m in meta for x in m.get("atomic_ops") or []).items())),
        "scheduling_patterns": len(patterns),
        "realizer": dict(Counter(str(m.get("realizer")) for m in meta)),
        "chats": sum(len(c.chats) for c in cases),
        "initial_events": sum(len(c.initial_timetable) for c in cases),
        "messages": len(texts),
        "distinct_messages": len(set(texts)),
        "distinct_message_ratio": round(len(set(texts)) / len(texts), 4) if texts else None,
        "distinct_long_message_ratio": _ratio([t for t in texts if len(t.split()) >= 6]),
        "mean_messages_per_case": round(len(texts) / len(cases), 2) if cases else None,
    }


def write_plots(stats: dict[str, Any], folder: str | Path) -> list[Path]:
    """PNG bar charts of the distributions (needs matplotlib: ``pip install 'proevent[report]'``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ModuleNotFoundError:
        raise ValueError("plots need matplotlib: pip install 'proevent[report]'") from None
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    panels = [
        ("negotiation_turns", "Negotiation turns"), ("concurrent_chats", "Concurrent chats"),
        ("noise_content", "Noise content"), ("categories", "Event categories"), ("operations", "Gold operations"),
    ]
    for key, title in panels:
        data = stats.get(key) or {}
        fig, ax = plt.subplots(figsize=(6, 3.2))
        ax.bar(list(map(str, data)), list(data.values()), color="#4C72B0")
        ax.set_title(title)
        ax.set_ylabel("cases" if key != "operations" else "operations")
        ax.tick_params(axis="x", labelrotation=30 if key in ("categories", "noise_content") else 0)
        fig.tight_layout()
        path = out / f"{key}.png"
        fig.savefig(path, dpi=120, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    return written
