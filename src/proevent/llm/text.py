"""Well-formed Unicode for everything a server sends.

JSON may escape lone UTF-16 surrogates (``"\\ud800"``); Python's ``json`` decodes them into a ``str``
that cannot be encoded as UTF-8, so the first write to SQLite or to ``predictions.jsonl`` would
fail with ``'utf-8' codec can't encode``. Every string of a reply is therefore cleaned on arrival:
each lone surrogate becomes U+FFFD (the replacement character), everything else is kept as is.
"""

from __future__ import annotations

import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def well_formed(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (the same object when there is none)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(REPLACEMENT, text)
    return text


def clean_strings(value: Any) -> Any:
    """``value`` (decoded JSON) with :func:`well_formed` applied to every string, keys included."""
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, list):
        return [clean_strings(v) for v in value]
    if isinstance(value, dict):
        return {clean_strings(k): clean_strings(v) for k, v in value.items()}
    return value
