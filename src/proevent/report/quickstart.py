"""``proevent quickstart``: the whole loop offline -- generate, run the offline agents, evaluate, report.

```
OUT/dataset/              a small generated dataset (template realiser, no network)
OUT/dataset.direct/       its paired variant with every implicit reference made explicit
OUT/runs/null|rules|oracle[/procot]   one run folder per agent, both modes
OUT/runs/direct/rules|oracle          the pair's arm: single mode on the variant
OUT/report/               table.md/.tex/.csv, plots, errors.json, ablation.md/.json, index.html
```

OUT is a fresh folder (``proevent-quickstart``, else ``proevent-quickstart-2``, ...) unless given;
a given folder that already holds files is refused without ``force``, so nothing earlier is ever
overwritten silently. ``procot`` is run too when an OpenAI-compatible endpoint is configured in the
environment (``PROEVENT_BASE_URL`` and ``PROEVENT_MODEL``, as for ``proevent run``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from pathlib import Path

from rich.console import Console

from proevent.report.ablation import Ablation, ablation
from proevent.report.build import ReportOutput, prepare_folder, write_report
from proevent.report.collect import ScoredRun, load_scored_runs

DEFAULT_NAME = "proevent-quickstart"
OFFLINE_AGENTS: tuple[str, ...] = ("null", "rules", "oracle")
LLM_AGENT = "procot"
PAIR_VARIANT = "direct"
"""The paired variant the quickstart makes, and the agents it runs on it, for the report's ablation table."""
PAIR_AGENTS: tuple[str, ...] = ("rules", "oracle")


def fresh_folder(base: Path, name: str = DEFAULT_NAME) -> Path:
    """``base/name``, or ``base/name-2``, ``-3``... : the first that does not exist yet."""
    candidate = base / name
    k = 2
    while candidate.exists():
        candidate = base / f"{name}-{k}"
        k += 1
    return candidate


def endpoint_from_environment(environ: Mapping[str, str] | None = None):
    """The LLM config for ``procot`` when ``PROEVENT_BASE_URL`` and ``PROEVENT_MODEL`` are set, else
    ``None`` (resolved as for ``proevent run``: :func:`proevent.llm.config.environment_llm_config`).
    The key, if any, stays in the environment (``PROEVENT_API_KEY``/``OPENAI_API_KEY``)."""
    from proevent.llm.config import environment_llm_config

    return environment_llm_config(environ, overrides={"max_retries": 2, "timeout_s": 60.0})


def run_quickstart(
    out: str | Path | None = None,
    *,
    cases: int = 60,
    seed: int = 0,
    use_llm: bool = True,
    force: bool = False,
    n_boot: int = 1000,
    console: Console | None = None,
    environ: Mapping[str, str] | None = None,
) -> ReportOutput:
    """Generate ``cases`` cases, run the offline agents (and procot if configured), evaluate and report.

    Returns the :class:`~proevent.report.ReportOutput` of ``OUT/report``.
    """
    from proevent.agents.registry import create_agent
    from proevent.generate import GeneratorConfig, generate_dataset
    from proevent.runner import run_agent

    say = (console or Console(stderr=True)).print
    t0 = time.perf_counter()
    root = fresh_folder(Path.cwd()) if out is None else Path(out)
    prepare_folder(root, force=force)
    say(f"quickstart folder: {root}", highlight=False)

    config = GeneratorConfig(cases=cases, seed=seed, name="proevent-quickstart", variants=[PAIR_VARIANT])
    dataset = generate_dataset(config, root / "dataset", force=force)
    say(
        f"generated {len(dataset.cases)} cases, {dataset.manifest.counts.steps} steps "
        f"({time.perf_counter() - t0:.1f} s)",
        highlight=False,
    )

    run_paths: list[Path] = []
    for agent in OFFLINE_AGENTS:
        try:
            create_agent(agent, dataset=dataset) if agent == "oracle" else create_agent(agent)
        except (ImportError, AttributeError) as exc:
            say(f"[yellow]skipping agent {agent}:[/yellow] {exc}", highlight=False)
            continue
        t = time.perf_counter()
        path = root / "runs" / agent
        summary = run_agent(dataset, agent, path, "both", progress=False, force=force)
        run_paths.append(path)
        say(
            f"ran {agent}: {summary.written} lines, {summary.errors} errors ({time.perf_counter() - t:.1f} s)",
            highlight=False,
        )
    llm = endpoint_from_environment(environ) if use_llm else None
    if llm is not None:
        t = time.perf_counter()
        path = root / "runs" / LLM_AGENT
        say(f"running {LLM_AGENT} on {llm.model} at {', '.join(llm.base_urls)} ...", highlight=False)
        summary = run_agent(dataset, LLM_AGENT, path, "both", llm=llm, progress=False, force=force)
        run_paths.append(path)
        say(
            f"ran {LLM_AGENT}: {summary.written} lines, {summary.errors} errors ({time.perf_counter() - t:.1f} s)",
            highlight=False,
        )
    elif use_llm:
        say("no LLM endpoint configured (set PROEVENT_BASE_URL and PROEVENT_MODEL to add procot)", highlight=False)

    t = time.perf_counter()
    scored = load_scored_runs(run_paths, dataset=dataset, n_boot=n_boot, seed=0)
    say(f"evaluated {len(scored)} runs ({time.perf_counter() - t:.1f} s)", highlight=False)
    ablations = _pair_ablations(root, scored, n_boot=n_boot, force=force)
    say(f"ran the paired variant '{PAIR_VARIANT}' with {', '.join(PAIR_AGENTS)} ({time.perf_counter() - t:.1f} s)",
        highlight=False)
    output = write_report(
        scored,
        root / "report",
        force=force,
        n_boot=n_boot,
        seed=0,
        title=f"ProEvent quickstart ({len(dataset.cases)} generated cases)",
        ablations=ablations,
    )
    say(f"wrote the report ({time.perf_counter() - t0:.1f} s in all)", highlight=False)
    return output


def _pair_ablations(root: Path, scored: list[ScoredRun], *, n_boot: int, force: bool) -> list[Ablation]:
    """Each pair agent on the variant (single mode), and its paired table against its base run."""
    from proevent.io import load_dataset
    from proevent.runner import run_agent

    variant = load_dataset(root / f"dataset.{PAIR_VARIANT}")
    by_label = {sr.label: sr for sr in scored}
    tables = []
    for agent in PAIR_AGENTS:
        if agent not in by_label:
            continue
        path = root / "runs" / PAIR_VARIANT / agent
        run_agent(variant, agent, path, "single", progress=False, force=force)
        arm, = load_scored_runs([path], dataset=variant, n_boot=0, seed=0)
        arm = dataclasses.replace(arm, label=f"{agent} on {PAIR_VARIANT}")
        tables.append(ablation(by_label[agent], [arm], n_boot=n_boot, seed=0))
    return tables

