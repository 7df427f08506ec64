"""What judge work each score needs: RAGChecker's metric → label-matrix map, by claim side.

A score needs the label matrices in ``METRICS[name].needs``. A matrix is about the claims of one
side: ``answer2response`` and ``retrieved2response`` about the response's claims,
``response2answer`` and ``retrieved2answer`` about the target's (gt answer's). Only
``retrieved2response`` needs no target, so faithfulness is the one target-free score.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine import METRICS, RAGCHECKER_METRICS
from ..engine.metrics import REQUIRED_PREFIX

SCORE_ALIASES = {"f1_score": "f1"}
"""Names the scorer accepts for a score besides the engine's (RagChecker's configuration format calls f1 ``f1_score``)."""

RESPONSE, TARGET = "response", "target"
SIDE_MATRICES = {
    RESPONSE: ("answer2response", "retrieved2response"),
    TARGET: ("response2answer", "retrieved2answer"),
}
SIDE_CLAIMS = {RESPONSE: "response_claims", TARGET: "gt_answer_claims"}
SIDE_LABELS = {RESPONSE: "response_claim_labels", TARGET: "gt_answer_claim_labels"}
TARGET_FREE_MATRICES = frozenset({"retrieved2response"})
TARGET_FREE_SCORES = tuple(n for n in RAGCHECKER_METRICS if set(METRICS[n].needs) <= TARGET_FREE_MATRICES)


def canonical_scores(names: Iterable[str] | None, *, has_target: bool = True) -> tuple[str, ...]:
    """The scores to compute, in the given order, under the engine's names.

    None means all eleven RAGChecker scores (only the target-free ones without a target). An
    unknown name, or a score that needs a target when there is none, is a ``ValueError``.
    """
    if names is None:
        return RAGCHECKER_METRICS if has_target else TARGET_FREE_SCORES
    if isinstance(names, str):
        raise TypeError("scores_to_compute must be a list of score names, not a string")
    names = [SCORE_ALIASES.get(n, n) for n in names]
    unknown = [n for n in names if n not in RAGCHECKER_METRICS]
    if unknown:
        raise ValueError(
            f"unknown score(s) {', '.join(map(repr, unknown))} in scores_to_compute; "
            f"known: {', '.join(RAGCHECKER_METRICS)} (f1 may be written f1_score)"
        )
    if not names:
        raise ValueError("scores_to_compute is empty: name at least one score, or None for all")
    if not has_target:
        needing = [n for n in names if n not in TARGET_FREE_SCORES]
        if needing:
            raise ValueError(
                f"target_column is None, but {', '.join(map(repr, needing))} need(s) a target; "
                f"without a target only {', '.join(TARGET_FREE_SCORES)} can be computed"
            )
    return tuple(dict.fromkeys(names))


def written_names(names: Iterable[str] | None) -> dict[str, str]:
    """Engine name → the name the user wrote, for the scores written another way (``f1`` → ``f1_score``)."""
    return {SCORE_ALIASES[n]: n for n in names or () if n in SCORE_ALIASES}


def column_alias(column: str) -> str | None:
    """The other spelling of a score column (``f1`` ↔ ``f1_score``, prefix kept), or None."""
    prefix = REQUIRED_PREFIX if column.startswith(REQUIRED_PREFIX) else ""
    name = column[len(prefix):]
    other = SCORE_ALIASES.get(name) or next((a for a, n in SCORE_ALIASES.items() if n == name), None)
    return None if other is None else prefix + other


def score_columns(scores: tuple[str, ...], mode: str) -> tuple[str, ...]:
    """The score columns written: ``scores``, then (``required_and_optional``) the ``required_`` ones."""
    if mode == "required_and_optional":
        return scores + tuple(REQUIRED_PREFIX + s for s in scores)
    return scores


def sides_of(scores: Iterable[str]) -> set[str]:
    """The claim sides (``RESPONSE``, ``TARGET``) whose claims the scores are about."""
    needs = {need for name in scores for need in METRICS[name].needs}
    return {side for side, matrices in SIDE_MATRICES.items() if needs & set(matrices)}


def judge_needs(scores: Iterable[str], mode: str) -> set[str]:
    """The fields ``fill_labels`` must provide: label matrices, claims, and importance labels.

    Importance (REQUIRED/OPTIONAL) labels are needed only outside ``all_claims`` mode, and only
    for the sides the scores are about.
    """
    scores = list(scores)
    needs = {need for name in scores for need in METRICS[name].needs}
    sides = sides_of(scores)
    needs |= {SIDE_CLAIMS[side] for side in sides}
    if mode != "all_claims":
        needs |= {SIDE_LABELS[side] for side in sides}
    return needs
