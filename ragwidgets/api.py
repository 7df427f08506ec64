"""The package's entry points that cross layers: they may import every layer, none imports them.

``evaluate`` dispatches to the in-process engine or to Dask; the back ends that lower layers
look up by name (:mod:`ragwidgets.backends`) are registered here.
"""

from __future__ import annotations

from . import backends
from .engine import Scores
from .engine import evaluate as evaluate_in_process
from .errors import InputError
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


class RunHistory:
    """A run history (:class:`ragwidgets.history_store.History`, every method of which it answers: ``add``,
    ``accept``, ``get``, ``runs``, ``metrics``, ``latest``...) with its views. ``frame``: runs x
    metrics with their intervals; :meth:`chart`: a metric's trend; :meth:`explore`: two runs in the
    DatasetExplorer's comparison; :meth:`compare`: the regression gate between two runs."""

    def __init__(self, path=None):
        from .history_store import History  # pandas and the analysis loaded on first use

        self.store = History(path)

    def __repr__(self) -> str:
        return f"rw.history({str(self.store.path)!r})"

    def __getattr__(self, name):
        if name == "store":
            raise AttributeError(name)
        return getattr(self.store, name)

    @property
    def frame(self):
        """Runs x metrics, read from the file: see :attr:`ragwidgets.history_store.History.frame`."""
        return self.store.frame

    def chart(self, metric: str, **options):
        """``metric``'s means over the runs with their intervals as a band and the judge's changes
        marked (:func:`ragwidgets.widgets.history_chart.history_chart`, its options)."""
        from .widgets.history_chart import history_chart

        return history_chart(self.store.frame, metric, **options)

    def _pair(self, base: str, new: str):
        entries = self.store.entry(base), self.store.entry(new)
        if entries[0].name == entries[1].name:
            raise InputError(f"{base!r} and {new!r} are the same run, {entries[0].name!r}: name two runs", field="new")
        return entries

    def explore(self, base: str = "accepted", new: str = "latest", **controls):
        """A DatasetExplorer comparing the runs ``base`` and ``new`` (names, "latest" or "accepted")
        query by query, ``base`` the baseline; ``controls`` go to the explorer."""
        from .widgets import DatasetExplorer

        a, b = self._pair(base, new)
        return DatasetExplorer({a.name: self.store.get(a.name), b.name: self.store.get(b.name)}, **controls)

    def compare(self, base: str = "accepted", new: str = "latest", **gate_options):
        """The regression gate of ``new`` against ``base`` (:func:`ragwidgets.analysis.gate.gate`, its
        options): each side scored from its stored records, its judge's repeats used when its
        records carry them, and the judges as stored (the gate says "cannot tell" when they differ)."""
        from .analysis.compare import judge_info
        from .analysis.gate import gate

        sides = {}
        for side, entry in zip(("base", "new"), self._pair(base, new)):
            records = self.store.get(entry.name)
            repeats = records if any(isinstance(r, dict) and r.get("label_repeats") for r in records) else None
            sides[side] = records
            gate_options.setdefault(f"{side}_repeats", repeats)
            gate_options.setdefault(f"{side}_judge", {"judge": entry.judge, "repeats": judge_info(records).repeats})
        return gate(evaluate(sides["base"]), evaluate(sides["new"]), **gate_options)


def history(path=None) -> RunHistory:
    """The run history in the SQLite file at ``path`` (default: ragwidgets-history.sqlite here) with
    its views: :class:`RunHistory`."""
    return RunHistory(path)


def _cluster_run():
    from .dask.run import ClusterRun
    return ClusterRun


def _cluster_scoring():
    from .dask import judging
    return judging


backends.register("cluster_run", _cluster_run)
backends.register("cluster_scoring", _cluster_scoring)

__all__ = ["evaluate", "history", "RunHistory", "Scores"]
