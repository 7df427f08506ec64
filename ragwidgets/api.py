"""The package's entry points that cross layers: they may import every layer, none imports them.

``evaluate`` dispatches to the in-process engine or to Dask; the back ends that lower layers
look up by name (:mod:`ragwidgets.backends`) are registered here.
"""

from __future__ import annotations

from . import backends
from .engine import Scores
from .engine import evaluate as evaluate_in_process
from .sources import is_scoring_result, scoring_records


def evaluate(data, scores=None, *, mode: str = "all_claims", undefined: str = "null",
             passage_active=None, on_error: str = "raise", engine: str = "numpy", by=None, reviews=None,
             notes=None):
    """Score ``data`` in this process (:func:`ragwidgets.engine.evaluate`, the arguments there) or,
    with ``engine="dask"``, on a Dask cluster: ``data`` is then a glob of files or a Dask DataFrame of
    records, and the result a :class:`ragwidgets.dask.DaskScores` (``pip install "ragwidgets[dask]"``)
    whose per-group aggregates are by the columns ``by`` adds (see :func:`ragwidgets.dask.evaluate`).
    ``reviews`` (a reviews file's path or an in-memory object) apply in this process only. A
    scorer's :class:`~ragwidgets.scoring.ScoringResult` is read as the explorers read it: its
    judge's records, with the reviews it was reviewed with unless ``reviews`` is given. ``notes``
    (failure notes: a notes file's path or an in-memory object) are carried as ``Scores.notes``."""
    if is_scoring_result(data):
        data, carried = scoring_records(data)
        reviews = carried if reviews is None else reviews
    if engine == "dask":
        if passage_active is not None:
            raise ValueError("engine='dask' takes no passage_active")
        if notes is not None:
            raise ValueError("notes are not carried by a Dask run yet: evaluate in this process (engine='numpy')")
        if reviews is not None:
            raise ValueError("reviews are not available on a Dask cluster yet: evaluate in this process "
                             "(engine='numpy') to apply them")
        from .dask import evaluate as evaluate_on_dask
        return evaluate_on_dask(data, scores, mode=mode, undefined=undefined, on_error=on_error, by=by)
    if by is not None:
        raise ValueError("by (group columns) is for engine='dask'; in one process, group scores.frame with pandas")
    if engine != "numpy":
        raise ValueError(f"engine must be 'numpy' or 'dask', not {engine!r}")
    return evaluate_in_process(data, scores, mode=mode, undefined=undefined, passage_active=passage_active,
                               on_error=on_error, reviews=reviews, notes=notes)


def _cluster_run():
    from .dask.run import ClusterRun
    return ClusterRun


def _cluster_scoring():
    from .dask import judging
    return judging


backends.register("cluster_run", _cluster_run)
backends.register("cluster_scoring", _cluster_scoring)

__all__ = ["evaluate", "Scores"]
