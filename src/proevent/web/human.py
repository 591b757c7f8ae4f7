"""Human mode: a person plays the agent and their answers become a standard run folder.

The person sees what an agent's observation holds (the user's name, the current time, the
timetable — gold S_{t-1} in single-step mode, their own in multi-step mode — the new messages of
the step grouped by chat, and up to K earlier messages of those chats), and builds the step's
operations one at a time, each checked against that timetable.

Nothing is lost when the browser closes: every operation added or removed is appended to
``human-drafts.jsonl`` and every submitted answer to ``predictions.jsonl`` (one whole line, via
:class:`proevent.io.PredictionWriter`), and opening the same folder again resumes where the
person stopped. ``--sample N`` draws N whole cases with ``random.Random(seed)`` — in single-step
mode every step of each is asked, teacher-forced — and writes them as a dataset of their own in
``sample/``, so ``proevent evaluate RUN/sample RUN`` scores exactly the questions asked.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from proevent.agents.protocol import Action, Observation, build_observation, quiet_action
from proevent.io import Dataset, FormatError, PredictionWriter, load_dataset, write_dataset
from proevent.io.jsonl import iter_jsonl
from proevent.model import Case, InvalidOp, Timetable, op_to_json, parse_op, parse_ops
from proevent.runner import RunConfig
from proevent.runner.core import action_to_line, advance
from proevent.runner.store import RunStore, open_store
from proevent.web.config import ServeConfig

DRAFTS_FILE = "human-drafts.jsonl"
SAMPLE_DIR = "sample"


class _DraftModel(BaseModel):
    """One line of ``human-drafts.jsonl``: the operations of an unanswered question so far."""

    model_config = ConfigDict(extra="ignore")
    case_id: str
    t: int
    ops: list[Any]


@dataclass(frozen=True)
class Item:
    """One question the person answers: step ``t`` of a case."""

    case_id: str
    t: int


def sample_cases(dataset: Dataset, n: int | None, seed: int) -> list[Case]:
    """``n`` cases drawn without replacement by ``random.Random(seed)``, in dataset order (all when None)."""
    if n is None or n >= len(dataset.cases):
        return list(dataset.cases)
    picked = set(random.Random(seed).sample(range(len(dataset.cases)), n))
    return [c for i, c in enumerate(dataset.cases) if i in picked]


def human_run_config(config: ServeConfig, cases: list[Case]) -> tuple[RunConfig, dict[str, Any]]:
    """The run config and agent description of a person's run: the runner's identity (and its
    hash) is built from them, so a folder is resumed or refused by the same rule as an agent's."""
    assert config.human is not None
    run_config = RunConfig(
        agent=f"human:{config.human}", mode=config.mode, concurrency=1, context_messages=config.context,  # type: ignore[arg-type]
        cases=[c.case_id for c in cases] if config.sample is not None else None,
    )
    description = {"strategy": "human", "person": config.human, "mode": config.mode, "sample": config.sample,
                   "seed": config.seed}
    return run_config, description


