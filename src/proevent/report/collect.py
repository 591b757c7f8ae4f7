"""Loading the runs of a report: finding each run's dataset, refusing mixed versions, scoring."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proevent.evaluate import METRICS_VERSION, EvaluationResult, evaluate, get_judge, shared_resamples
from proevent.evaluate.judges import LocationJudge
from proevent.io import CASES_FILE, MANIFEST_FILE, Dataset, Run, load_dataset, load_run
from proevent.model import RunManifest, dataset_mismatch
from proevent.model.bulk import gc_paused

HUMAN_PREFIX = "human"
REFERENCE_AGENTS = ("oracle",)
"""Rows left out of "best value per column" (with every ``human...`` agent), as in the paper's table 1."""


class MixedDatasetsError(ValueError):
    """The runs of one report were made on different datasets."""


@dataclass
class ScoredRun:
    """One run of a report, scored: what the table, plots and error analysis read."""

    label: str
    path: Path
    run: Run
    result: EvaluationResult
    dataset: Dataset
    judge: LocationJudge | None = None
    """The judge object the run was scored with (the error analysis reuses its decisions)."""

    @property
    def manifest(self) -> RunManifest:
        return self.run.manifest

    @property
    def agent(self) -> str:
        return self.run.manifest.agent

    @property
    def is_reference(self) -> bool:
        """The oracle or a human: shown, but never "best"."""
        agent = self.agent.lower()
        return agent in REFERENCE_AGENTS or agent.startswith(HUMAN_PREFIX)

    @property
    def errored_lines(self) -> int:
        return sum(1 for line in self.run.lines.values() if line.error is not None)

    @property
    def missing(self) -> int:
        m = self.result.metrics
        return sum((m.get(mode) or {}).get("missing", 0) for mode in ("single", "multi"))

    @property
    def cost_usd(self) -> float | None:
        """The run's cost from ``run.json``'s ``usage.cost_usd``; ``None`` when unknown or not recorded."""
        usage = self.manifest.usage
        if usage is not None:
            cost = usage.get("cost_usd")
            return float(cost) if isinstance(cost, (int, float)) else None
        return None

    @property
    def uses_model(self) -> bool:
        return bool(self.manifest.model) or self.manifest.usage is not None


def dataset_key(manifest: RunManifest) -> tuple[str, str, str]:
    return manifest.dataset.key()


def check_same_dataset(runs: Sequence[Run], *, allow_mixed: bool = False) -> None:
    """Refuse runs made on different datasets (name, version or checksum) unless ``allow_mixed``.

    Raises:
        MixedDatasetsError: naming each run and the dataset it was made on.
    """
    keys = {dataset_key(r.manifest) for r in runs}
    if len(keys) > 1 and not allow_mixed:
        lines = [
            f"  {r.path}: {r.manifest.dataset.name} {r.manifest.dataset.version} "
            f"(sha256 {r.manifest.dataset.sha256[:12]})"
            for r in runs
        ]
        raise MixedDatasetsError(
            "the runs were made on different datasets; compare runs of one dataset, or pass --allow-mixed:\n"
            + "\n".join(lines)
        )


def _manifest_key(folder: Path) -> tuple[str, str, str] | None:
    """(name, version, cases checksum) from a folder's ``dataset.json`` without reading the cases."""
    try:
        data = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    sha = (data.get("sha256") or {}).get(CASES_FILE)
    return (str(data.get("name")), str(data.get("version")), sha) if isinstance(sha, str) else None


def locate_dataset(run_path: Path, manifest: RunManifest) -> Path | None:
    """Where the dataset of a run is, when it was not given: ``run.json``'s ``dataset.path`` (an
    extra field, relative to the run folder or absolute), else a dataset folder with the run's
    dataset name, version and checksum in the run folder, its parent or grandparent, or one level
    inside any of them. (``load_dataset`` then verifies the checksum of ``cases.jsonl``.)"""
    want = dataset_key(manifest)
    recorded = manifest.dataset.path
    candidates: list[Path] = []
    if recorded:
        p = Path(recorded)
        candidates.append(p if p.is_absolute() else run_path / p)
    for base in (run_path, run_path.parent, run_path.parent.parent):
        candidates.append(base)
        if base.is_dir():
            candidates += sorted(d for d in base.iterdir() if d.is_dir() and d != run_path)
    for cand in candidates:
        if (cand / MANIFEST_FILE).is_file() and (cand / CASES_FILE).is_file() and _manifest_key(cand) == want:
            return cand
    return None


def unique_labels(paths: Sequence[Path], manifests: Sequence[RunManifest]) -> list[str]:
    """A short, unique label per run: the folder name, or more of the path where names collide."""
    labels = [p.name or m.agent for p, m in zip(paths, manifests)]
    depth = 1
    while len(set(labels)) < len(labels) and depth < 6:
        depth += 1
        labels = ["/".join(p.resolve().parts[-depth:]) for p in paths]
    if len(set(labels)) < len(labels):
        labels = [f"{label} #{i + 1}" for i, label in enumerate(labels)]
    return labels


