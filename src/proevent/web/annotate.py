"""Annotate mode: a person writes a dataset's gold operations step by step, and exports the result.

The annotator steps through each case's steps that have messages, sees the window's messages
(with earlier context) and the gold timetable S_{t-1} that the earlier steps' gold gives, and adds
insert/update/delete operations, each checked against S_{t-1} by the timetable engine (ids of
S_{t-1}, not deleted earlier in the step; inserts numbered by the data format's id rule). Saving a
step makes its draft the step's gold G_t, and S_t = S_{t-1} + G_t is where the next step starts.

Everything goes to one append-only file (``DATASET/gold-NAME.jsonl`` unless ``--out``), one whole
line per change: ``saved: false`` lines are drafts, ``saved: true`` lines a step's gold; the last
line of a step counts, so reopening resumes and nothing is overwritten.

Operations name events by id, and ids depend on the earlier steps (an insert removed at step 2
renumbers step 3's inserts). Each line therefore also holds ``refs``: a stable key per operation —
an insert's own key, or the key of the event an update or delete targets (``init:<id>`` for the
initial events). Replaying a case maps the keys to the ids of the re-derived timetables, so a
change to an earlier step keeps the later gold on the same events and *flags* a later operation
whose event is gone or that no longer applies; export refuses while a flag stands.

A step without messages is never shown: nothing can be settled in it (gold conventions), so it
keeps the dataset's gold (empty for an import); so does a step not annotated yet.
"""

from __future__ import annotations

import os
import shlex
import threading
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from proevent.agents.protocol import Observation, build_observation
from proevent.generate.validate import structural_problems
from proevent.io import Dataset, FormatError, PredictionWriter, load_dataset, write_dataset
from proevent.io.jsonl import iter_jsonl
from proevent.model import Case, InsertOp, InvalidOp, Timetable, UpdateOp, op_to_json, parse_op
from proevent.web.config import ServeConfig, _slug
from proevent.web.human import Item

GOLD_ANNOTATION_FORMAT = "proevent.gold-annotation/1"
CONVENTIONS = "proevent gold conventions, version 1"


class AnnotationLockedError(ValueError):
    """Another process (a second ``proevent serve --annotate``) has the annotation file open."""


class AnnotationDriftError(ValueError):
    """The annotation file belongs to another annotator or to another version of the dataset."""


class GoldLine(BaseModel):
    """One line of the annotation file: a step's operations so far (draft) or its gold (saved)."""

    model_config = ConfigDict(extra="ignore")
    format: Literal["proevent.gold-annotation/1"] = GOLD_ANNOTATION_FORMAT
    annotator: str
    dataset_sha256: str
    case_id: str
    t: int = Field(ge=1)
    saved: bool
    ops: list[Any]
    refs: list[str]
    created: str


@dataclass
class StepGold:
    """One step of a case replayed from the gold in effect (saved, else the dataset's)."""

    before: Timetable
    after: Timetable
    ops: list[Any]
    """The operations with the ids of the re-derived S_{t-1} (JSON, as the data format writes them)."""
    refs: list[str]
    flags: dict[int, str]
    """Index of an operation -> why it no longer applies (it is left out of ``after``)."""
    keys: dict[str, str]
    """Id of an event of ``before`` -> its stable key."""
    after_keys: dict[str, str]
    """Id of an event of ``after`` -> its stable key."""


def _resolve(before: Timetable, keys: dict[str, str], ops: list[Any], refs: list[str]
             ) -> tuple[list[Any], dict[int, str]]:
    """``ops`` with each update/delete aimed at the current id of its ref; index -> flag for those
    whose event is no longer in ``before``."""
    by_key = {k: i for i, k in keys.items()}
    out: list[Any] = []
    flags: dict[int, str] = {}
    for i, (op, ref) in enumerate(zip(ops, refs, strict=True)):
        if isinstance(op, dict) and op.get("op") in ("update", "delete") and not ref.startswith("new:"):
            if ref in by_key:
                op = {**op, "id": by_key[ref]}
            else:
                flags[i] = f"the event it changed ({op.get('id')!r} when written) is no longer in the timetable"
        out.append(op)
    return out, flags


