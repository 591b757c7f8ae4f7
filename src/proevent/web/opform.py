"""Turning the human-mode form into one operation in the data format (before validation).

The form has a date and an optional time per time attribute (an empty date means unknown, a date
without a time means the day is known but not the hour), people as checkboxes plus free text, and
an empty location meaning unknown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from proevent.model import normalize_time

KINDS: tuple[str, ...] = ("insert", "update", "delete")


def compose_time(day: str, clock: str, what: str) -> str | None:
    """``"2026-03-14"`` + ``"09:00"`` -> ``"2026-03-14T09:00"``; an empty day is unknown (``None``)."""
    day, clock = day.strip(), clock.strip()
    if not day:
        if clock:
            raise ValueError(f"{what}: a time of day needs a date")
        return None
    value = f"{day}T{clock[:5]}" if clock else day
    try:
        return normalize_time(value)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


def people_from(checked: Sequence[str], others: str) -> list[str]:
    """Checked names, then the comma-separated others, without duplicates, in that order."""
    names = [n.strip() for n in checked] + [n.strip() for n in others.split(",")]
    return list(dict.fromkeys(n for n in names if n))


def op_from_form(form: Mapping[str, Any], people: Sequence[str]) -> dict[str, Any]:
    """The raw operation a submitted form describes; ``ValueError`` names the field that is wrong.

    ``form`` maps field names to a string, or to a list of strings for ``participants``.
    """
    kind = _text(form, "kind")
    if kind not in KINDS:
        raise ValueError(f"unknown operation {kind!r}")
    checked = form.get("participants") or []
    if isinstance(checked, str):
        checked = [checked]
    if kind == "insert":
        participants = people_from(checked, _text(form, "others"))
        if not participants:
            raise ValueError("participants: tick at least one person (the user included when attending)")
        location = _text(form, "location").strip()
        return {"op": "insert", "event": {
            "start": compose_time(_text(form, "start_date"), _text(form, "start_time"), "start"),
            "end": compose_time(_text(form, "end_date"), _text(form, "end_time"), "end"),
            "location": location or None,
            "participants": participants,
            "description": _text(form, "description").strip(),
        }}
    event_id = _text(form, "id").strip()
    if not event_id:
        raise ValueError("id: choose an event of the timetable")
    if kind == "delete":
        return {"op": "delete", "id": event_id}
    attribute = _text(form, "attribute")
    value: Any
    if attribute in ("start", "end"):
        value = compose_time(_text(form, "value_date"), _text(form, "value_time"), attribute)
    elif attribute == "location":
        value = _text(form, "value_text").strip() or None
    elif attribute == "description":
        value = _text(form, "value_text").strip()
    elif attribute == "participants":
        value = people_from(checked, _text(form, "others"))
        if not value:
            raise ValueError("participants: tick at least one person (to cancel for the user, delete)")
    else:
        raise ValueError(f"attribute: unknown attribute {attribute!r}")
    return {"op": "update", "id": event_id, "attribute": attribute, "value": value}


def _text(form: Mapping[str, Any], key: str) -> str:
    value = form.get(key, "")
    if isinstance(value, list):
        value = value[0] if value else ""
    if not isinstance(value, str):
        raise ValueError(f"{key}: expected text")
    if len(value) > 2000:
        raise ValueError(f"{key}: too long")
    return value
