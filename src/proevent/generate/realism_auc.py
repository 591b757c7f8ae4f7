"""How well a bag-of-n-grams classifier tells two sets of messages apart (the realism report's AUC).

scikit-learn is an optional dependency (``pip install 'proevent[realism]'``), imported only here
and only when the AUC is computed; without it :func:`classifier_auc` returns a result whose
``note`` says how to install it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import BaseModel

INSTALL_HINT = "scikit-learn is not installed: pip install 'proevent[realism]'"
MIN_PER_FOLD = 2
"""Each side needs at least this many messages per fold for a stratified split to be scored."""
DEFAULT_REPEATS = 5
"""Rounds of :func:`classifier_auc` by default: the mean of five draws moves about 0.004 from one
seed to the next where a single draw moves 0.01."""


class AucResult(BaseModel):
    """ROC AUC of the classifier over the cross-validation folds; 0.5 means indistinguishable.

    ``mean`` and ``sd`` (the sample standard deviation over folds) are ``None`` when the AUC
    could not be computed; ``note`` then says why."""

    mean: float | None = None
    sd: float | None = None
    folds: list[float] = []
    """Every fold's AUC, repeat after repeat."""
    per_side: int = 0
    """Messages of each side that entered the classifier (the same number on both sides)."""
    repeats: int = 1
    """Rounds of sampling and cross-validation whose folds ``mean`` averages."""
    repeat_means: list[float] = []
    """The mean AUC of each round: how much one round's figure moves with the draw."""
    note: str | None = None


def _pipeline(seed: int):  # type: ignore[no-untyped-def]  # scikit-learn objects are untyped
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline, make_union

    return make_pipeline(
        make_union(
            # words and word pairs; the token pattern keeps one-character words ("k", "8") and emoji
            TfidfVectorizer(ngram_range=(1, 2), token_pattern=r"(?u)[^\W_]+|[^\w\s]", sublinear_tf=True),
            TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True),
        ),
        LogisticRegression(solver="liblinear", random_state=seed),  # fast on sparse text; same AUC as lbfgs here
    )


def classifier_auc(
    texts_a: Sequence[str], texts_b: Sequence[str], *, seed: int = 0, max_per_side: int = 5000, folds: int = 5,
    repeats: int = DEFAULT_REPEATS,
) -> AucResult:
    """Stratified ``folds``-fold cross-validated ROC AUC of TF-IDF (lower-cased word 1-2 grams, where
    a word is a run of letters and digits or one punctuation mark or emoji, and character 2-4 grams
    within words; sublinear term frequencies) + logistic regression, telling ``texts_a`` from ``texts_b``,
    averaged over ``repeats`` rounds.

    Each round balances the two sides first: each is sampled without replacement
    (``random.Random(seed + round)``) down to the size of the smaller one, capped at ``max_per_side``;
    its folds are shuffled with the same number. The vectorisers are fitted on each fold's training
    part only. ``mean`` is the mean of every fold of every round and ``sd`` their sample standard
    deviation. One round (``repeats=1``) is the figure of earlier versions; with a reference of a
    thousand messages its draw alone moves it by about 0.01, hence several rounds by default.
    """
    n = min(len(texts_a), len(texts_b), max_per_side)
    if n < folds * MIN_PER_FOLD:
        return AucResult(per_side=n, note=f"too few messages: {n} per side, {folds * MIN_PER_FOLD} needed")
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    try:
        from sklearn.model_selection import StratifiedKFold, cross_val_score
    except ImportError:
        return AucResult(per_side=n, note=INSTALL_HINT)
    labels = [1] * n + [0] * n
    scores: list[float] = []
    means: list[float] = []
    for r in range(repeats):
        rng = random.Random(seed + r)
        sample = rng.sample(list(texts_a), n) + rng.sample(list(texts_b), n)
        cv = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed + r)
        try:
            round_scores = [float(s) for s in cross_val_score(_pipeline(seed + r), sample, labels, cv=cv,
                                                              scoring="roc_auc", error_score="raise")]
        except ValueError as exc:  # e.g. messages without a single word or character n-gram
            return AucResult(per_side=n, note=f"classifier failed: {exc}")
        scores += round_scores
        means.append(round(sum(round_scores) / len(round_scores), 4))
    mean = sum(scores) / len(scores)
    sd = (sum((s - mean) ** 2 for s in scores) / (len(scores) - 1)) ** 0.5 if len(scores) > 1 else 0.0
    return AucResult(mean=round(mean, 4), sd=round(sd, 4), folds=[round(s, 4) for s in scores], per_side=n,
                     repeats=repeats, repeat_means=means)
