"""A run as the DatasetExplorer sees it, with no widget in it: :func:`open_run` opens any input
as a run model (:class:`RunModel`): :class:`InMemoryRun` for one run or several in this
process, a Dask-scored run's back end's model (``ragwidgets.dask.run.ClusterRun``) on its cluster.

Modules: ``protocol`` (the model, its Query, Charts, Drill and capabilities), ``inputs`` (every
input read once), ``frame`` (filter, sort, windows of rows), ``views`` (the view's data),
``live_reviews`` (reviews applied while exploring), ``memory`` (InMemoryRun).
"""

from __future__ import annotations

from .inputs import RunInput, cluster_model, is_runs, read_runs
from .memory import InMemoryRun
from .protocol import CAPABILITIES, Charts, Drill, HeldTable, Query, RunModel, not_available, require, unavailable


def open_run(source, *, slices=None, rows: int | None = None, reviews=None, notes=None) -> RunModel:
    """The run model of ``source``: its back end's (a Dask-scored run's, with the table's
    ``rows``), else :class:`InMemoryRun` (with ``slices``, ``reviews`` and ``notes`` applied)."""
    model = cluster_model(source)
    if model is None:
        if rows is not None:
            raise TypeError("rows (the table's rows) is for a run explored on a cluster; this one is in memory")
        return InMemoryRun(source, slices=slices, reviews=reviews, notes=notes)
    if reviews is not None:
        require(model, "reviews", ": review the run in memory, DatasetExplorer(rw.evaluate(path), reviews=...)")
    if notes is not None:
        require(model, "notes", ": take notes on the run in memory, DatasetExplorer(rw.evaluate(path), notes=...)")
    if slices is not None:
        require(model, "slices", " (they need every row in the kernel): use the filter expression")
    return model(source) if rows is None else model(source, rows=rows)


__all__ = ["open_run", "InMemoryRun", "RunModel", "Query", "Charts", "Drill", "HeldTable", "CAPABILITIES",
           "require", "not_available", "unavailable", "RunInput", "read_runs", "cluster_model", "is_runs"]
