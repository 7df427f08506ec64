"""A Dask-scored run as the DatasetExplorer's run model (:class:`ragwidgets.analysis.runs.RunModel`):
``rw.DatasetExplorer(dask_scores)`` finds it as the ``"cluster_run"`` back end.

The run stays on the cluster (its scores persisted there, and beside them each partition's index,
:mod:`ragwidgets.dask.index`, built when the explorer opens). Each update asks the cluster one
question (:func:`ragwidgets.dask.explore.ask`) for the pieces of the view whose controls changed:
the summary (exact means with the Undefined and not-computable counts), the charts' bins, cells
and group means, how many samples match, and the first ``rows`` of them by the sort metric;
``frame`` holds only those rows. A drill-down reads the selected sample's partition again on a
worker. What needs every row in the kernel is left out of ``capabilities``.
"""

from __future__ import annotations

import json

import dask
import distributed
import numpy as np
import pandas as pd

from ..analysis.filtering import expression_mask
from ..analysis.runs import Charts, Drill, HeldTable, Query, not_available
from ..errors import RagWidgetsError
from ..model import Sample
from .evaluate import DaskScores
from .explore import PARTITION, ViewSpec, ask, fetch_sample, index_of, place

ROWS = 500  # the table's rows: the first ROWS matching samples by the sort metric
NOT_CONNECTED = ("no Dask client is connected: a Dask-scored run is explored on the cluster that holds it; "
                 "connect one first (distributed.Client(cluster) or Client('tcp://host:8786'))")


def _connected() -> bool:
    try:
        return distributed.default_client().status == "running"
    except ValueError:
        return False


def _cluster_error(err: Exception) -> str:
    return f"the Dask cluster could not answer ({type(err).__name__}: {err})"


