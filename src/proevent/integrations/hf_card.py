"""The dataset card (``README.md``) of a Hugging Face export: statistics, fields, licence, loading.

The card's text is the package data file ``data/hf_card.md`` (``string.Template`` placeholders);
the field descriptions are ``data/hf_fields.json``. Only the numbers are computed here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from functools import cache
from importlib import resources
from string import Template
from typing import Any

from proevent.model import OP_TYPES, Case, DatasetManifest


@cache
def _data(name: str) -> str:
    return resources.files("proevent.integrations").joinpath(f"data/{name}").read_text(encoding="utf-8")


def field_descriptions() -> dict[str, dict[str, str]]:
    """``{"questions": {column: meaning}, "cases": {...}}`` from the package data."""
    return json.loads(_data("hf_fields.json"))


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket for ``n`` rows."""
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "n>1M"


def dataset_statistics(cases: Sequence[Case]) -> dict[str, Any]:
    """Counts the card shows (also handy on their own)."""
    ops = Counter(op.op for c in cases for s in c.steps for op in s.gold_ops)
    steps = [s for c in cases for s in c.steps]
    messages = sum(len(s.messages) for s in steps)
    times = [c.start for c in cases] + [s.end for s in steps]
    return {
        "cases": len(cases),
        "steps": len(steps),
        "single_step_questions": len(steps),
        "questions_needing_action": sum(1 for s in steps if s.gold_ops),
        "questions_without_action": sum(1 for s in steps if not s.gold_ops),
        "messages": messages,
        "chats": sum(len(c.chats) for c in cases),
        "gold_ops": sum(ops.values()),
        **{f"gold_{t}": ops.get(t, 0) for t in OP_TYPES},
        "initial_events": sum(len(c.initial_timetable) for c in cases),
        "first_time": min(times) if times else None,
        "last_time": max(times) if times else None,
        "categories": Counter(str(c.meta.get("category", "unknown")) for c in cases),
        "negotiation_turns": Counter(str(c.meta.get("negotiation_turns", "unknown")) for c in cases),
    }


_STAT_LABELS: tuple[tuple[str, str], ...] = (
    ("cases", "cases"), ("steps", "steps (= single-step questions)"),
    ("questions_needing_action", "questions with gold operations"),
    ("questions_without_action", "questions without (the agent should stay silent)"),
    ("messages", "messages"), ("chats", "chats"), ("gold_ops", "gold operations"),
    ("gold_insert", "— insert"), ("gold_update", "— update"), ("gold_delete", "— delete"),
    ("initial_events", "events in the initial timetables"),
    ("first_time", "first time"), ("last_time", "last time"),
)


def _counter_rows(counter: Counter[str]) -> str:
    def key(item: tuple[str, int]) -> tuple[int, float, str]:
        try:
            return (0, float(item[0]), item[0])
        except ValueError:
            return (1, 0.0, item[0])

    return "\n".join(f"| {k} | {v} |" for k, v in sorted(counter.items(), key=key)) or "| – | 0 |"


def _field_rows(table: str, schema: Any) -> str:
    meanings = field_descriptions()[table]
    return "\n".join(f"| `{f.name}` | {f.type} | {meanings.get(f.name, '')} |" for f in schema)


def generator_summary(generator: dict[str, Any]) -> str:
    """One line about how the dataset was made; the full record stays in ``dataset.json``."""
    parts = [f"{key} {generator[key]}" for key in ("name", "proevent_version", "seed") if key in generator]
    config = generator.get("config") if isinstance(generator.get("config"), dict) else {}
    parts += [f"{key} {config[key]}" for key in ("realizer", "cases", "window_minutes") if key in config]
    ics = generator.get("initial_ics")
    if isinstance(ics, dict):
        parts.append(f"initial calendar {ics.get('file')} ({ics.get('events')} events, align {ics.get('align')})")
    summary = ", ".join(parts) or "not recorded"
    return f"{summary} (the full record is `generator` in `dataset.json`)"


LICENCE_PLACEHOLDER = "unspecified (choose one before publishing)"


def install_hint() -> str:
    """How to install proevent: it is not published on a package index, so from its repository
    (the ``Repository`` URL of the installed package's metadata where it has one)."""
    try:
        from importlib.metadata import PackageNotFoundError, metadata

        urls = metadata("proevent").get_all("Project-URL") or []
    except (ImportError, PackageNotFoundError):
        urls = []
    repo = next((u.split(",", 1)[1].strip() for u in urls if u.lower().startswith(("repository,", "source,"))), None)
    if repo:
        return ("proevent is not on a package index; install it from its repository:\n\n"
                f'```bash\npip install "proevent[hf] @ git+{repo}"\n```')
    return ("proevent is not on a package index; install it from a clone of its source repository "
            "(the folder with its `pyproject.toml`):\n\n```bash\npip install -e \".[hf]\"   # in the clone\n```")


def render_card(
    manifest: DatasetManifest, cases: Sequence[Case], *, license_name: str = LICENCE_PLACEHOLDER,
    context_messages: int = 20,
) -> str:
    """The card of an export: YAML header for the Hub, then statistics, fields and how to load."""
    from proevent.integrations.hf import cases_schema, questions_schema

    stats = dataset_statistics(cases)
    generator = generator_summary(manifest.generator)
    return Template(_data("hf_card.md")).substitute(
        license_name=license_name,
        pretty_name=manifest.name,
        name=manifest.name,
        version=manifest.version,
        created=manifest.created,
        sha256=manifest.sha256.get("cases.jsonl", ""),
        generator=generator,
        size_category=size_category(stats["steps"]),
        stats="\n".join(f"| {label} | {stats[key]} |" for key, label in _STAT_LABELS),
        categories=_counter_rows(stats["categories"]),
        turns=_counter_rows(stats["negotiation_turns"]),
        question_fields=_field_rows("questions", questions_schema()),
        case_fields=_field_rows("cases", cases_schema()),
        context_messages=context_messages,
        install=install_hint(),
    )


__all__ = ["dataset_statistics", "field_descriptions", "render_card", "size_category"]
