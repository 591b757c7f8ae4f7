"""Numbers from query strings and forms, read without surprises.

``str.isdigit`` is true for ``"²"`` and ``"٣"`` (which ``int`` refuses or reads as 3) and ``int``
refuses more than 4,300 digits: a page that trusts either answers 500. These helpers accept ASCII
digits only and never raise.
"""

from __future__ import annotations

_MAX_DIGITS = 12


def ascii_int(text: str) -> int | None:
    """A non-negative integer written in ASCII digits (at most 12 of them), else ``None``."""
    if not text or len(text) > _MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def step_param(text: str, steps: int) -> int:
    """The step ``t`` of a case page: 1 when absent or not a number, clamped to ``1..steps``
    (a number too long to be a step is past the last one); 0 for a case without steps."""
    if steps <= 0:
        return 0
    if text.isascii() and text.isdigit() and len(text) > _MAX_DIGITS:
        return steps
    t = ascii_int(text)
    return 1 if t is None else min(max(t, 1), steps)
