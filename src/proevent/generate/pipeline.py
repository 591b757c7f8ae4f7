"""The generator end to end: plan, realise, assemble, validate, write.

One attempt loop serves both realisers (:func:`generate`): for every case ``i`` and attempt
``a``, the pipeline plans the case from its own random stream (seed, i, a), hands the plan to the
realiser (:class:`~proevent.generate.realize.protocol.Realizer`) with the attempt's text stream,
finishes it (messages merged, windows cut, gold derived) and checks it. A rejected attempt
(:class:`CaseRejected` from any of these stages) is counted by reason, never written, and the
case is drawn again with the next attempt number, up to ``max_attempts``. A case never depends
on the others. The loop is a coroutine: the template realiser never waits, so its cases run one
after the other; the ``llm`` realiser waits on the model, and all cases are in flight at once
(the client bounds the requests).

In batch mode (``generate --batch-out``) an attempt whose realiser raises
:class:`~proevent.llm.batchfile.RoundsPending` sets its case aside for this round: it is neither
written nor given up, no further attempt is drawn (it follows from this one), and
:func:`generate_dataset` writes nothing while a case is set aside (:class:`CasesPending`).
"""

from __future__ import annotations

import asyncio
import copy
import os
import random
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from proevent.generate.assemble import CasePlan, CaseRejected, finish_case, plan_case
from proevent.generate.config import GeneratorConfig
from proevent.generate.realize.protocol import Realizer, TemplateRealizer
from proevent.generate.validate import READABILITY_FLAGS, validate_case
from proevent.generate.variants import parse_variant, variant_case, variant_path
from proevent.model import Case

Progress = Callable[[int, int], None]
T = TypeVar("T")


@dataclass
class GenerationResult:
    cases: list[Case]
    rejected: dict[str, int] = field(default_factory=dict)
    """Rejected attempts by reason (validation error code, clock overrun, ``llm:<reason>``...)."""
    given_up: int = 0
    """Case slots for which every attempt was rejected (those cases are missing)."""
    retried: dict[str, int] = field(default_factory=dict)
    """Texts the realiser rejected itself and asked for again within an attempt, by reason (``llm`` only)."""
    variants: dict[str, VariantResult] = field(default_factory=dict)
    """The paired variants ``config.variants`` names, by name (:mod:`proevent.generate.variants`)."""
    pending: int = 0
    """Cases set aside in batch mode: a request of theirs waits in the batch file (missing, not given up)."""
    pending_rounds: int = 0
    """The most rounds of batch files a set-aside case still takes, this one included."""

    @property
    def attempts(self) -> int:
        return len(self.cases) + sum(self.rejected.values())


class CasesPending(Exception):
    """Batch mode: some cases wait for answers (``result.pending``); nothing is written."""

    def __init__(self, result: GenerationResult) -> None:
        super().__init__(f"{result.pending} cases wait for answers in the batch file; nothing written")
        self.result = result


@dataclass
class VariantResult:
    """One paired variant: its cases (in base order; a base case whose variant failed every try is
    missing) and what happened on the way."""

    cases: list[Case] = field(default_factory=list)
    rejected: dict[str, int] = field(default_factory=dict)
    given_up: int = 0
    gold_changed: int = 0
    """Cases whose re-derived gold differs from the base gold."""


def text_rng(config: GeneratorConfig, index: int, attempt: int) -> random.Random:
    return random.Random(f"proevent/{config.seed}/{index}/{attempt}/text")


async def realised_plan(index: int, attempt: int, config: GeneratorConfig, realizer: Realizer) -> CasePlan:
    """Case ``index``'s plan for ``attempt`` with its texts."""
    plan = plan_case(index, attempt, config)
    await realizer.realize(plan, text_rng(config, index, attempt))
    plan.meta["realizer"] = realizer.name
    return plan


