"""The realism report: how far a dataset's chats are from a reference set of chats (issue 11, point 7).

:func:`realism_report` puts side by side, for a dataset and a reference (typically the generated
benchmark and the hand-written development set): how well a classifier tells their messages
apart (see :mod:`proevent.generate.realism_auc`), message lengths, short messages, repeated
phrases, emoji, clock times given as a bare number, steps without messages, changes to events of
the initial timetable, messages and chats per case, and the share of cases showing each phenomenon
of the shared vocabulary (:data:`proevent.generate.phenomena.PHENOMENA`, the one list of tags).
The message-level rules live in :mod:`proevent.generate.realism_text`.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from proevent.generate.phenomena import PHENOMENA
from proevent.generate.realism_auc import DEFAULT_REPEATS, AucResult, classifier_auc
from proevent.generate.realism_text import four_grams, gives_bare_hour, has_emoji, words
from proevent.io import Dataset
from proevent.model import Case, DeleteOp, UpdateOp
from proevent.model.times import parse_time

REALISM_FORMAT = "proevent.realism/1"
__all__ = ["PHENOMENA", "REALISM_FORMAT", "RealismReport", "SideFigures", "realism_report", "repeated_phrases",
           "report_rows", "side_figures"]

SHORT_WORDS = 3
"""A message of at most this many words (:func:`~proevent.generate.realism_text.words`) is short."""
PHRASE_OTHERS = 20
"""A 4-gram is a repeated phrase when at least this many *other* messages hold it."""
PHRASE_SAMPLE = 5000
"""The repeated-phrase share is counted among at most this many messages (a seeded sample), so that
datasets of different sizes compare: with a fixed threshold of :data:`PHRASE_OTHERS` other
messages, the share over a whole dataset grows with its size for the same wording habits."""


class SideFigures(BaseModel):
    """The figures of one dataset. Shares are fractions (0-1); ``None`` where the denominator is 0."""

    name: str
    cases: int
    steps: int
    messages: int
    words_mean: float | None
    words_median: float | None
    short_messages: int
    short_share: float | None
    phrase_sample: int
    """Messages among which the repeated-phrase figures are counted (all, or :data:`PHRASE_SAMPLE`)."""
    repeated_phrase_messages: int
    repeated_phrase_share: float | None
    repeated_phrase_messages_all: int
    repeated_phrase_share_all: float | None
    """The same share counted over every message of the dataset."""
    top_phrases: list[tuple[str, int]]
    """The most widespread repeated phrases of the whole dataset, with the number of messages
    holding each (at most 5)."""
    emoji_messages: int
    emoji_share: float | None
    bare_hour_messages: int
    bare_hour_share: float | None
    quiet_steps: int
    quiet_step_share: float | None
    updates_deletes: int
    initial_changes: int
    initial_change_share: float | None
    messages_per_case: float | None
    chats_per_case: float | None
    phenomena: dict[str, float] | None
    """Share of cases whose ``meta.phenomena`` holds each tag of :data:`PHENOMENA`; ``None`` when no
    case has ``meta.phenomena``."""
    other_phenomena: dict[str, int]
    """Tags outside :data:`PHENOMENA` found in ``meta.phenomena``, with their number of cases."""


class RealismReport(BaseModel):
    """A dataset's figures next to a reference's, and the classifier that tells their messages apart."""

    format: str = REALISM_FORMAT
    seed: int
    auc: AucResult
    dataset: SideFigures
    reference: SideFigures

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _messages(cases: Sequence[Case]) -> list[tuple[str, str]]:
    return [(m.text, m.time) for c in cases for s in c.steps for m in s.messages]


def repeated_phrases(texts: Sequence[str], others: int = PHRASE_OTHERS) -> tuple[list[bool], Counter[str]]:
    """Which messages repeat a widespread phrase, and how many messages hold each widespread phrase.

    A phrase is a lower-cased word 4-gram (:func:`~proevent.generate.realism_text.four_grams`); it
    is widespread when it occurs in ``others`` + 1 messages or more, i.e. in at least ``others``
    messages besides any one that holds it; a message repeats one when it holds a widespread
    phrase. Counts are of messages (a phrase twice in one message counts once), over the whole
    dataset, so the figure grows with the dataset's size for the same wording habits.
    """
    grams = [four_grams(t) for t in texts]
    df: Counter[str] = Counter(g for gs in grams for g in gs)
    wide = Counter({g: n for g, n in df.items() if n >= others + 1})
    return [any(g in wide for g in gs) for gs in grams], wide


def side_figures(cases: Sequence[Case], name: str = "dataset", *, seed: int = 0) -> SideFigures:
    """Every figure of the realism report that concerns one dataset alone (all but the classifier).

    ``seed`` draws the repeated-phrase sample when the dataset has more than :data:`PHRASE_SAMPLE` messages."""
    msgs = _messages(cases)
    texts = [t for t, _ in msgs]
    lengths = [len(words(t)) for t in texts]
    repeats_all, wide = repeated_phrases(texts)
    sample = random.Random(seed).sample(texts, PHRASE_SAMPLE) if len(texts) > PHRASE_SAMPLE else texts
    repeats, _ = repeated_phrases(sample)
    steps = [s for c in cases for s in c.steps]
    changes = initial = 0
    for c in cases:
        first = {e.id for e in c.initial_timetable}
        for s in c.steps:
            for op in s.gold_ops:
                if isinstance(op, UpdateOp | DeleteOp):
                    changes += 1
                    initial += op.id in first
    tagged = [c.meta["phenomena"] for c in cases if "phenomena" in c.meta]
    held = Counter(tag for tags in tagged if isinstance(tags, list) for tag in set(tags) if isinstance(tag, str))
    n = len(cases)
    return SideFigures(
        name=name,
        cases=n,
        steps=len(steps),
        messages=len(texts),
        words_mean=round(statistics.fmean(lengths), 2) if lengths else None,
        words_median=float(statistics.median(lengths)) if lengths else None,
        short_messages=sum(k <= SHORT_WORDS for k in lengths),
        short_share=_share(sum(k <= SHORT_WORDS for k in lengths), len(texts)),
        phrase_sample=len(sample),
        repeated_phrase_messages=sum(repeats),
        repeated_phrase_share=_share(sum(repeats), len(sample)),
        repeated_phrase_messages_all=sum(repeats_all),
        repeated_phrase_share_all=_share(sum(repeats_all), len(texts)),
        top_phrases=sorted(wide.items(), key=lambda kv: (-kv[1], kv[0]))[:5],
        emoji_messages=sum(map(has_emoji, texts)),
        emoji_share=_share(sum(map(has_emoji, texts)), len(texts)),
        bare_hour_messages=(bare := sum(gives_bare_hour(t, parse_time(at)) for t, at in msgs)),
        bare_hour_share=_share(bare, len(texts)),
        quiet_steps=(quiet := sum(not s.messages for s in steps)),
        quiet_step_share=_share(quiet, len(steps)),
        updates_deletes=changes,
        initial_changes=initial,
        initial_change_share=_share(initial, changes),
        messages_per_case=round(len(texts) / n, 2) if n else None,
        chats_per_case=round(sum(len(c.chats) for c in cases) / n, 2) if n else None,
        phenomena={tag: round(held[tag] / n, 4) for tag in PHENOMENA} if tagged else None,
        other_phenomena={tag: k for tag, k in sorted(held.items()) if tag not in PHENOMENA},
    )


def _cases_and_name(data: Dataset | Sequence[Case], default: str) -> tuple[list[Case], str]:
    if isinstance(data, Dataset):
        return list(data.cases), data.manifest.name
    return list(data), default


def realism_report(
    dataset: Dataset | Sequence[Case],
    reference: Dataset | Sequence[Case],
    *,
    seed: int = 0,
    max_per_side: int = 5000,
    folds: int = 5,
    repeats: int = DEFAULT_REPEATS,
) -> RealismReport:
    """The realism report of ``dataset`` against ``reference``.

    Args:
        dataset: the dataset to judge (a loaded :class:`~proevent.io.Dataset` or its cases).
        reference: the chats it should resemble (typically ``examples/handwritten``).
        seed: seeds the classifier's balanced samples, folds and solver.
        max_per_side: at most this many messages of each side enter the classifier.
        folds: number of stratified cross-validation folds of the classifier.
        repeats: rounds of sampling and cross-validation the AUC averages (seeds ``seed`` to
            ``seed + repeats - 1``).

    Returns:
        The figures of both sides and the classifier's ROC AUC; without scikit-learn installed the
        AUC carries a note saying how to install it and every other figure is still computed.
    """
    cases_a, name_a = _cases_and_name(dataset, "dataset")
    cases_b, name_b = _cases_and_name(reference, "reference")
    auc = classifier_auc([t for t, _ in _messages(cases_a)], [t for t, _ in _messages(cases_b)],
                         seed=seed, max_per_side=max_per_side, folds=folds, repeats=repeats)
    return RealismReport(seed=seed, auc=auc, dataset=side_figures(cases_a, name_a, seed=seed),
                         reference=side_figures(cases_b, name_b, seed=seed))


def _pct(share: float | None, part: int, whole: int | None = None) -> str:
    if share is None:
        return "n/a"
    return f"{share:.1%} ({part:,}" + (f" of {whole:,})" if whole is not None else ")")


def _num(value: float | int | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:,}" if isinstance(value, int) else f"{value:,.2f}".rstrip("0").rstrip(".")


def report_rows(report: RealismReport) -> list[tuple[str, str, str]]:
    """The report as ``(figure, dataset, reference)`` rows of text, in the order a table shows them."""
    a, b = report.dataset, report.reference
    auc = report.auc
    rounds = f" in {auc.repeats} rounds" if auc.repeats > 1 else ""
    auc_text = (f"{auc.mean:.3f} ± {auc.sd:.3f} ({len(auc.folds)} folds{rounds}, {auc.per_side:,} per side)"
                if auc.mean is not None and auc.sd is not None else auc.note or "n/a")
    rows = [
        ("classifier AUC (0.5 = alike)", auc_text, ""),
        *[(label, _num(getattr(a, key)), _num(getattr(b, key))) for label, key in (
            ("cases", "cases"), ("steps", "steps"), ("messages", "messages"),
            ("messages per case", "messages_per_case"), ("chats per case", "chats_per_case"),
            ("words per message, mean", "words_mean"), ("words per message, median", "words_median"))],
    ]
    for label, share, part, whole in (
        (f"messages of <= {SHORT_WORDS} words", "short_share", "short_messages", None),
        (f"repeating a phrase of {PHRASE_OTHERS}+ others", "repeated_phrase_share", "repeated_phrase_messages",
         "phrase_sample"),
        ("  the same, all messages", "repeated_phrase_share_all", "repeated_phrase_messages_all", "messages"),
        ("messages with an emoji", "emoji_share", "emoji_messages", None),
        ("bare-number clock times", "bare_hour_share", "bare_hour_messages", None),
        ("steps without messages", "quiet_step_share", "quiet_steps", "steps"),
        ("updates+deletes of initial events", "initial_change_share", "initial_changes", "updates_deletes"),
    ):
        rows.append((label, *(_pct(getattr(s, share), getattr(s, part), getattr(s, whole) if whole else None)
                              for s in (a, b))))
    rows.append(("most repeated phrases",
                 *("; ".join(f"{p} ({k:,})" for p, k in s.top_phrases[:3]) or "none" for s in (a, b))))
    if a.phenomena is None and b.phenomena is None:
        rows.append(("phenomena, share of cases", *["n/a (no meta.phenomena)"] * 2))
        return rows
    rows.append(("phenomena, share of cases", "", ""))
    for tag in PHENOMENA:
        rows.append((f"  {tag}", *("n/a" if s.phenomena is None else f"{s.phenomena[tag]:.1%}" for s in (a, b))))
    for tag in sorted(set(a.other_phenomena) | set(b.other_phenomena)):
        rows.append((f"  {tag} (not in the vocabulary; cases)", str(a.other_phenomena.get(tag, 0)),
                     str(b.other_phenomena.get(tag, 0))))
    return rows
