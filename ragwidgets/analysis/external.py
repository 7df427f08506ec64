"""Another tool's score beside ragwidgets' own on the same answers, never mixed with it.

A run read from another tool's table keeps that tool's numbers apart (``Scores.external``,
:mod:`ragwidgets.sources`). :data:`COUNTERPARTS` names the ragwidgets metric each tool's column
measures the same thing as (ragas' ``faithfulness``: the share of response claims the retrieved
contexts support, RAGChecker's faithfulness; ragas' ``context_recall``: the share of reference
claims the contexts support, claim_recall). :func:`against_external` pairs the two per sample.

Per sample: ``ours``, ``theirs``, ``difference = theirs - ours``, ``status``: "both",
"ours undefined" (the engine's Undefined / not computable), "theirs missing" (the tool's NaN), or
"neither". The statistics are over the samples with both only (n = 0: each is None): the two
means, the mean absolute difference, Pearson's and Spearman's correlation (None below 3 pairs or
where a side is constant), and the share with ``|difference| >= threshold``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..engine.metrics import format_value

COUNTERPARTS = {  # tool -> its column -> the ragwidgets metric that measures the same
    "ragas": {"faithfulness": "faithfulness", "context_recall": "claim_recall"},
}
DISAGREE = 0.5  # |theirs - ours| at which a sample counts as a disagreement


def counterparts(tool: str, columns) -> dict[str, str]:
    """Of ``columns`` (a tool's external column names), those with a ragwidgets counterpart -> it."""
    known = COUNTERPARTS.get(tool, {})
    return {c: known[c] for c in columns if c in known}


@dataclass(frozen=True)
class ExternalComparison:
    """Two scores of the same answers: ``frame`` (per sample, indexed by query_id) and ``stats``."""

    metric: str
    column: str
    tool: str
    threshold: float
    frame: pd.DataFrame
    stats: dict

    def most_disagreeing(self, n: int = 20) -> pd.DataFrame:
        """The ``n`` samples with both scores whose difference is largest in size, largest first."""
        both = self.frame[self.frame["status"] == "both"]
        return both.loc[both["difference"].abs().sort_values(ascending=False, kind="stable").index[:n]]

    def disagreeing(self) -> list:
        """The query_ids where ``|difference| >= threshold`` (a slice's members)."""
        return self.frame.index[self.frame["difference"].abs() >= self.threshold].tolist()

    def __repr__(self) -> str:
        s = self.stats
        fmt = lambda v: "n/a" if v is None else format_value(v)  # noqa: E731
        return (f"{self.tool} {self.column} vs ragwidgets {self.metric}: {s['n_both']} samples with both "
                f"(ours undefined {s['n_ours_undefined']}, theirs missing {s['n_theirs_missing']}); "
                f"means {fmt(s['mean_theirs'])} vs {fmt(s['mean_ours'])}, mean |difference| "
                f"{fmt(s['mean_abs_difference'])}, Spearman {fmt(s['spearman'])}, "
                f"|difference| >= {self.threshold}: {s['n_disagree']}")


def _correlation(x: np.ndarray, y: np.ndarray) -> float | None:
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def compare_values(ours: pd.Series, theirs: pd.Series, *, metric: str, column: str, tool: str = "external",
                   threshold: float = DISAGREE) -> ExternalComparison:
    """Pair ``ours`` (NaN: Undefined) with ``theirs`` (NaN: missing), both indexed by query_id."""
    theirs = theirs.reindex(ours.index).astype(float)
    a, b = ours.to_numpy(dtype=float), theirs.to_numpy(dtype=float)
    has_a, has_b = ~np.isnan(a), ~np.isnan(b)
    status = np.select([has_a & has_b, has_b, has_a], ["both", "ours undefined", "theirs missing"], "neither")
    frame = pd.DataFrame({"ours": a, "theirs": b, "difference": b - a, "status": status}, index=ours.index)
    both = has_a & has_b
    x, y = a[both], b[both]
    n = int(both.sum())
    mean = lambda v: float(v.mean()) if n else None  # noqa: E731
    stats = {"n_both": n, "n_ours_undefined": int((~has_a & has_b).sum()),
             "n_theirs_missing": int((has_a & ~has_b).sum()), "n_neither": int((~has_a & ~has_b).sum()),
             "mean_ours": mean(x), "mean_theirs": mean(y), "mean_abs_difference": mean(np.abs(y - x)),
             "pearson": _correlation(x, y),
             "spearman": _correlation(pd.Series(x).rank().to_numpy(), pd.Series(y).rank().to_numpy()),
             "n_disagree": int((np.abs(y - x) >= threshold).sum()),
             "share_disagree": float((np.abs(y - x) >= threshold).mean()) if n else None}
    return ExternalComparison(metric, column, tool, threshold, frame, stats)


def against_external(scores, column: str | None = None, metric: str | None = None, *,
                     threshold: float = DISAGREE) -> ExternalComparison:
    """Another tool's ``column`` of ``scores.external`` against ragwidgets' ``metric`` on the same
    samples (either may be left out where :data:`COUNTERPARTS` settles it: ragas' faithfulness)."""
    external = getattr(scores, "external", None)
    tool = getattr(scores, "external_tool", "") or "external"
    if external is None or not len(external.columns):
        raise ValueError("these scores carry no other tool's columns (they come with a run read from a "
                         "table: rw.evaluate(ragas_result.to_pandas()), a Parquet or CSV file, ...)")
    pairs = counterparts(tool, external.columns)
    if column is None:
        found = [c for c, m in pairs.items() if metric in (None, m)]
        if not found:
            raise ValueError(f"name the column: {tool} columns here: {', '.join(map(str, external.columns))}")
        column = found[0]
    if column not in external.columns:
        raise ValueError(f"no {tool} column {column!r}; there are: {', '.join(map(str, external.columns))}")
    metric = metric or pairs.get(column)
    if metric is None:
        raise ValueError(f"name the ragwidgets metric to set {column!r} beside (metric=...)")
    frame = scores.frame
    if metric not in frame.columns:
        raise ValueError(f"these scores have no metric {metric!r}")
    ours = pd.Series(frame[metric].to_numpy(dtype=float), index=pd.Index(scores.batch.query_ids, name="query_id"))
    return compare_values(ours, external[column], metric=metric, column=column, tool=tool, threshold=threshold)
