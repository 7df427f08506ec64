"""Two or more runs over the same queries, compared sample by sample.

Runs are aligned on the query_ids they all share; queries missing from any run are left out and
counted. For each run against the baseline (the first run) and each metric: both means over
the samples defined in both runs, their difference and its paired 95% interval
(:func:`~.intervals.difference_interval`: it holds for rare outcomes, where a percentile
bootstrap collapses), the p-value of "no difference" (the interval inverted) and that p-value
adjusted over the run's metrics (Holm by default, Benjamini–Hochberg, or none), so that eleven
metrics compared at 95% each do not flag a false difference in one identical run of three;
``differs`` is the adjusted verdict and :meth:`Comparison.said` says it aloud. A pair is checked by
its query text too: shared query_ids whose question differs from the baseline's are counted per
run (``query_mismatch``, with the ids in ``mismatched``) and warned about once per comparison,
but still paired (the ids say they are the same query; the count says how far to trust that).

A difference between runs judged differently is partly the judge's: each run's
:class:`JudgeInfo` (the judge's name and how many repeats each label was asked, as far as the
run says: :func:`judge_info`) is compared with the baseline's, and where a field known on both
sides differs the run's rows carry a ``judge_note`` saying so (a field the run does not say is
spelt "unknown" there; an unknown identity alone is never called a difference).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..judges.repeats import REPEATS_FIELD
from ..sources import is_scoring_result
from .bootstrap import CONFIDENCE
from .intervals import ADJUSTMENT_NAMES, DifferenceMoments, adjust, p_values
from .table import DEFINED_CODE, RunTable


@dataclass(frozen=True)
class JudgeInfo:
    """Who labelled a run, as far as the run says: ``judge`` (a model or registry key) and
    ``repeats`` (how many times each label was asked); None where the run does not say."""

    judge: str | None = None
    repeats: int | None = None

    def said(self) -> str:
        judge = "judge unknown" if self.judge is None else f"judge {self.judge!r}"
        repeats = "repeats unknown" if self.repeats is None else \
            f"{self.repeats} repeat{'' if self.repeats == 1 else 's'} per label"
        return f"{judge}, {repeats}"


def _repeats_in(records) -> int | None:
    """The number of repeats records' ``label_repeats`` hold; None when none holds any or they differ."""
    counts = {len(copies) for r in records if isinstance(r, Mapping)
              for copies in (r.get(REPEATS_FIELD) or {}).values()}
    return counts.pop() if len(counts) == 1 else None


def judge_info(source) -> JudgeInfo:
    """A run's :class:`JudgeInfo` from what its source carries: a JudgeInfo or a mapping with
    ``judge`` / ``repeats`` as it is; a ScoringResult whose judge worked (calls or cache hits):
    its scorer's ``judge_model_key`` (None when the judge object was passed in, or the key is a
    per-row template) and the repeats its records' ``label_repeats`` hold (1 without them); in-memory records or
    ``{"results": [...]}``: the repeats their ``label_repeats`` hold. Anything else (a path,
    Scores, a DataFrame, labels given in the input): unknown."""
    if isinstance(source, JudgeInfo):
        return source
    if isinstance(source, Mapping) and set(source) <= {"judge", "repeats"} and source:
        return JudgeInfo(source.get("judge"), source.get("repeats"))
    if is_scoring_result(source):
        usage = source.usage
        if not (usage.calls or usage.cache_hits):
            return JudgeInfo(None, _repeats_in(source.records))
        repeats, key = _repeats_in(source.records), source.config.judge_model_key
        return JudgeInfo(key if isinstance(key, str) else None, 1 if repeats is None else repeats)
    if isinstance(source, Mapping) and isinstance(source.get("results"), list):
        source = source["results"]
    if isinstance(source, list):
        return JudgeInfo(None, _repeats_in(source))
    return JudgeInfo()


