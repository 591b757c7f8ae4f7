"""Dataset statistics: the paper's figure 3(b)/(c) and table 3 for any dataset.

Table 3's linguistic variations: for each scheduling intent (propose, modify, cancel), 50
messages of that intent are sampled (seeded) and their distinct *expressions* counted, where an
expression is the first three word tokens of the message after masking the case's values and
skipping a leading greeting or discourse marker ("hey Dan, so can we switch to Cafe Nero" ->
"can we switch"). The intent of each message comes from ``meta.message_intents`` (written by the
generator); datasets without it get ``None``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from proevent.model import Case, DeleteOp, InsertOp, Message, UpdateOp
from proevent.model.times import parse_time
from proevent.timeexpr import date_spans, time_spans


def _hist(values: Iterable[Any]) -> dict[str, int]:
    c = Counter(str(v) for v in values)
    return dict(sorted(c.items(), key=lambda kv: (len(kv[0]), kv[0])))


def _ratio(texts: list[str]) -> float | None:
    return round(len(set(texts)) / len(texts), 4) if texts else None


SCHEDULING_INTENTS: dict[str, frozenset[str]] = {
    "propose": frozenset({"propose", "propose_time_tbd", "propose_place_tbd", "invite_others"}),
    "modify": frozenset({"counter_time", "counter_place", "add_person", "remove_person", "self_dropout",
                         "link_time", "link_place", "link_people", "drop_time", "drop_place", "fill_time",
                         "fill_place"}),
    "cancel": frozenset({"cancel", "cancel_implicit", "user_dropout"}),
}
"""Generator intents (``meta.message_intents``) behind the paper's three scheduling intents."""

_LEADING = frozenset(
    "hi hey heyy hii hiya yo oi hello dear good day morning mornin afternoon evening all everyone guys team folks "
    "people gang ok okay so oh ooh hmm right btw listen alright ahh ah also wait well actually anyway honestly "
    "and quick q random idea update lol haha omg ugh".split()
)
"""Greetings and discourse markers skipped at the start of a message (they are not the expression)."""

_HELLO = re.compile(r"h+i+|he+y+|y+o+|o+k+|h+m+|a+h+|o+h+")
_ORDINAL = frozenset({"st", "nd", "rd", "th"})
_JOINERS = frozenset({"at", "from", "to", "until", "till", "on", "the", "and", "of"})
_TOKEN = re.compile(r"<\w+>|#|[a-z][a-z']*")
_CAPITAL = re.compile(r"(?<=[^\s.!?,:;] )[A-Z][\w'&.-]*")


def expression(text: str, values: Iterable[str] = (), at: datetime | None = None) -> tuple[str, str]:
    """``(expression, frame)`` of a message: the first three tokens after the leading greeting or
    marker, and the whole masked text. Masked, in order: the date and time phrases (read as
    said at ``at``), the case's values (places, names, words of event descriptions), any
    capitalised word after the first (names, places, weekdays, months), digits; a run of masks
    joined by "at", "from", "to"... is one mask."""
    ref = at or datetime(2026, 1, 1)
    spans: list[tuple[int, int]] = []
    found = [(d.start, d.end) for d in date_spans(text, ref)] + [(t.start, t.end) for t in time_spans(text)]
    for a, b in sorted(found):
        if spans and a <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(b, spans[-1][1]))
        else:
            spans.append((a, b))
    for start, end in reversed(spans):
        text = f"{text[:start]} <v> {text[end:]}"
    for v in sorted({v for v in values if v}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(v)}(?!\w)", " <v> ", text, flags=re.I)
    text = _CAPITAL.sub(lambda m: m.group(0) if m.group(0) in ("I", "I'm", "I'll", "I'd", "I've") else "<v>", text)
    text = re.sub(r"\d+", "#", text.lower())
    tokens: list[str] = []
    for tok in _TOKEN.findall(text):
        tok = "<v>" if tok == "#" or (tok in _ORDINAL and tokens and tokens[-1] == "<v>") else tok
        if tok == "<v>" and tokens and tokens[-1] == tok:
            continue
        if tok == "<v>" and len(tokens) >= 2 and tokens[-2] == "<v>" and tokens[-1] in _JOINERS:
            tokens.pop()
            continue
        tokens.append(tok)
    k = 0
    while k < len(tokens) and (tokens[k] in _LEADING or tokens[k] == "<v>" or _HELLO.fullmatch(tokens[k])):
        k += 1
    return " ".join(tokens[k:k + 3]), " ".join(tokens)


def _case_values(case: Case) -> set[str]:
    """Names, places and the words of event descriptions ("Dinner with Maya": dinner, maya)."""
    out = {case.user, *(c.name for c in case.chats), *(m for c in case.chats for m in c.members)}
    events = list(case.initial_timetable) + [e for s in case.steps for e in s.gold_timetable]
    for e in events:
        out |= {e.location or "", *e.participants}
    words = {w for e in events for w in re.findall(r"[A-Za-z][\w'-]{3,}", e.description)} - {"with", "from"}
    out |= {tok for name in list(out) for tok in name.split() if len(tok) > 2} | words
    return out


def _near(a: str, b: str) -> bool:
    """Equal, or one slip apart (a letter dropped, doubled, changed or two swapped) in a word of 4+."""
    if a == b:
        return True
    if min(len(a), len(b)) < 4 or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def distinct_expressions(exprs: Iterable[str]) -> int:
    """Expressions that differ by more than typos (each word within one slip of the other's)."""
    kept: list[list[str]] = []
    for e in exprs:
        toks = e.split()
        if not any(len(k) == len(toks) and all(_near(x, y) for x, y in zip(k, toks)) for k in kept):
            kept.append(toks)
    return len(kept)


def linguistic_variations(cases: list[Case], n: int = 50, seed: int = 0) -> dict[str, Any] | None:
    """Table 3 of the paper: distinct expressions among ``n`` sampled messages per scheduling intent.

    ``None`` when no case records ``meta.message_intents``.
    """
    pools: dict[str, list[tuple[Case, Message]]] = {k: [] for k in SCHEDULING_INTENTS}
    found = False
    for case in cases:
        intents = case.meta.get("message_intents")
        if not isinstance(intents, list):
            continue
        found = True
        messages = [m for s in case.steps for m in s.messages]
        for intent, msg in zip(intents, messages):
            for group, members in SCHEDULING_INTENTS.items():
                if intent in members:
                    pools[group].append((case, msg))
    if not found:
        return None
    out: dict[str, Any] = {}
    for group, pool in pools.items():
        rng = random.Random(f"proevent/table3/{seed}/{group}")
        sample = rng.sample(pool, min(n, len(pool)))
        values: dict[str, set[str]] = {}
        exprs = []
        for case, msg in sample:
            if case.case_id not in values:
                values[case.case_id] = _case_values(case)
            exprs.append(expression(msg.text, values[case.case_id], parse_time(msg.time)))
        out[group] = {
            "messages": len(pool), "sampled": len(sample),
            "expressions": distinct_expressions(e for e, _ in exprs),
            "frames": distinct_expressions(f for _, f in exprs),
        }
    return out


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
    table3 = linguistic_variations(cases)
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
        "linguistic_variations": {k: v["expressions"] for k, v in table3.items()} if table3 else None,
        "linguistic_variations_detail": table3,
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
