"""The DatasetExplorer's core: its traits (every control), the one update path, the table's rows
asked for in windows (``rows.py``), the step through them, and the one dispatcher of the front
end's requests, over a run model (:class:`~ragwidgets.analysis.runs.RunModel`):
:class:`~ragwidgets.analysis.runs.InMemoryRun` for a run in this process, the ``"cluster_run"``
back end's for a Dask-scored run. Every control is a trait (``run``, ``text``, ``expression``,
``conditions`` (the charts' clicks, each removable, joined to the expression by ``and``),
``slice``, ``brush``, ``samples`` (chosen samples kept: a label and their query_ids, e.g. a
trust panel cell's), ``sort_by``, ``descending``, the chart choices, ``table_columns``,
``selected``); a change updates the model and rebuilds the view state in one step (``_view``:
the core's part, the model's view data (summary, charts' pre-aggregated data, slices,
comparison, ``count`` of ``total``), then each panel's part; each view one
:func:`~ragwidgets.widgets.base.view_trait`). The panels (``PANELS``, one module each, twins of
``js/src/dataset/``) answer their requests; the drill-down (``drill.py``) fills ``_drill`` and
``_other``. What the model cannot do (its ``capabilities``) is named as not available. ``_rows``
carries the first SEED_ROWS rows of the order, so that a saved notebook or an export shows them
with no kernel; ``_row_changes`` the rows a review changed, which the front end patches in place.

Every control value is checked where it enters: set from Python, a value that is not valid (a
filter expression that does not evaluate included) raises :class:`ControlError`; sent by the
front end, it leaves the control as it was and the widget says why. Every request from the front
end gets one reply, with an ``error`` field when it failed.
"""

from __future__ import annotations

import math
import numbers
import os
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import traitlets

from ...analysis.review_queue import ReviewQueue
from ...analysis.runs import Charts, Query, not_available, open_run, require, unavailable
from ...analysis.slices import Slice, load_slices, save_slices
from ...engine.claims import write_claims
from ...engine.metrics import metric_label, metric_of
from ...errors import InputError, RagWidgetsError
from ...judges.traces import Trace
from ..base import Widget, bundled, view_trait
from . import export, whatif
from .adjudicate import AdjudicatePanel
from .changes import ChangesPanel
from .charts import ChartsPanel, altair_chart
from .common import DRILL, REVIEWED, ROWS, VIEW, Context, whole
from .drill import DrillPanel
from .calibration import CalibrationPanel
from .checks import ChecksPanel
from .export import ExportPanel
from .modes import ModesPanel
from .notes import NotesPanel, note_message
from .queue import QueuePanel
from .rows import MAX_WINDOW, SEED_ROWS, changed, rows_message, seed, window
from .slices import SlicesPanel, add
from .summary import SummaryPanel
from .trust import TrustPanel
from .whatif import WhatIfPanel

# The panels, each a module of this package, in the order of js/src/dataset.js's PANELS.
PANELS = (TrustPanel, ChartsPanel, SummaryPanel, ChangesPanel, WhatIfPanel, ExportPanel, SlicesPanel, DrillPanel,
          QueuePanel, AdjudicatePanel,
          NotesPanel, ModesPanel, ChecksPanel, CalibrationPanel)
# The front end's requests, each answered: the core's, then each panel's.
REQUESTS = ("rows", "step", "queue", "note", "reading", *(name for panel in PANELS for name in panel.requests))
BRUSH_KEYS = ("metric", "lo", "hi", "undefined")


