"""Streaming JSON Lines with per-line validation that collects every error of a file.

Every problem becomes one ``file:line: field.path: what is wrong`` message, never a traceback:
bytes that are not UTF-8, JSON nested too deeply for the parser, numbers Python refuses to read
(more than 4,300 digits). Data files (``strict``) refuse in addition what a JSON value may not be
and other tools cannot read back: ``NaN`` and ``Infinity``, integers outside the signed 64-bit
range, floats that overflow (``1e999``), and strings holding a lone surrogate (``"\\ud800"``, not
encodable as UTF-8).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from proevent.io.errors import FormatError, describe_validation_error
from proevent.model.bulk import gc_paused

M = TypeVar("M", bound=BaseModel)

INT_LIMIT = 2**63
"""Integers of a data file lie in ``[-2**63, 2**63)``, the range JSON tools in other languages share."""
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class _Bad:
    """What a number hook returns for a value that a strict file may not hold."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class _Decoder:
    """``json.loads`` with hooks that mark bad numbers instead of accepting or crashing on them."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.bad = False
        self._decoder = json.JSONDecoder(parse_constant=self._constant, parse_int=self._int,
                                         parse_float=self._float)

    def _mark(self, reason: str) -> _Bad:
        self.bad = True
        return _Bad(reason)

    def _constant(self, text: str) -> Any:
        if self.strict:
            return self._mark(f"{text} is not a JSON number")
        return float(text)

    def _int(self, text: str) -> Any:
        digits = len(text.lstrip("-"))
        if digits > 4000:  # int() refuses more than 4,300 digits (sys.get_int_max_str_digits)
            return self._mark(f"a {digits}-digit number is too large")
        value = int(text)
        if self.strict and not -INT_LIMIT <= value < INT_LIMIT:
            return self._mark(f"a {digits}-digit integer is outside the 64-bit range")
        return value

    def _float(self, text: str) -> Any:
        value = float(text)
        if self.strict and not math.isfinite(value):
            return self._mark(f"{text[:40]} is too large for a number")
        return value

    def decode(self, text: str) -> Any:
        self.bad = False
        return self._decoder.decode(text)


def _bad_values(data: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """``(field.path, reason)`` of every marked number and every string with a lone surrogate."""
    if isinstance(data, _Bad):
        yield ".".join(path) or "(line)", data.reason
    elif isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError as exc:
            yield ".".join(path) or "(line)", (f"lone surrogate \\u{ord(data[exc.start]):04x} "
                                               "(not encodable as UTF-8)")
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _bad_values(key, (*path, "(key)"))
            yield from _bad_values(value, (*path, str(key)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _bad_values(value, (*path, str(i)))


def _decode_line(raw: bytes, decoder: _Decoder, where: str) -> tuple[Any, list[str]]:
    """Parse one line; ``(data, [])`` or ``(None, problems)``."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [f"{where}: (line): not valid UTF-8: byte 0x{raw[exc.start]:02x} at byte {exc.start + 1} "
                      f"({exc.reason})"]
    try:
        data = decoder.decode(line)
    except json.JSONDecodeError as exc:
        msg = exc.msg.removesuffix(" at")  # "Unterminated string starting at" + " at column N"
        return None, [f"{where}: (line): not valid JSON: {msg} at column {exc.colno}"]
    except RecursionError:
        return None, [f"{where}: (line): not valid JSON: nested too deeply"]
    except ValueError as exc:  # a number the hooks could not read
        return None, [f"{where}: (line): not valid JSON: {exc}"]
    if decoder.bad or (decoder.strict and _SURROGATE_ESCAPE.search(raw)):
        problems = [f"{where}: {path}: {reason}" for path, reason in _bad_values(data)]
        if problems:
            return None, problems
    return data, []


def _open_error(path: Path, exc: OSError) -> FormatError:
    if isinstance(exc, FileNotFoundError):
        return FormatError([f"{path}: file not found"])
    if isinstance(exc, IsADirectoryError):
        return FormatError([f"{path}: is a folder, not a file"])
    return FormatError([f"{path}: cannot read: {exc.strerror or exc}"])


_DIGIT_MAP = bytes(0x30 if 0x30 <= b <= 0x39 else 0x65 if b in b"eE" else 0x2B if b in b"+-" else 0x20
                   for b in range(256))
"""Digits to ``0``, ``e``/``E`` to ``e``, signs to ``+``, every other byte to a space: :func:`_plain`
finds long numbers and large exponents with substring searches over the mapped line."""