class HumanSession:
    """The questions, the answers so far and the drafts of one person on one dataset.

    The run folder is the runner's :class:`~proevent.runner.store.RunStore`: the same identity
    hash, lock, writer (fsynced), torn-tail cut and resume as an agent's run.
    """

    def __init__(self, dataset: Dataset, config: ServeConfig, folder: Path, cases: list[Case]) -> None:
        self.dataset = dataset
        self.config = config
        self.folder = folder
        self.mode = config.mode
        self.cases = {c.case_id: c for c in cases}
        self.items = [Item(c.case_id, s.t) for c in cases for s in c.steps]
        self.answers: dict[Item, list[Any]] = {}
        self.drafts: dict[Item, list[Any]] = {}
        self.shown_at: dict[Item, float] = {}
        self.lock = threading.Lock()
        self._store: RunStore | None = None
        self._drafts: PredictionWriter | None = None

    @classmethod
    def open(cls, dataset: Dataset, config: ServeConfig) -> HumanSession:
        """Create the run folder, or resume it after checking it was made by the same settings.

        Raises:
            RunDriftError: the folder holds a run of another person, dataset, mode or sampling.
            RunLockedError: another process (a second ``proevent serve``) has the folder open.
            FormatError: a file of the folder is malformed.
        """
        assert config.human is not None and config.output_path is not None
        folder = config.output_path
        cases = sample_cases(dataset, config.sample, config.seed)
        session = cls(dataset, config, folder, cases)
        run_config, description = human_run_config(config, cases)
        parameters = {"mode": config.mode, "sample": config.sample, "seed": config.seed, "context": config.context}
        store = open_store(run_config, description, dataset, folder, uses_llm=False, parameters=parameters,
                           fsync=True)
        session._store = store
        try:
            for (case_id, mode, t, rep), line in store.existing.items():
                if mode == session.mode and rep == 0 and case_id in session.cases and line.error is None:
                    session.answers[Item(case_id, t)] = list(line.ops)
            session._drafts = PredictionWriter(folder / DRAFTS_FILE, fsync=True)  # cuts a torn tail
            session._load_drafts()
            if config.sample is not None and not (folder / SAMPLE_DIR / "cases.jsonl").exists():
                write_dataset(folder / SAMPLE_DIR, cases, name=dataset.manifest.name,
                              version=f"{dataset.manifest.version}+sample-{config.sample}-seed-{config.seed}",
                              generator={"sampled_from": dataset.sha256, "seed": config.seed})
            elif config.sample is not None:
                load_dataset(folder / SAMPLE_DIR)
            with session.lock:
                session._answer_quiet_steps()
        except BaseException:
            session.close()
            raise
        return session

    def _load_drafts(self) -> None:
        problems: list[str] = []
        for _, rec in iter_jsonl(self.folder / DRAFTS_FILE, _DraftModel, problems):
            item = Item(rec.case_id, rec.t)
            if item not in self.answers and rec.case_id in self.cases:
                self.drafts[item] = list(rec.ops)
        if problems:
            raise FormatError(problems)

    # --- reading ---------------------------------------------------------------------------

    def current(self) -> Item | None:
        """The first question without an answer (in multi-step mode the steps of a case go in order)."""
        return next((it for it in self.items if it not in self.answers), None)

    def previous(self) -> Item | None:
        """The answer the person gave last (steps answered without being shown are passed over):
        the one they may take back."""
        current = self.current()
        end = self.items.index(current) if current is not None else len(self.items)
        return next((it for it in reversed(self.items[:end]) if not self._is_quiet(it)), None)

    def _is_quiet(self, item: Item) -> bool:
        return not self.cases[item.case_id].steps[item.t - 1].messages

    def progress(self) -> tuple[int, int]:
        return sum(1 for it in self.items if it in self.answers), len(self.items)

    def timetable(self, item: Item) -> Timetable:
        """The timetable the step starts from: gold S_{t-1}, or the person's own in multi-step mode
        (their earlier answers replayed by the runner's rule)."""
        case = self.cases[item.case_id]
        if self.mode == "single":
            return Timetable(case.timetable_before(item.t))
        table = Timetable(case.initial_timetable)
        for t in range(1, item.t):
            table = advance(table, self.answers.get(Item(item.case_id, t), []))
        return table

    def observation(self, item: Item) -> Observation:
        """What an agent is given at this step (the agents' own :func:`build_observation`), so the
        person sees exactly that: the new messages by chat, up to K earlier ones, the timetable."""
        return build_observation(self.cases[item.case_id], item.t, self.timetable(item), mode=self.mode,
                                 context_messages=self.config.context)

    def draft(self, item: Item) -> list[Any]:
        return list(self.drafts.get(item, []))

    def preview(self, item: Item) -> Timetable:
        """The timetable after the step if the draft were the answer."""
        return self.timetable(item).apply(parse_ops(self.draft(item))).timetable

    # --- writing ---------------------------------------------------------------------------

    def add_op(self, item: Item, raw: dict[str, Any]) -> None:
        """Append one operation to the draft after checking it against the step's timetable.

        Raises:
            ValueError: the operation is malformed or cannot be applied (the message says why).
        """
        with self.lock:
            self._check_open(item)
            op = parse_op(raw)
            if isinstance(op, InvalidOp):
                raise ValueError(op.reason)
            ops = [*parse_ops(self.draft(item)), op]
            errors = self.timetable(item).apply(ops).errors
            if errors:
                raise ValueError(errors[-1].reason)
            self._save_draft(item, [*self.draft(item), op_to_json(op)])

    def remove_op(self, item: Item, index: int) -> None:
        with self.lock:
            self._check_open(item)
            ops = self.draft(item)
            if not 0 <= index < len(ops):
                raise ValueError("no such operation in the draft")
            del ops[index]
            # Removing a delete can make a later update of the same event valid again, and removing
            # anything can never make a valid draft invalid: ids only refer to the step's start.
            self._save_draft(item, ops)

    def submit(self, item: Item) -> None:
        """Write the draft as the question's answer (an empty draft answers "nothing to do")."""
        with self.lock:
            self._check_open(item)
            ops = self.draft(item)
            started = self.shown_at.get(item)
            latency = round(time.monotonic() - started, 1) if started is not None else None
            self._write(item, Action(ops=ops, latency_s=latency))
            self.drafts.pop(item, None)
            self._answer_quiet_steps()

    def take_back(self, item: Item) -> None:
        """Reopen the last answer as the draft of the current question. Submitting it again appends
        a new line, which supersedes the first (the last line of a key counts); until then the
        earlier answer stands, also after a restart."""
        with self.lock:
            if item != self.previous():
                raise StaleQuestion("only the last answer can be taken back")
            self._save_draft(item, self.answers.pop(item))

    def _write(self, item: Item, action: Action) -> None:
        assert self._store is not None
        self._store.write(action_to_line(item.case_id, self.mode, item.t, 0, action))
        self.answers[item] = list(action.ops)

    def _answer_quiet_steps(self) -> None:
        """Answer the coming steps in which no message arrived as the agents do (the runner's
        :func:`quiet_action`), without showing them: nothing can have changed. Only those reached
        in order, so that an unfinished session leaves later cases unanswered."""
        while (item := self.current()) is not None and self._is_quiet(item):
            self._write(item, quiet_action())

    def mark_shown(self, item: Item) -> None:
        self.shown_at.setdefault(item, time.monotonic())

    def close(self) -> None:
        for part in (self._drafts, self._store):
            if part is not None:
                part.close()
        self._drafts = self._store = None

    def _check_open(self, item: Item) -> None:
        if item != self.current():
            raise StaleQuestion("this question is already answered or is not the current one")

    def _save_draft(self, item: Item, ops: list[Any]) -> None:
        assert self._drafts is not None
        self._drafts.write(_DraftModel(case_id=item.case_id, t=item.t, ops=ops))  # type: ignore[arg-type]
        self.drafts[item] = ops


class StaleQuestion(ValueError):
    """A form was posted for a question that is no longer the current one (a second tab, a resubmit)."""
