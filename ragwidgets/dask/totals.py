"""Per-partition totals of scores that merge exactly, for a tree reduction on a cluster.

A metric's totals are ``[defined, undefined, not_computable, sum]`` where ``sum`` is the exact
sum of its defined values (:mod:`ragwidgets.engine.sums`: an integer, so merged totals do not
depend on how samples were split into partitions or in which order partitions merge); the mean
is that exact sum over ``defined``, rounded once, as ``Scores.aggregate`` computes it in one
process. numpy and pandas: nothing of Dask here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import numpy as np
import pandas as pd

from ..engine.evaluate import STATUS_CODES
from ..engine.sums import exact_mean, exact_sum

def totals_of(columns) -> dict[str, list[int]]:
    """Totals of ``(name, values, status codes)`` columns (codes as in STATUS_CODES)."""
    out = {}
    for name, value, code in columns:
        code = np.asarray(code)
        counts = np.bincount(code, minlength=3).tolist()
        out[name] = counts + [exact_sum(np.asarray(value)[code == STATUS_CODES["defined"]])]
    return out


def merge(*parts: dict[str, list[int]]) -> dict[str, list[int]]:
    """Totals of the union of the partitions whose totals are ``parts``."""
    out: dict[str, list[int]] = {}
    for part in parts:
        for name, counts in part.items():
            mine = out.setdefault(name, [0, 0, 0, 0])
            for k, count in enumerate(counts):
                mine[k] += count
    return out


@dataclass
class RunTotals:
    """A partition's (or, merged, a run's) totals: its sample count, each metric's totals, and
    each metric's totals per group (the key: a tuple of the group columns' values)."""

    samples: int = 0
    metrics: dict[str, list[int]] = field(default_factory=dict)
    groups: dict[tuple, dict[str, list[int]]] = field(default_factory=dict)

    @classmethod
    def of_frame(cls, frame, names: list[str], by: list[str]) -> RunTotals:
        """Totals of a frame of scores (values in ``name``, status codes in ``name + "_status"``)."""
        def columns(rows):
            return ((name, rows[name].to_numpy(), rows[name + "_status"].to_numpy()) for name in names)

        groups = {}
        if by and len(frame):
            for key, rows in frame.groupby(by, sort=False, dropna=False):
                key = key if isinstance(key, tuple) else (key,)
                groups[tuple(None if pd.isna(v) else v for v in key)] = totals_of(columns(rows))
        return cls(len(frame), totals_of(columns(frame)), groups)

    def regroup(self, keep: list[int]) -> dict[tuple, dict[str, list[int]]]:
        """The per-group totals by the group columns at positions ``keep`` (merged over the others)."""
        out: dict[tuple, list] = {}
        for key, totals in self.groups.items():
            out.setdefault(tuple(key[i] for i in keep), []).append(totals)
        return {key: merge(*parts) for key, parts in out.items()}


def merge_runs(*parts: RunTotals) -> RunTotals:
    """The totals of the union of the partitions whose totals are ``parts``."""
    groups: dict[tuple, list] = {}
    for part in parts:
        for key, totals in part.groups.items():
            groups.setdefault(key, []).append(totals)
    return RunTotals(sum(p.samples for p in parts), merge(*(p.metrics for p in parts)),
                     {key: merge(*totals) for key, totals in groups.items()})


def finish(totals: dict[str, list[int]]) -> dict[str, dict]:
    """Scores.aggregate's shape: per metric the mean over defined samples (None if none) and the counts."""
    return {name: {"mean": exact_mean(total, defined),
                   "defined": defined, "undefined": undefined, "not_computable": not_computable}
            for name, (defined, undefined, not_computable, total) in totals.items()}
