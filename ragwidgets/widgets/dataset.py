"""DatasetExplorer: error analysis over a whole run (or several runs of the same queries).

One anywidget (``js/src/dataset/``). The kernel owns the frame: every control is a trait
(``run``, ``text``, ``expression``, ``slice``, ``brush``, ``sort_by``, ``descending``, the chart
choices, ``selected``); a change rebuilds the view state in Python in one step (``_view``:
summary, charts' pre-aggregated data, slices, comparison, ``count`` of ``total``), and the front
end asks for the rows it shows as windows (a custom message answered with one binary buffer per
column). The drill-down is the one-sample view (:class:`~ragwidgets.widgets.sample_view.SampleView`)
of the selected row, beside the same query's answer in the baseline run when runs are compared.

Every control value is checked where it enters: set from Python, a value that is not valid (a
filter expression that does not evaluate included) raises :class:`ControlError`; sent by the
front end, it leaves the control as it was and the widget says why. Every request from the front
end gets one reply, with an ``error`` field when it failed.
"""

from __future__ import annotations

import json
import math
import numbers
import sys
from pathlib import Path

import anywidget
import numpy as np
import pandas as pd
import traitlets

from ..analysis import TextIndex, builtin_slices, compare_runs, expression_mask, members, run_table
from ..analysis.aggregates import distribution, group_means, scatter_cells
from ..analysis.slices import Slice, check_builtin_name, load_slices, save_slices
from ..analysis.summary import Summarizer
from ..analysis.table import COUNT_COLUMNS, DEFINED_CODE, UNDEFINED_CODE, RunTable, defined_metrics
from ..engine import evaluate
from ..engine.evaluate import Scores
from ..errors import RagWidgetsError
from .base import bundled
from .sample_view import SampleView
from .view import LABELS, LOWER_IS_BETTER, show_id

QUERY_CHARS = 160  # query text sent per row
SUMMARY_BOOT = 200  # resamples behind the live intervals (analysis.summarize: 2000); the Monte Carlo
# error of a percentile from 200 resamples is about a tenth of the half-width, below the 3 decimals shown
MAX_GROUPS = 50  # a column with more distinct values is not offered for "mean by group"
MAX_WINDOW = 2000  # rows per window
REQUESTS = ("rows", "step", "add_slice", "drill")
BRUSH_KEYS = ("metric", "lo", "hi", "undefined")
LOADER_FIELDS = {"query_id", "query", "gt_answer", "response", "retrieved_context", "corpus", "response_claims",
                 "gt_answer_claims", "answer2response", "response2answer", "retrieved2response",
                 "retrieved2answer", "reference_facts", "response_claim_labels", "gt_answer_claim_labels",
                 "metrics"}


class ControlError(traitlets.TraitError, RagWidgetsError):
    """A control value that is not valid: a TraitError (traitlets rolls a held change back) and a ValueError."""


def _scores_and_extras(source) -> tuple[Scores, pd.DataFrame | None]:
    """A run's Scores and, for a DataFrame source, its other short columns (groupable, by query_id)."""
    if isinstance(source, Scores):
        return source, None
    if hasattr(source, "records") and hasattr(source, "score_columns"):  # a ScoringResult
        return evaluate(source.records), None
    if isinstance(source, pd.DataFrame):
        scores = evaluate(source.to_dict("records"))
        extra = [c for c in source.columns if c not in LOADER_FIELDS and c not in scores.names
                 and source[c].map(lambda v: isinstance(v, (str, int, bool, np.integer))).all()
                 and source[c].nunique() <= MAX_GROUPS]
        ids = [s.query_id for s in scores.batch.samples]
        return scores, (source[extra].set_axis(ids).rename_axis("query_id") if extra else None)
    return evaluate(source), None


def _is_runs(source) -> bool:
    return isinstance(source, dict) and "results" not in source and "query_id" not in source and bool(source)


