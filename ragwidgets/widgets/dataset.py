"""DatasetExplorer: error analysis over a whole run (or several runs of the same queries).

One anywidget (``js/src/dataset.js``) over a run model (:class:`~ragwidgets.analysis.runs.RunModel`):
:class:`~ragwidgets.analysis.runs.InMemoryRun` for a run in this process, the ``"cluster_run"``
back end's for a Dask-scored run. Every control is a trait (``run``, ``text``, ``expression``,
``conditions`` (the charts' clicks, each removable, joined to the expression by ``and``),
``slice``, ``brush``, ``sort_by``, ``descending``, the chart choices, ``table_columns``,
``selected``); a change
updates the model and rebuilds the view state in one step (``_view``: summary, charts'
pre-aggregated data, slices, comparison, ``count`` of ``total``; each view one
:func:`~ragwidgets.widgets.base.view_trait`), and the front end asks for the
rows it shows as windows (a custom message answered with one binary buffer per column). The
drill-down is the one-sample view (:class:`~ragwidgets.widgets._sample_view.SampleView`) of the
selected row, beside the same query's answer in the baseline run when runs are compared. What the
model cannot do (its ``capabilities``) is named as not available. ``_rows`` carries the first
SEED_ROWS rows of the order, so that a saved notebook or an export shows them with no kernel.

Every control value is checked where it enters: set from Python, a value that is not valid (a
filter expression that does not evaluate included) raises :class:`ControlError`; sent by the
front end, it leaves the control as it was and the widget says why. Every request from the front
end gets one reply, with an ``error`` field when it failed.
"""

from __future__ import annotations

import math
import numbers
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import traitlets

from ..analysis.agreement import agreement
from ..analysis.corrected import corrected
from ..analysis.plan import review_plan
from ..analysis.judge_variance import label_distributions
from ..analysis.runs import Charts, Query, open_run, require, unavailable
from ..analysis.slices import Slice, load_slices, save_slices
from ..analysis.whatif import drop_passages, top_k_curve
from ..engine.claims import csv_cells, write_claims
from ..engine.metrics import REQUIRED_PREFIX
from ..errors import InputWarning, RagWidgetsError
from ..judges.traces import Trace, find_trace
from ..reviews import Reviews
from .base import Widget, bundled, view_trait
from ._paths import front_end_path
from ._sample_view import SampleView
from ._view import LABELS, LOWER_IS_BETTER, show_id

MAX_WINDOW = 2000  # rows per window
QUERY_CHARS = 160  # query text sent per row
SEED_ROWS = 50  # the first rows of the order, kept in the saved state (`_rows`)
WHATIF_SECONDS = 5.0  # the what-if panel's budget for matching a typed pattern (the kernel is held meanwhile)
PLAN_WIDTH = 0.05  # the trust panel's review plan: random reviews for a corrected interval of ± this
REQUESTS = ("rows", "step", "add_slice", "drill", "review", "trace", "trust", "save_slices", "load_slices", "export",
            "export_claims", "whatif")
STATUS_WORDS = {0: "defined", 1: "Undefined", 2: "not computable"}
BRUSH_KEYS = ("metric", "lo", "hi", "undefined")


class ControlError(traitlets.TraitError, RagWidgetsError):
    """A control value that is not valid: a TraitError (traitlets rolls a held change back) and a ValueError."""


