"""Fixtures shared by every area's tests.

``scripted_server``: a real OpenAI-compatible HTTP server on 127.0.0.1 (see
``tests/support/scripted_server.py``), reset for each test; point a client at ``.base_url``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from support.scripted_server import Reply, ScriptedServer  # noqa: E402

__all__ = ["Reply", "ScriptedServer"]


@pytest.fixture(scope="session")
def _scripted_server_session() -> Iterator[ScriptedServer]:
    with ScriptedServer() as server:
        yield server


@pytest.fixture
def scripted_server(_scripted_server_session: ScriptedServer) -> ScriptedServer:
    """The session's scripted server, with its script, rules and records cleared."""
    _scripted_server_session.reset()
    return _scripted_server_session