class DatasetExplorer(anywidget.AnyWidget):
    """Explore one run or compare several: ``DatasetExplorer(source)`` with a path, records,
    Scores, ScoringResult, DataFrame, or ``{run_name: source}`` (the first run is the baseline);
    a Dask-scored run (``rw.evaluate(..., engine="dask")``) opens the cluster mode instead
    (:class:`~ragwidgets.widgets.cluster_dataset.ClusterDatasetExplorer`).

    ``frame`` is every run's per-sample table (``run``, ``query_id``, query, item counts, metrics,
    NaN = Undefined or not computable); ``status`` says which (0 defined, 1 Undefined, 2 not
    computable); ``filtered`` is ``frame`` as the controls filter and sort it.
    """

    _esm = bundled("dataset.js")
    _css = bundled("dataset.css")

    run = traitlets.Unicode("").tag(sync=True)  # "" = all runs
    text = traitlets.Unicode("").tag(sync=True)
    expression = traitlets.Unicode("").tag(sync=True)
    slice = traitlets.Unicode("").tag(sync=True)
    brush = traitlets.Dict().tag(sync=True)  # {"metric", "lo", "hi"} or {"metric", "undefined": true}
    sort_by = traitlets.Unicode("").tag(sync=True)
    descending = traitlets.Bool(False).tag(sync=True)
    chart_metric = traitlets.Unicode("").tag(sync=True)
    scatter_x = traitlets.Unicode("").tag(sync=True)
    scatter_y = traitlets.Unicode("").tag(sync=True)
    group_by = traitlets.Unicode("").tag(sync=True)
    compare_metric = traitlets.Unicode("").tag(sync=True)
    percent = traitlets.Bool(False).tag(sync=True)  # RAGChecker's mean x 100 display
    selected = traitlets.Int(-1).tag(sync=True)  # position in .frame, -1 none
    _view = traitlets.Unicode("").tag(sync=True)
    _drill = traitlets.Unicode("").tag(sync=True)  # the selected sample's view (JSON, cells apart)
    _drill_cells = traitlets.Bytes(b"").tag(sync=True)
    _other = traitlets.Unicode("").tag(sync=True)  # the same query in the baseline run
    _other_cells = traitlets.Bytes(b"").tag(sync=True)

    _controls = ("run", "text", "expression", "slice", "brush", "sort_by", "descending", "chart_metric",
                 "scatter_x", "scatter_y", "group_by", "compare_metric", "percent")

    def __new__(cls, source=None, *args, **kwargs):
        """A Dask-scored run opens the cluster mode (:mod:`.cluster_dataset`)."""
        dask = sys.modules.get("ragwidgets.dask")
        if cls is DatasetExplorer and dask is not None and isinstance(source, dask.DaskScores):
            from .cluster_dataset import ClusterDatasetExplorer
            cls = ClusterDatasetExplorer
        elif isinstance(source, dict) and dask is not None and any(isinstance(v, dask.DaskScores)
                                                                   for v in source.values()):
            raise RagWidgetsError("comparing runs is not available on Dask-scored runs: open one run at a time, "
                                  "DatasetExplorer(scores)")
        return super().__new__(cls, source, *args, **kwargs)

    def __init__(self, source, *, slices: list[Slice] | str | Path | None = None, **controls):
        sources = source if _is_runs(source) else {"run": source}
        loaded = {}
        for name, src in sources.items():
            try:
                loaded[str(name)] = _scores_and_extras(src)
            except ValueError as err:  # InputError included: it already names the sample and field
                if len(sources) == 1:
                    raise
                raise type(err)(f"run {name!r}: {err}") from None
        self.scores: dict[str, Scores] = {name: scores for name, (scores, _) in loaded.items()}
        self.metrics = list(dict.fromkeys(m for scores in self.scores.values() for m in defined_metrics(scores)))
        self.tables = {}
        frames, statuses = [], []
        for name, (scores, extras) in loaded.items():
            table = self.tables[name] = run_table(scores, self.metrics)
            f = table.frame.reset_index()
            if extras is not None:
                f = f.join(extras.drop(columns=[c for c in extras if c in f]), on="query_id")
            f.insert(0, "run", name)
            frames.append(f)
            statuses.append(table.status.reset_index(drop=True))
        self.runs = list(self.scores)
        self._frame = pd.concat(frames, ignore_index=True)
        self._status = pd.concat(statuses, ignore_index=True)
        self._run_code = pd.Categorical(self._frame["run"], categories=self.runs).codes
        self._row_in_run = np.concatenate([np.arange(t.n) for t in self.tables.values()])
        self._values = {m: self._frame[m].to_numpy(dtype=float) for m in self.metrics}
        self._codes = {m: self._status[m].to_numpy() for m in self.metrics}
        self._text_index = TextIndex(self._frame.set_index("query_id"))
        self._numeric = self._frame.drop(columns=["query", "response", "run", "query_id"])
        self.group_columns = ["run"] * (len(self.runs) > 1) + [
            c for c in self._frame.columns if c not in ("run", "query_id", "query", "response", *self.metrics)
            and self._frame[c].nunique() <= MAX_GROUPS and c not in COUNT_COLUMNS] + ["n_passages"]
        self.comparison = compare_runs(self.tables) if len(self.runs) > 1 else None
        self.slices: list[Slice] = []
        self._slice_rows: dict[str, np.ndarray] = {}
        self._text_cache: tuple[str, np.ndarray] | None = None
        self._expression_cache: tuple[str, np.ndarray | None] = ("", None)
        self._order = np.arange(len(self._frame))
        self._mask = None
        self._version = 0
        self._summarizer = Summarizer(self._whole_table())
        self._cache: dict[str, tuple] = {}  # part of the view -> (inputs, value)
        self._ranks: dict[str, np.ndarray] = {}  # text column -> each row's rank, for sorting
        self._busy = False
        self._changes: set[str] | None = None  # the traits a front-end message changed, while it applies
        self._rejected = ""  # why the last front-end message's values were refused, while its view builds
        self.view_state: dict = {}
        self._sample_views: dict = {}
        self._drilled = -1  # the row the drill-down shows
        self.add_slices(builtin_slices(self._whole_table()))
        if slices is not None:
            self.add_slices(load_slices(slices) if isinstance(slices, (str, Path)) else slices)
        first = self.metrics[0] if self.metrics else ""
        defaults = {"chart_metric": first, "scatter_x": first,
                    "scatter_y": self.metrics[1] if len(self.metrics) > 1 else first,
                    "group_by": self.group_columns[0], "compare_metric": first}
        super().__init__(**{**defaults, **controls})
        self.observe(self._changed, names=list(self._controls))
        self.observe(self._on_selected, names="selected")
        self.on_msg(self._message)
        self._refresh()

    @traitlets.validate("selected")
    def _valid_selected(self, proposal):
        row = proposal["value"]
        if isinstance(row, bool) or not -1 <= row < len(self._frame):
            raise ControlError(f"selected must be a row of frame (0 ... {len(self._frame) - 1}) or -1, "
                               f"not {row!r}")
        return row

    @traitlets.validate("brush")
    def _valid_brush(self, proposal):
        brush = dict(proposal["value"])
        if not brush:
            return brush
        if brush.get("metric") not in self.metrics:
            raise ControlError(f"brush metric must be one of {', '.join(self.metrics)}, "
                               f"not {brush.get('metric')!r:.80}")
        unknown = [str(k) for k in brush if k not in BRUSH_KEYS]
        if unknown:
            raise ControlError(f"brush has unknown keys {', '.join(unknown)[:200]}; known: {', '.join(BRUSH_KEYS)}")
        if brush.get("undefined", False) not in (True, False):
            raise ControlError(f"brush undefined must be true or false, not {brush['undefined']!r:.80}")
        for bound in ("lo", "hi"):
            value = brush.get(bound, 0.0)
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                raise ControlError(f"brush {bound} must be a finite number, not {value!r:.80}")
        if brush.get("lo", 0.0) > brush.get("hi", 1.0):
            raise ControlError(f"brush lo ({brush['lo']}) is above hi ({brush['hi']})")
        return brush

    @traitlets.validate("expression")
    def _valid_expression(self, proposal):
        self._check_expression(proposal["value"])
        return proposal["value"]

    def _check_expression(self, expression: str) -> None:
        """ValueError when ``expression`` does not evaluate on this run; its mask is kept for the filter."""
        if expression.strip() and self._expression_cache[0] != expression:
            try:
                self._expression_cache = (expression, expression_mask(self._numeric, expression))
            except ValueError as err:
                raise ControlError(str(err)) from None

    @traitlets.validate("run", "slice", "sort_by", "chart_metric", "scatter_x", "scatter_y", "group_by",
                        "compare_metric")
    def _valid_choice(self, proposal):
        name, value = proposal["trait"].name, proposal["value"]
        options = self._options(name)
        if value not in options:
            raise ControlError(f"{name} must be one of {', '.join(map(repr, options))[:300]}, "
                               f"not {value!r:.80}")
        return value

    def _options(self, control: str) -> list[str]:
        """The values a choice control takes ("" = none, where it may be none)."""
        if control == "run":
            return ["", *self.runs]
        if control == "slice":
            return ["", *(s.name for s in self.slices)]
        if control == "sort_by":
            return ["", *self._frame.columns, *(["difference"] if len(self.runs) > 1 else [])]
        if control == "group_by":
            return self.group_columns
        return self.metrics or [""]

    def set_state(self, sync_data):
        """A message from the front end: each value is checked as it enters; one that is not valid
        leaves its trait as it was (sent back to the front end) and the view says why. The view is
        rebuilt once, after the whole message."""
        errors, rejected = [], []
        self._changes = set()
        try:
            for name, value in sync_data.items():
                try:
                    super().set_state({name: value})
                except (traitlets.TraitError, ValueError) as err:
                    errors.append(str(err))
                    rejected.append(name)
        finally:
            changes, self._changes = self._changes, None
        if rejected:
            self.send_state(rejected)
        if changes or errors:
            self._rejected = "; ".join(errors)
            try:
                self._refresh(reorder=bool(changes - {"selected"}))
            finally:
                self._rejected = ""

    # -- data ---------------------------------------------------------------------------------
    def _whole_table(self) -> RunTable:
        """The runs' frames as one table (for the slices and the summary)."""
        return RunTable(scores=None, frame=self._frame, status=self._status)

    @property
    def frame(self) -> pd.DataFrame:
        """Every run's samples (see the class docstring)."""
        return self._frame

    @property
    def status(self) -> pd.DataFrame:
        return self._status

    @property
    def filtered(self) -> pd.DataFrame:
        """The rows the controls keep, in the table's order."""
        return self._frame.iloc[self._order]

    @property
    def order(self) -> np.ndarray:
        """Positions in ``frame`` of the filtered rows, in the table's order."""
        return self._order

    def add_slices(self, slices) -> None:
        """Add (or replace, by name) slices; each must evaluate on this data, and a built-in slice's
        name keeps its own expression."""
        table = self._whole_table()
        for s in slices:
            check_builtin_name(s)
            rows = members(table, s)
            self.slices = [x for x in self.slices if x.name != s.name] + [s]
            self._slice_rows[s.name] = rows
        if self.view_state:
            self._refresh()

    def save_slices(self, path) -> None:
        save_slices(path, self.slices)

    def sample(self, row: int):
        """The Sample of ``frame`` row ``row``."""
        return self.scores[self.runs[self._run_code[row]]].batch.samples[self._row_in_run[row]]

    # -- the one update path ------------------------------------------------------------------
    def _changed(self, change) -> None:
        if self._changes is not None:
            self._changes.add(change["name"])
        elif not self._busy:
            self._refresh()

    def _on_selected(self, change) -> None:
        if self._changes is not None:
            self._changes.add("selected")
        elif not self._busy:
            self._refresh(reorder=False)

    def _text_mask(self) -> np.ndarray:
        if self._text_cache is None or self._text_cache[0] != self.text:
            self._text_cache = (self.text, self._text_index.mask(self.text))
        return self._text_cache[1]

    def _filter(self, with_brush: bool = True) -> np.ndarray:
        """Mask of the rows every control keeps (the brush only when ``with_brush``)."""
        mask = np.ones(len(self._frame), dtype=bool)
        if self.run:
            mask &= self._run_code == self.runs.index(self.run)
        if self.text:
            mask &= self._text_mask()
        if self.expression.strip():
            self._check_expression(self.expression)
            mask &= self._expression_cache[1]
        if self.slice:
            inside = np.zeros(len(mask), dtype=bool)
            inside[self._slice_rows[self.slice]] = True
            mask &= inside
        b = self.brush
        if with_brush and b.get("metric") in self._values:
            codes = self._codes[b["metric"]]
            if b.get("undefined"):
                mask &= codes == UNDEFINED_CODE
            else:
                v = self._values[b["metric"]]
                with np.errstate(invalid="ignore"):
                    mask &= (codes == DEFINED_CODE) & (v >= float(b.get("lo", 0))) & (v <= float(b.get("hi", 1)))
        return mask

    def _sort(self, rows: np.ndarray) -> np.ndarray:
        key = self.sort_by
        if not key:
            return rows
        if key == "difference":
            values = self._difference()[rows]
        elif key in self._frame and pd.api.types.is_numeric_dtype(self._frame[key]):
            values = self._frame[key].to_numpy(dtype=float)[rows]
        else:  # text: each row's rank, found once
            if key not in self._ranks:
                self._ranks[key] = pd.factorize(self._frame[key], sort=True)[0].astype(float)
            values = self._ranks[key][rows]
        order = np.argsort(-values if self.descending else values, kind="stable")
        missing = np.isnan(values[order])
        return rows[np.concatenate([order[~missing], order[missing]])]  # Undefined last either way

    def _difference(self) -> np.ndarray:
        """Per row: its ``compare_metric`` minus the baseline run's on the same query (NaN where
        either is not defined, and on the baseline's rows)."""
        m = self.compare_metric
        if self.comparison is None or m not in self._values:
            return np.full(len(self._frame), np.nan)
        value = np.where(self._codes[m] == DEFINED_CODE, self._values[m], np.nan)
        base = pd.Series(value[self._run_code == 0], index=self._frame["query_id"][self._run_code == 0])
        diff = value - self._frame["query_id"].map(base).to_numpy(dtype=float)
        diff[self._run_code == 0] = np.nan
        return diff

    def _refresh(self, reorder: bool = True) -> None:
        """Recompute the order (unless only the selection moved) and the view state; the summary
        and the charts only when the rows they cover or their choices changed (not on a sort)."""
        if reorder:
            mask = self._filter()
            self._order = self._sort(np.flatnonzero(mask))
            self._version += 1
            if self._mask is None or not np.array_equal(mask, self._mask):
                self._mask = mask
                self._unbrushed = self._filter(with_brush=False) if self.brush else mask
        self.view_state = self._build()
        with self.hold_sync():
            self._view = json_view(self.view_state)
            if self.selected != self._drilled:
                self._update_drill()

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
                s = self._summarizer.summarize(run_rows, n_boot=SUMMARY_BOOT, percent=self.percent)
                out += [{"run": run, "metric": m, **{k: _num(v) for k, v in rec.items()}}
                        for m, rec in s.to_dict("index").items()]
        return out

    def _charts(self) -> dict:
        rows = np.flatnonzero(self._mask)
        chart_rows = np.flatnonzero(self._unbrushed)
        charts = {}
        m = self.chart_metric
        if m in self._values:
            charts["distribution"] = {"metric": m, **distribution(self._values[m][chart_rows], self._codes[m][chart_rows])}
        x, y = self.scatter_x, self.scatter_y
        if x in self._values and y in self._values:
            charts["scatter"] = {"x": x, "y": y, **scatter_cells(self._values[x][rows], self._codes[x][rows],
                                                                   self._values[y][rows], self._codes[y][rows])}
        if self.group_by in self._frame and m in self._values:
            charts["groups"] = {"by": self.group_by, "metric": m, "rows": group_means(
                self._frame[self.group_by].iloc[rows], self._values[m][rows], self._codes[m][rows])}
        return charts

    def _build(self) -> dict:
        rows = self._order
        summary = self._cached("summary", (self._mask, self.percent), self._summary)
        charts = self._cached("charts", (self._mask, self._unbrushed, self.chart_metric, self.scatter_x,
                                         self.scatter_y, self.group_by), self._charts)
        index = np.flatnonzero(rows == self.selected)
        return {
            "runs": self.runs, "run": self.run, "total": len(self._frame), "count": len(rows),
            "version": self._version, "error": self._rejected,
            "metrics": [{"key": k, "label": LABELS.get(k.removeprefix("required_"), k)} for k in self.metrics],
            "columns": self._columns(), "group_columns": self.group_columns,
            "controls": {k: getattr(self, k) for k in self._controls},
            "summary": summary, "charts": charts,
            "slices": [{"name": s.name, "expression": s.expression, "description": s.description,
                        "size": len(self._slice_rows[s.name])} for s in self.slices],
            "compare": self._compare_view(),
            "selected": {"row": self.selected, "index": int(index[0]) if len(index) else -1,
                         "run": self.runs[self._run_code[self.selected]] if self.selected >= 0 else "",
                         "query_id": self._frame["query_id"].iat[self.selected] if self.selected >= 0 else ""},
        }

    def _columns(self) -> list[dict]:
        cols = [{"key": "query_id", "label": "query_id", "kind": "text"},
                {"key": "query", "label": "query", "kind": "text"}]
        if len(self.runs) > 1:
            cols.insert(0, {"key": "run", "label": "run", "kind": "text"})
            cols.append({"key": "difference", "label": f"Δ {self.compare_metric} vs {self.runs[0]}",
                         "kind": "difference"})
        cols += [{"key": c, "label": c.removeprefix("n_").replace("_", " "), "kind": "count"} for c in COUNT_COLUMNS]
        cols += [{"key": m, "label": LABELS.get(m.removeprefix("required_"), m), "kind": "metric",
                  "lower_is_better": m.removeprefix("required_") in LOWER_IS_BETTER} for m in self.metrics]
        return cols

    def _compare_view(self) -> dict | None:
        c = self.comparison
        if c is None:
            return None
        return {"baseline": c.baseline, "shared": len(c.shared), "left_out": c.left_out,
                "rows": [{k: _num(v) for k, v in r.items()} for r in c.summary.to_dict("records")]}

    # -- rows on demand -----------------------------------------------------------------------
    def window(self, start: int, count: int) -> tuple[dict, list[bytes]]:
        """Rows ``start`` ... ``start + count`` of the filtered order, as :func:`rows_message`
        sends them (numeric: the item counts, the metrics and, comparing runs, the difference)."""
        rows = self._window_rows(start, count)
        numeric = [*COUNT_COLUMNS, *self.metrics] + (["difference"] if len(self.runs) > 1 else [])
        diff = self._difference() if len(self.runs) > 1 else None
        column = self._frame.take(rows)  # only the window's rows leave pandas
        return rows_message(self._version, start, rows, run=column["run"].tolist(),
                            query_id=column["query_id"].tolist(),
                            query=[q[:QUERY_CHARS] for q in column["query"].tolist()],
                            numeric={name: diff[rows] if name == "difference" else column[name].to_numpy(dtype=float)
                                     for name in numeric},
                            status={m: self._codes[m][rows] for m in self.metrics})

    def _window_rows(self, start: int, count: int) -> np.ndarray:
        """Positions in ``frame`` of rows ``start`` ... ``start + count`` of the order (ValueError
        unless both are whole numbers, ``start`` ≥ 0 and ``count`` from 0 to MAX_WINDOW)."""
        start = _whole(start, "start", 0, None)
        return self._order[start:start + _whole(count, "count", 0, MAX_WINDOW)]

    def step(self, delta: int) -> None:
        """Select the row ``delta`` places after the selected one in the filtered order (the first
        row when the selection is not among them)."""
        delta = _whole(delta, "delta", None, None)
        if not len(self._order):
            return
        where = np.flatnonzero(self._order == self.selected)
        i = 0 if not len(where) else min(max(int(where[0]) + delta, 0), len(self._order) - 1)
        self.selected = int(self._order[i])

    def _message(self, _, content, buffers) -> None:
        """A request from the front end, ``{"type", "request", ...}`` (type one of REQUESTS). Each
        gets one reply carrying its ``request``: a window of rows (type "rows") or ``{"type":
        "reply"}``, with ``error`` when it failed (the widget's state is then as it was)."""
        content = content if isinstance(content, dict) else {}
        request = content.get("request")
        if isinstance(request, bool) or not isinstance(request, (int, str)):
            request = None
        kind = content.get("type")
        reply, data = {"type": "rows" if kind == "rows" else "reply"}, []
        try:
            if kind == "rows":
                reply, data = self.window(content.get("start"), content.get("count"))
            elif kind == "step":
                self.step(content.get("delta"))
            elif kind == "add_slice":
                self.add_slices([Slice(_text(content, "name").strip(), _text(content, "expression"))])
            elif kind == "drill":
                self._drill_patch(content.get("which"), content.get("patch"))
            else:
                raise ValueError(f"unknown request {kind!r:.80}; known: {', '.join(REQUESTS)}")
        except Exception as err:  # noqa: BLE001 - every request gets a reply; a failure is its error
            reply, data = {**reply, "error": str(err) or type(err).__name__}, []
        self.send({**reply, "request": request}, data)

    def _drill_patch(self, which, patch) -> None:
        """Apply a drill-down view's action (``which``: "main" or "other") and redraw it."""
        if which not in ("main", "other") or which not in self._sample_views:
            raise ValueError(f"no drill-down view {which!r:.80} (open: "
                             f"{', '.join(k for k in self._sample_views if k != 'key') or 'none'})")
        if not isinstance(patch, dict):
            raise ValueError(f"a drill-down patch must be an object, not {patch!r:.80}")
        self._sample_views[which].apply(patch)
        self._update_drill()

    # -- drill-down ---------------------------------------------------------------------------
    def _clear_drill(self) -> None:
        self._sample_views = {}
        self._drill, self._drill_cells, self._other, self._other_cells = "", b"", "", b""

    def _update_drill(self) -> None:
        row = self._drilled = self.selected
        if not 0 <= row < len(self._frame):
            self._clear_drill()
            return
        key = ("main", row)
        if self._sample_views.get("key") != key:
            self._sample_views = {"key": key, "main": SampleView(self.sample(row))}
            run_code = self._run_code[row]
            qid = self._frame["query_id"].iat[row]
            base = self.tables[self.runs[0]]
            if run_code != 0 and qid in base.frame.index:
                self._sample_views["other"] = SampleView(
                    self.scores[self.runs[0]].batch.samples[base.frame.index.get_loc(qid)])
        run = self.runs[self._run_code[row]]
        self._drill, self._drill_cells = self._sample_views["main"].payload(
            title=f"{show_id(run)} · {show_id(self._frame['query_id'].iat[row])}" if len(self.runs) > 1 else None)
        other = self._sample_views.get("other")
        if other is not None:
            self._other, self._other_cells = other.payload(
                title=f"{show_id(self.runs[0])} (baseline) · {show_id(other.sample.query_id)}")
        else:
            self._other, self._other_cells = "", b""

    # -- export -------------------------------------------------------------------------------
    def chart(self, kind: str = "distribution"):
        """The current ``distribution``, ``scatter``, ``groups`` or ``top_k`` (what-if) chart as an
        Altair chart (``.save("x.png")`` / ``.save("x.svg")`` renders offline through vl-convert)."""
        from .run_charts import distribution_chart, group_means_chart, scatter_chart, top_k_chart
        c = self.view_state["charts"]
        if kind == "distribution":
            return distribution_chart(c["distribution"], c["distribution"]["metric"])
        if kind == "scatter":
            return scatter_chart(c["scatter"], c["scatter"]["x"], c["scatter"]["y"])
        if kind == "groups":
            return group_means_chart(c["groups"]["rows"], c["groups"]["metric"], c["groups"]["by"])
        if kind == "top_k":
            return top_k_chart(self.top_k())
        raise ValueError(f"chart kind must be distribution, scatter, groups or top_k, not {kind!r}")

    def top_k(self, run: str | None = None) -> pd.DataFrame:
        """What-if for one run (default: the run shown, else the first): every passage-reading
        metric if the retriever kept only its top k passages, k = 1 ... the longest retrieval."""
        from ..analysis import top_k_curve
        return top_k_curve(self.scores[run or self.run or self.runs[0]])

    def to_html(self, path, *, worst: int = 20) -> Path:
        """Write a self-contained static report (summary, charts as inline SVG, slices, comparison,
        the ``worst`` filtered samples by the chart metric with their claims): no script, no
        network, no kernel needed to read it."""
        from ..atomic import atomic_write
        from .report import report_html
        path = Path(path)
        page = report_html(self, worst=worst)
        with atomic_write(path, encoding="utf-8") as out:  # the old report stays if this fails
            out.write(page)
        return path


