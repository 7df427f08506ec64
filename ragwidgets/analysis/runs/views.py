"""The view's data of a run held in memory (:class:`ViewParts`, a part of
:class:`~.memory.InMemoryRun`): the summary, the charts' pre-aggregated data, slices, the
comparison and the judge's repeats, each kept until the rows or the choices it covers change."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...sources import plain
from ..aggregates import (distribution, distribution_of_slots, group_means, group_means_of_slots, scatter_cells,
                          scatter_of_slots)
from ..judge_variance import JudgeVariance, judge_variance
from .protocol import Charts, Query

SUMMARY_BOOT = 200  # resamples behind the live judge-variance intervals (x 5); the Monte Carlo
# error of a percentile from 200 resamples is about a tenth of the half-width, below the 3 decimals shown


class ViewParts:
    """The parts of the view of an :class:`~.memory.InMemoryRun`, over the rows of its last update
    (``_mask``; ``_unbrushed``: before the brush), cached in ``_cache``."""

    def view(self, query: Query, charts: Charts, selected: int) -> dict:
        """The view's data for the last update's rows: the summary and the charts are recomputed
        only when the rows they cover or their choices changed (not on a sort)."""
        summary = self._cached("summary", (self._mask,), self._summary)
        shown = self._cached("charts", (self._mask, self._unbrushed, charts), lambda: self._charts(charts))
        index = np.flatnonzero(self._order == selected)
        return {
            "run": query.run, "total": self.total, "count": len(self._order), "summary": summary, "charts": shown,
            "slices": [{"name": s.name, "expression": s.expression, "description": s.description,
                        "size": len(self._slice_rows[s.name])} for s in self.slices],
            "compare": self._compare_view(),
            "repeats": self._cached("repeats", (), self._repeats_view),
            "selected": {"row": selected, "index": int(index[0]) if len(index) else -1,
                         "run": self.runs[self._run_code[selected]] if selected >= 0 else "",
                         "query_id": self._frame["query_id"].iat[selected] if selected >= 0 else ""},
        }

    def _cached(self, part: str, inputs: tuple, compute):
        """``compute()``, or its last value when ``inputs`` (compared by identity / value) are unchanged."""
        last = self._cache.get(part)
        if last is None or len(last[0]) != len(inputs) or not all(
                a is b or (not isinstance(a, np.ndarray) and a == b) for a, b in zip(last[0], inputs)):
            self._cache[part] = (inputs, compute())
        return self._cache[part][1]

    def _summary(self) -> list[dict]:
        rows = np.flatnonzero(self._mask)
        out = []
        for k, run in enumerate(self.runs):
            run_rows = rows[self._run_code[rows] == k]
            if len(run_rows) or len(self.runs) == 1:
                s = self._summarizer.summarize(run_rows)
                out += [{"run": run, "metric": m, **{k: plain(v) for k, v in rec.items()}}
                        for m, rec in s.to_dict("index").items()]
        return out

    def _charts(self, c: Charts) -> dict:
        """The charts' data over the kept rows (the distribution: before the brush). A metric's
        come from its slots (one ``bincount`` each, :class:`Summarizer`); another tool's column's
        from its values."""
        rows = np.flatnonzero(self._mask)
        chart_rows = np.flatnonzero(self._unbrushed)
        out = {}
        m = c.metric
        slotted = set(self._summarizer.metrics)
        if m in slotted:
            slot, distinct, _ = self._summarizer.slots(m, chart_rows)
            out["distribution"] = {"metric": m, **distribution_of_slots(slot, distinct)}
        elif m in self._values:
            out["distribution"] = {"metric": m, **distribution(self._values[m][chart_rows], self._codes[m][chart_rows])}
        x, y = c.x, c.y
        if x in slotted and y in slotted:
            out["scatter"] = {"x": x, "y": y, **scatter_of_slots(self._summarizer.slots(x, rows)[:2],
                                                                 self._summarizer.slots(y, rows)[:2])}
        elif x in self._values and y in self._values:
            out["scatter"] = {"x": x, "y": y, **scatter_cells(self._values[x][rows], self._codes[x][rows],
                                                                self._values[y][rows], self._codes[y][rows])}
        if c.group_by in self._frame and m in self._values:
            codes, names = self._group_codes(c.group_by)
            if m in slotted:
                slot, _, units = self._summarizer.slots(m, rows)
                means = group_means_of_slots(codes[rows], names, slot, units)
            else:
                means = group_means(self._frame[c.group_by].iloc[rows], self._values[m][rows], self._codes[m][rows])
            out["groups"] = {"by": c.group_by, "metric": m, "rows": means}
        return out

    def _group_codes(self, column: str) -> tuple[np.ndarray, pd.Index]:
        """Each row's group in ``column`` (codes into its sorted distinct values; a missing value is
        a group of its own), found once per column."""
        if column not in self._groups:
            codes, names = pd.factorize(self._frame[column], sort=True, use_na_sentinel=False)
            self._groups[column] = (codes.astype(np.int32), names)
        return self._groups[column]

    def _compare_view(self) -> dict | None:
        c = self.comparison
        if c is None:
            return None
        return {"baseline": c.baseline, "shared": len(c.shared), "left_out": c.left_out,
                "query_mismatch": c.query_mismatch, "judge_notes": c.judge_notes,
                "said": {run: c.said(run) for run in c.runs[1:]},
                "rows": [{k: plain(v) for k, v in r.items()} for r in c.summary.to_dict("records")]}

    def judge_variance(self, run: str) -> JudgeVariance:
        """For a run judged several times: per metric the mean per repeat, their spread, today's
        interval and one judge run's expected mean with its interval over questions and the judge's
        randomness (all the run's samples)."""
        if run not in self.repeats:
            raise ValueError(f"run {run!r} was judged once: no repeats to compare (score with repeats=k)")
        if run not in self._variance:
            self._variance[run] = judge_variance(self.repeats[run], n_boot=SUMMARY_BOOT * 5)
        return self._variance[run]

    def _repeats_view(self) -> dict:
        """Per run judged several times: the labels that flip per kind and each metric's intervals."""
        out = {}
        for run, repeats in self.repeats.items():
            flips = self.flakiness[run]
            out[run] = {"n_repeats": repeats.n_repeats, "policy": str(repeats.policy_name),
                        "flaky": int(flips.flaky.sum()), "samples": len(flips.flaky),
                        "labels": [{"kind": k, **{c: plain(v) for c, v in row.items()}}
                                   for k, row in flips.labels.to_dict("index").items()],
                        "metrics": [{"metric": m, **{c: plain(v) for c, v in row.items()}}
                                    for m, row in self.judge_variance(run).frame.to_dict("index").items()]}
        return out
