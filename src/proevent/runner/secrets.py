"""Secrets out of stored text: the API key wherever a server echoed it, credentials in URLs.

Everything the runner stores (error texts, raw replies, reasoning, ``run.json``'s base URLs) goes
through :func:`redact`; the key is only ever sent in the ``Authorization`` header.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "[redacted]"

_SECRET_PARAM = re.compile(r"(?i)(key|token|secret|password|passwd|sig|signature|auth)")
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")
_SECRET_NAME = re.compile(r"(?i)(api_?key|token|secret|password|passwd)")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}")


def redact_url(url: str) -> str:
    """``url`` without a password in its user info and without the values of query parameters
    named like a secret (``api-key``, ``token``, ``sig``...)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:{REDACTED}@{host}" if ":" in userinfo else f"{REDACTED}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(_SECRET_PARAM.search(k) for k, _ in pairs):
            query = urlencode([(k, REDACTED if _SECRET_PARAM.search(k) else v) for k, v in pairs], safe="[]")
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact(text: str, secrets: list[str] | tuple[str, ...] = (), *, patterns: bool = True) -> str:
    """``text`` with every secret (the API key) replaced and, with ``patterns``, ``Bearer ...``
    values and URL credentials removed. Secrets shorter than 6 characters are not searched for
    (they would match ordinary text)."""
    for secret in sorted({s for s in secrets if s and len(s) >= 6}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    if not patterns:
        return text
    text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _URL.sub(lambda m: redact_url(m.group(0)), text)


def redact_value(value: Any, secrets: list[str] | tuple[str, ...] = (), *, patterns: bool = True) -> Any:
    """:func:`redact` applied to every string inside ``value`` (dicts and lists walked)."""
    if isinstance(value, str):
        return redact(value, secrets, patterns=patterns)
    if isinstance(value, dict):
        return {k: redact_value(v, secrets, patterns=patterns) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v, secrets, patterns=patterns) for v in value]
    return value


def environment_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of environment variables named like a secret (``OPENAI_API_KEY``, ``HF_TOKEN``,
    ``*_SECRET``, ``*_PASSWORD``), 8 characters or longer: what a process that did not build the
    request itself (inspect's model providers) may have sent, and a server may echo."""
    env = os.environ if environ is None else environ
    return [v for k, v in env.items() if _SECRET_NAME.search(k) and len(v) >= 8]


_PLAIN_SECRET = re.compile(r"[ !#-\[\]-~]+")
"""A secret JSON writes as it is (printable ASCII but ``"`` and backslash): found in a line's JSON text when present."""
_PATTERN_HINTS = ("://", ":\\/\\/", "bearer", "basic")
"""Text without which neither pattern of :func:`redact` matches (looked for in the lowercased JSON
text, so looser than the patterns: an escape such as ``\\n`` may stand between a word and what follows)."""


def _may_need_redaction(line: Any, secrets: list[str] | tuple[str, ...]) -> bool:
    """False only when no string of ``line`` can change under :func:`redact`: its JSON text holds
    no secret and nothing a pattern could start with. One serialisation in pydantic's core,
    instead of dumping to Python objects and walking them (a tenth of the runner's CPU time)."""
    try:
        text = line.model_dump_json()
    except ValueError:  # a string pydantic will not write as JSON (a lone surrogate): walk it
        return True
    lowered = text.lower()
    if any(hint in lowered for hint in _PATTERN_HINTS):
        return True
    return any(not _PLAIN_SECRET.fullmatch(s) or s in text for s in secrets if s and len(s) >= 6)


def redact_line(line: Any, secrets: list[str] | tuple[str, ...]) -> Any:
    """A prediction line (pydantic model) without secrets in its texts (an error body that echoes
    the key, a URL with credentials); the same object when there is nothing to redact."""
    return redact_walk(line, secrets) if _may_need_redaction(line, secrets) else line


def redact_walk(line: Any, secrets: list[str] | tuple[str, ...]) -> Any:
    """:func:`redact_line` without its shortcut: every string of the dumped line redacted."""
    data = line.model_dump(mode="json")
    # the operations are predictions: only the key itself is taken out of them, never a URL or a word
    clean = {k: redact_value(v, secrets, patterns=k != "ops") for k, v in data.items()}
    return line if clean == data else type(line).model_validate(clean)


_factory_installed = False


def install_log_redaction() -> None:
    """Redact every log record of this process (its message with the arguments merged in) before
    any handler sees it, with the secrets of the environment at the time of the record.

    For code that runs inside another program's process (inspect_ai): its handlers write records
    to its own log files, so the record factory, the one hook every record passes through, is
    where the key can still be taken out. Installed once; it wraps the factory already in place."""
    global _factory_installed
    if _factory_installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit: leave it to logging's own report
            return record
        clean = redact(message, environment_secrets())
        if clean != message:
            record.msg, record.args = clean, ()
        return record

    logging.setLogRecordFactory(factory)
    _factory_installed = True