def rows_message(version: int, start: int, positions: np.ndarray, *, run: list, query_id: list, query: list,
                 numeric: dict[str, np.ndarray], status: dict[str, np.ndarray]) -> tuple[dict, list[bytes]]:
    """A window of table rows for the front end: a header (positions and text columns) and one
    little-endian buffer per numeric column (float64, NaN = not defined) then per metric status
    (int8: 0 defined, 1 Undefined, 2 not computable)."""
    buffers = [np.asarray(v, dtype="<f8").tobytes() for v in numeric.values()]
    buffers += [np.asarray(v).astype(np.int8).tobytes() for v in status.values()]
    header = {"type": "rows", "version": version, "start": start, "positions": positions.tolist(), "run": run,
              "query_id": query_id, "query": query, "numeric": list(numeric), "status": list(status)}
    return header, buffers


def _whole(value, name: str, lo: int | None, hi: int | None) -> int:
    """``value`` as an int, or ValueError unless it is a whole number from ``lo`` to ``hi`` (None: no bound)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or (
            lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f" from {lo} to {hi}" if hi is not None else f" ≥ {lo}" if lo is not None else ""
        raise ValueError(f"{name} must be a whole number{bounds}, not {value!r:.80}")
    return int(value)


def _text(content: dict, name: str) -> str:
    """``content[name]``, or ValueError unless it is a non-blank string."""
    value = content.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string, not {value!r:.80}")
    return value


def json_view(state: dict) -> str:
    """The view state as the ``_view`` trait's JSON."""
    return json.dumps(state, allow_nan=False, default=_json_default)


def _num(v):
    """A JSON-safe number: NaN -> None, numpy scalars -> Python."""
    if v is None:
        return None
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.integer, int)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if v != v else float(v)
    return v


def _json_default(v):
    return _num(v) if isinstance(v, np.generic) else str(v)
