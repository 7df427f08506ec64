"""Run-level what-if, zero judge calls: rescore a whole run with some passages switched off.

Both questions reuse the labels already in the run through the engine's passage mask
(``evaluate(batch, passage_active=...)``): "what if the retriever kept only its top k
passages?" (a curve over k = 1 ... the longest retrieval) and "what if passages matching a
rule were dropped?". Only the metrics that read passages are rescored; precision, recall, f1
and completeness do not depend on them. ``rows`` (sample positions in the batch; None: every
sample) restricts a what-if to some samples, e.g. the rows an explorer's filters keep: only
they are averaged and counted.

A rule's patterns are regular expressions in RE2's syntax (Arrow's ``match_substring_regex``):
matched in time linear in the text, with no backreferences or lookarounds. Linear is not cheap:
the factor is the compiled program's size, and a pattern of nested counted repeats
(``(?:[a-z][a-z ]{1,9}){100}``: RE2 allows a product up to 1000) overflows RE2's DFA cache and
falls back to its NFA, at tens of seconds per MB of text. Arrow exposes no program size and RE2's
cost depends on the text too, so the cost is bounded where it is paid: the passages are matched
in pieces of about CHUNK_SECONDS each (the first piece FIRST_BYTES of text, the next ones sized
by the rate measured so far, each at most GROWTH times the one before and never over PIECE_BYTES,
so that cheap passages do not size a piece that then meets costly ones), Ctrl-C
(KeyboardInterrupt) is seen between pieces, and a time budget (``seconds``; the explorer's
what-if panel sets one) stops the match with :class:`PatternTooCostly`, which says how far it
got, past the budget by at most one piece (PIECE_BYTES of the pattern above: about 3 s). One
passage is matched in one call, so a single passage of many MB is the limit of that granularity.
"""

from __future__ import annotations

import time
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
CHUNK_SECONDS = 0.05  # aimed time of one Arrow match call: Ctrl-C and the budget are checked between calls
FIRST_BYTES = 1 << 14  # text in the first call, before the pattern's rate is known
GROWTH = 4  # a piece's size is at most this many times the one before
PIECE_BYTES = 1 << 17  # text in one call at most, whatever the rate measured so far


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


class PatternTooCostly(ValueError):
    """A rule's pattern that did not finish within its time budget: which pattern, and how far it got."""

    def __init__(self, field: str, seconds: float, done: int, total: int, unit: str):
        self.field, self.seconds, self.done, self.total = field, seconds, done, total
        super().__init__(f"the {field} pattern is too costly: stopped after {seconds:g} s, having matched "
                         f"{done:,} of {total:,} {unit}; simplify it (fewer or smaller counted repeats "
                         "such as {n}, fewer alternatives)")


