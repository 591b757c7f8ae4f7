"""Secrets out of stored text: the API key wherever a server echoed it, credentials in URLs.

Everything the runner stores (error texts, raw replies, reasoning, ``run.json``'s base URLs) goes
through :func:`redact`; the key is only ever sent in the ``Authorization`` header.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "[redacted]"

_SECRET_PARAM = re.compile(r"(?i)(key|token|secret|password|passwd|sig|signature|auth)")
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")
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
