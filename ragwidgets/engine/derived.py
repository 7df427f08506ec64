"""Per-item facts that every metric is built from, under the current masks.

Each property is computed on first use for all samples at once (one ``np.bincount`` per
reduction), so a subset of metrics costs only what it needs. Masks say which response claims,
gt claims and passages are in play (required-only mode, passages toggled off in a what-if).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..model import ENTAILED, UNJUDGED
from .batch import Batch


def _any(index: np.ndarray, mask: np.ndarray, size: int) -> np.ndarray:
    """For each of ``size`` items: is it the ``index`` of at least one entry where ``mask`` holds?
    (The entries are taken by position, ``np.flatnonzero``: about twice as fast as a boolean index.)"""
    out = np.zeros(size, dtype=bool)
    out[index[np.flatnonzero(mask)]] = True
    return out


def _in_play(flags: np.ndarray, index: np.ndarray):
    """``flags[index]``: whether each entry's item is in play; True (for all) when every item is,
    as on a fresh run: then nothing is gathered."""
    return True if flags.all() else flags[index]


def count_where(index: np.ndarray, mask: np.ndarray, size: int) -> np.ndarray:
    """For each of ``size`` items: of how many entries where ``mask`` holds is it the ``index``?
    (int32: a sample's items number far fewer than 2**31; half the memory of a run's counts.)"""
    return np.bincount(index[np.flatnonzero(mask)], minlength=size).astype(np.int32)


def _gather(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """values[index] where index >= 0, False where index is -1 (nothing to look up)."""
    out = np.zeros(len(index), dtype=bool)
    found = index >= 0
    out[found] = values[index[found]]
    return out


class Derived:
    """Boolean arrays over items (claims, passages, citations, facts) for one set of masks."""

    def __init__(self, batch: Batch, resp_active: np.ndarray, gt_active: np.ndarray, psg_active: np.ndarray):
        self.batch = batch
        self.resp_active = resp_active
        self.gt_active = gt_active
        self.psg_active = psg_active

    # -- response claims ------------------------------------------------------------------
    @cached_property
    def resp_correct(self) -> np.ndarray:
        """Entailed by the ground-truth answer (answer2response)."""
        return self.batch.answer2response == ENTAILED

    @cached_property
    def resp_incorrect(self) -> np.ndarray:
        """Judged and not entailed by the ground-truth answer (neutral or contradicted)."""
        labels = self.batch.answer2response
        return (labels != ENTAILED) & (labels != UNJUDGED)

    @cached_property
    def r2r_on(self) -> np.ndarray:
        """retrieved2response entries that entail, from passages in play."""
        b = self.batch
        return (b.r2r_label == ENTAILED) & _in_play(self.psg_active, b.r2r_psg)

    @cached_property
    def resp_faithful(self) -> np.ndarray:
        """Entailed by at least one retrieved passage."""
        return _any(self.batch.r2r_claim, self.r2r_on, len(self.batch.resp_sample))

    @cached_property
    def resp_unfaithful(self) -> np.ndarray:
        return ~self.resp_faithful

    @cached_property
    def resp_in_relevant(self) -> np.ndarray:
        """Entailed by at least one passage that entails a gt claim."""
        b = self.batch
        return _any(b.r2r_claim, self.r2r_on & self.psg_useful[b.r2r_psg], len(b.resp_sample))

    @cached_property
    def resp_only_in_irrelevant(self) -> np.ndarray:
        """Entailed by a passage that entails no gt claim, and by no passage that does."""
        b = self.batch
        hit = _any(b.r2r_claim, self.r2r_on & ~self.psg_useful[b.r2r_psg], len(b.resp_sample))
        return hit & ~self.resp_in_relevant

    @cached_property
    def resp_validly_cited(self) -> np.ndarray:
        """Has at least one valid citation."""
        return _any(self.batch.cit_claim, self.cit_valid, len(self.batch.resp_sample))

    # -- ground-truth claims --------------------------------------------------------------
    @cached_property
    def gt_covered(self) -> np.ndarray:
        """Entailed by the response (response2answer)."""
        return self.batch.response2answer == ENTAILED

    @cached_property
    def gt_retrieved(self) -> np.ndarray:
        """Entailed by at least one retrieved passage."""
        b = self.batch
        on = (b.r2a_label == ENTAILED) & _in_play(self.psg_active, b.r2a_psg)
        return _any(b.r2a_claim, on, len(b.gt_sample))

    # -- passages -------------------------------------------------------------------------
    @cached_property
    def psg_useful(self) -> np.ndarray:
        """Entails at least one gt claim (RAGChecker's 'relevant' passage)."""
        b = self.batch
        on = (b.r2a_label == ENTAILED) & _in_play(self.gt_active, b.r2a_claim)
        return _any(b.r2a_psg, on, len(b.psg_sample))

    @cached_property
    def psg_flagged_relevant(self) -> np.ndarray:
        """Carries ``relevant: true`` (question-relevant, the citation family's relevance)."""
        return self.batch.psg_relevant == 1

    # -- citations ------------------------------------------------------------------------
    @cached_property
    def cit_retrieved(self) -> np.ndarray:
        """The cited source is a retrieved passage in play."""
        return _gather(self.psg_active, self.batch.cit_psg)

    @cached_property
    def cit_valid(self) -> np.ndarray:
        """The cited passage was retrieved and on its own entails the claim."""
        b = self.batch
        return self.cit_retrieved & _gather(b.r2r_label == ENTAILED, b.cit_entry)

    @cached_property
    def cit_active(self) -> np.ndarray:
        return self.resp_active[self.batch.cit_claim]

    # -- reference facts ------------------------------------------------------------------
    @cached_property
    def ref_covered(self) -> np.ndarray:
        """Stated by at least one response claim in play."""
        b = self.batch
        return _any(b.inc_ref, self.resp_active[b.inc_claim], len(b.ref_sample))

    @cached_property
    def ref_active(self) -> np.ndarray:
        return np.ones(len(self.batch.ref_sample), dtype=bool)

    # -- unjudged labels, per sample ------------------------------------------------------
    def unjudged(self, matrix: str) -> np.ndarray:
        """Per sample: how many labels of ``matrix`` among the items in play are unjudged."""
        b = self.batch
        n = b.n_samples
        if matrix == "answer2response":
            bad = (b.answer2response == UNJUDGED) & self.resp_active
            return count_where(b.resp_sample, bad, n)
        if matrix == "response2answer":
            bad = (b.response2answer == UNJUDGED) & self.gt_active
            return count_where(b.gt_sample, bad, n)
        if matrix == "retrieved2response":
            bad = ((b.r2r_label == UNJUDGED) & _in_play(self.resp_active, b.r2r_claim)
                   & _in_play(self.psg_active, b.r2r_psg))
            return np.bincount(b.resp_sample[b.r2r_claim[np.flatnonzero(bad)]], minlength=n).astype(np.int32)
        if matrix == "retrieved2answer":
            bad = ((b.r2a_label == UNJUDGED) & _in_play(self.gt_active, b.r2a_claim)
                   & _in_play(self.psg_active, b.r2a_psg))
            return np.bincount(b.gt_sample[b.r2a_claim[np.flatnonzero(bad)]], minlength=n).astype(np.int32)
        return np.zeros(n, dtype=np.int32)
