"""Run-level what-if, zero judge calls: rescore a whole run with some passages switched off.

Both questions reuse the labels already in the run through the engine's passage mask
(``evaluate(batch, passage_active=...)``): "what if the retriever kept only its top k
passages?" (a curve over k = 1 ... the longest retrieval) and "what if passages matching a
rule were dropped?". Only the metrics that read passages are rescored; precision, recall, f1
and completeness do not depend on them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from ..engine import evaluate
from ..engine.batch import Batch
from ..engine.evaluate import Scores
from ..engine.metrics import METRICS
from ..model import Passage

PASSAGE_NEEDS = {"retrieved2response", "retrieved2answer", "relevance", "citations"}


def passage_metrics(scores: Scores) -> list[str]:
    """The run's metrics whose values depend on which passages are in play."""
    return [n for n in scores.parts[0].names if PASSAGE_NEEDS & set(METRICS[n].needs)]


def passage_rank(batch: Batch) -> np.ndarray:
    """Each passage's 0-based retrieval rank within its sample."""
    return np.arange(len(batch.psg_sample)) - batch.psg_offset[batch.psg_sample]


def _rescore(scores: Scores, active: np.ndarray) -> Scores:
    return evaluate(scores.batch, passage_metrics(scores), mode=scores.mode, undefined=scores.undefined,
                    passage_active=active)


def _rows(aggregate: dict, **key) -> list[dict]:
    return [{**key, "metric": name, **{f: agg[f] for f in ("mean", "defined", "undefined", "not_computable")}}
            for name, agg in aggregate.items()]


def top_k_curve(scores: Scores, ks=None) -> pd.DataFrame:
    """Every passage-dependent metric if only the top ``k`` retrieved passages were kept, for
    each k in ``ks`` (default 1 ... the longest retrieval): one row per (k, metric) with the
    mean over defined samples and the defined / Undefined / not computable counts. Metrics not
    computable on any sample are left out; a run without passages has no curve (no rows)."""
    rank = passage_rank(scores.batch)
    if ks is None:
        ks = range(1, int(rank.max()) + 2 if len(rank) else 1)
    rows = []
    for k in ks:
        if k < 0:
            raise ValueError(f"k must be 0 or more, got {k}")
        rows += _rows(_rescore(scores, rank < k).aggregate(), k=int(k))
    curve = pd.DataFrame(rows, columns=["k", "metric", "mean", "defined", "undefined", "not_computable"])
    computable = curve.groupby("metric", sort=False)["not_computable"].transform("min") < scores.batch.n_samples
    return curve[computable].reset_index(drop=True)


@dataclass(eq=False)
class Dropped:
    """The run rescored without the passages a rule matched."""

    scores: Scores
    dropped: np.ndarray  # bool per passage of the batch: the rule matched it
    table: pd.DataFrame  # per metric: mean before and after, change, Undefined before and after

    @property
    def n_dropped(self) -> int:
        return int(self.dropped.sum())

    @property
    def samples_touched(self) -> int:
        return int(len(np.unique(self.scores.batch.psg_sample[self.dropped])))


def passage_rule(doc_id: str | None = None, text: str | None = None) -> Callable[[Passage], bool]:
    """A rule matching passages whose doc_id (or text) contains the regular expression given."""
    if doc_id is None and text is None:
        raise ValueError("give a doc_id or a text pattern (or a function of the passage)")
    doc_re = re.compile(doc_id) if doc_id is not None else None
    text_re = re.compile(text) if text is not None else None
    return lambda p: bool((doc_re and doc_re.search(p.doc_id)) or (text_re and text_re.search(p.text)))


def drop_passages(scores: Scores, rule: Callable[[Passage], bool] | None = None, *,
                  doc_id: str | None = None, text: str | None = None) -> Dropped:
    """Rescore ``scores`` without the passages matching ``rule`` (a function of a Passage) or the
    ``doc_id`` / ``text`` regular expressions."""
    rule = rule or passage_rule(doc_id, text)
    dropped = np.fromiter((rule(p) for s in scores.batch.samples for p in s.passages), dtype=bool,
                          count=len(scores.batch.psg_sample))
    after = _rescore(scores, ~dropped)
    before = scores.aggregate()
    rows = [{"metric": name, "before": before[name]["mean"], "after": agg["mean"],
             "undefined_before": before[name]["undefined"], "undefined_after": agg["undefined"]}
            for name, agg in after.aggregate().items()]
    table = pd.DataFrame(rows, columns=["metric", "before", "after", "undefined_before", "undefined_after"])
    table.insert(3, "change", table["after"].astype(float) - table["before"].astype(float))
    return Dropped(after, dropped, table)
