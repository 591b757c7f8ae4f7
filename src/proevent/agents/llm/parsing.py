"""Turning model text into operations: tolerant of code fences and prose, then validated."""

from __future__ import annotations

import json
import re
from typing import Any

from proevent.llm.text import well_formed
from proevent.model import InvalidOp, Timetable, parse_ops

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


def _json_candidates(text: str) -> list[tuple[Any, bool]]:
    """JSON values found in ``text`` with whether they stand on their own: fenced blocks (last
    first), the whole text, then every object or array that decodes from a ``{`` or ``[`` onwards
    (last first). A value found inside a structure that failed to decode (a truncated answer) is
    not standalone: only a full answer object is taken from there, never a lone operation."""
    found: list[tuple[Any, bool]] = []
    for block in reversed(_FENCE.findall(text)):
        try:
            found.append((json.loads(block), True))
        except ValueError:
            pass
    stripped = text.strip()
    try:
        found.append((json.loads(stripped), True))
    except ValueError:
        tail: list[tuple[Any, bool]] = []
        i = 0
        broken = False
        while i < len(stripped):
            if stripped[i] in "{[":
                try:
                    value, end = _DECODER.raw_decode(stripped, i)
                except ValueError:
                    broken = True
                    i += 1
                    continue
                tail.append((value, not broken))
                i = end
            else:
                i += 1
        found += reversed(tail)
    return found


def _ops_of(value: Any, standalone: bool) -> list[Any] | None:
    if isinstance(value, dict):
        for key in ("ops", "operations"):
            if isinstance(value.get(key), list):
                return value[key]
    if not standalone:
        return None
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return value
    if isinstance(value, dict) and "op" in value:
        return [value]
    return None


def extract_ops(text: str) -> tuple[list[Any] | None, str | None]:
    """The list of raw operations in a model answer, or ``(None, what is wrong)``.

    Lone surrogates (a reply that did not come through :class:`~proevent.llm.LLMClient`, e.g. from
    inspect) become U+FFFD first, so that the operations can always be written as UTF-8.
    """
    text = well_formed(text)
    if not text.strip():
        return None, "the answer is empty"
    candidates = _json_candidates(text)
    for value, standalone in candidates:
        ops = _ops_of(value, standalone)
        if ops is not None:
            return ops, None
    if not any(standalone for _, standalone in candidates):
        return None, "no JSON found in the answer"
    return None, 'the JSON holds no operation list (expected {"ops": [...]})'


def validate_ops(ops: list[Any], timetable: Timetable) -> list[str]:
    """Problems of a list of operations against the timetable they apply to (empty when fine)."""
    if not ops:  # the usual answer: nothing to parse, nothing to apply (no copy of the timetable)
        return []
    parsed = parse_ops(ops)
    problems = [f"operation {i + 1}: {op.reason}" for i, op in enumerate(parsed) if isinstance(op, InvalidOp)]
    result = timetable.apply(parsed)
    problems += [f"operation {e.index + 1}: {e.reason}" for e in result.errors
                 if not isinstance(parsed[e.index], InvalidOp)]
    return problems