class ClusterRun(HeldTable):
    """The run model of a :class:`~ragwidgets.dask.DaskScores` (see the module docstring).

    ``frame`` is the table's rows (``query_id``, ``partition``, group columns, metrics and their
    ``_status``); ``dask_scores`` the run, persisted.
    """

    capabilities = frozenset()
    where = "a Dask-scored run"
    external: tuple[str, ...] = ()  # other tools' columns: none on a cluster yet
    counterparts: dict[str, str] = {}

    def __init__(self, source: DaskScores, *, rows: int = ROWS):
        if not isinstance(rows, int) or rows < 1:
            raise ValueError(f"rows must be a positive whole number, not {rows!r}")
        if not _connected():
            raise RagWidgetsError(NOT_CONNECTED)
        try:
            self.dask_scores = source.persist()
            aggregate = source.aggregate()
            self.metrics = [m for m in source.names if aggregate[m]["defined"]]
            if not self.metrics:
                raise RagWidgetsError("no metric is defined on any sample of this run: nothing to explore")
            self.group_columns = [*source.by, PARTITION]
            self._indexes = place(distributed.default_client().compute(  # each partition's index, on its worker
                [dask.delayed(index_of)(p, self.metrics, self.group_columns) for p in self.dask_scores.parts]))
        except (OSError, TimeoutError) as err:
            raise RagWidgetsError(_cluster_error(err)) from None
        self.rows = rows
        self.total = source.samples
        self.runs = ["run"]
        self.slices, self.comparison, self.scores, self.tables = [], None, {}, {}
        self._meta = source.meta
        self._pieces: dict[str, tuple] = {}  # piece of the view -> (the controls it was asked with, its value)
        self._use_table(None)
        self.version, self.errors, self.query = 0, [], Query()

    def _use_table(self, table: dict | None) -> None:
        """Make ``table`` (the cluster's ``table`` piece; None: no rows yet) the table's rows."""
        self._table = table
        self._frame = self._meta if table is None else table["top"]
        self._order = np.arange(len(self._frame))
        self._codes = {m: self._frame[m + "_status"].to_numpy() for m in self.metrics}
        self._status = pd.DataFrame(self._codes)

    @property
    def defaults(self) -> dict:
        """The Query values the run opens with: sorted by the first metric, its difference compared."""
        return {"compare_metric": self.metrics[0], "sort_by": self.metrics[0]}

    def check_expression(self, expression: str) -> None:
        """ValueError when ``expression`` does not evaluate on the run's columns (checked here)."""
        if expression.strip():
            expression_mask(self._meta, expression)

    @property
    def _sort_metric(self) -> str:
        """The metric the table is sorted by: ``sort_by`` when it is one, else the first."""
        return self.query.sort_by if self.query.sort_by in self.metrics else self.metrics[0]

    # -- an update: one question to the cluster -----------------------------------------------
    def _inputs(self, q: Query, charts: Charts, expression: str) -> dict[str, tuple]:
        """Each piece of the view ``q`` and ``charts`` ask for, and the values it depends on."""
        brush = json.dumps(q.brush, sort_keys=True)
        pieces = {"table": (expression, brush, self._sort_metric, q.descending), "summary": (expression, brush)}
        if charts.metric in self.metrics:
            pieces["distribution"] = (expression, charts.metric)
            if charts.group_by in self.group_columns:
                pieces["groups"] = (expression, brush, charts.metric, charts.group_by)
        if {charts.x, charts.y} <= set(self.metrics):
            pieces["scatter"] = (expression, brush, charts.x, charts.y)
        return pieces

    def update(self, query: Query, charts: Charts = Charts()) -> bool:
        """Ask the cluster for the pieces of the view whose query or chart changed; True when the
        table's rows are new."""
        q = self.query = query
        self.errors = [said for said, on in ((not_available(self, "text_search"), q.text),
                                             (f"choosing a run is not available on {self.where}", q.run)) if on]
        if q.sort_by not in self.metrics:
            self.errors.append(f"on a Dask-scored run the table is sorted by a metric, not {q.sort_by!r}; "
                               f"sorted by {self._sort_metric}")
        expression = q.expression.strip()
        inputs = self._inputs(q, charts, expression)
        stale = frozenset(k for k, v in inputs.items() if self._pieces.get(k, (None,))[0] != v)
        spec = ViewSpec(tuple(self.metrics), self._sort_metric, q.descending, self.rows, expression,
                        dict(q.brush), charts.metric, (charts.x, charts.y), charts.group_by, stale)
        answer = self._ask(spec) if stale else {}
        if answer is not None:
            self._pieces = {k: (inputs[k], answer[k] if k in stale else self._pieces[k][1]) for k in inputs}
        if answer and "table" in stale:
            self.version += 1
            self._use_table(answer["table"])
            return True
        return False

    def _ask(self, spec: ViewSpec) -> dict | None:
        """The cluster's answer to ``spec``, or None with the reason added to ``errors``."""
        if not _connected():
            self.errors.append(NOT_CONNECTED)
            return None
        try:
            return ask(self._indexes, spec)
        except Exception as err:  # noqa: BLE001 - a lost cluster raises many kinds; the view names it
            self.errors.append(_cluster_error(err))
            return None

    def _piece(self, name: str):
        return self._pieces[name][1] if name in self._pieces else None

    # -- the view's data ----------------------------------------------------------------------
    def view(self, query: Query, charts: Charts, selected: int) -> dict:
        """The view's data from the cluster's last answers (the charts ``update`` asked for);
        ``cluster`` describes the table."""
        aggregate = self._piece("summary") or {}
        summary = [{"run": self.runs[0], "metric": m, "mean": s["mean"], "ci_low": None, "ci_high": None,
                    **{k: s[k] for k in ("defined", "undefined", "not_computable")}}
                   for m, s in ((m, aggregate[m]) for m in self.metrics if m in aggregate)]
        return {
            "run": "", "total": self.total, "count": len(self._frame), "summary": summary, "slices": [],
            "compare": None,
            "charts": {k: self._piece(k) for k in ("distribution", "scatter", "groups") if k in self._pieces},
            "selected": {"row": selected, "index": selected, "run": "",
                         "query_id": self._frame["query_id"].iat[selected] if selected >= 0 else ""},
            "cluster": {"matching": sum(next(iter(aggregate.values()), {}).get(k, 0)
                                        for k in ("defined", "undefined", "not_computable")),
                        "defined": self._table["defined"] if self._table else 0,
                        "rows": self.rows, "sort_by": self._sort_metric, "descending": query.descending},
        }

    def columns(self) -> list[tuple[str, str]]:
        return [("query_id", "text"), (PARTITION, "count"), *((m, "metric") for m in self.metrics)]

    def window(self, start: int, count: int) -> dict:
        """Rows of the table (numeric: the partition and the metrics; no query text: the drill-down
        shows it)."""
        rows = self._order[start:start + count]
        top = self._frame.take(rows)
        blank = [""] * len(rows)
        return {"positions": rows, "run": blank, "query_id": top["query_id"].tolist(), "query": blank,
                "numeric": {c: top[c].to_numpy(dtype=float) for c in [PARTITION, *self.metrics]},
                "status": {m: self._codes[m][rows] for m in self.metrics}}

    # -- one sample, fetched ------------------------------------------------------------------
    def sample(self, row: int) -> Sample:
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

    def sample_key(self, row: int) -> tuple[int, str]:
        """(partition, query_id) of table row ``row``."""
        return int(self._frame[PARTITION].iat[row]), self._frame["query_id"].iat[row]

    def row_of(self, key: tuple[int, str]) -> int:
        """The table row of the sample ``key`` names, -1 when it is not among the rows."""
        where = np.flatnonzero((self._frame[PARTITION].to_numpy() == key[0])
                               & (self._frame["query_id"].to_numpy() == key[1]))
        return int(where[0]) if len(where) else -1

    def drill(self, row: int) -> Drill:
        return Drill(self.sample(row), self.runs[0], self._frame["query_id"].iat[row],
                     undefined=self.dask_scores.settings.undefined)
