"""Run-level what-if, zero judge calls: rescore a whole run with some passages switched off.

Both questions reuse the labels already in the run through the engine's passage mask
(``evaluate(batch, passage_active=...)``): "what if the retriever kept only its top k
passages?" (a curve over k = 1 ... the longest retrieval) and "what if passages matching a
rule were dropped?". Only the metrics that read passages are rescored; precision, recall, f1
and completeness do not depend on them. ``rows`` (sample positions in the batch; None: every
sample) restricts a what-if to some samples, e.g. the rows an explorer's filters keep: only
they are averaged and counted.

A rule's patterns are regular expressions in RE2's syntax (Arrow's ``match_substring_regex``):
matched in time linear in the text whatever the pattern, so a pattern typed into a widget
cannot hang the kernel; backreferences and lookarounds are not part of that syntax.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..engine import evaluate
from ..engine.batch import Batch
from ..engine.evaluate import Scores
from ..engine.metrics import METRICS
from ..engine.sums import mean_over_defined
from ..model import Passage

PASSAGE_NEEDS = {"retrieved2response", "retrieved2answer", "relevance", "citations"}
MAX_PATTERN = 1000  # characters in a rule's pattern


def passage_metrics(scores: Scores) -> list[str]:
    """The run's metrics whose values depend on which passages are in play."""
    return [n for n in scores.parts[0].names if PASSAGE_NEEDS & set(METRICS[n].needs)]


def passage_rank(batch: Batch) -> np.ndarray:
    """Each passage's 0-based retrieval rank within its sample."""
    return np.arange(len(batch.psg_sample)) - batch.psg_offset[batch.psg_sample]


def sample_rows(scores: Scores, rows) -> np.ndarray | None:
    """``rows`` as sorted unique sample positions (None stays None: every sample); ValueError
    naming the first position that is not a sample of ``scores``."""
    if rows is None:
        return None
    rows = np.asarray(rows)
    if rows.size and rows.dtype.kind not in "iu":
        raise ValueError(f"rows must be sample positions (whole numbers), not {rows.dtype} values")
    rows = np.unique(rows.astype(np.int64))
    n = scores.batch.n_samples
    bad = rows[(rows < 0) | (rows >= n)]
    if len(bad):
        raise ValueError(f"rows: {int(bad[0])} is not a sample position (0 ... {n - 1})")
    return rows


def aggregate_over(scores: Scores, rows: np.ndarray | None = None) -> dict[str, dict]:
    """:meth:`Scores.aggregate` over the samples at ``rows`` only (None: every sample): per
    metric the mean over its defined samples among them (None if none) and how many were
    defined, Undefined and not computable."""
    if rows is None:
        return scores.aggregate()
    out = {}
    for part in scores.parts:
        for shown, value, _, name in part.columns():
            code = part.code[name][rows]
            counts = np.bincount(code, minlength=3)
            out[shown] = {"mean": mean_over_defined(value[rows], code == 0)[0], "defined": int(counts[0]),
                          "undefined": int(counts[1]), "not_computable": int(counts[2])}
    return out


def _rescore(scores: Scores, active: np.ndarray) -> Scores:
    return evaluate(scores.batch, passage_metrics(scores), mode=scores.mode, undefined=scores.undefined,
                    passage_active=active)


def _rows(aggregated: dict, **key) -> list[dict]:
    return [{**key, "metric": name, **{f: agg[f] for f in ("mean", "defined", "undefined", "not_computable")}}
            for name, agg in aggregated.items()]


def top_k_curve(scores: Scores, ks=None, *, rows=None) -> pd.DataFrame:
    """Every passage-dependent metric if only the top ``k`` retrieved passages were kept, for
    each k in ``ks`` (default 1 ... the longest retrieval among the samples counted): one row
    per (k, metric) with the mean over defined samples and the defined / Undefined / not
    computable counts, over the samples at ``rows`` (None: all). Metrics not computable on any
    of them are left out; no passage among them (or no sample) gives no curve (no rows)."""
    rows = sample_rows(scores, rows)
    rank = passage_rank(scores.batch)
    counted = rank if rows is None else rank[np.isin(scores.batch.psg_sample, rows)]
    if ks is None:
        ks = range(1, int(counted.max()) + 2 if len(counted) else 1)
    out = []
    for k in ks:
        if k < 0:
            raise ValueError(f"k must be 0 or more, got {k}")
        out += _rows(aggregate_over(_rescore(scores, rank < k), rows), k=int(k))
    curve = pd.DataFrame(out, columns=["k", "metric", "mean", "defined", "undefined", "not_computable"])
    n = scores.batch.n_samples if rows is None else len(rows)
    computable = curve.groupby("metric", sort=False)["not_computable"].transform("min") < n
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


