from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from proevent.cli import app
from proevent.io import FormatError, load_dataset
from proevent.web.review import Annotation, ReviewStore, agreement, cohen_kappa, load_annotations

V, N = "valid", "invalid"
FIRST = [V, V, V, V, N, N, V, N, V, V]
SECOND = [V, V, V, N, N, N, V, V, V, V]


def test_kappa_by_hand() -> None:
    # p_o = 8/10; both say valid 7 times of 10, so p_e = .7*.7 + .3*.3 = .58; kappa = .22/.42
    assert cohen_kappa(list(zip(FIRST, SECOND))) == pytest.approx(0.22 / 0.42)


def test_kappa_edges() -> None:
    assert cohen_kappa([]) is None
    assert cohen_kappa([(V, V), (V, V)]) is None  # chance agreement is 1: undefined, not 1 or 0
    assert cohen_kappa([(V, N), (N, V)]) == pytest.approx(-1.0)
    assert cohen_kappa([(V, V), (N, N)]) == pytest.approx(1.0)


def _ann(case_id: str, who: str, verdict: str) -> Annotation:
    return Annotation(case_id=case_id, annotator=who, verdict=verdict, created="2026-11-29T12:00",
                      reason=None if verdict == V else "ambiguous")


def _write(path: Path, who: str, verdicts: list[str], extra: list[str] = ()) -> Path:
    lines = [_ann(f"c{i}", who, v).model_dump_json() for i, v in enumerate(verdicts)]
    path.write_text("\n".join([*lines, *extra]) + "\n", encoding="utf-8")
    return path


def test_agreement_disputed_and_one_sided(tmp_path: Path) -> None:
    a = load_annotations(_write(tmp_path / "a.jsonl", "ann", FIRST + [V]))
    b = load_annotations(_write(tmp_path / "b.jsonl", "bob", SECOND))
    res = agreement(a, b)
    assert (res.n, res.agreed) == (10, 8)
    assert res.percent == pytest.approx(0.8)
    assert [c for c, _, _ in res.disputed] == ["c3", "c7"]
    assert res.only_first == ["c10"] and res.only_second == []
    assert res.table == {(V, V): 6, (V, N): 1, (N, V): 1, (N, N): 2}
    assert res.annotators == ("ann", "bob")


def test_last_line_per_case_counts(tmp_path: Path) -> None:
    later = _ann("c0", "ann", N).model_dump_json()
    anns = load_annotations(_write(tmp_path / "a.jsonl", "ann", [V, V], extra=[later]))
    assert anns["c0"].verdict == N and anns["c0"].reason == "ambiguous"


def test_bad_line_names_file_line_and_field(tmp_path: Path) -> None:
    bad = json.dumps({"case_id": "c9", "annotator": "ann", "verdict": "maybe", "created": "x"})
    path = _write(tmp_path / "a.jsonl", "ann", [V], extra=[bad])
    with pytest.raises(FormatError) as err:
        load_annotations(path)
    assert any(p.startswith(f"{path}:2: verdict:") for p in err.value.problems), err.value.problems


def test_invalid_needs_reason() -> None:
    with pytest.raises(ValueError, match="needs a reason"):
        Annotation(case_id="c", annotator="a", verdict="invalid", created="2026-11-29T12:00")


def test_store_appends_and_resumes(dataset_dir: Path, tmp_path: Path) -> None:
    ds = load_dataset(dataset_dir)
    path = tmp_path / "rev" / "annotations.jsonl"
    store = ReviewStore.open(path, "ann", ds)
    assert store.next_unreviewed() == "pe-001"
    store.save("pe-001", "valid", None, "looks right")
    store.save("pe-002", "invalid", "wrong_time", "  dinner was at 8  ")
    store.save("pe-001", "invalid", "gold_missing", "")
    assert len(path.read_text().splitlines()) == 3  # append-only
    again = ReviewStore.open(path, "ann", ds)
    assert again.latest("pe-001").verdict == "invalid"
    assert again.latest("pe-002").note == "dinner was at 8"
    assert again.count() == 2 and again.next_unreviewed(after="pe-001") == "pe-003"
    with pytest.raises(ValueError, match="unknown reason"):
        again.save("pe-003", "invalid", "because", "")
    with pytest.raises(KeyError):
        again.save("nope", "valid", None, "")
    with pytest.raises(ValueError, match="annotations by 'ann'"):
        ReviewStore.open(path, "bob", ds)


def test_agreement_command(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.jsonl", "ann", FIRST)
    b = _write(tmp_path / "b.jsonl", "bob", SECOND)
    res = CliRunner().invoke(app, ["agreement", str(a), str(b)])
    assert res.exit_code == 0, res.output
    assert "agreement: 8/10 = 80.0%" in res.output
    assert "Cohen's kappa: 0.524" in res.output
    assert "c3: ann valid / bob invalid (ambiguous)" in res.output
    assert "c7: ann invalid (ambiguous) / bob valid" in res.output


def test_agreement_command_bad_file(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.jsonl", "ann", FIRST, extra=["{not json"])
    res = CliRunner().invoke(app, ["agreement", str(a), str(a)])
    assert res.exit_code == 1
    assert "a.jsonl:11: (line): not valid JSON" in res.output.replace("\n", "")


def test_flagged_cases_come_first(dataset_dir: Path, tmp_path: Path) -> None:
    # pe-003 (fixture_cases.meeting_case): the sync's end (16:00) is never said and Lee Wong, who
    # stays silent in the group, is listed as a participant: two flags
    ds = load_dataset(dataset_dir)
    store = ReviewStore.open(tmp_path / "a.jsonl", "ann", ds, flagged_first=True)
    assert [(f.code, f.step, f.field) for f in store.flags_for("pe-003")] == [
        ("value_not_expressed", 1, "steps[0].gold_ops[0].event.end"),
        ("participant_not_seen", 1, "steps[0].gold_ops[0].event.participants")]
    assert store.flags_for("pe-001") == []
    assert store.order == ["pe-003", "pe-001", "pe-002"]
    assert store.next_unreviewed() == "pe-003"
    store.save("pe-003", "invalid", "wrong_time", "")
    assert store.next_unreviewed(after="pe-003") == "pe-001"
    plain = ReviewStore.open(tmp_path / "b.jsonl", "ann", ds)
    assert plain.order == ["pe-001", "pe-002", "pe-003"] and plain.next_unreviewed() == "pe-001"


def test_review_page_lists_the_flags(dataset_dir: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from proevent.web import ServeConfig, create_app

    c = TestClient(create_app(ServeConfig(dataset=dataset_dir, review="ann", out=tmp_path / "a.jsonl")),
                   base_url="http://127.0.0.1:8000")
    assert "next unreviewed: pe-003" in c.get("/").text
    page = c.get("/case/pe-003").text
    assert "Validator flags (2)" in page and "steps[0].gold_ops[0].event.end" in page
    assert "participant_not_seen" in page
    assert "Validator flags" not in c.get("/case/pe-001").text
    res = c.post("/review/pe-003", data={"verdict": "valid"}, follow_redirects=False)
    assert res.headers["location"] == "/case/pe-001"
    off = TestClient(create_app(ServeConfig(dataset=dataset_dir, review="bob", out=tmp_path / "b.jsonl",
                                            flagged_first=False)), base_url="http://127.0.0.1:8000")
    assert "next unreviewed: pe-001" in off.get("/").text
