"""``proevent quickstart`` end to end at a small size; never overwriting; procot on a local endpoint."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from proevent.cli import app
from proevent.report.quickstart import endpoint_from_environment, fresh_folder, run_quickstart

runner = CliRunner()


@pytest.mark.slow
def test_quickstart_command_end_to_end(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for var in ("PROEVENT_BASE_URL", "OPENAI_BASE_URL", "PROEVENT_MODEL", "OPENAI_MODEL"):
        monkeypatch.delenv(var, raising=False)
    res = runner.invoke(app, ["quickstart", "--cases", "6"], catch_exceptions=False, env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    root = tmp_path / "proevent-quickstart"
    assert (root / "dataset" / "dataset.json").is_file()
    manifest = json.loads((root / "dataset" / "dataset.json").read_text())
    assert manifest["counts"]["cases"] == 6
    for agent in ("null", "rules", "oracle"):
        run = json.loads((root / "runs" / agent / "run.json").read_text())
        assert run["agent"] == agent and set(run["modes"]) == {"single", "multi"}
    index = root / "report" / "index.html"
    assert index.is_file() and f"open: {index.resolve()}" in res.output.replace("\n", "")
    assert "no LLM endpoint configured" in res.output
    html = index.read_text()
    for agent in ("null", "rules", "oracle"):
        assert f'data-run="{agent}"' in html
    # the oracle is perfect, the null agent never acts
    oracle = json.loads((root / "report" / "metrics" / "oracle.json").read_text())
    null = json.loads((root / "report" / "metrics" / "null.json").read_text())
    assert oracle["single"]["recall"] == 1.0 and oracle["multi"]["tsr"] == 1.0 and oracle["single"]["fdr"] in (0, None)
    assert null["single"]["mnr"] == 1.0 and null["single"]["precision"] is None
    assert "Insert R" in res.output and "oracle" in res.output
    # the quickstart's pair: rules and oracle on the 'direct' variant, in the report's ablation section
    variant = json.loads((root / "dataset.direct" / "dataset.json").read_text())
    assert variant["generator"]["variant"]["name"] == "direct" and variant["counts"]["cases"] == 6
    tables = json.loads((root / "report" / "ablation.json").read_text())["tables"]
    assert [t["base"] for t in tables] == ["rules", "oracle"]
    arm = tables[1]["rows"][0]  # the oracle is perfect on both datasets: no difference at all
    assert (arm["label"], arm["factor"], arm["cases"]) == ("oracle on direct", "direct", 6)
    assert arm["values"]["single.recall"]["base"] == arm["values"]["single.recall"]["arm"] == 1.0
    assert arm["values"]["single.recall"]["delta"] == 0.0
    rules = tables[0]["rows"][0]["values"]["single.recall"]
    assert rules["delta"] == rules["arm"] - rules["base"]
    assert 'id="ablation"' in html and "rules on direct" in html
    # a second quickstart never touches the first: it takes a fresh folder
    res2 = runner.invoke(app, ["quickstart", "--cases", "3", "--no-llm"], catch_exceptions=False)
    assert res2.exit_code == 0, res2.output
    assert (tmp_path / "proevent-quickstart-2" / "report" / "index.html").is_file()
    assert json.loads((root / "dataset" / "dataset.json").read_text())["counts"]["cases"] == 6
    # an explicit folder that holds files is refused without --force
    res3 = runner.invoke(app, ["quickstart", "--out", str(root), "--cases", "3"])
    assert res3.exit_code == 1 and "not empty" in res3.output
    assert json.loads((root / "dataset" / "dataset.json").read_text())["counts"]["cases"] == 6


def test_fresh_folder(tmp_path):
    assert fresh_folder(tmp_path) == tmp_path / "proevent-quickstart"
    (tmp_path / "proevent-quickstart").mkdir()
    (tmp_path / "proevent-quickstart-2").mkdir()
    assert fresh_folder(tmp_path) == tmp_path / "proevent-quickstart-3"


def test_endpoint_from_environment():
    assert endpoint_from_environment({}) is None
    assert endpoint_from_environment({"PROEVENT_MODEL": "m"}) is None  # no endpoint: never the default OpenAI URL
    assert endpoint_from_environment({"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_MODEL": "qwen3"}) is None
    cfg = endpoint_from_environment({"PROEVENT_BASE_URL": "http://127.0.0.1:9/v1", "PROEVENT_MODEL": "qwen3"})
    assert cfg is not None and cfg.base_urls == ["http://127.0.0.1:9/v1"] and cfg.model == "qwen3"


@pytest.mark.slow
def test_quickstart_runs_procot_on_a_configured_endpoint(tmp_path, scripted_server):
    env = {
        "PROEVENT_BASE_URL": scripted_server.base_url,
        "PROEVENT_MODEL": "scripted-model",
        "PROEVENT_CACHE": str(tmp_path / "cache.sqlite"),
    }
    out = run_quickstart(tmp_path / "qs", cases=3, environ=env, n_boot=100)
    names = [r.label for r in out.table.rows]
    assert names == ["null", "rules", "oracle", "procot"]
    run = json.loads((tmp_path / "qs" / "runs" / "procot" / "run.json").read_text())
    assert run["model"] == "scripted-model"
    assert len(scripted_server.requests) > 0
    procot = out.table.rows[-1]
    assert procot.errored_lines == 0 and procot.uses_model
    assert 'data-run="procot"' in out.index.read_text()
