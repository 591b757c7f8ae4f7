"""Bad datasets and runs: each gives exactly ``file:LINE: field.path: what is wrong`` and exit 1.

Every bad copy is made from ``examples/`` with one defect (the checksum is re-computed unless the
checksum itself is the defect), so the expected output is the one message and nothing else.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fixtures import PERFECT_RUN, TINY, copy_run, copy_tiny
from proevent.cli import app
from proevent.io import FormatError, load_dataset, load_run, sha256_file

Lines = list[str]


def _rewrite(path: Path, edit: Callable[[Lines], Lines], *, final_newline: bool = True) -> None:
    lines = edit(path.read_text(encoding="utf-8").splitlines())
    path.write_text("\n".join(lines) + ("\n" if final_newline else ""), encoding="utf-8")


def _edit_json_line(lineno: int, edit: Callable[[dict], None]) -> Callable[[Lines], Lines]:
    def apply(lines: Lines) -> Lines:
        data = json.loads(lines[lineno - 1])
        edit(data)
        lines[lineno - 1] = json.dumps(data, ensure_ascii=False)
        return lines

    return apply


def _fix_checksum(folder: Path) -> None:
    manifest = json.loads((folder / "dataset.json").read_text())
    manifest["sha256"]["cases.jsonl"] = sha256_file(folder / "cases.jsonl")
    (folder / "dataset.json").write_text(json.dumps(manifest, indent=2))


def _set(path: tuple, value: object) -> Callable[[dict], None]:
    def apply(data: dict) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return apply


def _truncate_last(lines: Lines) -> Lines:
    last = lines[-1]
    return [*lines[:-1], last[: last.index('"tiny-05') + 4]]


# name -> (edit of cases.jsonl or None, edit of dataset.json or None, expected messages)
def _dataset_cases(tiny_lines: Lines) -> dict[str, tuple]:
    col = tiny_lines[4].index('"tiny-05') + 1
    return {
        "truncated line": (
            _truncate_last, None,
            [f"cases.jsonl:5: (line): not valid JSON: Unterminated string starting at column {col}"],
        ),
        "wrong type": (
            _edit_json_line(2, _set(("steps", 0, "t"), "one")), None,
            ["cases.jsonl:2: steps.0.t: Input should be a valid integer, unable to parse string as an integer"],
        ),
        "wrong type of a list": (
            _edit_json_line(2, _set(("initial_timetable", 0, "participants"), "Jerry Chen, Lena Vogt")), None,
            ["cases.jsonl:2: initial_timetable.0.participants: Input should be a valid list"],
        ),
        "not an object": (
            lambda lines: [*lines[:3], "[1, 2]", *lines[4:]], None,
            ["cases.jsonl:4: (line): expected a JSON object, got list"],
        ),
        "unknown op in gold_ops": (
            _edit_json_line(3, _set(("steps", 1, "gold_ops", 0), {"op": "remove", "id": "e1"})), None,
            ["cases.jsonl:3: steps.1.gold_ops.0: Input tag 'remove' found using 'op' does not match any of "
             "the expected tags: 'insert', 'update', 'delete'"],
        ),
        "bad time in an event": (
            _edit_json_line(4, _set(("initial_timetable", 0, "start"), "2026-06-03 10:00")), None,
            ["cases.jsonl:4: initial_timetable.0.start: invalid time '2026-06-03 10:00': "
             "expected YYYY-MM-DDTHH:MM or YYYY-MM-DD"],
        ),
        "wrong case format string": (
            _edit_json_line(1, _set(("format",), "proevent.case/2")), None,
            ["cases.jsonl:1: format: Input should be 'proevent.case/1'"],
        ),
        "wrong dataset format string": (
            None, _set(("format",), "proevent.dataset/2"),
            ["dataset.json: format: Input should be 'proevent.dataset/1'"],
        ),
        "two bad lines, both reported in order": (
            lambda lines: _edit_json_line(4, _set(("user",), None))(
                _edit_json_line(1, _set(("format",), "proevent.case/0"))(lines)
            ),
            None,
            ["cases.jsonl:1: format: Input should be 'proevent.case/1'",
             "cases.jsonl:4: user: Input should be a valid string"],
        ),
    }


def _make_bad_dataset(tmp_path: Path, name: str) -> tuple[Path, list[str]]:
    folder = copy_tiny(tmp_path / "tiny")
    lines = (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    edit_cases, edit_manifest, expected = _dataset_cases(lines)[name]
    if edit_cases is not None:
        _rewrite(folder / "cases.jsonl", edit_cases, final_newline=name != "truncated line")
    _fix_checksum(folder)
    if edit_manifest is not None:
        manifest = json.loads((folder / "dataset.json").read_text())
        edit_manifest(manifest)
        (folder / "dataset.json").write_text(json.dumps(manifest, indent=2))
    return folder, expected


DATASET_DEFECTS = list(_dataset_cases((TINY / "cases.jsonl").read_text(encoding="utf-8").splitlines()))


def _make_wrong_checksum(tmp_path: Path) -> tuple[Path, list[str]]:
    folder = copy_tiny(tmp_path / "tiny")
    actual = sha256_file(folder / "cases.jsonl")
    manifest = json.loads((folder / "dataset.json").read_text())
    manifest["sha256"]["cases.jsonl"] = "0" * 64
    (folder / "dataset.json").write_text(json.dumps(manifest, indent=2))
    message = f"dataset.json: sha256.cases.jsonl: checksum mismatch (manifest 000000000000…, file {actual[:12]}…)"
    return folder, [message]


# name -> (edit of predictions.jsonl or None, edit of run.json or None, expected messages)
_LAST_PREDICTION = (PERFECT_RUN / "predictions.jsonl").read_text(encoding="utf-8").splitlines()[-1]
_RUN_TRUNCATED_COLUMN = _LAST_PREDICTION.index('"tiny-05') + 1
RUN_DEFECTS: dict[str, tuple] = {
    "truncated line": (
        _truncate_last, None,
        ["predictions.jsonl:28: (line): not valid JSON: Unterminated string starting at column "
         f"{_RUN_TRUNCATED_COLUMN}"],
    ),
    "wrong type": (
        _edit_json_line(3, _set(("t",), "three")), None,
        ["predictions.jsonl:3: t: Input should be a valid integer, unable to parse string as an integer"],
    ),
    "unknown mode": (
        _edit_json_line(5, _set(("mode",), "both")), None,
        ["predictions.jsonl:5: mode: Input should be 'single' or 'multi'"],
    ),
    "wrong run format string": (
        None, _set(("format",), "proevent.run/9"),
        ["run.json: format: Input should be 'proevent.run/1'"],
    ),
}


def _make_bad_run(tmp_path: Path, name: str) -> tuple[Path, list[str]]:
    folder = copy_run("perfect", tmp_path / "run")
    edit_lines, edit_manifest, expected = RUN_DEFECTS[name]
    if edit_lines is not None:
        _rewrite(folder / "predictions.jsonl", edit_lines, final_newline=name != "truncated line")
    if edit_manifest is not None:
        manifest = json.loads((folder / "run.json").read_text())
        edit_manifest(manifest)
        (folder / "run.json").write_text(json.dumps(manifest, indent=2))
    return folder, expected


# ---- the loaders -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", DATASET_DEFECTS)
def test_load_dataset_reports_the_defect(tmp_path: Path, name: str) -> None:
    folder, expected = _make_bad_dataset(tmp_path, name)
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert info.value.problems == expected


def test_load_dataset_wrong_checksum(tmp_path: Path) -> None:
    folder, expected = _make_wrong_checksum(tmp_path)
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert info.value.problems == expected
    assert len(load_dataset(folder, verify_checksum=False).cases) == 5


@pytest.mark.parametrize("name", list(RUN_DEFECTS))
def test_load_run_reports_the_defect(tmp_path: Path, name: str) -> None:
    folder, expected = _make_bad_run(tmp_path, name)
    with pytest.raises(FormatError) as info:
        load_run(folder)
    assert info.value.problems == expected


def test_invalid_ops_in_a_prediction_line_are_not_a_format_error(tmp_path: Path) -> None:
    """The format keeps an operation that fails validation as an invalid prediction."""
    folder = copy_run("perfect", tmp_path / "run")
    _rewrite(folder / "predictions.jsonl",
             _edit_json_line(1, _set(("ops",), [{"op": "remind"}, {"op": "update", "id": "e1"}, 7])))
    line = load_run(folder).lines[("tiny-01", "single", 1, 0)]
    assert line.ops == [{"op": "remind"}, {"op": "update", "id": "e1"}, 7]


# ---- the commands ------------------------------------------------------------------------------

runner = CliRunner()


def _has_command(name: str) -> bool:
    return any(cmd.name == name or (cmd.name is None and cmd.callback.__name__ == name)
               for cmd in app.registered_commands)


def _assert_only_problems(result, expected: list[str]) -> None:
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "".join(f"{line}\n" for line in expected)


@pytest.mark.parametrize("name", [*DATASET_DEFECTS, "wrong checksum"])
@pytest.mark.parametrize("command", ["evaluate", "validate"])
def test_cli_bad_dataset(tmp_path: Path, name: str, command: str) -> None:
    if not _has_command(command):
        pytest.skip(f"`proevent {command}` is not registered yet")
    if name == "wrong checksum":
        folder, expected = _make_wrong_checksum(tmp_path)
    else:
        folder, expected = _make_bad_dataset(tmp_path, name)
    args = [command, str(folder)] + ([str(PERFECT_RUN), "--no-ci"] if command == "evaluate" else [])
    _assert_only_problems(runner.invoke(app, args), expected)


@pytest.mark.parametrize("name", list(RUN_DEFECTS))
def test_cli_evaluate_bad_run(tmp_path: Path, name: str) -> None:
    folder, expected = _make_bad_run(tmp_path, name)
    dataset = copy_tiny(tmp_path / "tiny")
    _assert_only_problems(runner.invoke(app, ["evaluate", str(dataset), str(folder), "--no-ci"]), expected)
    assert not (folder / "metrics.json").exists()


def test_cli_end_to_end_exit_code(tmp_path: Path) -> None:
    """The installed console script, in a real process: message on stderr, exit status 1."""
    folder, expected = _make_bad_dataset(tmp_path, "unknown op in gold_ops")
    script = Path(sys.executable).parent / "proevent"
    cmd = [str(script)] if script.exists() else [sys.executable, "-c", "from proevent.cli import main; main()"]
    proc = subprocess.run([*cmd, "evaluate", str(folder), str(PERFECT_RUN), "--no-ci"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == expected[0] + "\n"
