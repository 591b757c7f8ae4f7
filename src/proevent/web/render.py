"""Templates and static assets, both read from package data once, at start-up.

Static files are served from an in-memory table keyed by file name: a request never names a
path on disk, so no request can reach outside the package (``/static/../x`` is just a name that
is not in the table).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined

from proevent.evaluate.metrics import percent

_MEDIA_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".svg": "image/svg+xml"}


@dataclass(frozen=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


def load_assets() -> dict[str, Asset]:
    """Every file of ``proevent/web/static`` by name."""
    out: dict[str, Asset] = {}
    for entry in resources.files("proevent.web").joinpath("static").iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in _MEDIA_TYPES:
            body = entry.read_bytes()
            out[entry.name] = Asset(body, _MEDIA_TYPES[suffix], hashlib.sha256(body).hexdigest()[:16])
    return out


def load_data(name: str) -> Any:
    """A JSON file of ``proevent/web/data``."""
    return json.loads(resources.files("proevent.web").joinpath("data", name).read_text(encoding="utf-8"))


def make_environment() -> Environment:
    """Jinja2 with autoescape on for every template: dataset text can never become markup."""
    env = Environment(
        loader=PackageLoader("proevent.web", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["hm"] = lambda v: v[11:16] if isinstance(v, str) and len(v) >= 16 else (v or "")
    env.filters["day"] = lambda v: v[:10] if isinstance(v, str) else ""
    env.filters["when"] = format_when
    env.filters["wday"] = with_weekday
    env.filters["u"] = lambda v: quote(str(v), safe="")
    env.filters["pct"] = percent
    return env


def format_when(value: str | None) -> str:
    """A time or date for people: ``2026-03-14 09:00``, a date alone, or ``?`` when unknown."""
    if value is None:
        return "?"
    return value.replace("T", " ")


def with_weekday(value: str | None) -> str:
    """``Mon 2026-03-09 16:00``: people reason about "saturday", so the weekday is shown."""
    if value is None:
        return "?"
    try:
        day = datetime.strptime(value[:10], "%Y-%m-%d").strftime("%a")
    except ValueError:
        return format_when(value)
    return f"{day} {format_when(value)}"