def load_scored_runs(
    run_paths: Sequence[str | Path],
    *,
    dataset: str | Path | Dataset | None = None,
    allow_mixed: bool = False,
    judge: str | LocationJudge | None = None,
    metrics_version: int = METRICS_VERSION,
    n_boot: int = 1000,
    seed: int = 0,
    results: dict[Path, EvaluationResult] | None = None,
    only_answered: bool = False,
    traces: bool = True,
) -> list[ScoredRun]:
    """Load, check and score every run.

    Args:
        run_paths: run folders.
        dataset: the dataset (folder or loaded); else each run's is located by :func:`locate_dataset`.
        allow_mixed: accept runs made on different datasets (each is scored on its own dataset,
            which then must be found or be the one given, checksum and all).
        judge, metrics_version, n_boot, seed: as :func:`proevent.evaluate.evaluate`.
        results: already computed results by run path (the quickstart passes them), skipping a re-score.
        only_answered: score every run on the cases that all of the runs answered (the sample of a
            human run): the rows then stand on the same cases; the metrics carry
            ``dataset.scored_cases`` and ``dataset.of_cases`` (the table's caption says so).
        traces: keep each case's multi-step trace (``result.cases``: what the paired comparison
            and an ablation of multi-step runs read). ``proevent report`` reads the single-step
            questions only and passes ``False``: multi-step mode is then scored to its counts
            alone (the same metrics), 0.05-0.1 s less for three runs of the default dataset.

    Raises:
        MixedDatasetsError: runs on different datasets without ``allow_mixed``.
        FileNotFoundError: a run's dataset was neither given nor found.
        ValueError: the dataset given is not the one a run was made on.
    """
    if not run_paths:
        raise ValueError("no run given")
    with gc_paused(), shared_resamples():  # the runs of one dataset draw their resamples once
        return _load_scored_runs([Path(p) for p in run_paths], dataset=dataset, allow_mixed=allow_mixed, judge=judge,
                                 metrics_version=metrics_version, n_boot=n_boot, seed=seed, results=results,
                                 only_answered=only_answered, traces=traces)


def _load_scored_runs(
    paths: list[Path],
    *,
    dataset: str | Path | Dataset | None,
    allow_mixed: bool,
    judge: str | LocationJudge | None,
    metrics_version: int,
    n_boot: int,
    seed: int,
    results: dict[Path, EvaluationResult] | None,
    only_answered: bool,
    traces: bool,
) -> list[ScoredRun]:
    runs = [load_run(p) for p in paths]
    check_same_dataset(runs, allow_mixed=allow_mixed)
    given = dataset if isinstance(dataset, Dataset) or dataset is None else load_dataset(dataset)
    cache: dict[tuple[str, str, str], Dataset] = {}
    if given is not None:
        cache[(given.manifest.name, given.manifest.version, given.sha256)] = given
    out: list[ScoredRun] = []
    labels = unique_labels(paths, [r.manifest for r in runs])
    # one object: an LLM judge asks each pair once for all runs
    the_judge = get_judge(judge, metrics_version=metrics_version)
    common = set.intersection(*(set(r.answered_cases()) for r in runs)) if only_answered else None
    if common is not None and not common:
        raise ValueError("--only-answered: no case is answered by every run")
    for path, run, label in zip(paths, runs, labels):
        ds = _dataset_for(path, run, given, cache, allow_mixed)
        res = (results or {}).get(path)
        if res is None and common is not None:
            of_cases, ds = len(ds.cases), ds.subset(c.case_id for c in ds.cases if c.case_id in common)
            res = evaluate(ds, run, judge=the_judge, metrics_version=metrics_version, ci=True, n_boot=n_boot,
                           seed=seed, traces=traces)
            res.metrics["dataset"].update(scored_cases=len(ds.cases), of_cases=of_cases)
        elif res is None:
            res = evaluate(ds, run, judge=the_judge, metrics_version=metrics_version, ci=True, n_boot=n_boot,
                           seed=seed, traces=traces)
        scored = res.metrics["dataset"].get("scored_cases")
        if scored is not None and scored < len(ds.cases):
            ds = ds.subset(run.answered_cases())
            label = f"{label} ({scored} cases)"
        out.append(ScoredRun(label=label, path=path, run=run, result=res, dataset=ds, judge=the_judge))
    return out


def _dataset_for(
    path: Path, run: Run, given: Dataset | None, cache: dict[tuple[str, str, str], Dataset], allow_mixed: bool
) -> Dataset:
    key = dataset_key(run.manifest)
    want = key[2]
    if key in cache:
        return cache[key]
    if given is not None and not allow_mixed:
        ref = run.manifest.dataset
        why = dataset_mismatch(run, given, "the dataset given") or (  # same checksum, another name or version
            f"the run was made on dataset {ref.name} {ref.version}, not on the dataset given "
            f"({given.manifest.name} {given.manifest.version})")
        raise ValueError(f"{path}: {why}")
    found = locate_dataset(path, run.manifest)
    if found is None:
        ref = run.manifest.dataset
        raise FileNotFoundError(
            f"{path}: cannot find its dataset {ref.name} {ref.version} (sha256 {want[:12]}); pass --dataset PATH"
        )
    ds = load_dataset(found)
    cache[key] = ds
    return ds


def describe_run(scored: ScoredRun) -> dict[str, Any]:
    """What the report says about a run besides its metrics."""
    m = scored.manifest
    return {
        "label": scored.label,
        "path": str(scored.path),
        "agent": m.agent,
        "model": m.model,
        "created": m.created,
        "dataset": f"{m.dataset.name} {m.dataset.version}",
        "errored_lines": scored.errored_lines,
        "missing": scored.missing,
        "cost_usd": scored.cost_usd,
        "repeats": (scored.result.metrics.get("repeats") or {}).get("n", 1),
    }
