"""What the commands print (issue 17, point 2) and how `generate` ends (point 3), end to end through the CLI."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from typer.testing import CliRunner

from proevent import __version__
from proevent.cli import app
from proevent.cli.report_cmds import metric_label, p_text
from support.scripted_server import Reply

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env=env)


def test_an_install_hint_keeps_its_extra_in_brackets(monkeypatch, tmp_path: Path) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a))
    res = invoke("export", "hf", str(EXAMPLES / "tiny"), str(tmp_path / "hf"))
    assert res.exit_code == 1
    assert "error: this command needs pyarrow: pip install 'proevent[hf]'" in res.stderr


def test_version_and_flags_without_a_bool_metavar() -> None:
    res = invoke("--version")
    assert res.exit_code == 0 and res.stdout.strip() == f"proevent {__version__}"
    for command in ("generate", "run", "evaluate", "ics"):
        text = invoke(command, "--help", env={"COLUMNS": "160"}).stdout
        assert "--force" in text or "--no-ci" in text or "--with-gold" in text or "--no-cache" in text
        assert "<bool>" not in text, command


def test_generate_quiet_prints_nothing(tmp_path: Path) -> None:
    res = invoke("generate", "--out", str(tmp_path / "d"), "--cases", "2", "-q")
    assert res.exit_code == 0 and res.stdout == "" and res.stderr == ""
    assert len((tmp_path / "d" / "cases.jsonl").read_text().splitlines()) == 2
    loud = invoke("generate", "--out", str(tmp_path / "e"), "--cases", "2")
    assert loud.exit_code == 0 and "wrote" in loud.stdout
    assert "{" not in loud.stdout and "rejected attempts: none" in loud.stdout


def test_stats_prints_counts_not_dict_reprs() -> None:
    res = invoke("stats", str(EXAMPLES / "tiny"), env={"COLUMNS": "200"})
    assert res.exit_code == 0
    assert "insert: 5, update: 6, delete: 2" in res.stdout  # hand-counted from examples/tiny
    assert "{" not in res.stdout and "None" not in res.stdout


def test_a_bad_setting_names_the_file_line_and_field_or_the_option(tmp_path: Path) -> None:
    cfg = tmp_path / "gen.toml"
    cfg.write_text('seed = 1\n\n[llm]\nmodel = "m"\nconcurrency = 0\n')
    res = invoke("generate", "--out", str(tmp_path / "d"), "--config", str(cfg))
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert res.stderr.strip() == f"{cfg}:5: llm.concurrency: Input should be greater than or equal to 1"
    res = invoke("generate", "--out", str(tmp_path / "d"), "--cases", "0")
    assert res.stderr.strip() == "--cases: cases: Input should be greater than or equal to 1"
    res = invoke("run", str(EXAMPLES / "tiny"), "--agent", "null", "--out", str(tmp_path / "r"), "--repeats", "0")
    assert res.exit_code == 1 and res.stderr.strip() == "--repeats: repeats: Input should be greater than or equal to 1"


def test_generate_fails_when_it_writes_fewer_cases_and_the_realiser_reads_proevent_variables(
    tmp_path: Path, scripted_server
) -> None:
    scripted_server.default = lambda req: Reply(content="not json at all")
    cfg = tmp_path / "gen.toml"
    cfg.write_text("max_attempts = 1\n[llm]\ncache = false\nretries = 0\nrequest_retries = 0\n")
    env = {"PROEVENT_BASE_URL": scripted_server.base_url, "PROEVENT_MODEL": "env-model"}
    res = invoke("generate", "--out", str(tmp_path / "d"), "--cases", "2", "--realizer", "llm",
                 "--config", str(cfg), env=env)
    assert res.exit_code == 1, res.output
    assert "wrote 0 of the 2 cases asked for" in " ".join(res.stderr.split())
    assert scripted_server.requests and {r["model"] for r in scripted_server.requests} == {"env-model"}


def test_the_llm_realiser_takes_a_profile_with_base_urls_as_run_does(tmp_path: Path, scripted_server) -> None:
    def faithful(req: dict) -> Reply:
        lines = json.loads(req["messages"][1]["content"])["lines"]
        return Reply(content=json.dumps({"messages": [{"i": ln["i"], "text": ln["draft"]} for ln in lines]}))

    scripted_server.default = faithful
    toml = tmp_path / "proevent.toml"
    toml.write_text(f'[profiles.gen]\nmodel = "profile-model"\nbase_urls = ["{scripted_server.base_url}"]\n')
    cfg = tmp_path / "gen.json"
    cfg.write_text(json.dumps({"llm": {"cache": False}}))
    res = invoke("generate", "--out", str(tmp_path / "d"), "--cases", "1", "--realizer", "llm", "--profile", "gen",
                 "--config", str(cfg), "-q", env={"PROEVENT_CONFIG": str(toml)})
    assert res.exit_code == 0, res.output
    assert {r["model"] for r in scripted_server.requests} == {"profile-model"}
    manifest = json.loads((tmp_path / "d" / "dataset.json").read_text())
    assert manifest["generator"]["config"]["llm"]["profile"] == "gen"
    assert manifest["generator"]["config"]["llm"]["base_urls"] is None  # the URL came from the profile


def test_ics_has_one_output_option(tmp_path: Path) -> None:
    text = invoke("ics", "--help", env={"COLUMNS": "160"}).stdout
    assert "--output" in text and not re.search(r"--out\b(?!put)", text)
    out = tmp_path / "a.ics"
    res = invoke("ics", str(EXAMPLES / "tiny"), "tiny-01", "-o", str(out))
    assert res.exit_code == 0 and out.read_bytes().startswith(b"BEGIN:VCALENDAR")
    old = invoke("ics", str(EXAMPLES / "tiny"), "tiny-01", "--out", str(tmp_path / "b.ics"))
    assert old.exit_code == 0 and "--out is deprecated: use -o/--output" in old.stderr
    both = invoke("ics", str(EXAMPLES / "tiny"), "tiny-01", "-o", str(out), "--out", str(out))
    assert both.exit_code == 1


def test_compare_names_metrics_as_the_report_and_small_p_values_as_a_bound() -> None:
    assert metric_label("single.fdr") == "FDR ↓" and metric_label("single.insert.recall") == "Insert R"
    assert p_text(0.0004) == "< 0.001" and p_text(0.001) == "0.001" and p_text(None) == "–"
    res = invoke("compare", str(EXAMPLES / "runs" / "perfect"), str(EXAMPLES / "runs" / "flawed"),
                 "--dataset", str(EXAMPLES / "tiny"), "--n-boot", "200", env={"COLUMNS": "160"})
    assert res.exit_code == 0, res.output
    assert "FDR ↓" in res.stdout and "Table" in res.stdout and "single.fdr" not in res.stdout
