"""``proevent judge-check``: every location judge against the hand-labelled location pairs."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from proevent.cli.common import app, handle_errors, load_judges, pct, say, warn


@app.command("judge-check")
@handle_errors
def judge_check_command(
    judges: list[str] = typer.Option(
        [], "--judge", help="A judge to measure (repeatable); default exact, fuzzy, places, and llm when configured."
    ),
    pairs: Path | None = typer.Option(None, help="Labelled pairs (JSONL); default the packaged set."),
    second: Path | None = typer.Option(
        None, help="A second annotator's labels (id, label) for Cohen's kappa; default "
                   "NAME.second.jsonl beside the set NAME.jsonl when it exists."),
    show: str = typer.Option("heldout", help="Split whose disagreements are listed: dev, heldout or all."),
    limit: int = typer.Option(50, help="Disagreements listed per judge at most (0: none)."),
    json_out: Path | None = typer.Option(None, "--json", help="Also write the figures and disagreements here."),
) -> None:
    """Precision, recall and F1 of "same place" for each judge, on the dev and held-out parts of
    the labelled location pairs and on all of them; the pairs a judge decides wrongly are listed."""
    from proevent.evaluate.judges import OFFLINE_JUDGES, get_judge
    from proevent.evaluate.placeset import SPLITS, agreement, data_path, load_pairs, load_second_labels, score_judge

    if show not in SPLITS:
        raise ValueError(f"--show: unknown split {show!r}; choose one of {', '.join(SPLITS)}")
    labelled = load_pairs(pairs)
    names = list(judges) or [*OFFLINE_JUDGES, "llm"]
    load_judges(*names)
    report: dict = {"pairs": len(labelled), "judges": {}}
    say(f"{len(labelled)} labelled pairs ({sum(p.same for p in labelled)} same place)")
    say(f"{'judge':<8} {'split':<8} {'pairs':>5} {'precision':>9} {'recall':>7} {'F1':>7}")
    for name in names:
        try:
            judge = get_judge(name)
        except ValueError as exc:
            if judges:
                raise
            warn(f"judge {name} left out: {exc}")
            continue
        report["judges"][name] = {}
        scores = {}
        for split in SPLITS:
            subset = [p for p in labelled if split == "all" or p.split == split]
            scores[split] = score = score_judge(judge, subset)
            report["judges"][name][split] = score.as_dict()
            say(f"{name:<8} {split:<8} {len(subset):>5} {pct(score.precision):>9} {pct(score.recall):>7} "
                f"{pct(score.f1):>7}")
        for p, said in scores[show].disagreements[:limit]:
            say(f"    {'said same' if said else 'said different'}: {p.id} [{p.category}] {p.gold!r} / {p.pred!r}")
    beside = data_path("location_pairs.jsonl") if pairs is None else Path(pairs)
    second_path = second or beside.with_name(f"{beside.stem}.second.jsonl")
    if second is not None or second_path.exists():
        agree = agreement(labelled, load_second_labels(second_path), second_path)
        kappa = "–" if agree.kappa is None else f"{agree.kappa:.3f}"
        say(f"second annotator ({second_path}): {agree.n} pairs, agreement {pct(agree.observed)}, "
            f"Cohen's kappa {kappa}; differ on {', '.join(agree.differ) or 'none'}")
        report["agreement"] = {"file": str(second_path), "n": agree.n, "observed": agree.observed,
                               "kappa": agree.kappa, "differ": agree.differ}
    if json_out is not None:
        json_out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        say(f"wrote {json_out}")
