"""DatasetExplorer on a Dask-scored run: ``rw.DatasetExplorer(dask_scores)`` (or
``dask_scores.explore()``) is this subclass, the same widget in cluster mode.

The run stays on the cluster (its scores persisted there). Every change of a control asks the
cluster one question (:func:`ragwidgets.dask.explore.ask`): the summary (exact means with the
Undefined and not-computable counts), the charts' bins, cells and group means, how many samples
match, and the first ``rows`` of them by the sort metric; ``frame`` holds only those rows. The
drill-down reads the selected sample's partition again on a worker and scores that one sample
here. What needs every row in the kernel (full-text search, slices, comparing runs, what-ifs,
bootstrap intervals, the HTML report) is named as not available rather than shown broken.
"""

from __future__ import annotations

import json

import anywidget
import dask
import numpy as np
import pandas as pd

from ..analysis.filtering import expression_mask
from ..dask.explore import PARTITION, ViewSpec, ask, fetch_sample
from ..errors import RagWidgetsError
from .dataset import ControlError, DatasetExplorer, json_view, rows_message
from .sample_view import SampleView
from .view import LABELS

ROWS = 500  # the table's rows: the first ROWS matching samples by the sort metric
UNAVAILABLE = ("full-text search", "failure slices", "comparing runs", "what-ifs", "bootstrap intervals",
               "the HTML report", "sorting by anything but a metric")


NOT_CONNECTED = ("no Dask client is connected: a Dask-scored run is explored on the cluster that holds it; "
                 "connect one first (distributed.Client(cluster) or Client('tcp://host:8786'))")


def _connected() -> bool:
    import distributed
    try:
        return distributed.default_client().status == "running"
    except ValueError:
        return False


def _cluster_error(err: Exception) -> str:
    return f"the Dask cluster could not answer ({type(err).__name__}: {err})"