def replay_step(before: Timetable, keys: dict[str, str], ops: list[Any], refs: list[str]) -> StepGold:
    """Apply one step's operations (by their refs) to ``before``; an operation that cannot be
    applied is flagged and left out, as the data format treats an invalid operation."""
    resolved, flags = _resolve(before, keys, ops, refs)
    parsed = [InvalidOp(raw=op, reason=flags[i]) if i in flags else parse_op(op) for i, op in enumerate(resolved)]
    result = before.apply(parsed)
    for err in result.errors:
        flags.setdefault(err.index, err.reason)
    new_keys = {i: k for i, k in keys.items() if i in result.timetable}
    inserts = [refs[i] for i, op in enumerate(parsed) if isinstance(op, InsertOp)]
    new_keys.update(zip(result.inserted_ids, inserts, strict=True))
    return StepGold(before=before, after=result.timetable, ops=resolved, refs=list(refs), flags=flags,
                    keys=dict(keys), after_keys=new_keys)


def refs_for(ops: list[Any], keys: dict[str, str], prefix: str) -> list[str]:
    """Refs of operations written against a timetable whose ids have ``keys``: an insert gets a new
    key (``prefix`` + its position), an update or delete the key of its event (``new:`` when unknown)."""
    out = []
    for i, op in enumerate(ops):
        target = op.get("id") if isinstance(op, dict) and op.get("op") in ("update", "delete") else None
        if isinstance(target, str):
            out.append(keys.get(target, f"new:{target}"))
        else:
            out.append(f"{prefix}{i}")
    return out


def _now() -> str:
    return datetime.now().strftime("%Y-%m-%dT%H:%M:%S")