def _plain(raw: bytes, strict: bool) -> bool:
    """True when a line cannot hold what the hooks of :class:`_Decoder` mark (no ``NaN`` or
    ``Infinity``, no run of digits long enough to leave the allowed range, no exponent of three
    digits or more after a digit), so that pydantic may parse it directly. Text that merely looks like these
    (``"Infinity pool"``, ``"Suite e100"``) only sends its line the long way: never a wrong answer."""
    if b"NaN" in raw or b"Infinity" in raw:
        return False
    mapped = raw.translate(_DIGIT_MAP)
    if strict:
        return b"0" * 19 not in mapped and b"0e000" not in mapped and b"0e+000" not in mapped
    return len(raw) <= 4000 or b"0" * 4001 not in mapped


def _validate_line(raw: bytes, model: type[M], decoder: _Decoder, where: str,
                   fast: Callable[[bytes], M | None] | None = None) -> tuple[M | None, list[str]]:
    """One line as ``model``: ``(item, [])`` or ``(None, problems)``.

    ``fast``, where given, reads the line first: a reader that builds the item the careful path
    would build, or declines (:mod:`proevent.io.fastcase`; it answers for the strict checks
    itself). Else a plain line (:func:`_plain`) is parsed and validated by pydantic in one pass
    over the bytes (no intermediate dict, repeated short strings shared); any failure there, and
    every line that is not plain, goes through :func:`_decode_line` and ``model_validate``, which
    word the problems.
    """
    if fast is not None and (item := fast(raw)) is not None:
        return item, []
    if _plain(raw, decoder.strict):
        try:
            return model.model_validate_json(raw), []
        except (ValidationError, RecursionError):
            pass  # reported below, with the same words as ever
    return _careful_line(raw, model, decoder, where)


def _careful_line(raw: bytes, model: type[M], decoder: _Decoder, where: str) -> tuple[M | None, list[str]]:
    """The long way: the decoder with its hooks, the strict checks, then ``model_validate``."""
    data, bad = _decode_line(raw, decoder, where)
    if bad:
        return None, bad
    if not isinstance(data, dict):
        return None, [f"{where}: (line): expected a JSON object, got {type(data).__name__}"]
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, describe_validation_error(where, exc)
    except RecursionError:
        return None, [f"{where}: (line): nested too deeply"]


def iter_jsonl(path: Path, model: type[M], problems: list[str], *, strict: bool = False,
               fast: Callable[[bytes], M | None] | None = None) -> Iterator[tuple[int, M]]:
    """Yield ``(line_number, item)`` for every valid line; append a message per bad line.

    Blank lines are skipped. The caller raises :class:`FormatError` when ``problems`` is not
    empty after the loop, so a file reports all its errors, not only the first. ``strict`` (data
    files): refuse NaN, Infinity, integers outside 64 bits and lone surrogates (module docstring).
    Bulk readers consume it inside :func:`proevent.model.bulk.gc_paused` (a generator cannot
    pause the collector for its consumer). ``fast``: a first reader that returns the item the
    careful path would build, or ``None`` (:func:`_validate_line`).

    Raises:
        FormatError: the file cannot be opened (missing, a folder, no permission).
    """
    name = path.name
    decoder = _Decoder(strict)
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise _open_error(path, exc) from None
    with fh:
        for lineno, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            item, bad = _validate_line(raw, model, decoder, f"{name}:{lineno}", fast)
            if bad:
                problems.extend(bad)
                continue
            yield lineno, item  # type: ignore[misc]


def load_jsonl(path: Path, model: type[M], *, strict: bool = False) -> list[M]:
    problems: list[str] = []
    with gc_paused():
        items = [item for _, item in iter_jsonl(path, model, problems, strict=strict)]
    if problems:
        raise FormatError(problems)
    return items


def dumps_line(data: object) -> str:
    """One compact JSON line (UTF-8 kept readable), newline included."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_json(path: Path, model: type[M], *, strict: bool = False) -> M:
    """One JSON file validated as ``model``; every problem a :class:`FormatError` naming the file."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _open_error(path, exc) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        lineno = raw.count(b"\n", 0, exc.start) + 1
        raise FormatError([f"{path.name}:{lineno}: (file): not valid UTF-8: byte 0x{raw[exc.start]:02x} "
                           f"({exc.reason})"]) from None
    decoder = _Decoder(strict)
    try:
        data = decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise FormatError([f"{path.name}:{exc.lineno}: (file): not valid JSON: {exc.msg}"]) from None
    except RecursionError:
        raise FormatError([f"{path.name}: (file): not valid JSON: nested too deeply"]) from None
    except ValueError as exc:
        raise FormatError([f"{path.name}: (file): not valid JSON: {exc}"]) from None
    if decoder.bad or (strict and _SURROGATE_ESCAPE.search(raw)):
        problems = [f"{path.name}: {field}: {reason}" for field, reason in _bad_values(data)]
        if problems:
            raise FormatError(problems)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise FormatError(describe_validation_error(path.name, exc)) from None