class ClusterDatasetExplorer(DatasetExplorer):
    """The DatasetExplorer over a :class:`ragwidgets.dask.DaskScores` (see the module docstring).

    ``frame`` is the table's rows (``query_id``, ``partition``, group columns, metrics and their
    ``_status``).
    """

    def __init__(self, source, *, rows: int = ROWS, slices=None, **controls):
        if slices is not None:
            raise RagWidgetsError("failure slices are not available on a Dask-scored run (they need every row "
                                  "in the kernel): use the filter expression")
        if not isinstance(rows, int) or rows < 1:
            raise ValueError(f"rows must be a positive whole number, not {rows!r}")
        if not _connected():
            raise RagWidgetsError(NOT_CONNECTED)
        try:
            self.dask_scores = source.persist()
            aggregate = source.aggregate()
            with dask.config.set({"dataframe.convert-string": False}):  # query_ids as they are: no conversion
                self._partitions = source.frame.to_delayed()  # per question; built once, reused
        except (OSError, TimeoutError) as err:
            raise RagWidgetsError(_cluster_error(err)) from None
        self.rows = rows
        self.metrics = [m for m in source.names if aggregate[m]["defined"]]
        if not self.metrics:
            raise RagWidgetsError("no metric is defined on any sample of this run: nothing to explore")
        self.total = source.samples
        self.runs = ["run"]
        self.group_columns = [*source.by, PARTITION]
        self.slices, self._slice_rows, self.comparison, self.scores, self.tables = [], {}, None, {}, {}
        self._meta = source.meta
        self._pieces: dict[str, tuple] = {}  # piece of the view -> (the controls it was asked with, its value)
        self._use_table(None)
        self._version, self._busy, self._error, self._changes, self._rejected = 0, False, "", None, ""
        self.view_state, self._sample_views, self._drilled = {}, {}, -1
        first = self.metrics[0]
        defaults = {"chart_metric": first, "scatter_x": first, "scatter_y": self.metrics[min(1, len(self.metrics) - 1)],
                    "group_by": self.group_columns[0], "compare_metric": first, "sort_by": first}
        anywidget.AnyWidget.__init__(self, **{**defaults, **controls})
        self.observe(self._changed, names=list(self._controls))
        self.observe(self._on_selected, names="selected")
        self.on_msg(self._message)
        self._refresh()

    def _use_table(self, table: dict | None) -> None:
        """Make ``table`` (the cluster's ``table`` piece; None: no rows yet) the table's rows."""
        self._table = table
        self._frame = self._meta if table is None else table["top"]
        self._order = np.arange(len(self._frame))
        self._codes = {m: self._frame[m + "_status"].to_numpy() for m in self.metrics}
        self._status = pd.DataFrame(self._codes)
        self._run_code = np.zeros(len(self._frame), dtype=np.int8)

    # -- the one update path: a question to the cluster ---------------------------------------
    def _check_expression(self, expression: str) -> None:
        """ValueError when ``expression`` does not evaluate on the run's columns (checked here)."""
        if expression.strip():
            try:
                expression_mask(self._meta, expression)
            except ValueError as err:
                raise ControlError(str(err)) from None

    def _inputs(self, expression: str) -> dict[str, tuple]:
        """Each piece of the view the controls ask for, and the controls it depends on."""
        brush = json.dumps(self.brush, sort_keys=True)
        pieces = {"table": (expression, brush, self._sort_metric, self.descending), "summary": (expression, brush)}
        if self.chart_metric in self.metrics:
            pieces["distribution"] = (expression, self.chart_metric)
            if self.group_by in self.group_columns:
                pieces["groups"] = (expression, brush, self.chart_metric, self.group_by)
        if {self.scatter_x, self.scatter_y} <= set(self.metrics):
            pieces["scatter"] = (expression, brush, self.scatter_x, self.scatter_y)
        return pieces

    def _refresh(self, reorder: bool = True) -> None:
        """Ask the cluster for the pieces of the view whose controls changed (none on a change of
        ``percent`` or of the selection), then rebuild the view state."""
        if reorder:
            self._errors = [f"{what} is not available on a Dask-scored run" for what, on in
                            (("full-text search", self.text), ("choosing a run", self.run)) if on]
            if self.sort_by not in self.metrics:
                self._errors.append(f"on a Dask-scored run the table is sorted by a metric, not {self.sort_by!r}; "
                                    f"sorted by {self._sort_metric}")
            expression = self.expression.strip()
            inputs = self._inputs(expression)
            stale = frozenset(k for k, v in inputs.items() if self._pieces.get(k, (None,))[0] != v)
            spec = ViewSpec(tuple(self.metrics), self._sort_metric, self.descending, self.rows, expression,
                            dict(self.brush), self.chart_metric, (self.scatter_x, self.scatter_y), self.group_by, stale)
            answer = self._ask(spec) if stale else {}
            if answer is not None:
                self._pieces = {k: (inputs[k], answer[k] if k in stale else self._pieces[k][1]) for k in inputs}
            if answer and "table" in stale:
                self._version += 1
                shown = self._drilled_sample()
                self._use_table(answer["table"])
                self._reselect(shown)
            self._error = "; ".join(self._errors)
        self.view_state = self._build()
        with self.hold_sync():
            self._view = json_view(self.view_state)
            if self.selected != self._drilled:
                self._update_drill()

    def _ask(self, spec: ViewSpec) -> dict | None:
        """The cluster's answer to ``spec``, or None with the reason added to the view's errors."""
        if not _connected():
            self._errors.append(NOT_CONNECTED)
            return None
        try:
            return ask(self._partitions, spec)
        except Exception as err:  # noqa: BLE001 - a lost cluster raises many kinds; the view names it
            self._errors.append(_cluster_error(err))
            return None

    def _drilled_sample(self) -> tuple | None:
        key = self._sample_views.get("key")
        return key[1:] if key else None

    def _reselect(self, shown: tuple | None) -> None:
        """Keep the drilled sample selected when it is among the new rows (else select none)."""
        where = np.flatnonzero((self._frame[PARTITION].to_numpy() == shown[0])
                               & (self._frame["query_id"].to_numpy() == shown[1])) if shown else []
        self._busy = True
        try:
            self.selected = int(where[0]) if len(where) else -1
        finally:
            self._busy = False

    def _piece(self, name: str):
        return self._pieces[name][1] if name in self._pieces else None

    def _build(self) -> dict:
        scale = 100 if self.percent else 1
        aggregate = self._piece("summary") or {}
        summary = [{"run": self.runs[0], "metric": m, "mean": None if s["mean"] is None else s["mean"] * scale,
                    "ci_low": None, "ci_high": None, **{k: s[k] for k in ("defined", "undefined", "not_computable")}}
                   for m, s in ((m, aggregate[m]) for m in self.metrics if m in aggregate)]
        row = self.selected
        return {
            "runs": self.runs, "run": "", "total": self.total, "count": len(self._frame),
            "version": self._version, "error": "; ".join(e for e in (self._rejected, self._error) if e),
            "metrics": [{"key": k, "label": LABELS.get(k.removeprefix("required_"), k)} for k in self.metrics],
            "columns": self._columns(), "group_columns": self.group_columns,
            "controls": {k: getattr(self, k) for k in self._controls},
            "summary": summary, "slices": [], "compare": None,
            "charts": {k: self._piece(k) for k in ("distribution", "scatter", "groups") if k in self._pieces},
            "selected": {"row": row, "index": row, "run": "",
                         "query_id": self._frame["query_id"].iat[row] if row >= 0 else ""},
            "cluster": {"matching": sum(next(iter(aggregate.values()), {}).get(k, 0)
                                        for k in ("defined", "undefined", "not_computable")),
                        "defined": self._table["defined"] if self._table else 0,
                        "rows": self.rows, "sort_by": self._sort_metric, "descending": self.descending,
                        "unavailable": list(UNAVAILABLE)},
        }

    @property
    def _sort_metric(self) -> str:
        """The metric the table is sorted by: ``sort_by`` when it is one, else the first."""
        return self.sort_by if self.sort_by in self.metrics else self.metrics[0]

    def _columns(self) -> list[dict]:
        metric_columns = [c for c in super()._columns() if c["kind"] == "metric"]
        return [{"key": "query_id", "label": "query_id", "kind": "text"},
                {"key": "partition", "label": "partition", "kind": "count"}, *metric_columns]

    def window(self, start: int, count: int) -> tuple[dict, list[bytes]]:
        """Rows of the table, as :meth:`DatasetExplorer.window` sends them (numeric: the partition
        and the metrics; no query text: the drill-down shows it)."""
        rows = self._window_rows(start, count)
        top = self._frame.take(rows)
        blank = [""] * len(rows)
        return rows_message(self._version, start, rows, run=blank, query_id=top["query_id"].tolist(), query=blank,
                            numeric={c: top[c].to_numpy(dtype=float) for c in ["partition", *self.metrics]},
                            status={m: self._codes[m][rows] for m in self.metrics})

    def add_slices(self, slices) -> None:
        raise RagWidgetsError("failure slices are not available on a Dask-scored run: use the filter expression")

    # -- drill-down: the one sample, fetched --------------------------------------------------
    def sample(self, row: int):
        """The Sample of table row ``row``, read again from its partition on a worker."""
        if not _connected():
            raise RagWidgetsError(NOT_CONNECTED)
        try:
            return fetch_sample(self.dask_scores, int(self._frame[PARTITION].iat[row]),
                                self._frame["query_id"].iat[row])
        except RagWidgetsError:
            raise
        except Exception as err:  # noqa: BLE001 - as in _ask
            raise RagWidgetsError(_cluster_error(err)) from None

    def _update_drill(self) -> None:
        row = self._drilled = self.selected
        if not 0 <= row < len(self._frame):
            self._clear_drill()
            return
        key = ("main", int(self._frame[PARTITION].iat[row]), self._frame["query_id"].iat[row])
        if self._sample_views.get("key") != key:
            try:
                sample = self.sample(row)
            except Exception as err:  # noqa: BLE001 - shown in the view, as every other error
                self._error = str(err)
                self.view_state = {**self.view_state, "error": self._error}
                self._view = json_view(self.view_state)
                self._clear_drill()
                return
            self._sample_views = {"key": key, "main": SampleView(sample, undefined=self.dask_scores.settings.undefined)}
        self._drill, self._drill_cells = self._sample_views["main"].payload()
        self._other, self._other_cells = "", b""

    def top_k(self, run: str | None = None):
        raise RagWidgetsError("what-ifs are not available on a Dask-scored run (they rescore every sample in the "
                              "kernel)")

    def to_html(self, path, *, worst: int = 20):
        raise RagWidgetsError("the HTML report is not available on a Dask-scored run (it reads every sample's "
                              "claims in the kernel)")