def _match_pieces(values: pa.Array, pattern: str, out: np.ndarray, deadline: float | None) -> int:
    """OR ``values``' matches of ``pattern`` into ``out``, a piece of rows at a time (about
    CHUNK_SECONDS of work each, by the rate measured so far, growing at most GROWTH-fold a piece
    up to PIECE_BYTES; one row longer than that is one piece), until the end or ``deadline``
    (time.monotonic; None: none). Returns how many rows were matched (len(values): all)."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    ends = np.cumsum(pc.binary_length(values).fill_null(0).to_numpy(), dtype=np.int64)  # each row's end, in bytes
    start, budget = 0, FIRST_BYTES
    while start < len(values):
        begin = int(ends[start - 1]) if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, begin + budget, side="right")))
        clock = time.monotonic()
        found = pc.match_substring_regex(values.slice(start, stop - start), pattern).fill_null(False)
        out[start:stop] |= found.to_numpy(zero_copy_only=False)
        took = time.monotonic() - clock
        size = int(ends[stop - 1]) - begin
        rated = int(size * CHUNK_SECONDS / took) if took > 0 else budget * GROWTH
        budget = min(max(rated, FIRST_BYTES), budget * GROWTH, PIECE_BYTES)
        start = stop
        if deadline is not None and start < len(values) and time.monotonic() > deadline:
            break
    return start


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

    def matches(self, doc_ids, texts, *, seconds: float | None = None) -> np.ndarray:
        """One flag per passage (its doc_id and text at the same place; lists or Arrow strings):
        the rule matches it. Matched in pieces (see the module's docstring): Ctrl-C stops it
        between pieces, and past ``seconds`` (None: no budget) it stops with PatternTooCostly."""
        out = np.zeros(len(doc_ids), dtype=bool)
        deadline = None if seconds is None else time.monotonic() + seconds
        for field, pattern, values in (("doc_id", self.doc_id, doc_ids), ("text", self.text, texts)):
            if pattern is not None and len(values):
                values = values if isinstance(values, pa.Array) else pa.array(values, type=pa.large_string())
                done = _match_pieces(values, pattern, out, deadline)
                if done < len(values):
                    raise PatternTooCostly(field, seconds, done, len(values), "passages")
        return out

    def __call__(self, passage: Passage) -> bool:
        return bool(self.matches([passage.doc_id], [passage.text])[0])


def passage_rule(doc_id: str | None = None, text: str | None = None) -> PassageRule:
    """A rule matching passages whose doc_id (or text) contains the regular expression given."""
    return PassageRule(doc_id, text)


def drop_passages(scores: Scores, rule: Callable[[Passage], bool] | None = None, *,
                  doc_id: str | None = None, text: str | None = None, rows=None,
                  seconds: float | None = None) -> Dropped:
    """Rescore ``scores`` without the passages matching ``rule`` (a function of a Passage) or the
    ``doc_id`` / ``text`` regular expressions, over the samples at ``rows`` (None: all; only
    their passages are tried and dropped). ``table``: per passage-dependent metric, its mean over
    defined samples before and after, ``change`` = after − before (NaN where either has no
    defined sample), and the Undefined counts before and after; metrics not computable on any of
    the samples counted are left out. A pattern's match that runs past ``seconds`` (None: no
    budget) stops with PatternTooCostly, saying how many of the samples it got through."""
    rule = rule or passage_rule(doc_id, text)
    rows = sample_rows(scores, rows)
    batch = scores.batch
    dropped = np.zeros(len(batch.psg_sample), dtype=bool)
    at = np.arange(len(batch.psg_sample)) if rows is None else np.flatnonzero(np.isin(batch.psg_sample, rows))
    columns = getattr(batch.samples, "passage_columns", None)  # a fast load's: no Sample built
    try:
        if isinstance(rule, PassageRule) and columns is not None:
            dropped[at] = rule.matches(*columns(rows), seconds=seconds)
        else:
            taken = range(batch.n_samples) if rows is None else rows.tolist()
            passages = [p for i in taken for p in batch.samples[i].passages]
            dropped[at] = (rule.matches([p.doc_id for p in passages], [p.text for p in passages], seconds=seconds)
                           if isinstance(rule, PassageRule)
                           else np.fromiter((rule(p) for p in passages), dtype=bool, count=len(passages)))
    except PatternTooCostly as err:
        owner = batch.psg_sample[at]  # the sample of each passage tried
        whole = len(np.unique(owner[:err.done])) - int(owner[err.done] == owner[err.done - 1] if err.done else 0)
        raise PatternTooCostly(err.field, err.seconds, whole, batch.n_samples if rows is None else len(rows),
                               "samples") from None
    after = _rescore(scores, ~dropped)
    before = aggregate_over(scores, rows)
    n = batch.n_samples if rows is None else len(rows)
    table = pd.DataFrame([{"metric": name, "before": before[name]["mean"], "after": agg["mean"],
                           "undefined_before": before[name]["undefined"], "undefined_after": agg["undefined"]}
                          for name, agg in aggregate_over(after, rows).items() if agg["not_computable"] < n],
                         columns=["metric", "before", "after", "undefined_before", "undefined_after"])
    table.insert(3, "change", table["after"].astype(float) - table["before"].astype(float))
    return Dropped(after, dropped, table)
