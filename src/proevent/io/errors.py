"""Errors that name the file, the line and the field."""

from __future__ import annotations

from pydantic import ValidationError


class FormatError(Exception):
    """A file (or several) does not follow the data format. ``problems`` holds every message."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def describe_validation_error(where: str, exc: ValidationError) -> list[str]:
    """One ``where: field.path: what is wrong`` line per pydantic error."""
    out = []
    for err in exc.errors():
        path = ".".join(str(p) for p in err["loc"]) or "(line)"
        msg = err["msg"].removeprefix("Value error, ")
        out.append(f"{where}: {path}: {msg}")
    return out


def describe_config_error(exc: ValidationError, source: object, *, prefix: tuple[str, ...] = (),
                          text: str | None = None, flags: dict[str, str] | None = None) -> list[str]:
    """One ``file:line: field.path: what is wrong`` line per error of a config read from a file.

    ``source`` is the file (or a name such as ``"llm config"``); ``text`` its TOML or JSON text, in
    which the line of the field's key is looked up (left out when not found). ``prefix`` is where
    the validated table lies in the file (``("profiles", "local")``). A field set by a command-line
    option (``flags`` maps the field to the option, ``{"cases": "--cases"}``) is named by it instead.
    """
    out = []
    for err in exc.errors():
        loc = tuple(str(p) for p in err["loc"])
        where = str(source)
        if flags and loc and loc[0] in flags:
            where = flags[loc[0]]
        elif text is not None:
            line = _line_of(text, (*prefix, *loc))
            where = f"{source}:{line}" if line else where
        path = ".".join((*prefix, *loc)) or "(file)"
        out.append(f"{where}: {path}: {err['msg'].removeprefix('Value error, ')}")
    return out


def _line_of(text: str, keys: tuple[str, ...]) -> int | None:
    """The 1-based line where the last of ``keys`` is set, each key searched below the one before
    (``key = ``, ``"key": `` or a ``[table.key]`` header); ``None`` when a key is not found."""
    import re

    lines = text.splitlines()
    at, found = 0, None
    for key in (k for k in keys if not k.isdigit()):
        pattern = re.compile(rf'^\s*(\[+\s*)?([\w."-]+\.)?"?{re.escape(key)}"?\s*(=|:|\]|\.)')
        found = next((i for i in range(at, len(lines)) if pattern.match(lines[i])), None)
        if found is None:
            return None
        at = found
    return None if found is None else found + 1
