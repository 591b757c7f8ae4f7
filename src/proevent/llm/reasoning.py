"""Reasoning text (``<think>…</think>``, ``reasoning_content``) is kept in the raw record but
stripped before the answer is parsed."""

from __future__ import annotations

import re

_THINK = re.compile(r"<(think|thinking|reasoning)>(.*?)</\1>", re.DOTALL | re.IGNORECASE)
_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_CLOSE_ONLY = re.compile(r"^(.*?)</(think|thinking|reasoning)>", re.DOTALL | re.IGNORECASE)


def split_reasoning(text: str) -> tuple[str, str | None]:
    """Return ``(answer, reasoning)``.

    Handles closed blocks anywhere, an answer that starts inside a block whose opening tag the
    server swallowed (``…</think> answer``), and an unclosed block (all of it is reasoning).
    A text without ``<`` holds no tag: its answer is the text stripped (every reply of a model that
    does not reason, without the three searches).
    """
    if "<" not in text:
        return text.strip(), None
    return _split_tags(text)


def _split_tags(text: str) -> tuple[str, str | None]:
    """:func:`split_reasoning` by its regular expressions (any text)."""
    parts: list[str] = []

    def take(m: re.Match[str]) -> str:
        parts.append(m.group(2).strip())
        return ""

    answer = _THINK.sub(take, text)
    m = _CLOSE_ONLY.match(answer)
    if m and not _OPEN.search(m.group(1)):
        parts.insert(0, m.group(1).strip())
        answer = answer[m.end():]
    m = _OPEN.search(answer)
    if m:
        parts.append(answer[m.end():].strip())
        answer = answer[: m.start()]
    return answer.strip(), ("\n\n".join(p for p in parts if p) or None)


def unclosed_reasoning(text: str) -> bool:
    """Whether ``text`` opens a reasoning block it never closes (the answer was cut off inside it)."""
    if "<" not in text:  # no tag at all
        return False
    return _OPEN.search(_THINK.sub("", text)) is not None
