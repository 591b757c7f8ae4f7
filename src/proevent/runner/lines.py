"""A prediction line on its way to ``predictions.jsonl``, the short way: its JSON dump taken from its
fields, the bytes the writer would write, the redaction check on those bytes, and the usage read
from the dump. For a model agent's line (usage, extra fields) the long way is three dumps by
pydantic, an encoding by the standard library and a walk of the usage: a fifth of the runner's
CPU per request. Each step here gives what the long way gives (``tests/runner/test_line_path.py``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from proevent.io.run import _plain_json, line_bytes, line_usage
from proevent.model import PredictionLine, Usage
from proevent.runner.secrets import _PATTERN_HINTS, _PLAIN_SECRET, redact, redact_line

_ENCODE = msgspec.json.encode
_HINTS = tuple(hint.encode("ascii") for hint in _PATTERN_HINTS)


def line_json(line: PredictionLine) -> dict[str, Any] | None:
    """``line.model_dump(mode="json")`` read from the line's fields, when every value is plain JSON
    (:func:`proevent.io.run._plain_json`: what msgspec writes as the standard library does) and the
    usage, if any, is a :class:`Usage`; else ``None``. The dict shares the line's values: read only."""
    if type(line) is not PredictionLine:
        return None
    out = dict(line.__dict__)
    usage = out["usage"]
    if usage is not None:
        if type(usage) is not Usage:
            return None
        extra = usage.__pydantic_extra__
        out["usage"] = {**usage.__dict__, **extra} if extra else dict(usage.__dict__)
    extra = line.__pydantic_extra__
    if extra:
        out.update(extra)
    return out if _plain_json(out) else None


def may_need_redaction(data: bytes, secrets: list[str] | tuple[str, ...]) -> bool:
    """:func:`proevent.runner.secrets._may_need_redaction` on a line's JSON bytes: the hints of the
    patterns (ASCII: lowercasing the bytes finds what lowercasing the text finds) and the secrets,
    each written in JSON as it is (printable ASCII but ``"`` and backslash) or else assumed present."""
    lowered = data.lower()
    if any(hint in lowered for hint in _HINTS):
        return True
    return any(not _PLAIN_SECRET.fullmatch(s) or s.encode("ascii") in data for s in secrets if s and len(s) >= 6)


def prepared(line: PredictionLine, secrets: list[str] | tuple[str, ...]) -> tuple[PredictionLine, bytes, dict]:
    """What the runner stores of ``line``: the line with the secrets taken out (the same object when
    there is nothing to take out), the bytes of its line in ``predictions.jsonl``, and its usage
    (:func:`proevent.io.run.line_usage`). Lines this module cannot read the short way (not plain
    JSON, or something to redact) take the long way, as do lines without usage or extra fields (an
    offline agent's), for which the long way is short already (:func:`redacted`, and the writer's
    own encoding of such lines)."""
    dumped = line_json(line) if line.usage is not None or line.__pydantic_extra__ else None
    if dumped is not None:
        try:
            data = _ENCODE(dumped) + b"\n"
        except (msgspec.MsgspecError, UnicodeError, TypeError, OverflowError):
            dumped = None
        else:
            if not may_need_redaction(data, secrets):
                return line, data, line_usage(dumped)
    line = redacted(line, secrets)
    return line, line_bytes(line), line_usage(line)


def redacted(line: PredictionLine, secrets: list[str]) -> PredictionLine:
    """:func:`redact_line`, skipped where it could change nothing: no secret to look for, and no
    text but the case id (itself clean) and the operations (searched for the secrets only). An
    offline agent's lines are so; dumping and walking each of them cost a third of an oracle run."""
    if (secrets or line.error is not None or line.raw is not None or line.__pydantic_extra__
            or (line.usage is not None and line.usage.__pydantic_extra__) or not _clean_id(line.case_id)):
        return redact_line(line, secrets)
    return line


@lru_cache(maxsize=1 << 16)
def _clean_id(case_id: str) -> bool:
    """The case id holds nothing :func:`redact` would remove (its patterns are fixed: one answer
    per id, and a case's every line asks)."""
    return redact(case_id) == case_id
