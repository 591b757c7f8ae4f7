"""An agent of one's own (issue 17, point 6): the README's example runs through `--agent module:factory`,
an installed package's `proevent.agents` entry point names one, and a factory's parameters are its options."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proevent.agents.registry import check_options, create_agent, get_spec

ROOT = Path(__file__).resolve().parents[1]
PROEVENT = str(Path(sys.executable).with_name("proevent"))


def readme_agent() -> str:
    """The README's example agent, as the reader copies it into my_agent.py."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- doc-test: file my_agent\.py -->\n```python\n(.*?)```", text, re.S)
    assert m, "README.md lost its example agent (the block after <!-- doc-test: file my_agent.py -->)"
    return m.group(1)


def _cli(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PROEVENT, *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200", **env})


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "my_agent.py").write_text(readme_agent(), encoding="utf-8")
    shutil.copytree(ROOT / "examples" / "tiny", tmp_path / "tiny")
    return tmp_path


def test_the_readme_example_is_short_and_finds_both_deletions_of_tiny(folder):
    code = [ln for ln in readme_agent().splitlines() if ln.strip() and not ln.lstrip().startswith(("#", '"""'))]
    assert len(code) <= 14, code  # "a ten-line example": imports and signatures included
    res = _cli(["run", "tiny", "--agent", "my_agent:CancelAgent", "--out", "runs/cancel"], folder)
    assert res.returncode == 0, res.stdout + res.stderr
    res = _cli(["evaluate", "tiny", "runs/cancel"], folder)
    assert res.returncode == 0, res.stdout + res.stderr
    single = json.loads((folder / "runs/cancel/metrics.json").read_text(encoding="utf-8"))["single"]
    # tiny has two gold deletes: "let's skip coffee" (tiny-02, step 3) and "I can't make book club" (tiny-03,
    # step 2); the agent deletes exactly those and never inserts or updates
    assert single["delete"]["recall"] == 1.0, single
    assert single["delete"]["precision"] == 1.0, single
    assert single["insert"]["recall"] == 0.0
    manifest = json.loads((folder / "runs/cancel/run.json").read_text(encoding="utf-8"))
    assert manifest["agent"] == "my_agent:CancelAgent"
    assert manifest["identity"]["agent_description"]["cues"] == ["skip", "can't make"]


def test_an_entry_point_names_a_plugin_that_agents_lists_and_run_accepts(folder):
    dist = folder / "site" / "my_agent_pkg-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agent-pkg\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[proevent.agents]\ncancel = my_agent:CancelAgent\n", encoding="utf-8")
    shutil.move(folder / "my_agent.py", folder / "site" / "my_agent.py")
    env = {"PYTHONPATH": str(folder / "site")}
    listed = _cli(["agents"], folder, **env)
    assert listed.returncode == 0 and "cancel" in listed.stdout and "my-agent-pkg" in listed.stdout, listed.stdout
    res = _cli(["run", "tiny", "--agent", "cancel", "--out", "runs/c", "--mode", "single"], folder, **env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert len((folder / "runs/c/predictions.jsonl").read_text(encoding="utf-8").splitlines()) == 14


def test_a_missing_module_or_factory_is_a_clear_usage_error(folder):
    for target, says in (("nosuch_mod:make", "cannot import 'nosuch_mod'"),
                         ("my_agent:Nope", "module 'my_agent' has no 'Nope'"),
                         ("my_agent:", "give it as package.module:factory")):
        res = _cli(["run", "tiny", "--agent", target, "--out", "runs/x"], folder)
        assert res.returncode != 0
        out = " ".join((res.stdout + res.stderr).split())
        assert says in out and "Traceback" not in out, out


def test_a_factorys_keyword_parameters_are_its_options(tmp_path, monkeypatch):
    (tmp_path / "opt_agent.py").write_text(
        "from proevent.agents.baselines import NullAgent\n"
        "def make(*, patience: int = 2, label: str = 'x', client=None):\n"
        "    '''A null agent with options.'''\n"
        "    agent = NullAgent()\n"
        "    agent.patience = patience\n"
        "    return agent\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = get_spec("opt_agent:make")
    assert spec.options == (("patience", int), ("label", str)) and spec.needs_llm and not spec.needs_gold
    assert spec.summary == "A null agent with options."
    check_options("opt_agent:make", {"patience": 0, "label": "y"})  # a plug-in's ints may be 0
    with pytest.raises(ValueError, match="has no option 'nope'; its options: patience, label"):
        check_options("opt_agent:make", {"nope": 1})
    with pytest.raises(ValueError, match="takes a int for 'patience', got 'many'"):
        check_options("opt_agent:make", {"patience": "many"})
    assert create_agent("opt_agent:make", patience=5).patience == 5
    (tmp_path / "bad_agent.py").write_text("def make():\n    return 42\n", encoding="utf-8")
    with pytest.raises(ValueError, match="returned int, which has no name, async act"):
        create_agent("bad_agent:make")
