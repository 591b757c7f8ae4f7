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

import os
import random
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from proevent import __version__
from proevent.agents.protocol import QUIET, build_observation
from proevent.io import (
    Dataset,
    FormatError,
    PredictionWriter,
    dumps_line,
    load_dataset,
    load_run,
    write_dataset,
    write_run_manifest,
)
from proevent.io.jsonl import iter_jsonl
from proevent.model import (
    Case,
    Event,
    InvalidOp,
    Message,
    PredictionLine,
    RunManifest,
    Timetable,
    op_to_json,
    parse_op,
    parse_ops,
)
from proevent.web.caseview import before_timetable
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


@dataclass
class ChatView:
    chat_id: str
    name: str
    type: str
    members: list[str]
    context: list[Message]
    new: list[Message]


@dataclass
class Observation:
    """What an agent is given at one step, and so what the person sees."""

    user: str
    now: str
    window_start: str
    timetable: list[Event]
    chats: list[ChatView]
    people: list[str]


def sample_cases(dataset: Dataset, n: int | None, seed: int) -> list[Case]:
    """``n`` cases drawn without replacement by ``random.Random(seed)``, in dataset order (all when None)."""
    if n is None or n >= len(dataset.cases):
        return list(dataset.cases)
    picked = set(random.Random(seed).sample(range(len(dataset.cases)), n))
    return [c for i, c in enumerate(dataset.cases) if i in picked]


def observation(case: Case, t: int, timetable: list[Event], context: int) -> Observation:
    """The observation of step ``t``, built by the agents' own :func:`build_observation`, so the
    person sees exactly what an agent sees: new messages grouped by chat, up to ``context``
    earlier messages of those chats, the timetable and the time."""
    obs = build_observation(case, t, Timetable(timetable), mode="single", context_messages=context)
    chats = [ChatView(u.chat.chat_id, u.chat.name, u.chat.type, list(u.chat.members), list(u.context),
                      list(u.new)) for u in obs.chats]
    return Observation(obs.user, obs.now, obs.window_start, timetable, chats, case.people())


class HumanSession:
    """The questions, the answers so far and the drafts of one person on one dataset."""

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
        self._writer: PredictionWriter | None = None

    @classmethod
    def open(cls, dataset: Dataset, config: ServeConfig) -> HumanSession:
        """Create the run folder, or resume it after checking it was made by the same settings.

        Raises:
            ValueError: the folder holds a run of another person, dataset or sampling.
            FormatError: a file of the folder is malformed.
        """
        assert config.human is not None and config.output_path is not None
        folder = config.output_path
        cases = sample_cases(dataset, config.sample, config.seed)
        session = cls(dataset, config, folder, cases)
        expected = session._manifest()
        if (folder / "run.json").exists():
            run = load_run(folder)
            for key in ("agent", "parameters", "dataset"):
                have, want = getattr(run.manifest, key), getattr(expected, key)
                if key == "dataset":  # the same data, wherever it lies now
                    have, want = have.key(), want.key()
                if have != want:
                    raise ValueError(
                        f"{folder}: cannot resume: run.json has {key} {_show(have)}, "
                        f"this session has {_show(want)} (use another --out)"
                    )
            for (case_id, mode, t, rep), line in run.lines.items():
                item = Item(case_id, t)
                if mode == session.mode and rep == 0 and case_id in session.cases:
                    session.answers[item] = list(line.ops)
            session._load_drafts()
        else:
            write_run_manifest(folder, expected)
        if config.sample is not None and not (folder / SAMPLE_DIR / "cases.jsonl").exists():
            write_dataset(folder / SAMPLE_DIR, cases, name=dataset.manifest.name,
                          version=f"{dataset.manifest.version}+sample-{config.sample}-seed-{config.seed}",
                          generator={"sampled_from": dataset.sha256, "seed": config.seed})
        elif config.sample is not None:
            load_dataset(folder / SAMPLE_DIR)
        session._writer = PredictionWriter(folder / "predictions.jsonl", fsync=True)
        with session.lock:
            session._answer_quiet_steps()
        return session

    def _manifest(self) -> RunManifest:
        return RunManifest(
            created=datetime.now().strftime("%Y-%m-%dT%H:%M"),
            proevent_version=__version__,
            agent=f"human:{self.config.human}",
            model=None,
            parameters={"mode": self.mode, "sample": self.config.sample, "seed": self.config.seed,
                        "context": self.config.context},
            dataset=self.dataset.ref(self.folder),
        )

    def _load_drafts(self) -> None:
        path = self.folder / DRAFTS_FILE
        if not path.exists():
            return
        _cut_torn_tail(path)
        problems: list[str] = []
        for _, rec in iter_jsonl(path, _DraftModel, problems):
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
        """The timetable the step starts from: gold S_{t-1}, or the person's own in multi-step mode."""
        case = self.cases[item.case_id]
        if self.mode == "single":
            return Timetable(before_timetable(case, item.t))
        table = Timetable(case.initial_timetable)
        for t in range(1, item.t):
            table = table.apply(parse_ops(self.answers.get(Item(item.case_id, t), []))).timetable
        return table

    def observation(self, item: Item) -> Observation:
        case = self.cases[item.case_id]
        return observation(case, item.t, self.timetable(item).events, self.config.context)

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
            self._write(item, ops, round(time.monotonic() - started, 1) if started is not None else None)
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

    def _write(self, item: Item, ops: list[Any], latency_s: float | None, **extra: Any) -> None:
        line = PredictionLine(case_id=item.case_id, mode=self.mode, t=item.t, repeat=0, ops=ops, error=None,
                              raw=None, latency_s=latency_s, **extra)
        assert self._writer is not None
        self._writer.write(line)
        self.answers[item] = ops

    def _answer_quiet_steps(self) -> None:
        """Answer the coming steps in which no message arrived with no operation, without showing
        them: nothing can have changed (the LLM strategies skip them the same way). Only those
        reached in order, so that an unfinished session leaves later cases unanswered."""
        while (item := self.current()) is not None and self._is_quiet(item):
            self._write(item, [], 0.0, skipped=QUIET)

    def mark_shown(self, item: Item) -> None:
        self.shown_at.setdefault(item, time.monotonic())

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    def _check_open(self, item: Item) -> None:
        if item != self.current():
            raise StaleQuestion("this question is already answered or is not the current one")

    def _save_draft(self, item: Item, ops: list[Any]) -> None:
        line = dumps_line({"case_id": item.case_id, "t": item.t, "ops": ops}).encode("utf-8")
        fd = os.open(self.folder / DRAFTS_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        self.drafts[item] = ops


class StaleQuestion(ValueError):
    """A form was posted for a question that is no longer the current one (a second tab, a resubmit)."""


def _cut_torn_tail(path: Path) -> None:
    """Drop a last line left half-written by a crash (each draft line is written whole otherwise)."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("rb+") as fh:
            fh.truncate(data.rfind(b"\n") + 1)


def _show(value: Any) -> str:
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    return repr(value)