def _compiled(pattern: str | None, field: str) -> str | None:
    """``pattern`` checked as an RE2 regular expression (None: no pattern); ValueError naming
    ``field`` when it is not a string, too long, or not a valid expression."""
    if pattern is None:
        return None
    if not isinstance(pattern, str):
        raise ValueError(f"the {field} pattern must be a string, not {pattern!r:.80}")
    if len(pattern) > MAX_PATTERN:
        raise ValueError(f"the {field} pattern is {len(pattern):,} characters long; at most {MAX_PATTERN}")
    try:
        pc.match_substring_regex(pa.array([""]), pattern)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as err:
        raise ValueError(f"the {field} pattern {pattern!r:.120} is not a valid regular expression "
                         f"({str(err).removeprefix('Invalid regular expression: ')})") from None
    return pattern


@dataclass(frozen=True)
class PassageRule:
    """Matches a passage whose doc_id contains the regular expression ``doc_id`` or whose text
    contains ``text`` (either may be None; RE2 syntax, see the module's docstring)."""

    doc_id: str | None = None
    text: str | None = None

    def __post_init__(self):
        if self.doc_id is None and self.text is None:
            raise ValueError("give a doc_id or a text pattern (or a function of the passage)")
        _compiled(self.doc_id, "doc_id")
        _compiled(self.text, "text")

    def matches(self, doc_ids, texts) -> np.ndarray:
        """One flag per passage (its doc_id and text at the same place; lists or Arrow strings):
        the rule matches it."""
        out = np.zeros(len(doc_ids), dtype=bool)
        for pattern, values in ((self.doc_id, doc_ids), (self.text, texts)):
            if pattern is not None and len(values):
                values = values if isinstance(values, pa.Array) else pa.array(values, type=pa.large_string())
                out |= pc.match_substring_regex(values, pattern).to_numpy(zero_copy_only=False)
        return out

    def __call__(self, passage: Passage) -> bool:
        return bool(self.matches([passage.doc_id], [passage.text])[0])


def passage_rule(doc_id: str | None = None, text: str | None = None) -> PassageRule:
    """A rule matching passages whose doc_id (or text) contains the regular expression given."""
    return PassageRule(doc_id, text)


def drop_passages(scores: Scores, rule: Callable[[Passage], bool] | None = None, *,
                  doc_id: str | None = None, text: str | None = None, rows=None) -> Dropped:
    """Rescore ``scores`` without the passages matching ``rule`` (a function of a Passage) or the
    ``doc_id`` / ``text`` regular expressions, over the samples at ``rows`` (None: all; only
    their passages are tried and dropped). ``table``: per passage-dependent metric, its mean over
    defined samples before and after, ``change`` = after − before (NaN where either has no
    defined sample), and the Undefined counts before and after; metrics not computable on any of
    the samples counted are left out."""
    rule = rule or passage_rule(doc_id, text)
    rows = sample_rows(scores, rows)
    batch = scores.batch
    dropped = np.zeros(len(batch.psg_sample), dtype=bool)
    at = np.arange(len(batch.psg_sample)) if rows is None else np.flatnonzero(np.isin(batch.psg_sample, rows))
    columns = getattr(batch.samples, "passage_columns", None)  # a fast load's: no Sample built
    if isinstance(rule, PassageRule) and columns is not None:
        dropped[at] = rule.matches(*columns(rows))
    else:
        taken = range(batch.n_samples) if rows is None else rows.tolist()
        passages = [p for i in taken for p in batch.samples[i].passages]
        dropped[at] = (rule.matches([p.doc_id for p in passages], [p.text for p in passages])
                       if isinstance(rule, PassageRule)
                       else np.fromiter((rule(p) for p in passages), dtype=bool, count=len(passages)))
    after = _rescore(scores, ~dropped)
    before = aggregate_over(scores, rows)
    n = batch.n_samples if rows is None else len(rows)
    table = pd.DataFrame([{"metric": name, "before": before[name]["mean"], "after": agg["mean"],
                           "undefined_before": before[name]["undefined"], "undefined_after": agg["undefined"]}
                          for name, agg in aggregate_over(after, rows).items() if agg["not_computable"] < n],
                         columns=["metric", "before", "after", "undefined_before", "undefined_after"])
    table.insert(3, "change", table["after"].astype(float) - table["before"].astype(float))
    return Dropped(after, dropped, table)
