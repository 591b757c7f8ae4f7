"""The web viewer, human-performance mode and case-review mode (``proevent serve``).

Needs the ``web`` extra (FastAPI, uvicorn, Jinja2, python-multipart). Importing this package
does not import FastAPI; :func:`create_app` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from proevent.web.config import ServeConfig

if TYPE_CHECKING:
    from fastapi import FastAPI

    from proevent.io import Dataset

__all__ = ["ServeConfig", "create_app"]


def create_app(config: ServeConfig, dataset: Dataset | None = None) -> FastAPI:
    """Build the application for ``config`` (see :func:`proevent.web.app.create_app`)."""
    from proevent.web.app import create_app as _create_app

    return _create_app(config, dataset)


