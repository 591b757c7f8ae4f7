"""The update prompt (table 2's second intervention): ``--option update_prompt=true`` for every LLM
strategy appends the versioned text to the user message and is recorded in ``run.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from proevent.agents.llm.prompts import load_template
from proevent.cli import app

TINY = Path(__file__).resolve().parents[2] / "examples" / "tiny"


def _run(server, out: Path, agent: str, *extra: str):
    return CliRunner().invoke(app, ["run", str(TINY), "--agent", agent, "--model", "m", "--base-url",
                                    server.base_url, "--no-cache", "--limit", "1", "--out", str(out),
                                    "--no-progress", *extra])


@pytest.mark.parametrize("agent", ["plain", "proactive", "procot", "tools", "gated"])
def test_update_prompt_is_appended_and_recorded(scripted_server, tmp_path: Path, agent: str) -> None:
    text = load_template("update", "v2")
    assert "${user}" in text and "same people as last time" in text
    res = _run(scripted_server, tmp_path / "on", agent, "--option", "update_prompt=true")
    assert res.exit_code == 0, res.output
    sent = [r["messages"] for r in scripted_server.requests]
    assert sent
    for messages in sent:
        user = [m for m in messages if m["role"] == "user"][0]["content"]
        assert user.rstrip().endswith(text.split("${user}")[-1].strip())
    manifest = json.loads((tmp_path / "on" / "run.json").read_text())
    dumped = json.dumps(manifest)
    assert "update.txt" in manifest["prompt"]["text"] and '"update_prompt": true' in dumped

    scripted_server.reset()
    res = _run(scripted_server, tmp_path / "off", agent)
    assert res.exit_code == 0, res.output
    for r in scripted_server.requests:
        assert not any(text.split("${user}")[-1].strip() in str(m.get("content")) for m in r["messages"])
    off = json.loads((tmp_path / "off" / "run.json").read_text())
    assert "update.txt" not in off["prompt"]["text"] and off["prompt"]["sha256"] != manifest["prompt"]["sha256"]