def _samples_shown(samples: dict) -> dict:
    """The ``samples`` control as the view carries it: its label and how many query_ids ({}: none)."""
    return {"label": samples["label"], "n": len(samples["query_ids"])} if samples else {}


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

    Failure notes (a run in memory): ``notes`` (a notes file's path, read and appended to; Notes
    or records; ``{run: ...}``; default: the notes the Scores carry), ``author`` (the name new
    notes carry, default ``reviewer``); :meth:`start_reading` draws the failing samples to read,
    the drill-down's note box (key m, Enter: save and next) and :meth:`note` write notes, and
    ``frame`` carries a ``mode: <tag>`` column per failure mode.

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
    samples = traitlets.Dict().tag(sync=True)  # {"label", "query_ids"}: the chosen samples kept; {} = all
    table_columns = traitlets.List(traitlets.Unicode()).tag(sync=True)  # the table's columns in order; [] = all
    _rows = traitlets.Dict().tag(sync=True)  # the first SEED_ROWS rows of the order, saved with the notebook
    _row_changes = traitlets.Dict().tag(sync=True)  # the rows the last review changed in this order (rows.changed)
    _view = view_trait()  # each view trait is sent as changes to its _base (Widget._show)
    _view_base = view_trait()
    _drill = view_trait()  # the selected sample's view
    _drill_base = view_trait()
    _other = view_trait()  # the same query in the baseline run
    _other_base = view_trait()

    _controls = ("run", "text", "expression", "conditions", "slice", "brush", "sort_by", "descending",
                 "chart_metric", "scatter_x", "scatter_y", "group_by", "compare_metric", "percent", "samples")
    _view_only = ("selected", "table_columns")  # controls that change the view, not the rows

    def __init__(self, source, *, slices: list[Slice] | str | Path | None = None, rows: int | None = None,
                 reviews=None, reviewer: str = "", judge=None, files_root: str | Path | None = None,
                 overwrite: bool = False, notes=None, author: str = "", **controls):
        self.model = open_run(source, slices=slices, rows=rows, reviews=reviews, notes=notes)
        self.files_root = Path(files_root if files_root is not None else os.getcwd())  # the front end's files
        self.overwrite = bool(overwrite)  # whether the front end may replace a file there
        self.reviewer = str(reviewer)
        self.author = str(author) or self.reviewer  # the name new notes carry
        self.judge = judge
        self._panels = {panel.key: panel for panel in (P(self.model) for P in PANELS)}
        self._busy = False
        self._changes: set[str] | None = None  # the traits a front-end message changed, while it applies
        self._rejected = ""  # why the last front-end message's values were refused, while its view builds
        self._refused: dict = {}  # the expression the front end sent that was refused, and why, until one applies
        self._error = ""  # what the model's last update could not do, or why the drill-down failed
        self.view_state: dict = {}
        defaults = {k: v for panel in self._panels.values() for k, v in panel.defaults().items()}
        super().__init__(**{**defaults, **self.model.defaults, **controls})
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

    @traitlets.validate("samples")
    def _valid_samples(self, proposal):
        chosen = dict(proposal["value"])
        if not chosen:
            return chosen
        if "samples" not in self.model.capabilities:
            raise ControlError(not_available(self.model, "samples"))
        label, ids = chosen.get("label", ""), chosen.get("query_ids")
        if set(chosen) - {"label", "query_ids"} or not isinstance(label, str) or not isinstance(ids, list) \
                or not all(isinstance(q, str) for q in ids):
            raise ControlError("samples must be {'label': text, 'query_ids': [query_id, ...]}, "
                               f"not {chosen!r:.120}")
        return {"label": label, "query_ids": list(dict.fromkeys(ids))}

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

    def sample(self, row: int):
        """The Sample of ``frame`` row ``row``."""
        return self.model.sample(row)

    def judge_variance(self, run: str | None = None) -> pd.DataFrame:
        """For a run judged several times (records filled with ``repeats=k``): per metric the mean
        under the policy's labels, today's interval, one judge run's expected mean (``judge_mean``,
        the mean of the repeat means) with its interval over questions and the judge's randomness
        (``judge_ci_low`` / ``judge_ci_high``), the mean per repeat and their spread
        (:func:`ragwidgets.analysis.judge_variance`, over all the run's samples)."""
        if not getattr(self.model, "repeats", None):
            raise ValueError("no run here was judged several times (score with repeats=k)")
        return self.model.judge_variance(run or self.run or next(iter(self.model.repeats))).frame

    # -- the panels' actions, from Python -----------------------------------------------------
    def add_slices(self, slices) -> None:
        """Add (or replace, by name) slices; each must evaluate on this data, and a built-in slice's
        name keeps its own expression."""
        add(self.model, slices)
        self._redraw(ROWS)

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
        return export.export_rows(self.model, path, format)

    def claims(self) -> pd.DataFrame:
        """One row per claim of the filtered samples, in the table's order (``run`` first, then
        the columns of :meth:`ragwidgets.Scores.claims`: every label, its source, the passages
        that entail / contradict it, whether it counts as hallucinated, self-knowledge, noise-led)."""
        return export.claims(self.model)

    def export_claims(self, path) -> Path:
        """Write :meth:`claims` to ``path`` as CSV, Parquet or JSONL, by its suffix (list columns as
        JSON text in CSV)."""
        write_claims(self.claims(), path)
        return Path(path)

    @property
    def reviews(self):
        """The reviews in force: the run's Reviews (``{run: Reviews}`` for several runs)."""
        require(self.model, "reviews")
        return self.model.reviews

    def review(self, kind: str, claim: int, label: str | None, doc_id: str | None = None, note: str = "",
               *, which: str = "main") -> list:
        """Review a label of the drilled sample (``which`` "other": the baseline run's same query),
        as :meth:`SampleExplorer.review <ragwidgets.widgets.SampleExplorer.review>`: ``label`` None
        confirms the judge's, ``doc_id`` None on a retrieved2* kind is the whole row. The run's
        table, summary and drill-down update; returns the Reviews made."""
        made = self._panels["drill"].review(self._context(), kind, claim, label, doc_id, note, which=which)
        self._redraw(REVIEWED)
        return made

    def start_review(self, n: int = 200, strategy: str = "random", *, seed: int = 0, **options) -> ReviewQueue:
        """Review the next ``n`` samples of one run (the run shown; all runs shown: the first) in
        order: :func:`ragwidgets.analysis.review_queue`'s ``strategy`` "random", "stratified" with
        ``by=`` (and ``allocation=``, ``disagreement=``) or "consequential" with ``metric=``;
        samples fully reviewed already are skipped. Opens the first in the drill-down; the view
        shows the progress ("37 of 200 reviewed · faithfulness ±0.06, 140 more for ±0.05") and the
        reviews file; :meth:`next_in_queue` (] and [ in the view) moves along it. Returns the
        queue (``corrected(..., design=queue)`` takes it). Not on a Dask-scored run."""
        queue = self._panels["queue"].start(self._context(), n, strategy, seed, options)
        self._open_queued(int(self._panels["queue"].rows[0]) if len(queue) else None)
        return queue

    def next_in_queue(self, step: int = 1) -> None:
        """Open the queue's item ``step`` places on (negative: back), kept within the queue."""
        self._open_queued(self._panels["queue"].step(step))

    @property
    def review_progress(self) -> tuple[int, int] | None:
        """(reviewed, total) of the queue :meth:`start_review` started; None without one."""
        return self._panels["queue"].progress

    def start_reading(self, n: int, where: str = "", strategy: str = "random", by=None, seed: int = 0):
        """Read the next ``n`` failing samples (``where``: a filter expression; "" every sample) of
        the run shown (all runs shown: the first) for error analysis, skipping those with a note:
        :func:`ragwidgets.analysis.reading_queue` ("random", "stratified" with ``by``, "all"). Opens
        the first in the drill-down (its note box: key m; Enter saves and opens the next); the view
        shows "Reading 12 of 40 failing (...) · 5 tagged · Saved to notes.jsonl". Returns the
        queue (the design for the failure modes' rates over the run). Not on a Dask-scored run."""
        queue = self._panels["notes"].start(self._context(), n, where, strategy, by, seed)
        self._open_queued(int(self._panels["notes"].rows[0]) if len(queue) else None)
        return queue

    def next_to_read(self, step: int = 1) -> None:
        """Open the reading queue's item ``step`` places on (negative: back), kept within the queue."""
        self._open_queued(self._panels["notes"].step(step))

    @property
    def reading_progress(self) -> str | None:
        """"12 of 40 read · 5 tagged · Saved to notes.jsonl" for :meth:`start_reading`'s queue; None without one."""
        return self._panels["notes"].progress_words()

    def note(self, query_id: str, text: str = "", tags=(), claim: int | None = None, run: str | None = None):
        """Write a failure note on sample ``query_id`` (``claim``: on its response claim of that
        0-based index) of ``run`` (default: the drilled sample's, else the run shown, else the
        first): ``text``, ``tags`` (a list, or comma-separated text), by ``author``. No text and no
        tags says "read, nothing to note". Appended to the notes file first (``notes=`` a path);
        the mode columns and the view follow. Returns the Note; an InputError names a bad field."""
        made = self._panels["notes"].note(self._context(), query_id, text, tags, claim, run, self.author)
        self._noted_rows()
        self._redraw(VIEW)
        return made

    @property
    def notes(self):
        """The notes in force of the run shown (all runs shown: the first), Notes."""
        require(self.model, "notes")
        return self.model.notes[self.run or self.runs[0]]

    def _note_request(self, message: dict) -> None:
        """The front end's note (:func:`~.notes.note_message`), then, with ``advance``, the next
        sample: the reading queue's, or without one the table's next row."""
        m = note_message(message)
        if m["advance"] and m["query_id"] != self._selected_query_id():  # a box drawn for a sample no longer shown
            raise InputError(f"sample {m['query_id']!r:.80} is no longer the one shown: note not saved", field="query_id")
        self._panels["notes"].note(self._context(), m["query_id"], m["text"], m["tags"], m["claim"], m["run"],
                                   self.author)
        self._noted_rows()
        reading, before = self._panels["notes"].queue, self.selected
        if m["advance"] and reading is not None and len(reading):
            return self.next_to_read(m["advance"])  # opens the next, or redraws the view
        if m["advance"]:
            self.step(m["advance"])
        if self.selected == before:  # nothing opened: the view shows the note
            self._redraw(VIEW)

    def _selected_query_id(self) -> str | None:
        """The drilled sample's query_id; None when none is drilled."""
        frame = self.model.frame
        return str(frame["query_id"].iat[self.selected]) if 0 <= self.selected < len(frame) else None

    def _noted_rows(self) -> None:
        """The table's rows a note changed (its sample's mode cells), patched in place while the
        order's version stays (a new mode column is a new version: the rows are asked again)."""
        if self.view_state and self._rows.get("version") == self.model.version:
            self._row_changes = rows = changed(self.model, self.model.noted_rows)
            if any(r["start"] < SEED_ROWS for r in rows["rows"]):
                self._rows = seed(self.model)

    def _open_queued(self, row: int | None) -> None:
        """Select the queued sample at ``row`` (None: none) and redraw the queue's line."""
        if row is None or row == self.selected:
            self._redraw(VIEW)
        else:
            self.selected = row

    def trace(self, kind: str, claim: int, doc_id: str | None = None, *, which: str = "main") -> Trace | None:
        """The judge's trace behind one label of the drilled sample, or None (none kept, no judge)."""
        return self._panels["drill"].trace(self._context(), which, kind, claim, doc_id)[0]

    @property
    def trust_open(self) -> bool:
        """Whether the trust panel is open (its tables are computed while it is)."""
        return self._panels["trust"].tables is not None

    @trust_open.setter
    def trust_open(self, value: bool) -> None:
        self._panels["trust"].open(value)
        self._redraw(VIEW)

    def trust(self) -> dict:
        """The trust panel's tables: ``agreement`` (:func:`ragwidgets.analysis.agreement`'s
        Agreement) and ``corrected`` (:func:`ragwidgets.analysis.corrected`'s DataFrame, one run; a
        dict per run when several runs are reviewed)."""
        return self._panels["trust"].trust()

    def calibrate(self, checker, method: str = "isotonic", run: str = ""):
        """Fit a local checker to the run's reviews and show the fit in the Calibration tab
        (:class:`~ragwidgets.analysis.calibration.Calibration`; ``checker.calibrated(it)`` labels by it)."""
        fit = self._panels["calibration"].fit(checker, method, run)
        self._redraw(VIEW)
        return fit

    @property
    def calibration(self):
        """The last :meth:`calibrate` fit (None: none yet)."""
        return self._panels["calibration"].result

    def chart(self, kind: str = "distribution"):
        """The current ``distribution``, ``scatter``, ``groups`` or ``top_k`` (what-if) chart as an
        Altair chart (``.save("x.png")`` / ``.save("x.svg")`` renders offline through vl-convert)."""
        return altair_chart(kind, self.view_state["charts"], self.top_k() if kind == "top_k" else None)

    def top_k(self, run: str | None = None) -> pd.DataFrame:
        """What-if for one run (default: the run shown, else the first): every passage-reading
        metric if the retriever kept only its top k passages, k = 1 ... the longest retrieval."""
        return whatif.top_k(self.model, run or self.run or self.runs[0])

    def what_if(self, doc_id: str | None = None, text: str | None = None, *, run: str | None = None,
                seconds: float | None = None) -> dict:
        """The what-if panel's numbers, no judge call, for one run (``run``, else the run shown,
        else the first) over its rows the controls keep (``filtered``): ``top_k`` is
        :func:`~ragwidgets.analysis.top_k_curve` on those rows; given a ``doc_id`` and/or a
        ``text`` pattern (regular expressions, RE2 syntax; blank: none), ``dropped`` is
        :func:`~ragwidgets.analysis.drop_passages`' before / after table on them (None without a
        pattern), with ``n_dropped`` passages in ``samples_touched`` samples; ``run`` and
        ``samples`` (how many rows) say what was counted. A pattern whose match runs past
        ``seconds`` (None: no budget; the panel's is ``whatif.WHATIF_SECONDS``) stops with
        :class:`~ragwidgets.analysis.whatif.PatternTooCostly`."""
        return whatif.what_if(self.model, run or self.run or self.runs[0], doc_id, text, seconds)

    def to_html(self, path, *, worst: int = 20, notes=None, design=None) -> Path:
        """Write a self-contained static report (summary, charts as inline SVG, slices, comparison,
        the failure modes of the notes (``notes``: None, the explorer's) with each mode's share of
        the run when ``design`` (a ReadingQueue, or {run: ReadingQueue}; None: the reading queue
        of :meth:`start_reading`, if any) says how the samples read were drawn, the ``worst``
        filtered samples by the chart metric with their claims): no script, no network, no kernel
        needed to read it."""
        from ...atomic import atomic_write
        from ..report import report_html
        require(self.model, "report", " (it reads every sample's claims in the kernel)")
        path = Path(path)
        design = design if design is not None else self._context().reading
        page = report_html(self, worst=worst, notes=notes, design=design)
        with atomic_write(path, encoding="utf-8") as out:  # the old report stays if this fails
            out.write(page)
        return path

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

    def _context(self, controls: dict | None = None) -> Context:
        """The widget's plain values the panels see."""
        reading = self._panels["notes"]  # the reading queue, the design of the failure modes' rates
        return Context(controls or self._control_values(), self.selected, self.files_root, self.overwrite,
                       self.reviewer, self.judge, {reading.run: reading.queue} if reading.queue is not None else None)

    @staticmethod
    def _model_query(controls: dict) -> tuple[Query, Charts]:
        """The run model's Query (the expression and the charts' conditions joined by ``and``) and Charts."""
        c = controls
        parts = [e for e in (c["expression"], *c["conditions"]) if e.strip()]
        expression = " and ".join(f"({e})" for e in parts) if len(parts) > 1 else "".join(parts)
        return (Query(c["run"], c["text"], expression, c["slice"], c["brush"], c["sort_by"], c["descending"],
                      c["compare_metric"], tuple(c["samples"].get("query_ids", ()))),
                Charts(c["chart_metric"], c["scatter_x"], c["scatter_y"], c["group_by"]))

    def _refresh(self, reorder: bool = True) -> None:
        """Update the model (unless only the selection moved) and rebuild the view state; when the
        model's rows are new, the drilled sample stays selected if it is among them."""
        controls = self._control_values()
        if reorder:
            shown = self._panels["drill"].views.get("key")
            if self.model.update(*self._model_query(controls)):
                self._reselect(shown)
            self._error = "; ".join(self.model.errors)
        self.view_state = self._build(controls)
        with self.hold_sync():
            if reorder or self._rows.get("version") != self.model.version:
                self._rows = seed(self.model)
                self._row_changes = {}
            self._show("_view", self.view_state)
            if self.selected != self._panels["drill"].drilled:
                self._update_drill()

    def _reselect(self, shown) -> None:
        """Select the sample ``shown`` (a model's sample key) in the model's new rows, else none."""
        self._busy = True
        try:
            self.selected = self.model.row_of(shown) if shown is not None else -1
        finally:
            self._busy = False

    def _build(self, controls: dict) -> dict:
        """The view state: the core's (runs, counts, the metrics, the table's columns, the
        controls, errors), the run model's view data, then each panel's part."""
        query, charts = self._model_query(controls)
        view = self.model.view(query, charts, self.selected)
        metrics = [{"key": k, "label": metric_label(k)} for k in self.metrics]
        state = {
            "runs": self.runs, "run": view["run"], "total": view["total"], "count": view["count"],
            "version": self.model.version, "error": "; ".join(e for e in (self._rejected, self._error) if e),
            "metrics": metrics,
            "chartable": metrics + [{"key": k, "label": f"{k} (external)"} for k in self.model.external],
            "columns": self._columns(), "all_columns": self._columns(every=True), "group_columns": self.group_columns,
            "controls": {**controls, "samples": _samples_shown(controls["samples"])}, "refused": self._refused, **view}
        ctx = self._context(controls)
        for panel in self._panels.values():
            state.update(panel.part(ctx, view))
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
                cols.append({"key": key, "label": metric_label(key), "kind": kind,
                             "lower_is_better": metric_of(key).lower_is_better})
            else:
                label = {"text": key, "count": key.removeprefix("n_").replace("_", " "), "mode": key,
                         "difference": f"Δ {self.compare_metric} vs {self.runs[0]}"}[kind]
                cols.append({"key": key, "label": label, "kind": kind})
        return cols

    def _update_drill(self) -> None:
        """Show the drill-down of the selected row (its error, if the model could not, in the view)."""
        shown, error = self._panels["drill"].show(self._context())
        if error:
            self._error = error
            self.view_state = {**self.view_state, "error": error}
            self._show("_view", self.view_state)
        for name, view in shown.items():
            self._show(name, view)

    def _redraw(self, what: str) -> None:
        """Redraw after a panel's request or action (``what``: common's NOTHING ... REVIEWED), what
        changes sent in one message. A review leaves the order's version as it was unless it moved
        a row (the model orders again itself); while it stays, only the reviewed rows are sent
        (``_row_changes``), and the saved first rows again when one of them is among those."""
        with self.hold_sync():
            if what == REVIEWED:
                for panel in self._panels.values():
                    panel.reviewed(self._context())
                if self.view_state:
                    self._reviewed_rows()
            if what == ROWS and self.view_state:
                self._refresh()
            elif what == VIEW:
                self._refresh(reorder=False)
            if what in (DRILL, REVIEWED):
                self._update_drill()

    def _reviewed_rows(self) -> None:
        """The view, and the table's rows the last review changed (``_row_changes``), after a review."""
        version = self._rows.get("version")
        self._refresh(reorder=False)
        if version == self.model.version:
            self._row_changes = rows = changed(self.model, self.model.reviewed_rows)
            if any(r["start"] < SEED_ROWS for r in rows["rows"]):
                self._rows = seed(self.model)

    # -- rows on demand, and the requests -----------------------------------------------------
    def window(self, start: int, count: int) -> tuple[dict, list[bytes]]:
        """Rows ``start`` ... ``start + count`` of the filtered order, as :func:`rows_message`
        sends them (ValueError unless both are whole numbers, ``start`` ≥ 0 and ``count`` from 0
        to MAX_WINDOW)."""
        start = whole(start, "start", 0, None)
        count = whole(count, "count", 0, MAX_WINDOW)
        return rows_message(self.model.version, start, **window(self.model, start, count))

    def step(self, delta: int) -> None:
        """Select the row ``delta`` places after the selected one in the filtered order (the first
        row when the selection is not among them)."""
        delta = whole(delta, "delta", None, None)
        order = self.order
        if not len(order):
            return
        where = np.flatnonzero(order == self.selected)
        i = 0 if not len(where) else min(max(int(where[0]) + delta, 0), len(order) - 1)
        self.selected = int(order[i])

    _reply_types = {"rows": "rows"}

    def _handlers(self) -> dict:
        """The front end's requests, ``{"type", "request", ...}`` (type one of REQUESTS: the core's,
        then each panel's). Each gets one reply carrying its ``request`` (base.Widget): a window of
        rows (type "rows") or ``{"type": "reply"}``, with ``error`` when it failed (the widget's
        state is then as it was)."""
        handlers = {"rows": lambda m, _: self.window(m.get("start"), m.get("count")),
                    "step": lambda m, _: self.step(m.get("delta")),
                    "queue": lambda m, _: self.next_in_queue(m.get("step", 1)),
                    "note": lambda m, _: self._note_request(m),
                    "reading": lambda m, _: self.next_to_read(m.get("step", 1))}
        for panel in self._panels.values():
            for name, redraws in panel.requests.items():
                handlers[name] = partial(self._answer, getattr(panel, f"on_{name}"), redraws)
        return handlers

    def _answer(self, answer, redraws: str, message: dict, _buffers: list):
        """A panel's answer to a request, after which the core redraws what the panel said."""
        reply = answer(self._context(), message)
        self._redraw(redraws)
        return reply
