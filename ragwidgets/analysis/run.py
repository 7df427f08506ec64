"""A run as the DatasetExplorer sees it, with no widget in it: the per-sample frame and its
statuses, the rows the controls keep in their order, and the view's data (summary, charts'
pre-aggregated data, slices, comparison, windows of rows, one sample's drill-down).

:class:`RunModel` is what the explorer asks of a run; :class:`InMemoryRun` holds one run or
several in this process; a Dask-scored run's model (``ragwidgets.dask.run.ClusterRun``) asks the
cluster instead. A model's ``capabilities`` say which of :data:`CAPABILITIES` it has; the
explorer names the others as not available.

Reviews (:mod:`ragwidgets.reviews`): ``InMemoryRun(source, reviews=...)`` applies them at load
and :meth:`InMemoryRun.review` applies more live, re-scoring only the reviewed samples; the
judge's own values stay in ``judge_frame`` / ``judge_status``.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Protocol

import numpy as np
import pandas as pd

from .._pages import small_pages
from ..engine import evaluate
from ..engine.evaluate import Scores
from ..engine.sums import mean_over_defined
from ..backends import backend
from ..errors import InputWarning, RagWidgetsError
from ..loaders import KNOWN_FIELDS
from ..sources import is_table, plain, read_run
from ..model import Sample
from ..judges.repeats import REPEATS_FIELD
from ..reviews import ReviewLog, ReviewProblem, Reviews, apply_to_sample, as_reviews, gone, warn_problems
from .aggregates import (distribution, distribution_of_slots, group_means, group_means_of_slots, scatter_cells,
                         scatter_of_slots)
from .compare import Comparison, compare_runs, judge_info
from .external import DISAGREE, counterparts
from .judge_variance import JudgeVariance, Repeats, flakiness, judge_variance, repeat_scores
from .filtering import TextIndex, expression_mask
from .slices import Slice, builtin_slices, check_builtin_name, load_slices, members
from .summary import Summarizer
from .table import COUNT_COLUMNS, DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE, RunTable, defined_metrics, run_table
from .whatif import top_k_curve

CAPABILITIES = {  # what a run model may do -> how the explorer names it when it cannot
    "text_search": "full-text search", "slices": "failure slices", "compare": "comparing runs",
    "whatif": "what-ifs", "bootstrap": "bootstrap intervals", "report": "the HTML report",
    "sort_any": "sorting by anything but a metric", "reviews": "reviewing labels", "claims": "the per-claim table"}
QUERY_CHARS = 160  # query text sent per row
SUMMARY_BOOT = 200  # resamples behind the live judge-variance intervals (x 5); the Monte Carlo
# error of a percentile from 200 resamples is about a tenth of the half-width, below the 3 decimals shown
MAX_GROUPS = 50  # a column with more distinct values is not offered for "mean by group"
FLAKY = "flaky_labels"  # the run table's column for a run judged several times (1: flaky, 0: steady)
RESERVED = (*COUNT_COLUMNS, "run", "query_id", "query", "response", "difference", FLAKY)  # the run table's own columns
FLAKY_SLICE = Slice("flaky labels", f"{FLAKY} == 1", "a metric of the sample changes across the judge's repeats")


@dataclass(frozen=True)
class Controls:
    """The explorer's control values, as plain values ("" = none)."""

    run: str = ""
    text: str = ""
    expression: str = ""
    slice: str = ""
    brush: dict = field(default_factory=dict)  # {"metric", "lo", "hi"} or {"metric", "undefined": True}
    sort_by: str = ""
    descending: bool = False
    chart_metric: str = ""
    scatter_x: str = ""
    scatter_y: str = ""
    group_by: str = ""
    compare_metric: str = ""
    percent: bool = False  # RAGChecker's mean x 100


@dataclass(frozen=True)
class Drill:
    """One sample's drill-down: the sample, its run and query_id, the same query in the baseline
    run (comparing runs, on another run's row) and the run's Undefined policy."""

    sample: Sample
    run: str
    query_id: str
    baseline: Sample | None = None
    undefined: str = "null"


class RunModel(Protocol):
    """What the DatasetExplorer asks of a run.

    ``frame`` holds the rows the explorer may show (``query_id`` and the metrics among them),
    ``status`` each metric's status there (0 defined, 1 Undefined, 2 not computable), ``order``
    the positions in ``frame`` that the last :meth:`update` keeps, in its order; ``version``
    grows with each new order. A model with ``"slices"`` also has ``add_slices(slices)``, with
    ``"compare"`` ``difference(metric)``, with ``"whatif"`` ``top_k(run)``.
    """

    capabilities: frozenset[str]  # keys of CAPABILITIES
    where: str  # how a message names this kind of run
    runs: list[str]
    metrics: list[str]
    group_columns: list[str]
    external: list[str]  # other tools' numeric columns (shown, filtered, charted, compared; never scored)
    slices: list[Slice]
    comparison: Comparison | None
    scores: dict[str, Scores]  # the runs' Scores held in the kernel (none on a cluster)
    tables: dict[str, RunTable]  # and their per-sample tables
    total: int  # samples in the run(s)
    version: int
    errors: list[str]  # what the last update could not do

    @property
    def frame(self) -> pd.DataFrame: ...
    @property
    def status(self) -> pd.DataFrame: ...
    @property
    def order(self) -> np.ndarray: ...
    @property
    def defaults(self) -> dict: ...
    def check_expression(self, expression: str) -> None: ...
    def update(self, controls: Controls) -> bool: ...
    def view(self, controls: Controls, selected: int) -> dict: ...
    def columns(self) -> list[tuple[str, str]]: ...
    def window(self, start: int, count: int) -> dict: ...
    def sample(self, row: int) -> Sample: ...
    def sample_key(self, row: int) -> object: ...
    def row_of(self, key) -> int: ...
    def drill(self, row: int) -> Drill: ...


