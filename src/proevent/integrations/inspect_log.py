"""``proevent import-inspect``: inspect_ai logs of the proevent tasks turned into a proevent run folder.

The solver kept every answer as a proevent prediction line in the sample's store
(``proevent:lines``), with the inspect epoch as the repeat; this module writes those lines to
``predictions.jsonl`` and builds ``run.json`` from the log (agent, model, generation settings, the
dataset reference the task recorded, and where it came from). Several logs (e.g. one of
``proevent_single`` and one of ``proevent_multi``) can be merged into one run when they were made
with the same agent, model and dataset.

``inspect eval`` exits 0 even when the evaluation failed, so the log's ``status`` is what tells:
a log that is not ``success`` is imported with a warning (its answered samples only), or refused
with ``strict``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from proevent import __version__
from proevent.agents.llm.prompts import PROMPT_VERSION, STRATEGY_TEMPLATES, prompt_record
from proevent.integrations.inspect_solver import LINES_KEY
from proevent.integrations.inspect_tasks import TASK_FORMAT
from proevent.io import PREDICTIONS_FILE, RUN_FILE, PredictionWriter, write_run_manifest
from proevent.model import DatasetRef, PredictionLine, PromptRecord, RunManifest
from proevent.runner.secrets import environment_secrets, redact_line


class InspectLogError(ValueError):
    """A log that cannot be imported (not a proevent task, logs that disagree, a failed run with strict)."""


@dataclass
class ImportSummary:
    folder: Path
    lines: int = 0
    samples: int = 0
    samples_without_answer: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _created(value: str) -> str:
    try:
        return datetime.fromisoformat(value).strftime("%Y-%m-%dT%H:%M")
    except ValueError:
        return value[:16]


def _read(path: Path) -> Any:
    from inspect_ai.log import read_eval_log

    if not path.exists():
        raise FileNotFoundError(f"{path}: file not found")
    try:
        return read_eval_log(str(path))
    except Exception as exc:  # inspect raises several types for a file that is not a log
        raise InspectLogError(f"{path}: not an inspect log: {exc}") from None


def _manifest(logs: list[tuple[Path, Any]]) -> RunManifest:
    first_path, first = logs[0]
    meta = first.eval.metadata or {}
    for path, log in logs[1:]:
        other = log.eval.metadata or {}
        for key in ("agent", "context_messages", "agent_options"):
            if other.get(key) != meta.get(key):
                raise InspectLogError(f"{path}: {key} {other.get(key)!r} differs from {first_path.name}'s "
                                      f"{meta.get(key)!r}; import them into separate runs")
        if (other.get("dataset") or {}).get("sha256") != (meta.get("dataset") or {}).get("sha256"):
            raise InspectLogError(f"{path}: made on another dataset than {first_path.name}")
        if log.eval.model != first.eval.model:
            raise InspectLogError(f"{path}: model {log.eval.model} differs from {first.eval.model}")
    agent = str(meta.get("agent", "unknown"))
    generate = first.eval.model_generate_config.model_dump(mode="json", exclude_none=True)
    dataset = meta.get("dataset") or {}
    options = meta.get("agent_options") or {}
    version = str(options.get("prompt_version") or PROMPT_VERSION)
    prompt = PromptRecord(**prompt_record(agent, version)) if agent in STRATEGY_TEMPLATES else None
    return RunManifest(
        created=_created(first.eval.created),
        proevent_version=__version__,
        agent=agent,
        model=first.eval.model,
        parameters={**generate, "context_messages": meta.get("context_messages"),
                    "agent_options": meta.get("agent_options") or {}},
        prompt=prompt,
        dataset=DatasetRef(name=dataset.get("name", ""), version=dataset.get("version", ""),
                           sha256=dataset.get("sha256", "")),
        source={"inspect": [{"log": str(p), "task": log.eval.task, "eval_id": log.eval.eval_id,
                             "status": log.status, "epochs": log.eval.config.epochs,
                             "judge": (log.eval.metadata or {}).get("judge")} for p, log in logs]},
    )


def import_inspect_logs(
    logs: list[str | Path], out: str | Path, *, strict: bool = False, overwrite: bool = False
) -> ImportSummary:
    """Write the run folder ``out`` from one or more logs of ``proevent_single``/``proevent_multi``.

    Raises:
        InspectLogError: a log is not of a proevent task, logs disagree, or (``strict``) a log's
            status is not ``success``.
        FileExistsError: ``out`` holds a run and ``overwrite`` is not set.
    """
    if not logs:
        raise InspectLogError("no log given")
    dest = Path(out)
    if (dest / RUN_FILE).exists() and not overwrite:
        raise FileExistsError(f"{dest / RUN_FILE} exists; pass --force to replace it")
    loaded = [(Path(p), _read(Path(p))) for p in logs]
    summary = ImportSummary(folder=dest)
    for path, log in loaded:
        if (log.eval.metadata or {}).get("format") != TASK_FORMAT:
            raise InspectLogError(f"{path}: not a log of the proevent inspect tasks (task {log.eval.task})")
        if log.status != "success":
            message = f"{path.name}: status {log.status}" + (f": {log.error.message}" if log.error else "")
            if strict:
                raise InspectLogError(message)
            summary.warnings.append(message + "; importing the samples that have answers")
    manifest = _manifest(loaded)
    secrets = environment_secrets()  # a log written before proevent redacted may hold an echoed key
    dest.mkdir(parents=True, exist_ok=True)
    (dest / PREDICTIONS_FILE).unlink(missing_ok=True)
    write_run_manifest(dest, manifest)
    with PredictionWriter(dest / PREDICTIONS_FILE) as writer:
        for _, log in loaded:
            for sample in log.samples or []:
                summary.samples += 1
                lines = (sample.store or {}).get(LINES_KEY) or []
                if not lines:
                    summary.samples_without_answer.append(f"{sample.id} (epoch {sample.epoch})")
                for raw in lines:
                    writer.write(redact_line(PredictionLine.model_validate(raw), secrets))
                    summary.lines += 1
    return summary


__all__ = ["ImportSummary", "InspectLogError", "import_inspect_logs"]
