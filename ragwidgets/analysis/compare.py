"""Two or more runs over the same queries, compared sample by sample.

Runs are aligned on the query_ids they all share; queries missing from any run are left out and
counted. For each run against the baseline (the first run) and each metric: both means over
the samples defined in both runs, their difference, and a paired bootstrap interval of the mean
per-sample difference (resampling queries, so each pair stays together). A pair is checked by
its query text too: shared query_ids whose question differs from the baseline's are counted per
run (``query_mismatch``, with the ids in ``mismatched``) and warned about once per comparison,
but still paired (the ids say they are the same query; the count says how far to trust that).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .bootstrap import N_BOOT, interval
from .table import DEFINED_CODE, RunTable


@dataclass(eq=False)
class Comparison:
    """The aligned runs: ``values[run]`` / ``defined[run]`` are shared-queries x metrics frames."""

    runs: list[str]
    shared: pd.Index
    left_out: dict[str, int]  # per run: its queries that are not in every run
    values: dict[str, pd.DataFrame]
    defined: dict[str, pd.DataFrame]
    summary: pd.DataFrame
    query_mismatch: dict[str, int] = field(default_factory=dict)  # per run: shared ids asking another question
    mismatched: dict[str, list[str]] = field(default_factory=dict)  # those query_ids, per run

    @property
    def baseline(self) -> str:
        return self.runs[0]

    def per_sample(self, metric: str, run: str | None = None) -> pd.DataFrame:
        """Shared queries defined in both, ``run`` (default: the second) minus the baseline, largest
        absolute difference first."""
        run = run or self.runs[1]
        both = self.defined[self.baseline][metric] & self.defined[run][metric]
        a, b = self.values[self.baseline][metric][both], self.values[run][metric][both]
        out = pd.DataFrame({self.baseline: a, run: b, "difference": b - a})
        return out.iloc[np.argsort(-np.abs(out["difference"].to_numpy()), kind="stable")]

    def spread(self, metric: str) -> pd.DataFrame:
        """Every run's value per shared query and the spread (max - min over the runs defining it),
        widest first: where the systems differ most."""
        out = pd.DataFrame({run: self.values[run][metric].where(self.defined[run][metric])
                            for run in self.runs})
        out["spread"] = out.max(axis=1) - out.min(axis=1)
        return out.sort_values("spread", ascending=False, kind="stable")


def compare_runs(tables: dict[str, RunTable], *, n_boot: int = N_BOOT, seed: int = 0) -> Comparison:
    """Compare runs (the first is the baseline) on their shared query_ids and common metrics."""
    if len(tables) < 2:
        raise ValueError(f"comparing needs at least two runs, got {len(tables)}")
    runs = list(tables)
    shared = tables[runs[0]].frame.index
    for run in runs[1:]:
        shared = shared.intersection(tables[run].frame.index, sort=False)
    if len(shared) == 0:
        raise ValueError(f"runs {', '.join(map(repr, runs))} share no query_id")
    metrics = [m for m in tables[runs[0]].metrics if all(m in tables[r].metrics for r in runs)]
    values = {r: tables[r].frame.loc[shared, metrics] for r in runs}
    defined = {r: tables[r].status.loc[shared, metrics] == DEFINED_CODE for r in runs}
    rows = []
    for run in runs[1:]:
        for m in metrics:
            both = (defined[runs[0]][m] & defined[run][m]).to_numpy()
            a, b = values[runs[0]][m].to_numpy()[both], values[run][m].to_numpy()[both]
            lo, hi = interval(b - a, n_boot, seed)
            rows.append({"run": run, "metric": m, "paired": int(both.sum()),
                         "baseline_mean": a.mean() if len(a) else np.nan,
                         "mean": b.mean() if len(b) else np.nan,
                         "difference": (b - a).mean() if len(a) else np.nan,
                         "ci_low": np.nan if lo is None else lo, "ci_high": np.nan if hi is None else hi,
                         "includes_zero": None if lo is None else bool(lo <= 0 <= hi)})
    summary = pd.DataFrame(rows)
    left_out = {r: int(len(tables[r].frame.index.difference(shared))) for r in runs}
    mismatched = query_mismatches(tables, shared)
    if any(mismatched.values()):
        said = "; ".join(f"{r}: {len(ids)} (e.g. {ids[0]!r})" for r, ids in mismatched.items() if ids)
        warnings.warn(f"comparing runs: shared query_ids ask a different question than in {runs[0]!r} "
                      f"({said}); they are still paired by query_id", stacklevel=2)
    return Comparison(runs, shared, left_out, values, defined, summary,
                      {r: len(ids) for r, ids in mismatched.items()}, mismatched)


def query_mismatches(tables: dict[str, RunTable], shared: pd.Index) -> dict[str, list[str]]:
    """Per run after the first: the ``shared`` query_ids whose query text differs from the first
    run's (compared as text, whitespace at the ends ignored); [] where all agree."""
    runs = list(tables)
    base = tables[runs[0]].frame.loc[shared, "query"].astype(str).str.strip().to_numpy()
    out = {}
    for run in runs[1:]:
        other = tables[run].frame.loc[shared, "query"].astype(str).str.strip().to_numpy()
        out[run] = [str(q) for q in shared[base != other]]
    return out