class DatasetExplorer(Widget):
    """Explore one run or compare several: ``DatasetExplorer(source)`` with a path, records,
    Scores, ScoringResult, DataFrame, or ``{run_name: source}`` (the first run is the baseline),
    or a Dask-scored run (``rw.evaluate(..., engine="dask")``; ``rows``: the table's rows, the
    first by the sort metric), explored on its cluster.

    Reviews (a run in memory): the drill-down reviews the drilled sample's labels as the
    SampleExplorer does (:meth:`review`), and the run's table, summary, slices and comparison
    follow through the run model (``model.review``); ``reviews``: reviews to start from (a
    reviews file's path: read, and each new review appended; or ``{run: reviews}``),
    ``reviewer``: the name new reviews carry, ``judge``: the judge whose traces the drill-down
    opens. The trust panel (:meth:`trust`) holds the judge–reviewer agreement and the corrected
    scores of the reviewed run.

    Files the front end names (save / load slices, export rows or claims) are confined to
    ``files_root`` (default: the working folder when the explorer is made): a relative name, no
    ``..``, no symbolic link out of it (``widgets._paths``); ``overwrite`` (default False) lets
    them replace a file there. Python's own calls (``save_slices(path)``, ``export_rows(path)``)
    write where they are told.

    ``model`` is the run model; ``frame`` its per-sample table (in memory: ``run``, ``query_id``,
    query, item counts, metrics, NaN = Undefined or not computable); ``status`` says which (0
    defined, 1 Undefined, 2 not computable); ``filtered`` is ``frame`` as the controls filter and
    sort it.
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
    conditions = traitlets.List(traitlets.Unicode()).tag(sync=True)  # expressions the charts' clicks added (and)
    table_columns = traitlets.List(traitlets.Unicode()).tag(sync=True)  # the table's columns in order; [] = all
    _rows = traitlets.Dict().tag(sync=True)  # the first SEED_ROWS rows of the order, saved with the notebook
    _view = view_trait()  # each view trait is sent as changes to its _base (Widget._show)
    _view_base = view_trait()
    _drill = view_trait()  # the selected sample's view
    _drill_base = view_trait()
    _other = view_trait()  # the same query in the baseline run
    _other_base = view_trait()

    _controls = ("run", "text", "expression", "conditions", "slice", "brush", "sort_by", "descending",
                 "chart_metric", "scatter_x", "scatter_y", "group_by", "compare_metric", "percent")
    _view_only = ("selected", "table_columns")  # controls that change the view, not the rows

    def __init__(self, source, *, slices: list[Slice] | str | Path | None = None, rows: int | None = None,
                 reviews=None, reviewer: str = "", judge=None, files_root: str | Path | None = None,
                 overwrite: bool = False, **controls):
        self.model = open_run(source, slices=slices, rows=rows, reviews=reviews)
        self.files_root = Path(files_root if files_root is not None else os.getcwd())  # the front end's files
        self.overwrite = bool(overwrite)  # whether the front end may replace a file there
        self.reviewer = str(reviewer)
        self.judge = judge
        self._reviewable = "reviews" in self.model.capabilities
        # The judge's Scores per run, for the drill-down's "judge said" (the model's scores carry the reviews).
        self._judged = {run: s.judge_scores or s for run, s in self.model.scores.items()} if self._reviewable else {}
        self._trust: dict | None = None  # the trust panel's tables, built when it is opened
        self._busy = False
        self._changes: set[str] | None = None  # the traits a front-end message changed, while it applies
        self._rejected = ""  # why the last front-end message's values were refused, while its view builds
        self._refused: dict = {}  # the expression the front end sent that was refused, and why, until one applies
        self._error = ""  # what the model's last update could not do, or why the drill-down failed
        self.view_state: dict = {}
        self._sample_views: dict = {}
        self._drilled = -1  # the row the drill-down shows
        self._drill_title = ""  # the drill-down's title when runs are compared
        super().__init__(**{**_chart_defaults(self.model), **self.model.defaults, **controls})
        self.observe(self._changed, names=list(self._controls))
        self.observe(self._on_view_only, names=list(self._view_only))
        self._refresh()

    @traitlets.validate("selected")
    def _valid_selected(self, proposal):
        row = proposal["value"]
        if isinstance(row, bool) or not -1 <= row < len(self.frame):
            raise ControlError(f"selected must be a row of frame (0 ... {len(self.frame) - 1}) or -1, "
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
        lo, hi = brush.get("lo", 0.0), brush.get("hi", 1.0)  # a bound left out is the metric's end
        if lo > hi:
            raise ControlError(f"brush lo ({lo}) is above hi ({hi})")
        return brush

    @traitlets.validate("expression")
    def _valid_expression(self, proposal):
        self._check_expression(proposal["value"])
        return proposal["value"]

    @traitlets.validate("conditions")
    def _valid_conditions(self, proposal):
        for condition in proposal["value"]:
            if not condition.strip():
                raise ControlError("a condition must be an expression, not blank")
            self._check_expression(condition)
        return list(dict.fromkeys(proposal["value"]))  # each once

    @traitlets.validate("table_columns")
    def _valid_table_columns(self, proposal):
        known = [key for key, _ in self.model.columns()]
        unknown = [str(k) for k in proposal["value"] if k not in known]
        if unknown:
            raise ControlError(f"table_columns has unknown columns {', '.join(map(repr, unknown))[:200]}; "
                               f"known: {', '.join(known)}")
        return list(dict.fromkeys(proposal["value"]))

    def _check_expression(self, expression: str) -> None:
        """ControlError when ``expression`` does not evaluate on this run."""
        try:
            self.model.check_expression(expression)
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
            return ["", *self.frame.columns, *(["difference"] if self.comparison is not None else [])]
        if control == "group_by":
            return self.group_columns
        return [*self.metrics, *self.model.external] or [""]  # another tool's numbers chart and compare too

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
                    if name == "expression" and isinstance(value, str):
                        self._refused = {"expression": value, "error": str(err)}
        finally:
            changes, self._changes = self._changes, None
        if rejected:
            self.send_state(rejected)
        if changes or errors:
            self._rejected = "; ".join(errors)
            try:
                self._refresh(reorder=bool(changes - set(self._view_only)))
            finally:
                self._rejected = ""

    # -- the run ------------------------------------------------------------------------------
    @property
    def frame(self) -> pd.DataFrame:
        """The run model's rows (see the class docstring)."""
        return self.model.frame

    @property
    def status(self) -> pd.DataFrame:
        return self.model.status

    @property
    def filtered(self) -> pd.DataFrame:
        """The rows the controls keep, in the table's order."""
        return self.frame.iloc[self.order]

    @property
    def order(self) -> np.ndarray:
        """Positions in ``frame`` of the filtered rows, in the table's order."""
        return self.model.order

    @property
    def runs(self) -> list[str]:
        return self.model.runs

    @property
    def metrics(self) -> list[str]:
        return self.model.metrics

    @property
    def group_columns(self) -> list[str]:
        return self.model.group_columns

    @property
    def slices(self) -> list[Slice]:
        return self.model.slices

    @property
    def comparison(self):
        """The runs' paired comparison (None: one run)."""
        return self.model.comparison

    @property
    def scores(self) -> dict:
        """Each run's Scores held in the kernel (none for a run on a cluster)."""
        return self.model.scores

    @property
    def tables(self) -> dict:
        """Each run's RunTable held in the kernel (none for a run on a cluster)."""
        return self.model.tables

    @property
    def total(self) -> int:
        return self.model.total

    def _require(self, capability: str, why: str) -> None:
        """RagWidgetsError naming ``capability`` as not available unless the model has it."""
        require(self.model, capability, why)

    def add_slices(self, slices) -> None:
        """Add (or replace, by name) slices; each must evaluate on this data, and a built-in slice's
        name keeps its own expression."""
        self._require("slices", ": use the filter expression")
        self.model.add_slices(slices)
        if self.view_state:
            self._refresh()

    def save_slices(self, path) -> None:
        save_slices(path, self.slices)

    def load_slices(self, path) -> list[Slice]:
        """Add the slices a :meth:`save_slices` file holds (as :meth:`add_slices`); returns them."""
        slices = load_slices(path)
        self.add_slices(slices)
        return slices

    def export_rows(self, path, format: str | None = None) -> Path:
        """Write the filtered rows (``filtered``, in the table's order; on a cluster run the table's
        rows) to ``path`` as ``"csv"`` or ``"parquet"`` (``format``; None: from the suffix, .csv or
        .parquet). A metric is empty (CSV) / null (Parquet) where it is not defined, and its
        ``<metric>_status`` column says why: defined, Undefined or not computable. In CSV a text a
        spreadsheet would run as a formula is quoted (:func:`~ragwidgets.engine.claims.csv_cells`)."""
        from ..atomic import atomic_write
        path = Path(path)
        kind = format or {".csv": "csv", ".parquet": "parquet"}.get(path.suffix.lower())
        if kind not in ("csv", "parquet"):
            raise ValueError(f"export format must be csv or parquet (or a .csv / .parquet path), not "
                             f"{format or path.suffix or path.name!r:.80}")
        order = self.order
        out = self.frame.iloc[order].reset_index(drop=True)
        status = self.status.iloc[order].reset_index(drop=True)
        for m in self.metrics:
            code = status[m].to_numpy()
            out[m] = pd.array(np.where(code == 0, out[m].to_numpy(dtype=float), np.nan), dtype="Float64")
            out[f"{m}_status"] = pd.Categorical.from_codes(code.astype(int), list(STATUS_WORDS.values()))
        if kind == "csv":
            with atomic_write(path, encoding="utf-8") as f:
                csv_cells(out).to_csv(f, index=False, lineterminator="\r\n")  # RFC 4180: a cell's \r is quoted
        else:
            with atomic_write(path, "wb") as f:
                out.to_parquet(f, index=False)
        return path

    def claims(self) -> pd.DataFrame:
        """One row per claim of the filtered samples, in the table's order (``run`` first, then
        the columns of :meth:`ragwidgets.Scores.claims`: every label, its source, the passages
        that entail / contradict it, whether it counts as hallucinated, self-knowledge, noise-led)."""
        self._require("claims", " (the claims are held in the kernel)")
        return self.model.claims()

    def judge_variance(self, run: str | None = None) -> pd.DataFrame:
        """For a run judged several times (records filled with ``repeats=k``): per metric the mean
        under the policy's labels, today's interval, one judge run's expected mean (``judge_mean``,
        the mean of the repeat means) with its interval over questions and the judge's randomness
        (``judge_ci_low`` / ``judge_ci_high``), the mean per repeat and their spread
        (:func:`ragwidgets.analysis.judge_variance`, over all the run's samples)."""
        if not getattr(self.model, "repeats", None):
            raise ValueError("no run here was judged several times (score with repeats=k)")
        return self.model.judge_variance(run or self.run or next(iter(self.model.repeats))).frame

    def export_claims(self, path) -> Path:
        """Write :meth:`claims` to ``path`` as CSV, Parquet or JSONL, by its suffix (list columns as
        JSON text in CSV)."""
        write_claims(self.claims(), path)
        return Path(path)

    def sample(self, row: int):
        """The Sample of ``frame`` row ``row``."""
        return self.model.sample(row)

    # -- the one update path ------------------------------------------------------------------
    def _changed(self, change) -> None:
        if change["name"] == "expression":
            self._refused = {}
        if self._changes is not None:
            self._changes.add(change["name"])
        elif not self._busy:
            self._refresh()

    def _on_view_only(self, change) -> None:
        if self._changes is not None:
            self._changes.add(change["name"])
        elif not self._busy:
            self._refresh(reorder=False)

    def _control_values(self) -> dict:
        return {k: getattr(self, k) for k in self._controls}

    @staticmethod
    def _model_query(controls: dict) -> tuple[Query, Charts]:
        """The run model's Query (the expression and the charts' conditions joined by ``and``) and Charts."""
        c = controls
        parts = [e for e in (c["expression"], *c["conditions"]) if e.strip()]
        expression = " and ".join(f"({e})" for e in parts) if len(parts) > 1 else "".join(parts)
        return (Query(c["run"], c["text"], expression, c["slice"], c["brush"], c["sort_by"], c["descending"],
                      c["compare_metric"]),
                Charts(c["chart_metric"], c["scatter_x"], c["scatter_y"], c["group_by"]))

    def _refresh(self, reorder: bool = True) -> None:
        """Update the model (unless only the selection moved) and rebuild the view state; when the
        model's rows are new, the drilled sample stays selected if it is among them."""
        controls = self._control_values()
        if reorder:
            shown = self._sample_views.get("key")
            if self.model.update(*self._model_query(controls)):
                self._reselect(shown)
            self._error = "; ".join(self.model.errors)
        self.view_state = self._build(controls)
        with self.hold_sync():
            if reorder or self._rows.get("version") != self.model.version:
                self._rows = self._seed()
            self._show("_view", self.view_state)
            if self.selected != self._drilled:
                self._update_drill()

    def _reselect(self, shown) -> None:
        """Select the sample ``shown`` (a model's sample key) in the model's new rows, else none."""
        self._busy = True
        try:
            self.selected = self.model.row_of(shown) if shown is not None else -1
        finally:
            self._busy = False

    def _seed(self) -> dict:
        """The first SEED_ROWS rows of the order, as ``_rows`` saves them: a window's header with
        its numeric columns as lists (None for NaN) and its status codes."""
        header, _ = rows_message(self.model.version, 0, **(window := self._window(0, SEED_ROWS)))
        return {**header, "values": [[v if math.isfinite(v) else None for v in np.asarray(col, dtype=float).tolist()]
                                     for col in window["numeric"].values()],
                "codes": [np.asarray(col).astype(int).tolist() for col in window["status"].values()]}

    def _build(self, controls: dict) -> dict:
        query, charts = self._model_query(controls)
        view = self.model.view(query, charts, self.selected)
        if controls["percent"]:  # RAGChecker's display: the means and their intervals x 100
            view["summary"] = [{**r, **{k: None if r[k] is None else r[k] * 100 for k in ("mean", "ci_low", "ci_high")}}
                               for r in view["summary"]]
        metrics = [{"key": k, "label": LABELS.get(k.removeprefix(REQUIRED_PREFIX), k)} for k in self.metrics]
        state = {
            "runs": self.runs, "run": view["run"], "total": view["total"], "count": view["count"],
            "version": self.model.version, "error": "; ".join(e for e in (self._rejected, self._error) if e),
            "metrics": metrics, "chartable": metrics + [{"key": k, "label": f"{k} (external)"} for k in self.model.external],
            "columns": self._columns(), "all_columns": self._columns(every=True), "group_columns": self.group_columns,
            "controls": controls, "refused": self._refused, **view}
        state["reviews"] = self._review_state()
        state["whatif"] = "whatif" in self.model.capabilities  # the what-if panel is offered
        lacking = unavailable(self.model)
        if lacking:
            state["cluster"] = {**state.get("cluster", {}), "unavailable": lacking}
        return state

    def _columns(self, every: bool = False) -> list[dict]:
        """The table's columns (``table_columns``' choice and order; ``every``: all, in the default
        order: the text columns, the difference, the metrics, then the item counts)."""
        cols = []
        kinds = dict(sorted(self.model.columns(), key=lambda c: c[1] == "count"))  # the metrics before the counts
        for key, kind in (kinds.items() if every or not self.table_columns
                          else ((k, kinds[k]) for k in self.table_columns if k in kinds)):
            if kind == "external":  # another tool's number: drawn like a metric (NaN: missing, n/c), named as external
                cols.append({"key": key, "label": f"{key} (external)", "kind": "metric", "external": True})
            elif kind == "metric":
                cols.append({"key": key, "label": LABELS.get(key.removeprefix(REQUIRED_PREFIX), key), "kind": kind,
                             "lower_is_better": key.removeprefix(REQUIRED_PREFIX) in LOWER_IS_BETTER})
            else:
                label = {"text": key, "count": key.removeprefix("n_").replace("_", " "),
                         "difference": f"Δ {self.compare_metric} vs {self.runs[0]}"}[kind]
                cols.append({"key": key, "label": label, "kind": kind})
        return cols

    # -- rows on demand -----------------------------------------------------------------------
    def window(self, start: int, count: int) -> tuple[dict, list[bytes]]:
        """Rows ``start`` ... ``start + count`` of the filtered order, as :func:`rows_message`
        sends them (ValueError unless both are whole numbers, ``start`` ≥ 0 and ``count`` from 0
        to MAX_WINDOW)."""
        start = _whole(start, "start", 0, None)
        return rows_message(self.model.version, start, **self._window(start, _whole(count, "count", 0, MAX_WINDOW)))

    def _window(self, start: int, count: int) -> dict:
        """The model's window of rows, each query cut to QUERY_CHARS."""
        window = self.model.window(start, count)
        return {**window, "query": [q[:QUERY_CHARS] for q in window["query"]]}

    def step(self, delta: int) -> None:
        """Select the row ``delta`` places after the selected one in the filtered order (the first
        row when the selection is not among them)."""
        delta = _whole(delta, "delta", None, None)
        order = self.order
        if not len(order):
            return
        where = np.flatnonzero(order == self.selected)
        i = 0 if not len(where) else min(max(int(where[0]) + delta, 0), len(order) - 1)
        self.selected = int(order[i])

    _reply_types = {"rows": "rows"}

    def _handlers(self) -> dict:
        """The front end's requests, ``{"type", "request", ...}`` (type one of REQUESTS). Each gets
        one reply carrying its ``request`` (base.Widget): a window of rows (type "rows") or
        ``{"type": "reply"}``, with ``error`` when it failed (the widget's state is then as it was)."""
        return {
            "rows": lambda m, _: self.window(m.get("start"), m.get("count")),
            "step": lambda m, _: self.step(m.get("delta")),
            "add_slice": lambda m, _: self.add_slices([Slice(_text(m, "name").strip(), _text(m, "expression"))]),
            "drill": lambda m, _: self._drill_patch(m.get("which"), m.get("patch")),
            "review": lambda m, _: self.review(m.get("kind"), m.get("claim"), m.get("label"), m.get("doc_id"),
                                               which=m.get("which", "main")),
            "trace": lambda m, _: self._trace_reply(m.get("which", "main"), m.get("kind"), m.get("claim"),
                                                    m.get("doc_id")),
            "trust": lambda m, _: setattr(self, "trust_open", bool(m.get("open", True))),
            "save_slices": lambda m, _: self._slices_file(m, save=True),
            "load_slices": lambda m, _: self._slices_file(m, save=False),
            "export": lambda m, _: self._export_reply(self._front_end_file(m, write=True), m.get("format")),
            "export_claims": lambda m, _: self._claims_reply(self._front_end_file(m, write=True)),
            "whatif": lambda m, _: self._what_if_reply(m.get("doc_id"), m.get("text")),
        }

    def _trace_reply(self, which, kind, claim, doc_id) -> dict:
        found, why = self._find_trace(which, kind, claim, doc_id)
        return {"trace": None if found is None else found.to_json(), "reason": why}

    def _front_end_file(self, content, *, write: bool) -> Path:
        """The file a request's ``path`` names, confined to ``files_root`` (see ``_paths``): never
        out of it, and a file to write new unless Python set ``overwrite``."""
        return front_end_path(self.files_root, content.get("path"), write=write, overwrite=self.overwrite)

    def _slices_file(self, content, *, save: bool) -> dict:
        path = self._front_end_file(content, write=save)
        if save:
            self.save_slices(path)
            return {"said": f"Saved {len(self.slices)} slices to {path.resolve()}"}
        return {"said": f"Loaded {len(self.load_slices(path))} slices from {path.resolve()}"}

    def _export_reply(self, path, fmt) -> dict:
        written = self.export_rows(path, fmt)
        return {"said": f"Wrote {len(self.order):,} rows to {written.resolve()}"}

    def _claims_reply(self, path) -> dict:
        claims = self.claims()
        write_claims(claims, path)
        return {"said": f"Wrote the {len(claims):,} claims of {len(self.order):,} samples to {Path(path).resolve()}"}

    def _drill_patch(self, which, patch) -> None:
        """Apply a drill-down view's action (``which``: "main" or "other") and redraw it."""
        if which not in ("main", "other") or which not in self._sample_views:
            raise ValueError(f"no drill-down view {which!r:.80} (open: "
                             f"{', '.join(k for k in self._sample_views if k != 'key') or 'none'})")
        if not isinstance(patch, dict):
            raise ValueError(f"a drill-down patch must be an object, not {patch!r:.80}")
        self._sample_views[which].apply(patch)
        self._update_drill()

    # -- reviews ------------------------------------------------------------------------------
    @property
    def reviews(self):
        """The reviews in force: the run's Reviews (``{run: Reviews}`` for several runs)."""
        self._require("reviews", "")
        return self.model.reviews

    def _drill_run(self, which) -> str:
        return self._sample_views["run"] if which == "main" else self.runs[0]

    def _open_view(self, which) -> SampleView:
        if which not in ("main", "other") or which not in self._sample_views:
            raise ValueError(f"no drill-down view {which!r:.80} (open: "
                             f"{', '.join(k for k in ('main', 'other') if k in self._sample_views) or 'none'})")
        return self._sample_views[which]

    def review(self, kind: str, claim: int, label: str | None, doc_id: str | None = None, note: str = "",
               *, which: str = "main") -> list:
        """Review a label of the drilled sample (``which`` "other": the baseline run's same query),
        as :meth:`SampleExplorer.review <ragwidgets.widgets.SampleExplorer.review>`: ``label`` None
        confirms the judge's, ``doc_id`` None on a retrieved2* kind is the whole row. The run's
        table, summary and drill-down update; returns the Reviews made."""
        self._require("reviews", " (a Dask-scored run's labels stay on the cluster)")
        sv = self._open_view(which)
        made = sv.review(kind, claim, label, doc_id, reviewer=self.reviewer, note=note)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)  # the sample view checked them: they match
            self.model.review(Reviews(made), run=self._drill_run(which))
        if self._trust is not None:
            self._trust = self._trust_tables()
        self._refresh()
        self._update_drill()
        return made

    def _find_trace(self, which, kind, claim, doc_id=None):
        if self.judge is None:
            return None, "no trace kept: no judge was given (DatasetExplorer(..., judge=...))"
        return find_trace(self.judge, self._open_view(which).judged, kind, claim, doc_id)

    def trace(self, kind: str, claim: int, doc_id: str | None = None, *, which: str = "main") -> Trace | None:
        """The judge's trace behind one label of the drilled sample, or None (none kept, no judge)."""
        return self._find_trace(which, kind, claim, doc_id)[0]

    @property
    def trust_open(self) -> bool:
        """Whether the trust panel is open (its tables are computed while it is)."""
        return self._trust is not None

    @trust_open.setter
    def trust_open(self, value: bool) -> None:
        self._require("reviews", "")
        self._trust = self._trust_tables() if value else None
        self._refresh(reorder=False)

    def trust(self) -> dict:
        """The trust panel's tables: ``agreement`` (:func:`ragwidgets.analysis.agreement`'s
        Agreement) and ``corrected`` (:func:`ragwidgets.analysis.corrected`'s DataFrame, one run; a
        dict per run when several runs are reviewed)."""
        self._require("reviews", "")
        judged, reviews = self._judged, self.model.reviews
        per_run = reviews if isinstance(reviews, dict) else {self.runs[0]: reviews}
        several = len(judged) > 1
        return {"agreement": agreement(judged if several else judged[self.runs[0]],
                                       per_run if several else per_run[self.runs[0]], by="run" if several else None),
                "corrected": {run: corrected(judged[run], per_run[run]) for run in judged} if several
                else corrected(judged[self.runs[0]], per_run[self.runs[0]])}

    def _trust_tables(self) -> dict:
        """The trust panel's view: each table's columns and rows (None: Undefined, with its reason)."""
        t = self.trust()
        tables = t["corrected"] if isinstance(t["corrected"], dict) else {"": t["corrected"]}
        table = t["agreement"].table
        by = [t["agreement"].by] if t["agreement"].by else []
        agreement_shown = pd.DataFrame({
            "kind": table["kind"], **{b: table[b] for b in by}, "n": table["n"], "samples": table["n_samples"],
            "agreement": table["agreement"], "kappa": table["kappa"],
            "kappa 95%": [_span(lo, hi) for lo, hi in zip(table["kappa_low"], table["kappa_high"])],
            "majority label": table["majority_label"], "base rate": table["base_rate"],
            "macro-F1": table["macro_f1"], "majority macro-F1": table["majority_macro_f1"],
            "2-class kappa": table["binary_kappa"], "reason": table["reason"]})
        return {"agreement": frame_view(agreement_shown),
                "corrected": {run: frame_view(pd.DataFrame({
                    "metric": [LABELS.get(m.removeprefix(REQUIRED_PREFIX), m) for m in f.index],
                    **{k: v for name in ("judge", "reviewed", "corrected") for k, v in (
                        (name, f[f"{name}_mean"]),
                        (f"{name} 95%", [_span(lo, hi) for lo, hi in zip(f[f"{name}_low"], f[f"{name}_high"])]))},
                    "reviewed samples": f["n_reviewed"], "discordant": f["n_discordant"], "samples": f["n_samples"],
                    f"to review for ±{PLAN_WIDTH:g}": review_plan(f, PLAN_WIDTH)["more"].reindex(f.index),
                    "reason": f["reason"]}))
                    for run, f in tables.items()},
                "n_reviews": sum(len(r) for r in ([self.model.reviews] if not isinstance(self.model.reviews, dict)
                                                  else self.model.reviews.values()))}

    def _review_state(self) -> dict | None:
        """The run-level "what changed": per reviewed run, the metrics whose mean moved."""
        if not self._reviewable:
            return None
        runs = []
        for run in self.runs:
            s = self.model.review_summary(run)
            n = int(s["reviews"].iat[0]) if len(s) else 0
            if not n:
                continue
            moved = [f"{LABELS.get(m.removeprefix(REQUIRED_PREFIX), m)} {_mean(r.judge_mean)} → {_mean(r.reviewed_mean)}"
                     for m, r in s.iterrows() if _mean(r.judge_mean) != _mean(r.reviewed_mean)]
            runs.append({"run": run, "reviews": n, "samples": int(s["reviewed_samples"].iat[0]),
                         "line": f"{', '.join(moved) or 'no mean changed'} after {n} review{'s' if n != 1 else ''}"})
        return {"runs": runs, "problems": [str(p) for p in self.model.review_problems[:20]],
                "trust": self._trust}

    # -- drill-down ---------------------------------------------------------------------------
    def _clear_drill(self) -> None:
        self._sample_views = {}
        self._show("_drill", None)
        self._show("_other", None)

    def _update_drill(self) -> None:
        row = self._drilled = self.selected
        if not 0 <= row < len(self.frame):
            self._clear_drill()
            return
        key = self.model.sample_key(row)
        if self._sample_views.get("key") != key:
            try:
                drill = self.model.drill(row)
            except Exception as err:  # noqa: BLE001 - shown in the view, as every other error
                self._error = str(err)
                self.view_state = {**self.view_state, "error": self._error}
                self._show("_view", self.view_state)
                self._clear_drill()
                return
            self._sample_views = {"key": key, "run": drill.run,
                                  "main": self._drill_view(drill.run, drill.query_id, drill.sample, drill.undefined)}
            self._drill_title = f"{show_id(drill.run)} · {show_id(drill.query_id)}"
            if drill.baseline is not None:
                self._sample_views["other"] = self._drill_view(self.runs[0], drill.query_id, drill.baseline,
                                                               drill.undefined)
        self._show("_drill", self._drill_payload("main", self._drill_title if len(self.runs) > 1 else None))
        other = self._sample_views.get("other")
        self._show("_other", None if other is None else self._drill_payload(
            "other", f"{show_id(self.runs[0])} (baseline) · {show_id(other.sample.query_id)}"))

    def _drill_view(self, run: str, query_id: str, sample, undefined: str) -> SampleView:
        """The drill-down's view of one sample: over the judge's labels with the run's reviews of it
        in force (reviewable), or the model's sample as it is (a run that cannot review)."""
        if not self._reviewable:
            return SampleView(sample, undefined=undefined)
        judged = self._judged[run]
        reviews = self.model.reviews if len(self.runs) == 1 else self.model.reviews[run]
        return SampleView(judged.samples[judged.sample_index(query_id)], undefined=undefined,
                          reviews=reviews.for_sample(query_id), reviewable=True)

    def _drill_payload(self, which: str, title: str | None) -> dict:
        view = self._sample_views[which].view(title=title)
        run = self._sample_views["run"] if which == "main" else self.runs[0]
        repeats = getattr(self.model, "repeats", {}).get(run)
        if repeats is not None:  # judged several times: the labels whose repeats disagree, with their counts
            view["repeats"] = {"n": repeats.n_repeats, "labels": label_distributions(repeats, view["query_id"])}
        if "review" in view:
            view["review"].update(traces=self.judge is not None, error="", queue=None, file=None)
        else:
            view["review_note"] = (f"Reviewing labels is not available on {self.model.where} "
                                   "(the labels stay on the cluster).")
        return view

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
        self._require("whatif", " (they rescore every sample in the kernel)")
        return self.model.top_k(run or self.run or self.runs[0])

    def _what_if_rows(self, run: str | None) -> tuple[str, np.ndarray]:
        """The run a what-if is for (``run``, else the run shown, else the first) and the positions
        in its Scores of its rows the controls keep (a run's rows are one block of ``frame``, in
        its samples' order)."""
        run = run or self.run or self.runs[0]
        if run not in self.runs:
            raise ValueError(f"run must be one of {', '.join(map(repr, self.runs))[:300]}, not {run!r:.80}")
        mine = self.frame["run"].to_numpy() == run
        order = self.order
        return run, order[mine[order]] - int(np.argmax(mine))

    def what_if(self, doc_id: str | None = None, text: str | None = None, *, run: str | None = None,
                seconds: float | None = None) -> dict:
        """The what-if panel's numbers, no judge call, for one run (``run``, else the run shown,
        else the first) over its rows the controls keep (``filtered``): ``top_k`` is
        :func:`~ragwidgets.analysis.top_k_curve` on those rows; given a ``doc_id`` and/or a
        ``text`` pattern (regular expressions, RE2 syntax; blank: none), ``dropped`` is
        :func:`~ragwidgets.analysis.drop_passages`' before / after table on them (None without a
        pattern), with ``n_dropped`` passages in ``samples_touched`` samples; ``run`` and
        ``samples`` (how many rows) say what was counted. A pattern whose match runs past
        ``seconds`` (None: no budget; the panel's is WHATIF_SECONDS) stops with
        :class:`~ragwidgets.analysis.whatif.PatternTooCostly`."""
        self._require("whatif", " (they rescore every sample in the kernel)")
        run, rows = self._what_if_rows(run)
        scores = self.scores[run]
        out = {"run": run, "samples": len(rows), "top_k": top_k_curve(scores, rows=rows), "dropped": None,
               "n_dropped": 0, "samples_touched": 0}
        doc_id, text = doc_id or None, text or None
        if doc_id is not None or text is not None:
            dropped = drop_passages(scores, doc_id=doc_id, text=text, rows=rows, seconds=seconds)
            out.update(dropped=dropped.table, n_dropped=dropped.n_dropped, samples_touched=dropped.samples_touched)
        return out

    def _what_if_reply(self, doc_id, text) -> dict:
        """:meth:`what_if` as the panel draws it: each table's columns and rows (None: no defined
        sample), the metrics' labels, and the view version it was computed for."""
        w = self.what_if(doc_id, text, seconds=WHATIF_SECONDS)
        names = set(w["top_k"]["metric"]) | (set() if w["dropped"] is None else set(w["dropped"]["metric"]))
        return {"version": self.model.version, "run": w["run"], "samples": w["samples"],
                "labels": {m: LABELS.get(m.removeprefix(REQUIRED_PREFIX), m) for m in sorted(names)},
                "top_k": frame_view(w["top_k"]), "dropped": None if w["dropped"] is None else frame_view(w["dropped"]),
                "n_dropped": w["n_dropped"], "samples_touched": w["samples_touched"]}

    def to_html(self, path, *, worst: int = 20) -> Path:
        """Write a self-contained static report (summary, charts as inline SVG, slices, comparison,
        the ``worst`` filtered samples by the chart metric with their claims): no script, no
        network, no kernel needed to read it."""
        from ..atomic import atomic_write
        from .report import report_html
        self._require("report", " (it reads every sample's claims in the kernel)")
        path = Path(path)
        page = report_html(self, worst=worst)
        with atomic_write(path, encoding="utf-8") as out:  # the old report stays if this fails
            out.write(page)
        return path


