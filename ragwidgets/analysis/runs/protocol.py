"""What a run model is: :class:`RunModel` (what the DatasetExplorer asks of a run), the
:class:`Query` that keeps and orders its rows, the :class:`Charts` a view asks for, a
:class:`Drill`, and :data:`CAPABILITIES` with :func:`require` / :func:`unavailable`, the one
place that says what a model lacks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np
import pandas as pd

from ...errors import RagWidgetsError

if TYPE_CHECKING:
    from ...engine.evaluate import Scores
    from ...model import Sample
    from ..compare import Comparison
    from ..slices import Slice
    from ..table import RunTable

CAPABILITIES = {  # what a run model may do -> how the explorer names it when it cannot
    "text_search": "full-text search", "slices": "failure slices", "compare": "comparing runs",
    "whatif": "what-ifs", "bootstrap": "bootstrap intervals", "report": "the HTML report",
    "sort_any": "sorting by anything but a metric", "reviews": "reviewing labels", "claims": "the per-claim table",
    "samples": "keeping chosen samples", "notes": "failure notes"}


@dataclass(frozen=True)
class Query:
    """Which rows to keep and in which order ("" = none): one run, a text search, a filter
    expression, a slice, a brush, chosen samples (``samples``: the query_ids kept, in every run;
    () = all), a sort key (``compare_metric``: the one ``difference`` is of)."""

    run: str = ""
    text: str = ""
    expression: str = ""
    slice: str = ""
    brush: dict = field(default_factory=dict)  # {"metric", "lo", "hi"} or {"metric", "undefined": True}
    sort_by: str = ""
    descending: bool = False
    compare_metric: str = ""
    samples: tuple[str, ...] = ()


@dataclass(frozen=True)
class Charts:
    """The charts a view asks for ("" = none): ``metric``'s distribution and its means by
    ``group_by``, the scatter of ``x`` against ``y``."""

    metric: str = ""
    x: str = ""
    y: str = ""
    group_by: str = ""


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
    ``"compare"`` ``difference(metric)``, with ``"whatif"`` ``top_k(run)``, with ``"notes"``
    ``notes``, ``note_files``, ``modes``, ``add_notes(run, notes)`` and ``change_notes(run, change)``.
    """

    capabilities: frozenset[str]  # keys of CAPABILITIES
    where: str  # how a message names this kind of run
    runs: list[str]
    metrics: list[str]
    group_columns: list[str]
    external: list[str]  # other tools' numeric columns (shown, filtered, charted, compared; never scored)
    counterparts: dict[str, str]  # an external column -> the metric it measures the same as
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
    def defaults(self) -> dict: ...  # the Query values a run opens with
    def check_expression(self, expression: str) -> None: ...
    def update(self, query: Query, charts: Charts = Charts()) -> bool: ...
    def view(self, query: Query, charts: Charts, selected: int) -> dict: ...
    def columns(self) -> list[tuple[str, str]]: ...
    def window(self, start: int, count: int) -> dict: ...
    def sample(self, row: int) -> Sample: ...
    def sample_key(self, row: int) -> object: ...
    def row_of(self, key) -> int: ...
    def drill(self, row: int) -> Drill: ...


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


def not_available(model, capability: str, why: str = "") -> str:
    """The sentence naming ``capability`` as not available on ``model`` (a run model or its
    class), then ``why`` (a gerund's phrase is singular: "comparing runs is")."""
    name = CAPABILITIES[capability]
    plural = name.endswith("s") and not name.split()[0].endswith("ing")
    return f"{name} {'are' if plural else 'is'} not available on {model.where}{why}"


def require(model, capability: str, why: str = "") -> None:
    """RagWidgetsError (:func:`not_available`) unless ``model`` has ``capability``."""
    if capability not in model.capabilities:
        raise RagWidgetsError(not_available(model, capability, why))


def unavailable(model) -> list[str]:
    """The names of what ``model`` cannot do, in the order of CAPABILITIES."""
    return [name for key, name in CAPABILITIES.items() if key not in model.capabilities]
