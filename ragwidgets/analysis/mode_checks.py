"""Built-in signals: label patterns a failure mode can be checked against
(:func:`~ragwidgets.analysis.failure_modes.check_mode`), one flag per sample, computed from the
engine's flat label arrays for every sample at once.

Each signal reads the claims and passages in play (the scoring's first part: required-only
claims, passages switched off in a what-if) and RAGChecker's sense of a *relevant* passage (one
that entails a ground-truth claim). An unjudged label entails and contradicts nothing, as in the
metrics. A signal whose labels some sample lacks is a ValueError naming them and the first such
sample: a flag there would be a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..engine.batch import NEEDS
from ..engine.derived import Derived, count_where
from ..engine.evaluate import Scores
from ..model import CONTRADICTED, NOT_ENTAILED


@dataclass(frozen=True)
class Signal:
    """A built-in check: ``fn(derived) -> bool per sample``; ``needs`` the label matrices it reads."""

    name: str
    label: str
    description: str
    fn: Callable[[Derived], np.ndarray]
    needs: tuple[str, ...]


def _per_sample(owner: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
    """Per sample: does any of its items (``owner``: each item's sample) satisfy ``mask``?"""
    return count_where(owner, mask, n) > 0


def _unsupported(d: Derived) -> np.ndarray:
    b = d.batch
    return _per_sample(b.resp_sample, d.resp_active & ~d.resp_faithful, b.n_samples)


def _contradicted(d: Derived) -> np.ndarray:
    b = d.batch
    on = (b.r2r_label == CONTRADICTED) & d.psg_active[b.r2r_psg] & d.resp_active[b.r2r_claim]
    return _per_sample(b.resp_sample[b.r2r_claim], on, b.n_samples)


def _only_irrelevant(d: Derived) -> np.ndarray:
    b = d.batch
    return _per_sample(b.resp_sample, d.resp_active & d.resp_only_in_irrelevant, b.n_samples)


def _missed(d: Derived) -> np.ndarray:
    b = d.batch
    judged_missing = (b.response2answer == NOT_ENTAILED) | (b.response2answer == CONTRADICTED)
    return _per_sample(b.gt_sample, d.gt_active & d.gt_retrieved & judged_missing, b.n_samples)


def _no_relevant(d: Derived) -> np.ndarray:
    b = d.batch
    has_gt = _per_sample(b.gt_sample, d.gt_active, b.n_samples)
    return has_gt & ~_per_sample(b.gt_sample, d.gt_active & d.gt_retrieved, b.n_samples)


SIGNALS: dict[str, Signal] = {s.name: s for s in (
    Signal("unsupported_claim", "Unsupported claim",
           "a response claim entailed by no retrieved passage", _unsupported, ("retrieved2response",)),
    Signal("contradicted_claim", "Contradicted claim",
           "a response claim some retrieved passage contradicts", _contradicted, ("retrieved2response",)),
    Signal("entailed_only_by_irrelevant", "Entailed only by irrelevant passages",
           "a response claim entailed only by passages that entail no ground-truth claim",
           _only_irrelevant, ("retrieved2response", "retrieved2answer")),
    Signal("missed_in_context", "Missed in context",
           "a ground-truth claim a retrieved passage entails, judged not in the response",
           _missed, ("retrieved2answer", "response2answer")),
    Signal("no_relevant_passage", "No relevant passage",
           "ground-truth claims, none of them entailed by a retrieved passage", _no_relevant, ("retrieved2answer",)),
)}


def signal_mask(scores: Scores, name: str) -> np.ndarray:
    """Per sample of ``scores``: does signal ``name`` hold? A ValueError for an unknown name or
    labels some sample lacks (naming them and the first such sample)."""
    if name not in SIGNALS:
        raise ValueError(f"unknown signal {name!r:.80}; the signals: {', '.join(SIGNALS)}")
    signal = SIGNALS[name]
    b = scores.batch
    for need in signal.needs:
        lacking = np.flatnonzero(~b.has[need])
        if len(lacking):
            raise ValueError(f"signal {name!r} needs {NEEDS[need]} on every sample; {len(lacking)} of "
                             f"{b.n_samples} samples lack them (the first: query_id {b.query_ids[lacking[0]]!r:.80})")
    return np.asarray(signal.fn(scores.parts[0].derived), dtype=bool)