def _chart_defaults(model) -> dict:
    """The charts a run opens with: its first metric's (another tool's first number where no metric
    is defined), the scatter of the first two, or of another tool's score against ours."""
    shown = model.metrics or list(model.external)
    first = shown[0] if shown else ""
    pair = next(iter(model.counterparts.items()), (first, shown[1] if len(shown) > 1 else first))
    return {"chart_metric": first, "scatter_x": pair[0], "scatter_y": pair[1], "group_by": model.group_columns[0]}


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


def frame_view(frame: pd.DataFrame) -> dict:
    """A small table as the view carries it: its columns and rows, NaN and None as None (Undefined)."""
    rows = [[None if (isinstance(v, float) and math.isnan(v)) else (v.item() if isinstance(v, np.generic) else v)
             for v in row] for row in frame.itertuples(index=False)]
    return {"columns": [str(c) for c in frame.columns], "rows": rows}


def _span(low, high) -> str | None:
    """An interval as the trust panel shows it, "0.372–0.428"; None (Undefined) when either end is."""
    if low is None or high is None or (isinstance(low, float) and math.isnan(low)) or (
            isinstance(high, float) and math.isnan(high)):
        return None
    return f"{low:.3f}–{high:.3f}"


def _mean(value) -> str:
    """A run mean as the "after N reviews" line shows it."""
    return "Undefined" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"


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
