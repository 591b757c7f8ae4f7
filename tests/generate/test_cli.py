from __future__ import annotations

import json

from typer.testing import CliRunner

from proevent.cli import app

runner = CliRunner()


def test_generate_validate_stats(tmp_path):
    out = tmp_path / "ds"
    r = runner.invoke(app, ["generate", "--out", str(out), "--cases", "20", "--seed", "4", "-q",
                            "--window", "3h", "--turns", "1-3", "--noise", "message=0.5,failed_planning=0"])
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "dataset.json").read_text())
    cfg = manifest["generator"]["config"]
    assert cfg["window_minutes"] == 180 and cfg["turns"]["max"] == 3
    assert cfg["noise"]["content"]["failed_planning"] == 0.0
    r = runner.invoke(app, ["validate", str(out)])
    assert r.exit_code == 0, r.output
    assert "0 errors" in r.output
    r = runner.invoke(app, ["stats", str(out), "--json", str(tmp_path / "s.json"), "--plots", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    st = json.loads((tmp_path / "s.json").read_text())
    assert st["cases"] == 20 and (tmp_path / "p" / "negotiation_turns.png").exists()
    r = runner.invoke(app, ["generate", "--out", str(out), "--cases", "2", "-q"])
    assert r.exit_code == 1 and "--force" in r.output


def test_validate_exits_1_on_errors(tmp_path):
    out = tmp_path / "ds"
    assert runner.invoke(app, ["generate", "--out", str(out), "--cases", "5", "-q"]).exit_code == 0
    lines = (out / "cases.jsonl").read_text().splitlines()
    case = json.loads(lines[0])
    step = next(s for s in case["steps"] if s["messages"])
    step["messages"][0]["sender"] = "Nobody Known"
    lines[0] = json.dumps(case)
    (out / "cases.jsonl").write_text("\n".join(lines) + "\n")
    r = runner.invoke(app, ["validate", str(out)])
    assert r.exit_code == 1 and "checksum" in r.output
    from proevent.io.dataset import sha256_file

    manifest = json.loads((out / "dataset.json").read_text())
    manifest["sha256"]["cases.jsonl"] = sha256_file(out / "cases.jsonl")
    (out / "dataset.json").write_text(json.dumps(manifest))
    r = runner.invoke(app, ["validate", str(out), "--json", str(tmp_path / "v.json")])
    assert r.exit_code == 1
    assert "sender_not_member" in r.output
    report = json.loads((tmp_path / "v.json").read_text())
    assert report["errors"][0]["case_id"] == case["case_id"] and report["errors"][0]["field"].endswith(".sender")


def test_bad_config_is_a_clear_error(tmp_path):
    cfg = tmp_path / "gen.json"
    cfg.write_text(json.dumps({"casez": 3}))
    r = runner.invoke(app, ["generate", "--out", str(tmp_path / "x"), "--config", str(cfg)])
    assert r.exit_code == 1 and "casez" in r.output
    r = runner.invoke(app, ["generate", "--out", str(tmp_path / "x"), "--noise", "loud=1"])
    assert r.exit_code == 1 and "unknown noise key" in r.output