def judge_note(run: JudgeInfo, baseline: JudgeInfo, baseline_name: str) -> str:
    """Why a difference against the baseline may be partly the judge's: '' unless the judge or
    the repeats are known for both and differ."""
    differs = any(getattr(run, f) is not None and getattr(baseline, f) is not None
                  and getattr(run, f) != getattr(baseline, f) for f in ("judge", "repeats"))
    return f"judged differently: {run.said()}; {baseline_name}: {baseline.said()}" if differs else ""


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
    judges: dict[str, JudgeInfo] = field(default_factory=dict)  # per run: who labelled it, as far as known
    judge_notes: dict[str, str] = field(default_factory=dict)  # per run after the first: judge_note ('' none)
    adjust: str | None = "holm"  # how ``differs`` is adjusted over a run's metrics

    def said(self, run: str | None = None) -> str:
        """How many of ``run``'s (default: the second) metrics differ from the baseline after
        the adjustment, e.g. "2 of 11 metrics differ after Holm"; metrics without an interval
        are left out and counted."""
        run = run or self.runs[1]
        rows = self.summary[self.summary["run"] == run]
        known = rows["differs"].dropna()
        said = f"{int(known.sum())} of {len(known)} metrics differ " + (
            f"after {ADJUSTMENT_NAMES[self.adjust]}" if self.adjust else "at 95% each (no adjustment)")
        return said + (f"; {len(rows) - len(known)} without an interval" if len(known) < len(rows) else "")

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


def _difference(a: np.ndarray, b: np.ndarray) -> dict:
    """The paired difference b − a, its 95% interval and the p-value of 0 (NaN: no pair)."""
    ones = np.ones(len(a), dtype=bool)
    moments = DifferenceMoments(a, ones, b, ones)
    diff, lo, hi = (float(v) for v in moments.at(CONFIDENCE))
    p = float(p_values(lambda level: moments.at(level)[1:]))
    return {"difference": diff, "ci_low": lo, "ci_high": hi, "p_value": p}


def compare_runs(tables: dict[str, RunTable], *, adjust_by: str | None = "holm",
                 judges: Mapping[str, object] | None = None) -> Comparison:
    """Compare runs (the first is the baseline) on their shared query_ids and common metrics.
    ``adjust_by``: "holm" (family-wise, the default), "bh" (Benjamini–Hochberg) or None, over
    each run's metrics: the summary's ``p_adjusted`` and ``differs`` (adjusted p < 0.05).
    ``judges``: per run, who labelled it (:func:`judge_info` of a JudgeInfo, ``{"judge",
    "repeats"}`` or the run's source; a run left out: unknown); each summary row's
    ``judge_note`` says where the run was judged differently from the baseline."""
    if len(tables) < 2:
        raise ValueError(f"comparing needs at least two runs, got {len(tables)}")
    runs = list(tables)
    unknown = [str(r) for r in (judges or {}) if r not in tables]
    if unknown:
        raise ValueError(f"judges for run(s) {', '.join(map(repr, unknown))}, which are not compared; "
                         f"the runs: {', '.join(map(repr, runs))}")
    info = {r: judge_info((judges or {}).get(r)) for r in runs}
    notes = {r: judge_note(info[r], info[runs[0]], runs[0]) for r in runs[1:]}
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
            d = _difference(a, b) if len(a) else dict.fromkeys(("difference", "ci_low", "ci_high", "p_value"),
                                                               np.nan)
            rows.append({"run": run, "metric": m, "paired": int(both.sum()),
                         "baseline_mean": a.mean() if len(a) else np.nan,
                         "mean": b.mean() if len(b) else np.nan, **d,
                         "includes_zero": None if np.isnan(d["ci_low"]) else bool(d["ci_low"] <= 0 <= d["ci_high"]),
                         "judge_note": notes[run]})
    summary = pd.DataFrame(rows)
    summary["p_adjusted"] = np.nan
    for run in runs[1:]:
        mine = (summary["run"] == run).to_numpy()
        summary.loc[mine, "p_adjusted"] = adjust(summary.loc[mine, "p_value"].to_numpy(), adjust_by)
    summary["differs"] = [None if np.isnan(p) else bool(p < 0.05) for p in summary["p_adjusted"]]
    left_out = {r: int(len(tables[r].frame.index.difference(shared))) for r in runs}
    mismatched = query_mismatches(tables, shared)
    if any(mismatched.values()):
        said = "; ".join(f"{r}: {len(ids)} (e.g. {ids[0]!r})" for r, ids in mismatched.items() if ids)
        warnings.warn(f"comparing runs: shared query_ids ask a different question than in {runs[0]!r} "
                      f"({said}); they are still paired by query_id", stacklevel=2)
    return Comparison(runs, shared, left_out, values, defined, summary,
                      {r: len(ids) for r, ids in mismatched.items()}, mismatched, info, notes, adjust_by)


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