class AnnotationSession:
    """The gold of one annotator on one dataset: saved steps, drafts, and the replay of each case."""

    def __init__(self, dataset: Dataset, annotator: str, path: Path, context: int = 20) -> None:
        self.dataset = dataset
        self.annotator = annotator
        self.path = path
        self.context = context
        self.cases = {c.case_id: c for c in dataset.cases}
        self.items = [Item(c.case_id, s.t) for c in dataset.cases for s in c.steps if s.messages]
        self.saved: dict[Item, GoldLine] = {}
        self.drafts: dict[Item, GoldLine] = {}
        self.lock = threading.Lock()
        self._writer: PredictionWriter | None = None
        self._lock_fd = -1
        self._base = {c.case_id: self._dataset_refs(c) for c in dataset.cases}

    @classmethod
    def open(cls, dataset: Dataset, config: ServeConfig) -> AnnotationSession:
        """Open (or create) the annotation file and read what was annotated so far.

        Raises:
            AnnotationLockedError: another process has the file open.
            AnnotationDriftError: the file is another annotator's or another dataset version's.
            FormatError: a line of the file is malformed (file, line and field named).
        """
        assert config.annotate is not None and config.output_path is not None
        session = cls(dataset, config.annotate, config.output_path, config.context)
        try:
            session._take_lock()
            session._writer = PredictionWriter(session.path, fsync=True)  # cuts a torn tail
            session._load()
        except BaseException:
            session.close()
            raise
        return session

    def _take_lock(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock_fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            return
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise AnnotationLockedError(
                f"{self.path}: another process is annotating with this file; stop it, or use another --out"
            ) from None

    def _load(self) -> None:
        problems: list[str] = []
        for lineno, line in iter_jsonl(self.path, GoldLine, problems):
            where = f"{self.path}:{lineno}"
            if line.annotator != self.annotator:
                raise AnnotationDriftError(f"{where}: annotator: the file holds {line.annotator!r}'s gold, not "
                                           f"{self.annotator!r}'s; use another --out")
            if line.dataset_sha256 != self.dataset.sha256:
                raise AnnotationDriftError(
                    f"{where}: dataset_sha256: the gold was written on another version of the dataset "
                    f"({line.dataset_sha256[:12]}…, this one {self.dataset.sha256[:12]}…); use another --out")
            item = Item(line.case_id, line.t)
            if item not in self.items:
                problems.append(f"{self.path.name}:{lineno}: t: case {line.case_id!r} has no step {line.t} "
                                "with messages")
            elif len(line.refs) != len(line.ops):
                problems.append(f"{self.path.name}:{lineno}: refs: one ref per operation expected")
            elif line.saved:
                self.saved[item] = line
                self.drafts.pop(item, None)
            else:
                self.drafts[item] = line
        if problems:
            raise FormatError(problems)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._lock_fd >= 0:
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = -1

    # --- replay ----------------------------------------------------------------------------

    @staticmethod
    def _dataset_refs(case: Case) -> list[list[str]]:
        """Refs of the dataset's own gold, replayed on the dataset's own ids."""
        table = Timetable(case.initial_timetable)
        keys = {e.id: f"init:{e.id}" for e in case.initial_timetable}
        out = []
        for step in case.steps:
            ops = [op_to_json(op) for op in step.gold_ops]
            refs = refs_for(ops, keys, f"ds:{step.t}:")
            gold = replay_step(table, keys, ops, refs)
            table, keys = gold.after, gold.after_keys
            out.append(refs)
        return out

    def _in_effect(self, case: Case, t: int) -> tuple[list[Any], list[str]]:
        line = self.saved.get(Item(case.case_id, t))
        if line is not None:
            return list(line.ops), list(line.refs)
        return [op_to_json(op) for op in case.steps[t - 1].gold_ops], self._base[case.case_id][t - 1]

    def replay(self, case_id: str) -> list[StepGold]:
        """Every step of the case from the gold in effect: S_{t-1}, G_t (current ids), S_t, flags."""
        case = self.cases[case_id]
        table = Timetable(case.initial_timetable)
        keys = {e.id: f"init:{e.id}" for e in case.initial_timetable}
        out = []
        for step in case.steps:
            gold = replay_step(table, keys, *self._in_effect(case, step.t))
            out.append(gold)
            table, keys = gold.after, gold.after_keys
        return out

    def step(self, item: Item) -> StepGold:
        return self.replay(item.case_id)[item.t - 1]

    def flagged(self) -> dict[Item, dict[int, str]]:
        """Saved steps whose gold no longer applies after an earlier step changed."""
        out: dict[Item, dict[int, str]] = {}
        for case_id in self.cases:
            for t, gold in enumerate(self.replay(case_id), start=1):
                if gold.flags:
                    out[Item(case_id, t)] = gold.flags
        return out

    # --- reading ---------------------------------------------------------------------------

    def current(self) -> Item | None:
        """The first step with messages whose gold is not saved yet."""
        return next((it for it in self.items if it not in self.saved), None)

    def progress(self) -> tuple[int, int]:
        return len(self.saved), len(self.items)

    def observation(self, item: Item) -> Observation:
        """The step as an agent sees it, with the gold S_{t-1} as its timetable."""
        return build_observation(self.cases[item.case_id], item.t, self.step(item).before, mode="single",
                                 context_messages=self.context)

    def draft(self, item: Item) -> tuple[list[Any], list[str]]:
        """The operations being edited (ids of the current S_{t-1}) and their refs: the draft if
        there is one, else the gold in effect."""
        gold = self.step(item)
        line = self.drafts.get(item)
        if line is None:
            return gold.ops, gold.refs
        ops, _ = _resolve(gold.before, gold.keys, list(line.ops), list(line.refs))
        return ops, list(line.refs)

    def draft_result(self, item: Item) -> StepGold:
        """The step replayed with the draft: the preview S_t and the draft's own flags."""
        gold = self.step(item)
        ops, refs = self.draft(item)
        return replay_step(gold.before, gold.keys, ops, refs)

    def has_unsaved_changes(self, item: Item) -> bool:
        return item in self.drafts

    # --- writing ---------------------------------------------------------------------------

    def add_op(self, item: Item, raw: dict[str, Any]) -> None:
        """Append one operation to the step's draft after checking it against S_{t-1}.

        Raises:
            ValueError: the operation is malformed, cannot be applied, or breaks a gold convention.
        """
        with self.lock:
            self._check(item)
            op = parse_op(raw)
            if isinstance(op, InvalidOp):
                raise ValueError(op.reason)
            if isinstance(op, UpdateOp) and op.attribute == "description":
                raise ValueError("gold never updates description (gold conventions, Values)")
            gold = self.step(item)
            ops, refs = self.draft(item)
            new = op_to_json(op)
            ref = refs_for([new], gold.keys, f"a:{uuid.uuid4().hex[:12]}:")[0]
            result = replay_step(gold.before, gold.keys, [*ops, new], [*refs, ref])
            if len(ops) in result.flags:
                ids = ", ".join(e.id for e in gold.before) or "none"
                raise ValueError(f"{result.flags[len(ops)]}: the events of the gold timetable before this step "
                                 f"(S_{item.t - 1}) are {ids}")
            self._write(item, [*ops, new], [*refs, ref], saved=False)

    def remove_op(self, item: Item, index: int) -> None:
        with self.lock:
            self._check(item)
            ops, refs = self.draft(item)
            if not 0 <= index < len(ops):
                raise ValueError("no such operation in the draft")
            del ops[index], refs[index]
            self._write(item, ops, refs, saved=False)

    def save(self, item: Item) -> None:
        """Make the draft the step's gold (an empty draft: nothing is settled in this step).

        Raises:
            ValueError: an operation of the draft does not apply to S_{t-1} (after an earlier step
                changed); the message names it.
        """
        with self.lock:
            self._check(item)
            ops, refs = self.draft(item)
            flags = self.draft_result(item).flags
            if flags:
                i = min(flags)
                raise ValueError(f"operation {i + 1} no longer applies: {flags[i]}; remove it before saving")
            self._write(item, ops, refs, saved=True)

    def _check(self, item: Item) -> None:
        if item not in self.items:
            raise ValueError(f"case {item.case_id!r} has no step {item.t} with messages to annotate")

    def _write(self, item: Item, ops: list[Any], refs: list[str], *, saved: bool) -> None:
        assert self._writer is not None
        line = GoldLine(annotator=self.annotator, dataset_sha256=self.dataset.sha256, case_id=item.case_id,
                        t=item.t, saved=saved, ops=ops, refs=refs, created=_now())
        self._writer.write(line)  # type: ignore[arg-type]
        if saved:
            self.saved[item] = line
            self.drafts.pop(item, None)
        else:
            self.drafts[item] = line

    # --- export ----------------------------------------------------------------------------

    def export_problems(self) -> list[str]:
        """Why the gold cannot be exported yet: steps not saved, drafts not saved, flagged operations."""
        out = [f"case {it.case_id} step {it.t}: not annotated yet" for it in self.items if it not in self.saved]
        out += [f"case {it.case_id} step {it.t}: unsaved changes" for it in self.items if it in self.drafts]
        for it, flags in self.flagged().items():
            out += [f"case {it.case_id} step {it.t}: operation {i + 1} no longer applies: {why}"
                    for i, why in sorted(flags.items())]
        return out

    def annotated_case(self, case_id: str) -> Case:
        case = self.cases[case_id]
        steps = [s.model_copy(update={"gold_ops": [parse_op(op) for op in gold.ops],
                                      "gold_timetable": gold.after.events})
                 for s, gold in zip(case.steps, self.replay(case_id), strict=True)]
        meta = {**case.meta, "gold": {"annotator": self.annotator, "conventions": CONVENTIONS}}
        return case.model_copy(update={"steps": steps, "meta": meta})

    def default_export_path(self) -> Path:
        folder = Path(self.dataset.path or ".")
        return folder.parent / f"{folder.name}-gold-{_slug(self.annotator)}"

    def export(self, out: Path | None = None) -> tuple[Dataset, bool]:
        """Write the annotated dataset (``cases.jsonl`` + ``dataset.json``) and check it loads.

        Returns the dataset and whether an earlier export of this annotator's gold was replaced
        (the only folder it replaces: anything else at ``out`` is refused).

        Raises:
            ValueError: steps are not annotated, or gold is flagged (:meth:`export_problems`).
            FileExistsError: ``out`` holds something that is not this gold's earlier export.
        """
        with self.lock:
            problems = self.export_problems()
            if problems:
                more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
                raise ValueError("cannot export yet: " + "; ".join(problems[:10]) + more)
            out = out if out is not None else self.default_export_path()
            replaced = self._is_own_export(out)
            if not replaced and out.exists() and any(out.iterdir()):
                raise FileExistsError(f"{out} exists and is not an export of {self.annotator}'s gold on this "
                                      "dataset; choose another folder")
            source = self.dataset.manifest
            cases = [self.annotated_case(c) for c in self.cases]
            broken = structural_problems(Dataset(manifest=source, cases=cases))
            if broken:  # the replay above is the validator's: this would be a bug, never written
                raise ValueError("the annotated dataset would not validate: " + "; ".join(broken))
            generator = {**source.generator, "annotation": {
                "annotator": self.annotator, "conventions": CONVENTIONS, "annotations": str(self.path),
                "source": {"name": source.name, "version": source.version, "sha256": self.dataset.sha256},
                "annotated_steps": len(self.saved)}}
            write_dataset(out, cases, name=source.name, version=f"{source.version}+gold-{_slug(self.annotator)}",
                          generator=generator, overwrite=replaced)
        return load_dataset(out), replaced

    def _is_own_export(self, out: Path) -> bool:
        try:
            manifest = load_dataset(out, verify_checksum=False).manifest
        except (FormatError, OSError):
            return False
        ann = manifest.generator.get("annotation")
        return (isinstance(ann, dict) and ann.get("annotator") == self.annotator
                and isinstance(ann.get("source"), dict) and ann["source"].get("sha256") == self.dataset.sha256)


def export_report(session: AnnotationSession, out: Path | None = None) -> dict[str, Any]:
    """:meth:`AnnotationSession.export`, described: the folder, whether it replaced an earlier
    export, its counts and checksum, and the commands that check and score it.

    Raises:
        ValueError, FileExistsError: as :meth:`AnnotationSession.export`.
    """
    dataset, replaced = session.export(out)
    folder = str(dataset.path)
    runs = shlex.quote(f"{folder}-runs/oracle")
    return {"path": folder, "replaced": replaced, "cases": dataset.manifest.counts.cases,
            "steps": dataset.manifest.counts.steps, "sha256": dataset.sha256,
            "commands": [f"proevent validate {shlex.quote(folder)}",
                         f"proevent run {shlex.quote(folder)} --agent oracle --out {runs} --no-progress",
                         f"proevent evaluate {shlex.quote(folder)} {runs}"]}


def report_text(report: dict[str, Any]) -> str:
    """The export report as the CLI prints it."""
    again = " (replacing the earlier export)" if report["replaced"] else ""
    return "\n".join([f"wrote {report['path']}{again}: {report['cases']} case(s), {report['steps']} steps, "
                      f"sha256 {report['sha256'][:12]}…", "check and score it with:",
                      *(f"  {c}" for c in report["commands"])])