def default_controls(metrics: list[str], group_columns: list[str]) -> dict:
    """The chart and comparison choices a run opens with."""
    first = metrics[0] if metrics else ""
    return {"chart_metric": first, "scatter_x": first, "scatter_y": metrics[1] if len(metrics) > 1 else first,
            "group_by": group_columns[0], "compare_metric": first}


def is_runs(source) -> bool:
    """Whether ``source`` is ``{run_name: source}`` (not one run's records or results)."""
    return isinstance(source, dict) and "results" not in source and "query_id" not in source and bool(source)


def _scores_and_extras(source, reviews: Reviews | None = None) -> tuple[Scores, pd.DataFrame | None, dict]:
    """A run's Scores (with ``reviews`` applied), for a table source (a DataFrame, Parquet, CSV,
    ragas, Phoenix: :mod:`ragwidgets.sources`) its other short columns (groupable) and numeric
    external ones, by query_id, and the external ones' names (``<tool>_<name>`` where a metric or a
    column of the run table has the name) -> the ragwidgets metric each measures the same as
    (:data:`ragwidgets.analysis.external.COUNTERPARTS`; None for most)."""
    records = None
    if isinstance(source, Scores):
        scores = source if reviews is None else source.reviewed(reviews)
    elif hasattr(source, "records") and hasattr(source, "score_columns"):  # a ScoringResult
        scores = evaluate(source.records, reviews=reviews)
        named = {c: name for c, name in source.frame.attrs.get("external", {}).items() if c in source.frame.columns}
        if named:  # another tool's numbers the scorer kept beside its rows, under the tool's own names
            scores.external = source.frame[list(named)].rename(columns=named).set_axis(
                pd.Index(scores.batch.query_ids, name="query_id"))
            scores.external_tool = source.frame.attrs.get("external_tool", "external")
    elif not is_table(source):
        scores = evaluate(source, reviews=reviews)
    else:
        run = read_run(source)
        scores = evaluate(run.records, reviews=reviews)
        scores.external, scores.external_tool = run.external, run.tool
        records = pd.DataFrame(run.records)
    if records is None and (scores.external is None or not len(scores.external.columns)):
        return scores, None, {}  # nothing beside the metrics: no frame of a million empty rows
    ids = list(scores.batch.query_ids)
    extras = pd.DataFrame(index=pd.Index(ids))
    if records is not None:
        extra = [c for c in records.columns if c not in KNOWN_FIELDS
                 and records[c].map(lambda v: isinstance(v, (str, int, bool, np.integer))).all()
                 and records[c].nunique() <= MAX_GROUPS]
        if extra:
            extras = records[extra].set_axis(records["query_id"])
    tool = scores.external_tool or "external"
    theirs = list(scores.external.columns) if scores.external is not None else []
    names = _unclashed([*extras.columns, *theirs], {*scores.names, *RESERVED}, tool)
    extras = extras.rename(columns=names)
    external: dict[str, str | None] = {}
    if theirs:
        pairs = counterparts(tool, theirs)
        extras = extras.join(scores.external.rename(columns=names), how="outer")
        external = {names[c]: pairs.get(c) for c in theirs}
    extras = extras.reindex(ids).rename_axis("query_id")
    return scores, (extras if len(extras.columns) else None), external


def _unclashed(columns: list[str], reserved: set[str], tool: str) -> dict[str, str]:
    """Each of a table's ``columns`` -> the name the run table shows it under: its own, or for one
    ``reserved`` (a metric's, a column of the run table's own) ``<tool>_<name>`` (``_2``, ``_3``, ...
    until free); the renames said in one InputWarning."""
    taken = reserved | set(columns)
    names = {}
    for column in columns:
        name = column
        if column in reserved:
            name = next(n for k in count(1) if (n := f"{tool}_{column}" + (f"_{k}" if k > 1 else "")) not in taken)
            taken.add(name)
        names[column] = name
    renamed = [f"{c} -> {n}" for c, n in names.items() if c != n]
    if renamed:
        warnings.warn(f"columns named as ragwidgets' own metrics or run-table columns are renamed: "
                      f"{', '.join(renamed)}", InputWarning, stacklevel=4)
    return names


def _judge_repeats(source) -> Repeats | None:
    """The Scores of each repeat of a run whose records keep every repeat's labels (records, or a
    ScoringResult, filled with ``repeats=k``), else None."""
    records = source.records if hasattr(source, "records") and hasattr(source, "score_columns") else source
    if not isinstance(records, (list, tuple)) or not any(isinstance(r, Mapping) and r.get(REPEATS_FIELD)
                                                         for r in records):
        return None
    return repeat_scores(records)


