"""The generator end to end: plan, realise, assemble, validate, write.

Each case ``i`` draws from its own random stream (seed, i, attempt), so a case never depends on
the others; a case that fails validation is counted by reason, never written, and drawn again
with the next attempt number.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from proevent.generate.assemble import CasePlan, CaseRejected, finish_case, plan_case
from proevent.generate.config import GeneratorConfig
from proevent.generate.realize.template import realize_chat_template
from proevent.generate.validate import READABILITY_FLAGS, validate_case
from proevent.model import Case

Progress = Callable[[int, int], None]


@dataclass
class GenerationResult:
    cases: list[Case]
    rejected: dict[str, int] = field(default_factory=dict)
    """Rejected attempts by reason (validation error code, clock overrun, LLM check...)."""
    given_up: int = 0
    """Case slots for which every attempt was rejected (those cases are missing)."""

    @property
    def attempts(self) -> int:
        return len(self.cases) + sum(self.rejected.values())


def text_rng(config: GeneratorConfig, index: int, attempt: int) -> random.Random:
    return random.Random(f"proevent/{config.seed}/{index}/{attempt}/text")


def realize_template(plan: CasePlan, rng: random.Random) -> None:
    for pc in plan.chats:
        pc.texts = realize_chat_template(pc.lines, pc.times, pc.ctx, rng)


def build_case(index: int, attempt: int, config: GeneratorConfig) -> Case:
    """One case with the template realiser; raises :class:`CaseRejected` when it fails a check."""
    plan = plan_case(index, attempt, config)
    realize_template(plan, text_rng(config, index, attempt))
    return checked(finish_case(plan))


def checked(case: Case) -> Case:
    """``case`` when it passes validation with the readability flags as errors (generated text must
    always say its values: :data:`~proevent.generate.validate.READABILITY_FLAGS`)."""
    errors = [i for i in validate_case(case, strict=READABILITY_FLAGS) if i.severity == "error"]
    if errors:
        raise CaseRejected(errors[0].code)
    return case


def generate(config: GeneratorConfig, progress: Progress | None = None) -> GenerationResult:
    """Generate ``config.cases`` cases (the llm realiser when ``config.realizer == "llm"``)."""
    if config.realizer == "llm":
        from proevent.generate.realize.llm import generate_llm

        return generate_llm(config, progress)
    rejected: Counter[str] = Counter()
    cases: list[Case] = []
    given_up = 0
    for index in range(config.cases):
        for attempt in range(config.max_attempts):
            try:
                cases.append(build_case(index, attempt, config))
                break
            except CaseRejected as exc:
                rejected[exc.reason] += 1
        else:
            given_up += 1
        if progress:
            progress(index + 1, config.cases)
    return GenerationResult(cases, dict(sorted(rejected.items())), given_up)


def generate_cases(config: GeneratorConfig) -> list[Case]:
    """The cases of a dataset, in memory (nothing is written)."""
    return generate(config).cases


def generator_record(config: GeneratorConfig, result: GenerationResult) -> dict[str, object]:
    from proevent import __version__

    return {
        "name": "proevent.generate",
        "proevent_version": __version__,
        "seed": config.seed,
        "config": config.model_dump(mode="json"),
        "rejected": result.rejected,
        "given_up": result.given_up,
    }


def generate_dataset(config: GeneratorConfig, out_path: str | Path, force: bool = False,
                     progress: Progress | None = None):  # noqa: ANN201 - returns proevent.io.Dataset
    """Generate and write ``cases.jsonl`` + ``dataset.json``; the same config gives the same bytes.

    ``created`` in the manifest is ``config.created`` (pinned, not the wall clock).
    Raises ``FileExistsError`` when a dataset exists at ``out_path`` and ``force`` is not set.
    """
    from proevent.io import CASES_FILE, write_dataset

    out = Path(out_path)
    if (out / CASES_FILE).exists() and not force:
        raise FileExistsError(f"{out / CASES_FILE} exists; pass force=True (--force) to replace it")
    result = generate(config, progress)
    return write_dataset(out, result.cases, name=config.name, version=config.version,
                         generator=generator_record(config, result), created=config.created, overwrite=force)