async def attempt_case(index: int, attempt: int, config: GeneratorConfig, realizer: Realizer) -> Case:
    """One attempt at case ``index``: plan, realise, finish, check; raises :class:`CaseRejected`."""
    return checked(finish_case(await realised_plan(index, attempt, config, realizer)))


def build_case(index: int, attempt: int, config: GeneratorConfig) -> Case:
    """One attempt with the template realiser; raises :class:`CaseRejected` when it fails a check."""
    return _run(attempt_case(index, attempt, config, TemplateRealizer()))


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end from synchronous code, also from inside a running event loop
    (a notebook, an async server: then in a thread of its own)."""
    out: list[T] = []

    async def main() -> None:
        # the result is handed over outside the task: Python 3.11's asyncio.run formats its main
        # task (with the result: every case) into an error message it never shows, taking seconds
        out.append(await coro)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(main())
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, main()).result()
    return out[0]


def checked(case: Case) -> Case:
    """``case`` when it passes validation with the readability flags as errors (generated text must
    always say its values: :data:`~proevent.generate.validate.READABILITY_FLAGS`)."""
    errors = [i for i in validate_case(case, strict=READABILITY_FLAGS) if i.severity == "error"]
    if errors:
        raise CaseRejected(errors[0].code)
    return case


@asynccontextmanager
async def open_realizer(config: GeneratorConfig) -> AsyncIterator[Realizer]:
    """The realiser ``config.realizer`` names, open for the whole generation."""
    if config.realizer == "llm":
        from proevent.generate.realize.llm import open_llm_realizer

        async with open_llm_realizer(config) as llm:
            yield llm
    else:
        yield TemplateRealizer()


class _NeverRaised(Exception):
    rounds = per_try = 0


def _set_aside_error(realizer: Realizer) -> type[Any]:
    """What sets a case aside: :class:`~proevent.llm.batchfile.RoundsPending` (batch mode), which the
    template realiser never raises (so a template generation does not import the LLM client)."""
    if isinstance(realizer, TemplateRealizer):
        return _NeverRaised
    from proevent.llm.batchfile import RoundsPending

    return RoundsPending


async def generate_with(config: GeneratorConfig, realizer: Realizer,
                        progress: Progress | None = None) -> GenerationResult:
    """The attempt loop: every case of ``config`` through ``realizer``, ``max_attempts`` tries each."""
    rejected: Counter[str] = Counter()
    done = 0
    variants = [parse_variant(v) for v in config.variants]
    made: dict[str, list[tuple[int, Case | None, bool]]] = {v.name: [] for v in variants}
    vrejected: dict[str, dict[str, int]] = {v.name: {} for v in variants}
    waiting: list[int] = []  # per set-aside case: the most rounds it still takes
    set_aside = _set_aside_error(realizer)

    async def one(index: int) -> Case | None:
        nonlocal done
        try:
            for attempt in range(config.max_attempts):
                snapshot = None
                try:
                    if variants:  # the realised plan is kept for the variants (finishing changes it)
                        plan = await realised_plan(index, attempt, config, realizer)
                        snapshot = copy.deepcopy(plan)
                        case = checked(finish_case(plan))
                    else:
                        case = await attempt_case(index, attempt, config, realizer)
                except CaseRejected as exc:
                    rejected[exc.reason] += 1
                    continue
                except set_aside as exc:  # set aside: later attempts follow from this one's answers
                    waiting.append(exc.rounds + (config.max_attempts - 1 - attempt) * exc.per_try)
                    return None
                for v in variants:
                    assert snapshot is not None
                    made[v.name].append((index, *variant_case(snapshot, case, v, config, index, attempt,
                                                              vrejected[v.name])))
                return case
            return None
        finally:
            done += 1
            if progress:
                progress(done, config.cases)

    results = await asyncio.gather(*(one(i) for i in range(config.cases)))
    out: dict[str, VariantResult] = {}
    for name, rows in made.items():
        rows.sort(key=lambda r: r[0])
        out[name] = VariantResult([c for _, c, _ in rows if c is not None], dict(sorted(vrejected[name].items())),
                                  sum(1 for _, c, _ in rows if c is None), sum(1 for _, _, ch in rows if ch))
    return GenerationResult([c for c in results if c is not None], dict(sorted(rejected.items())),
                            sum(1 for c in results if c is None) - len(waiting), dict(sorted(realizer.retried.items())),
                            out, len(waiting), max(waiting, default=0))


def generate(config: GeneratorConfig, progress: Progress | None = None,
             realizer: Realizer | None = None) -> GenerationResult:
    """Generate ``config.cases`` cases with the realiser ``config.realizer`` names (or ``realizer``)."""

    async def run() -> GenerationResult:
        if realizer is not None:
            return await generate_with(config, realizer, progress)
        async with open_realizer(config) as opened:
            return await generate_with(config, opened, progress)

    return _run(run())


def generate_cases(config: GeneratorConfig) -> list[Case]:
    """The cases of a dataset, in memory (nothing is written)."""
    return generate(config).cases


def generator_record(config: GeneratorConfig, result: GenerationResult) -> dict[str, object]:
    from proevent import __version__

    dumped = config.model_dump(mode="json")
    if not dumped.get("variants"):
        dumped.pop("variants", None)  # a dataset without variants has the manifest it always had
    return {
        "name": "proevent.generate",
        "proevent_version": __version__,
        "seed": config.seed,
        "config": dumped,
        "rejected": result.rejected,
        "given_up": result.given_up,
        **({"realizer_retries": result.retried} if config.realizer == "llm" else {}),
    }


def generate_dataset(config: GeneratorConfig, out_path: str | Path, force: bool = False,
                     progress: Progress | None = None):  # noqa: ANN201 - returns proevent.io.Dataset
    """Generate and write ``cases.jsonl`` + ``dataset.json``; the same config gives the same bytes.

    ``created`` in the manifest is ``config.created`` (pinned, not the wall clock).
    With ``config.variants``, each paired variant is written beside it (``<out>.<slug>``: see
    :func:`~proevent.generate.variants.variant_path`); its manifest's ``generator.variant`` names
    the factor and the base dataset (path, name, version, sha256).
    Raises ``FileExistsError`` when a dataset exists at ``out_path`` (or a variant's) and ``force`` is not set,
    :class:`CasesPending` (nothing written) when cases wait for batch answers.
    """
    from proevent.io import CASES_FILE, write_dataset

    out = Path(out_path)
    if (out / CASES_FILE).exists() and not force:
        raise FileExistsError(f"{out / CASES_FILE} exists; pass force=True (--force) to replace it")
    targets = [(parse_variant(v), Path(variant_path(str(out), parse_variant(v)))) for v in config.variants]
    for _, path in targets:
        if (path / CASES_FILE).exists() and not force:
            raise FileExistsError(f"{path / CASES_FILE} exists; pass force=True (--force) to replace it")
    result = generate(config, progress)
    if result.pending:
        raise CasesPending(result)
    base = write_dataset(out, result.cases, name=config.dataset_name, version=config.version,
                         generator=generator_record(config, result), created=config.created, overwrite=force)
    for variant, path in targets:
        vr = result.variants[variant.name]
        record = generator_record(config, result)
        record["config"].pop("variants", None)
        record.update(rejected=vr.rejected, given_up=vr.given_up, variant={
            "factor": variant.factor, "value": variant.value, "name": variant.name,
            "base": {"path": os.path.relpath(out, path), "name": base.manifest.name,
                     "version": base.manifest.version, "sha256": base.sha256},
            "gold_changed": vr.gold_changed})
        write_dataset(path, vr.cases, name=f"{config.dataset_name}+{variant.name}", version=config.version,
                      generator=record, created=config.created, overwrite=force)
    return base