def _with_external(table: RunTable, extras: pd.DataFrame | None, external: list[str]) -> RunTable:
    """``table`` with the ``external`` columns of ``extras`` beside its metrics (NaN: not computable)."""
    if not external:
        return table
    values = extras[external].reindex(table.frame.index)
    status = pd.DataFrame({c: np.where(values[c].isna(), NOT_COMPUTABLE_CODE, DEFINED_CODE).astype(np.int8)
                           for c in external}, index=table.status.index)
    return RunTable(scores=table.scores, frame=table.frame.join(values), status=table.status.join(status))


def _reviews_per_run(reviews, runs: list[str]) -> dict:
    """``reviews`` (one run's, or ``{run: reviews}``) as run -> reviews (a path stays a path)."""
    if reviews is None:
        return {}
    if isinstance(reviews, Mapping):
        unknown = [str(r) for r in reviews if str(r) not in runs]
        if unknown:
            raise ValueError(f"reviews for run(s) {', '.join(map(repr, unknown))}, which this source lacks; "
                             f"its runs: {', '.join(map(repr, runs))}")
        out = {str(r): v for r, v in reviews.items() if v is not None}
        files: dict[str, str] = {}
        for run, value in out.items():
            if isinstance(value, (str, os.PathLike)):
                key = os.path.realpath(value)
                if key in files:  # one file would hold both runs' reviews, each then applied to the other
                    raise ValueError(f"runs {files[key]!r} and {run!r} are given the same reviews file {os.fspath(value)!r}: "
                                     "a review names a claim of one run's response; give each run its own file")
                files[key] = run
        return out
    if len(runs) > 1:
        raise ValueError("several runs: give reviews per run, {run_name: reviews} (a review names a claim of "
                         "one run's response)")
    return {runs[0]: reviews}


class HeldTable:
    """What a run model holds for the widget: ``frame`` (a row per sample it can show),
    ``status`` (their status codes per metric) and ``order`` (the rows shown, in order)."""

    _frame: pd.DataFrame
    _status: pd.DataFrame
    _order: np.ndarray

    @property
    def frame(self) -> pd.DataFrame:
        return self._frame

    @property
    def status(self) -> pd.DataFrame:
        return self._status

    @property
    def order(self) -> np.ndarray:
        return self._order


def _order_by(values: np.ndarray, descending: bool) -> np.ndarray:
    """Positions of ``values`` in ascending (or descending) order, ties in position order, NaN last."""
    order = np.argsort(-values if descending else values, kind="stable")
    missing = np.isnan(values[order])
    return np.concatenate([order[~missing], order[missing]])


class InMemoryRun(HeldTable):
    """One run or several runs of the same queries, held in this process: a path, records, Scores,
    ScoringResult, DataFrame, or ``{run_name: source}`` (the first run is the baseline).

    ``frame`` is every run's per-sample table (``run``, ``query_id``, query, item counts, metrics,
    the DataFrame's short columns; NaN = Undefined or not computable), ``status`` says which.
    """

    capabilities = frozenset(CAPABILITIES)
    where = "a run in this process"

    def __init__(self, source, *, slices: list[Slice] | str | Path | None = None, reviews=None):
        with small_pages():  # the tables, slots and charts of a large run: hundreds of MB of fresh arrays
            self._open(source, slices, reviews)

    def _open(self, source, slices, reviews) -> None:
        sources = source if is_runs(source) else {"run": source}
        given = _reviews_per_run(reviews, [str(name) for name in sources])
        self._logs = {name: ReviewLog(r) for name, r in given.items() if isinstance(r, (str, os.PathLike))}
        loaded = {}
        for name, src in sources.items():
            name = str(name)
            try:
                run_reviews = self._logs[name].reviews if name in self._logs else \
                    as_reviews(given[name]) if name in given else None
                loaded[name] = _scores_and_extras(src, run_reviews)
            except ValueError as err:  # InputError included: it already names the sample and field
                if len(sources) == 1:
                    raise
                raise type(err)(f"run {name!r}: {err}") from None
        self._scores: dict[str, Scores] = {name: scores for name, (scores, _, _) in loaded.items()}
        self.judges = {str(name): judge_info(src) for name, src in sources.items()}  # who labelled each run
        self.repeats: dict[str, Repeats] = {  # runs judged several times: each repeat's Scores
            str(name): r for name, src in sources.items() if (r := _judge_repeats(src)) is not None}
        self.flakiness = {name: flakiness(r) for name, r in self.repeats.items()}
        self._variance: dict[str, JudgeVariance] = {}
        self._judge = {name: scores.judge_scores or scores for name, scores in self._scores.items()}
        self._reviews = {name: scores.reviews or Reviews() for name, scores in self._scores.items()}
        self._problems = {name: list(scores.review_problems) for name, scores in self._scores.items()}
        self._stale: set[str] = set()  # runs whose Scores are rebuilt when next asked for (after a review)
        self.metrics = list(dict.fromkeys(m for scores in self.scores.values() for m in defined_metrics(scores)))
        if not self.metrics and any(scores.batch.n_samples for scores in self._scores.values()):
            warnings.warn("no metric is computable on this run: its samples carry no claims or labels (raw rows: "
                          "score them with a judge first, rw.RagChecker(target_column=None).score(rows, judge), "
                          "then explore the result)", InputWarning, stacklevel=3)
        self.tables: dict[str, RunTable] = {}
        frames, statuses = [], []
        judge_frames = []
        judge_tables: dict[str, RunTable] = {}  # the judge's own labels' tables: the run's where nothing is reviewed
        self.external = list(dict.fromkeys(c for _, _, names in loaded.values() for c in names))
        self.counterparts = {c: m for _, _, names in loaded.values() for c, m in names.items()
                             if m in self.metrics}  # an external column -> the metric it measures the same as
        compared: dict[str, RunTable] = {}  # the run tables with their external columns, compared like metrics
        for name, (scores, extras, names) in loaded.items():
            table = self.tables[name] = run_table(scores, self.metrics, share=True)
            compared[name] = _with_external(table, extras, list(names))
            judge_tables[name] = (table if self._judge[name] is scores
                                  else run_table(self._judge[name], self.metrics, share=True))
            judge_frames.append(judge_tables[name].frame[self.metrics])
            f = table.frame.reset_index()
            if extras is not None:
                f = f.join(extras.drop(columns=[c for c in extras if c in f]), on="query_id")
            if name in self.flakiness:  # 1: some metric of the sample changes across the judge's repeats
                f[FLAKY] = f["query_id"].map(self.flakiness[name].flaky).astype(float)
            f.insert(0, "run", name)
            frames.append(f)
            statuses.append(table.status.reset_index(drop=True))
        self.runs = list(self.scores)
        self._frame = pd.concat(frames, ignore_index=True)
        self._status = pd.concat(statuses, ignore_index=True)
        self.total = len(self._frame)
        self._run_code = pd.Categorical(self._frame["run"], categories=self.runs).codes
        self._row_in_run = np.concatenate([np.arange(t.n) for t in self.tables.values()])
        self._run_start = dict(zip(self.runs, np.r_[0, np.cumsum([t.n for t in self.tables.values()])].tolist()))
        self._judge_frame = pd.concat(judge_frames, ignore_index=True)
        self._judge_frame.insert(0, "query_id", self._frame["query_id"].array)  # shared, not made Python strings
        self._judge_frame.insert(0, "run", self._frame["run"].array)
        self._judge_status = pd.concat([judge_tables[name].status.reset_index(drop=True) for name in self.runs],
                                       ignore_index=True)
        self._values = {m: self._frame[m].to_numpy(dtype=float) for m in self.metrics}
        self._codes = {m: self._status[m].to_numpy() for m in self.metrics}
        for c in self.external:  # other tools' numbers: charted and filtered like a metric, NaN = missing
            self._values[c] = self._frame[c].to_numpy(dtype=float)
            self._codes[c] = np.where(np.isnan(self._values[c]), NOT_COMPUTABLE_CODE, DEFINED_CODE).astype(np.int8)
        self._text_index = TextIndex.later(self._frame.set_index("query_id"))  # built beside the rest; a search waits
        self._numeric = self._frame.drop(columns=["query", "response", "run", "query_id"])
        self.group_columns = ["run"] * (len(self.runs) > 1) + [
            c for c in self._frame.columns if c not in ("run", "query_id", "query", "response", *self.metrics)
            and self._frame[c].nunique() <= MAX_GROUPS and c not in COUNT_COLUMNS and c not in self.external] + ["n_passages"]
        self.comparison = compare_runs(compared, judges=self.judges) if len(self.runs) > 1 else None
        self.slices: list[Slice] = []
        self._slice_rows: dict[str, np.ndarray] = {}
        self._text_cache: tuple[str, np.ndarray] | None = None
        self._expression_cache: tuple[str, np.ndarray | None] = ("", None)
        self._order = np.arange(len(self._frame))
        self._mask = self._unbrushed = None
        self.version = 0
        self.errors: list[str] = []
        self.controls = Controls()  # as the last update set them
        self._summarizer = Summarizer(self._whole_table())
        self._groups: dict[str, tuple[np.ndarray, pd.Index]] = {}  # group column -> codes, names (_group_codes)
        self._cache: dict[str, tuple] = {}  # part of the view -> (inputs, value)
        self._ranks: dict[str, np.ndarray] = {}  # other column -> each row's value or rank, for sorting
        self._orders: dict[tuple[str, bool], tuple[np.ndarray, np.ndarray]] = {}  # (key, descending) -> (values, order)
        self.add_slices(builtin_slices(self._whole_table()) + [FLAKY_SLICE] * bool(self.repeats) + [
            Slice(f"{c} disagrees with {m}", f"abs({c} - {m}) >= {DISAGREE}",
                  f"another tool's {c} and ragwidgets' {m} differ by {DISAGREE} or more on the same answer", (m,))
            for c, m in self.counterparts.items()])
        if slices is not None:
            self.add_slices(load_slices(slices) if isinstance(slices, (str, Path)) else slices)

    def _whole_table(self) -> RunTable:
        """The runs' frames as one table (for the slices and the summary)."""
        return RunTable(scores=None, frame=self._frame, status=self._status)

    @property
    def defaults(self) -> dict:
        out = default_controls(self.metrics or self.external, self.group_columns)  # another tool's numbers alone
        pair = next(iter(self.counterparts.items()), None)  # another tool's score against ours opens the scatter
        return out if pair is None else {**out, "scatter_x": pair[0], "scatter_y": pair[1]}

    def add_slices(self, slices) -> None:
        """Add (or replace, by name) slices; each must evaluate on this data, and a built-in slice's
        name keeps its own expression."""
        table = self._whole_table()
        for s in slices:
            check_builtin_name(s)
            rows = members(table, s)
            self.slices = [x for x in self.slices if x.name != s.name] + [s]
            self._slice_rows[s.name] = rows

    def check_expression(self, expression: str) -> None:
        """ValueError when ``expression`` does not evaluate on this run; its mask is kept for the filter."""
        if expression.strip() and self._expression_cache[0] != expression:
            self._expression_cache = (expression, expression_mask(self._numeric, expression))

    # -- filter and sort ----------------------------------------------------------------------
    def update(self, controls: Controls) -> bool:
        """Filter and sort by ``controls``; False: the rows of ``frame`` stay where they were."""
        self.controls = controls
        mask = self._filter(controls)
        self._order = self._sort(np.flatnonzero(mask), controls)
        self.version += 1
        if self._mask is None or not np.array_equal(mask, self._mask):
            self._mask = mask
            self._unbrushed = self._filter(controls, with_brush=False) if controls.brush else mask
        return False

    def _text_mask(self, text: str) -> np.ndarray:
        if self._text_cache is None or self._text_cache[0] != text:
            self._text_cache = (text, self._text_index.result().mask(text))
        return self._text_cache[1]

    def _filter(self, c: Controls, with_brush: bool = True) -> np.ndarray:
        """Mask of the rows every control keeps (the brush only when ``with_brush``)."""
        mask = np.ones(len(self._frame), dtype=bool)
        if c.run:
            mask &= self._run_code == self.runs.index(c.run)
        if c.text:
            mask &= self._text_mask(c.text)
        if c.expression.strip():
            self.check_expression(c.expression)
            mask &= self._expression_cache[1]
        if c.slice:
            inside = np.zeros(len(mask), dtype=bool)
            inside[self._slice_rows[c.slice]] = True
            mask &= inside
        b = c.brush
        if with_brush and b.get("metric") in self._values:
            codes = self._codes[b["metric"]]
            if b.get("undefined"):
                mask &= codes == UNDEFINED_CODE
            else:
                v = self._values[b["metric"]]
                with np.errstate(invalid="ignore"):
                    mask &= (codes == DEFINED_CODE) & (v >= float(b.get("lo", 0))) & (v <= float(b.get("hi", 1)))
        return mask

    def _sort(self, rows: np.ndarray, c: Controls) -> np.ndarray:
        """``rows`` (positions, ascending) in the order of ``c.sort_by``, Undefined last either way,
        ties in row order: every row's order is found once per key and direction (again when a
        review changed the key's values), then the kept rows are read off it."""
        key = c.sort_by
        if not key:
            return rows
        if key == "difference":
            order = _order_by(self.difference(c.compare_metric), c.descending)
        else:
            values = self._column_values(key)
            last = self._orders.get((key, c.descending))
            if last is None or last[0] is not values:
                last = self._orders[(key, c.descending)] = (values, _order_by(values, c.descending))
            order = last[1]
        kept = np.zeros(len(self._frame), dtype=bool)
        kept[rows] = True
        return order[kept[order]]

    def _column_values(self, key: str) -> np.ndarray:
        """Every row's value of ``key`` as floats: a metric's (the array a review replaces), a
        numeric column's, else (to sort by) a text's rank; the last two found once."""
        if key in self._values:
            return self._values[key]
        if key not in self._ranks:
            column = self._frame[key]
            self._ranks[key] = (column.to_numpy(dtype=float) if pd.api.types.is_numeric_dtype(column)
                                else pd.factorize(column, sort=True)[0].astype(float))
        return self._ranks[key]

    def difference(self, metric: str) -> np.ndarray:
        """Per row: its ``metric`` minus the baseline run's on the same query (NaN where either is
        not defined, and on the baseline's rows)."""
        if self.comparison is None or metric not in self._values:
            return np.full(len(self._frame), np.nan)
        value = np.where(self._codes[metric] == DEFINED_CODE, self._values[metric], np.nan)
        base = pd.Series(value[self._run_code == 0], index=self._frame["query_id"][self._run_code == 0])
        diff = value - self._frame["query_id"].map(base).to_numpy(dtype=float)
        diff[self._run_code == 0] = np.nan
        return diff

    # -- the view's data ----------------------------------------------------------------------
    def view(self, controls: Controls, selected: int) -> dict:
        """The view's data for the last update's rows: the summary and the charts are recomputed
        only when the rows they cover or their choices changed (not on a sort)."""
        c = controls
        summary = self._cached("summary", (self._mask, c.percent), lambda: self._summary(c.percent))
        charts = self._cached("charts", (self._mask, self._unbrushed, c.chart_metric, c.scatter_x,
                                         c.scatter_y, c.group_by), lambda: self._charts(c))
        index = np.flatnonzero(self._order == selected)
        return {
            "run": c.run, "total": self.total, "count": len(self._order), "summary": summary, "charts": charts,
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

    def _summary(self, percent: bool) -> list[dict]:
        rows = np.flatnonzero(self._mask)
        out = []
        for k, run in enumerate(self.runs):
            run_rows = rows[self._run_code[rows] == k]
            if len(run_rows) or len(self.runs) == 1:
                s = self._summarizer.summarize(run_rows, percent=percent)
                out += [{"run": run, "metric": m, **{k: plain(v) for k, v in rec.items()}}
                        for m, rec in s.to_dict("index").items()]
        return out

    def _charts(self, c: Controls) -> dict:
        """The charts' data over the kept rows (the distribution: before the brush). A metric's
        come from its slots (one ``bincount`` each, :class:`Summarizer`); another tool's column's
        from its values."""
        rows = np.flatnonzero(self._mask)
        chart_rows = np.flatnonzero(self._unbrushed)
        charts = {}
        m = c.chart_metric
        slotted = set(self._summarizer.metrics)
        if m in slotted:
            slot, distinct, _ = self._summarizer.slots(m, chart_rows)
            charts["distribution"] = {"metric": m, **distribution_of_slots(slot, distinct)}
        elif m in self._values:
            charts["distribution"] = {"metric": m, **distribution(self._values[m][chart_rows], self._codes[m][chart_rows])}
        x, y = c.scatter_x, c.scatter_y
        if x in slotted and y in slotted:
            charts["scatter"] = {"x": x, "y": y, **scatter_of_slots(self._summarizer.slots(x, rows)[:2],
                                                                    self._summarizer.slots(y, rows)[:2])}
        elif x in self._values and y in self._values:
            charts["scatter"] = {"x": x, "y": y, **scatter_cells(self._values[x][rows], self._codes[x][rows],
                                                                   self._values[y][rows], self._codes[y][rows])}
        if c.group_by in self._frame and m in self._values:
            codes, names = self._group_codes(c.group_by)
            if m in slotted:
                slot, _, units = self._summarizer.slots(m, rows)
                means = group_means_of_slots(codes[rows], names, slot, units)
            else:
                means = group_means(self._frame[c.group_by].iloc[rows], self._values[m][rows], self._codes[m][rows])
            charts["groups"] = {"by": c.group_by, "metric": m, "rows": means}
        return charts

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

    def columns(self) -> list[tuple[str, str]]:
        """The table's columns, as (key, kind: text, count, metric or difference)."""
        cols = [("query_id", "text"), ("query", "text")]
        if self.comparison is not None:
            cols = [("run", "text"), *cols, ("difference", "difference")]
        return cols + [(c, "count") for c in COUNT_COLUMNS] + [(m, "metric") for m in self.metrics] + [
            (c, "external") for c in self.external]

    def window(self, start: int, count: int) -> dict:
        """Rows ``start`` ... ``start + count`` of the order: their positions in ``frame``, text
        columns and numeric ones (the item counts, the metrics and, comparing runs, the difference)."""
        rows = self._order[start:start + count]
        numeric = [*COUNT_COLUMNS, *self.metrics, *self.external] + (["difference"] if self.comparison is not None else [])
        diff = self.difference(self.controls.compare_metric) if self.comparison is not None else None
        at = rows.tolist()
        # Only the window's rows leave pandas, a text one cell at a time: a take from an Arrow
        # column of many chunks joins them all first (~17 ms for 200 rows of a 1M-sample run).
        texts = {}
        for c in ("run", "query_id", "query"):
            column = self._frame[c]
            texts[c] = [column.iat[i] for i in at]
        return {"positions": rows, "run": texts["run"], "query_id": texts["query_id"],
                "query": [q[:QUERY_CHARS] for q in texts["query"]],
                "numeric": {name: (diff if name == "difference" else self._column_values(name))[rows]
                            for name in numeric},
                "status": {m: self._codes[m][rows] for m in (*self.metrics, *self.external)}}

    def top_k(self, run: str) -> pd.DataFrame:
        """What-if for ``run``: every passage-reading metric if the retriever kept only its top k
        passages, k = 1 ... the longest retrieval."""
        return top_k_curve(self.scores[run])

    # -- one sample ---------------------------------------------------------------------------
    def sample(self, row: int) -> Sample:
        """The Sample of ``frame`` row ``row`` (its reviewed labels, where reviewed)."""
        return self._reviewed_sample(self.runs[self._run_code[row]], int(self._row_in_run[row]))

    def _reviewed_sample(self, run: str, i: int) -> Sample:
        judged = self._judge[run].batch.samples[i]
        mine = self._reviews[run].for_sample(judged.query_id)
        return apply_to_sample(judged, mine)[0] if mine else judged

    def sample_key(self, row: int) -> int:
        """What names row ``row``'s sample across updates: the row (``frame`` does not change)."""
        return row

    def row_of(self, key: int) -> int:
        """The row of the sample ``key`` names."""
        return key

    def drill(self, row: int) -> Drill:
        """Row ``row``'s drill-down (with the baseline's same query when comparing runs)."""
        run_code, qid = self._run_code[row], self._frame["query_id"].iat[row]
        base, baseline = self.tables[self.runs[0]], None
        if run_code != 0 and qid in base.frame.index:
            baseline = self._reviewed_sample(self.runs[0], base.frame.index.get_loc(qid))
        return Drill(self.sample(row), self.runs[run_code], qid, baseline)

    # -- reviews --------------------------------------------------------------------------------
    @property
    def scores(self) -> dict[str, Scores]:
        """Each run's Scores under its reviews (a run reviewed live is scored again when asked for)."""
        for name in sorted(self._stale):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", InputWarning)  # warned when the reviews came
                self._scores[name] = self._judge[name].reviewed(self._reviews[name])
        self._stale.clear()
        return self._scores

    def claims(self, rows: np.ndarray | None = None) -> pd.DataFrame:
        """One row per claim of the samples at ``rows`` (positions in ``frame``; default: the last
        update's order), in that order: ``run``, then :meth:`Scores.claims`' columns."""
        rows = self._order if rows is None else np.asarray(rows, dtype=np.int64)
        parts, keys = [], []
        for code, name in enumerate(self.runs):
            mine = np.flatnonzero(self._run_code[rows] == code)
            if not len(mine):
                continue
            rank = np.full(self.tables[name].n, -1, dtype=np.int64)
            rank[self._row_in_run[rows[mine]]] = mine  # a sample of this run -> its place in rows
            table = self.scores[name].claims()
            at = rank[table["query_id"].cat.codes.to_numpy()]  # the codes are the samples' positions
            part = table[at >= 0].reset_index(drop=True)
            part.insert(0, "run", pd.Categorical.from_codes(np.full(len(part), code), categories=self.runs))
            parts.append(part)
            keys.append(at[at >= 0])
        if not parts:
            return self.scores[self.runs[0]].claims().iloc[:0].assign(run=pd.Categorical([], categories=self.runs))
        out = pd.concat(parts, ignore_index=True)
        return out.iloc[np.argsort(np.concatenate(keys), kind="stable")].reset_index(drop=True)

    @property
    def reviews(self) -> Reviews | dict[str, Reviews]:
        """The reviews in force: one run's Reviews, or ``{run: Reviews}`` for several runs."""
        return self._reviews[self.runs[0]] if len(self.runs) == 1 else dict(self._reviews)

    @property
    def review_problems(self) -> list[ReviewProblem]:
        """The reviews that did not match their sample (not applied), every run's."""
        return [p for name in self.runs for p in self._problems[name]]

    @property
    def judge_frame(self) -> pd.DataFrame:
        """``run``, ``query_id`` and the metrics under the judge's labels, row for row as ``frame``."""
        return self._judge_frame

    @property
    def judge_status(self) -> pd.DataFrame:
        """The status codes of ``judge_frame``'s metrics (as ``status`` for ``frame``)."""
        return self._judge_status

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

    def review_summary(self, run: str | None = None) -> pd.DataFrame:
        """Per metric of ``run`` (the only run by default): the mean over defined samples under the
        judge's labels and under the reviews (None where no sample is defined), and how many labels
        and samples are reviewed: "faithfulness 0.60 -> 0.80 after 2 reviews"."""
        name = self._run_name(run)
        frame = self._cached(f"review means {name}", (), lambda: self._review_means(name)).copy()
        frame["reviews"] = len(self._reviews[name])
        frame["reviewed_samples"] = len(self._reviews[name].query_ids)
        return frame

    def _review_means(self, name: str) -> pd.DataFrame:
        """Per metric of run ``name``: its exact means under the judge's labels and the reviews (kept
        in the view cache until a review changes the values: every view shows them)."""
        rows = self._run_code == self.runs.index(name)
        out = {}
        for m in self.metrics:
            judge = mean_over_defined(self._judge_frame[m].to_numpy()[rows],
                                      self._judge_status[m].to_numpy()[rows] == DEFINED_CODE)[0]
            reviewed = mean_over_defined(self._values[m][rows], self._codes[m][rows] == DEFINED_CODE)[0]
            out[m] = {"judge_mean": judge, "reviewed_mean": reviewed}
        return pd.DataFrame.from_dict(out, orient="index").rename_axis("metric")

    def _run_name(self, run: str | None) -> str:
        if run is None:
            if len(self.runs) > 1:
                raise ValueError(f"several runs: name the run ({', '.join(map(repr, self.runs))})")
            return self.runs[0]
        if run not in self.runs:
            raise ValueError(f"no run {run!r}; runs: {', '.join(map(repr, self.runs))}")
        return run

    def review(self, reviews, *, run: str | None = None) -> np.ndarray:
        """Apply more reviews (a Review, its JSON object, several, Reviews or a reviews file) to ``run``
        (the only run by default): only the reviewed samples are scored again, and ``frame``,
        ``status``, the summary, slices, comparison and order follow. Appended to the run's reviews
        file when it was given as a path. A review that does not match its sample is kept out, listed
        in ``review_problems`` and warned about. Returns the ``frame`` positions of the reviewed samples."""
        name = self._run_name(run)
        new = as_reviews([reviews] if isinstance(reviews, Mapping) else reviews)
        if name in self._logs:
            for r in new.history:
                self._logs[name].append(r)
        self._reviews[name] = merged = self._reviews[name] + new
        judge = self._judge[name]
        positions = judge._positions  # query_id -> position, found once per run
        found, samples, problems = [], [], gone(new, positions)
        for qid in new.query_ids:
            if qid in positions:
                sample, wrong = apply_to_sample(judge.batch.samples[positions[qid]], merged.for_sample(qid))
                found.append(positions[qid])
                samples.append(sample)
                problems += wrong
        again = set(new.query_ids)
        kept = [p for p in self._problems[name] if p.review.query_id not in again]
        self._problems[name] = kept + problems
        warn_problems(problems)
        if not found:
            return np.zeros(0, dtype=np.int64)
        self._stale.add(name)
        self._patch(name, np.array(found, dtype=np.int64), samples)
        return self._run_start[name] + np.array(found, dtype=np.int64)

    def _patch(self, name: str, found: np.ndarray, samples: list[Sample]) -> None:
        """Score ``samples`` (run ``name``'s at positions ``found``) and write their values into the held tables."""
        judge = self._judge[name]
        part = judge.parts[0]
        psg = part.derived.psg_active
        offset = judge.batch.psg_offset
        active = np.concatenate([psg[offset[i]:offset[i + 1]] for i in found])
        scored = evaluate(samples, part.names, mode=judge.mode, undefined=judge.undefined, passage_active=active)
        table = run_table(scored, self.metrics)
        rows = self._run_start[name] + found
        held = self.tables[name]
        changed = []
        for m in self.metrics:
            value, code = table.frame[m].to_numpy(dtype=float), table.status[m].to_numpy()
            same = np.array_equal(value, self._values[m][rows], equal_nan=True)
            if same and np.array_equal(code, self._codes[m][rows]):
                continue
            changed.append(m)
            for frame, at, new in ((self._frame, rows, value), (self._status, rows, code),
                                   (held.frame, found, value), (held.status, found, code)):
                column = frame[m].to_numpy(copy=True)  # a whole column set at once: cheaper than .iloc
                column[at] = new
                frame[m] = column
        self._refresh(changed, rows)

    def _refresh(self, changed: list[str], rows: np.ndarray) -> None:
        """Everything derived from the held values, found again after the metrics ``changed`` did
        on the ``frame`` rows ``rows`` (the summary's pieces of the other metrics are kept; a
        slice's expression reads one row at a time, so only these rows are tested again)."""
        if not changed:
            return
        for m in changed:
            self._values[m] = self._frame[m].to_numpy(dtype=float)
            self._codes[m] = self._status[m].to_numpy()
        self._numeric = self._frame.drop(columns=["query", "response", "run", "query_id"])
        self._expression_cache = ("", None)
        self._summarizer.update(RunTable(scores=None, frame=self._frame, status=self._status), changed)
        self._cache = {}
        part = RunTable(scores=None, frame=self._frame.iloc[rows], status=self._status.iloc[rows])
        for s in self.slices:
            kept = np.setdiff1d(self._slice_rows[s.name], rows, assume_unique=True)
            self._slice_rows[s.name] = np.union1d(kept, rows[members(part, s)])
        if len(self.runs) > 1:
            self.comparison = compare_runs(self.tables, judges=self.judges)
        self._mask = None
        self.update(self.controls)


def _backend_of(source) -> str | None:
    """The back end that builds ``source``'s run model (``run_backend`` on its type), None: in memory."""
    return getattr(type(source), "run_backend", None)


def open_run(source, *, slices=None, rows: int | None = None, reviews=None) -> RunModel:
    """The run model of ``source``: its type's back end's (a Dask-scored run: ``"cluster_run"``,
    with the table's ``rows``), else :class:`InMemoryRun` (with
    ``reviews`` applied)."""
    name = _backend_of(source)
    if name is None:
        if is_runs(source) and any(_backend_of(v) for v in source.values()):
            raise RagWidgetsError("comparing runs is not available on Dask-scored runs: open one run at a time, "
                                  "DatasetExplorer(scores)")
        if rows is not None:
            raise TypeError("rows (the table's rows) is for a run explored on a cluster; this one is in memory")
        return InMemoryRun(source, slices=slices, reviews=reviews)
    model = backend(name)
    if reviews is not None and "reviews" not in model.capabilities:
        raise RagWidgetsError(f"reviewing labels is not available on {model.where}: review the run in memory, "
                              "DatasetExplorer(rw.evaluate(path), reviews=...)")
    if slices is not None and "slices" not in model.capabilities:
        raise RagWidgetsError(f"failure slices are not available on {model.where} (they need every row in the "
                              "kernel): use the filter expression")
    return model(source) if rows is None else model(source, rows=rows)
