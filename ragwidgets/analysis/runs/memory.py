""":class:`InMemoryRun`: one run or several runs of the same queries held in this process, built
from :mod:`.inputs`' RunInputs, its rows kept and ordered by :mod:`.frame`, its view's data from
:mod:`.views`, live reviews from :mod:`.live_reviews`."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from ..._pages import small_pages
from ...engine.evaluate import Scores
from ...errors import InputWarning
from ...model import Sample
from ...reviews import Reviews
from ..compare import compare_runs
from ..external import DISAGREE
from ..judge_variance import JudgeVariance, flakiness
from ..slices import Slice, builtin_slices, check_builtin_name, load_slices, members
from ..summary import Summarizer
from ..table import COUNT_COLUMNS, DEFINED_CODE, NOT_COMPUTABLE_CODE, RunTable, defined_metrics, run_table
from ..whatif import top_k_curve
from .frame import Rows
from .inputs import FLAKY, MAX_GROUPS, RunInput, read_runs
from .live_notes import LiveNotes
from .live_reviews import LiveReviews
from .protocol import CAPABILITIES, Charts, Drill, HeldTable, Query
from .views import ViewParts

FLAKY_SLICE = Slice("flaky labels", f"{FLAKY} == 1", "a metric of the sample changes across the judge's repeats")


def _with_external(table: RunTable, extras: pd.DataFrame | None, external: list[str]) -> RunTable:
    """``table`` with the ``external`` columns of ``extras`` beside its metrics (NaN: not computable)."""
    if not external:
        return table
    values = extras[external].reindex(table.frame.index)
    status = pd.DataFrame({c: np.where(values[c].isna(), NOT_COMPUTABLE_CODE, DEFINED_CODE).astype(np.int8)
                           for c in external}, index=table.status.index)
    return RunTable(scores=table.scores, frame=table.frame.join(values), status=table.status.join(status))


class InMemoryRun(LiveReviews, LiveNotes, ViewParts, HeldTable):
    """One run or several runs of the same queries, held in this process: a path, records, Scores,
    ScoringResult, DataFrame, or ``{run_name: source}`` (the first run is the baseline);
    ``reviews`` applied at load (one run's, or ``{run: reviews}``), more live (:meth:`review`);
    ``notes`` (failure notes: one run's, or ``{run: notes}``; a path: a notes file, appended to by
    :meth:`add_notes`).

    ``frame`` is every run's per-sample table (``run``, ``query_id``, query, item counts, metrics,
    the DataFrame's short columns, the failure modes' ``mode: <tag>``; NaN = Undefined, not
    computable or not read), ``status`` says which for the metrics.
    """

    capabilities = frozenset(CAPABILITIES)
    where = "a run in this process"

    def __init__(self, source, *, slices: list[Slice] | str | Path | None = None, reviews=None, notes=None):
        with small_pages():  # the tables, slots and charts of a large run: hundreds of MB of fresh arrays
            inputs = read_runs(source, reviews)
            self._hold_runs(inputs)
            self._hold_tables(inputs)
            self._start_views()
            self._hold_notes(notes)
            self._add_builtin_slices()
            if slices is not None:
                self.add_slices(load_slices(slices) if isinstance(slices, (str, Path)) else slices)

    def _hold_runs(self, inputs: dict[str, RunInput]) -> None:
        """Each run's Scores, judge, repeats and reviews; the metrics defined on some run."""
        self.runs = list(inputs)
        self._scores: dict[str, Scores] = {name: i.scores for name, i in inputs.items()}
        self.judges = {name: i.judge for name, i in inputs.items()}  # who labelled each run
        self.repeats = {name: i.repeats for name, i in inputs.items() if i.repeats is not None}  # judged several times
        self.flakiness = {name: flakiness(r) for name, r in self.repeats.items()}
        self._variance: dict[str, JudgeVariance] = {}
        self._logs = {name: i.log for name, i in inputs.items() if i.log is not None}
        self._judge = {name: scores.judge_scores or scores for name, scores in self._scores.items()}
        self._reviews = {name: scores.reviews or Reviews() for name, scores in self._scores.items()}
        self._problems = {name: list(scores.review_problems) for name, scores in self._scores.items()}
        self._stale: set[str] = set()  # runs whose Scores are rebuilt when next asked for (after a review)
        self.metrics = list(dict.fromkeys(m for scores in self._scores.values() for m in defined_metrics(scores)))
        if not self.metrics and any(scores.batch.n_samples for scores in self._scores.values()):
            warnings.warn("no metric is computable on this run: its samples carry no claims or labels (raw rows: "
                          "score them with a judge first, rw.RagChecker(target_column=None).score(rows, judge), "
                          "then explore the result)", InputWarning, stacklevel=3)
        self.external = list(dict.fromkeys(c for i in inputs.values() for c in i.external))
        self.counterparts = {c: m for i in inputs.values() for c, m in i.external.items()
                             if m in self.metrics}  # an external column -> the metric it measures the same as

    def _hold_tables(self, inputs: dict[str, RunInput]) -> None:
        """Every run's table (``frame``, ``status``), under the judge's labels too, and their comparison."""
        self.tables: dict[str, RunTable] = {}
        frames, statuses, judge_frames, judge_statuses = [], [], [], []
        compared: dict[str, RunTable] = {}  # the run tables with their external columns, compared like metrics
        for name, i in inputs.items():
            table = self.tables[name] = run_table(i.scores, self.metrics, share=True)
            compared[name] = _with_external(table, i.extras, list(i.external))
            judged = (table if self._judge[name] is i.scores  # the run's own where nothing is reviewed
                      else run_table(self._judge[name], self.metrics, share=True))
            judge_frames.append(judged.frame[self.metrics])
            judge_statuses.append(judged.status.reset_index(drop=True))
            f = table.frame.reset_index()
            if i.extras is not None:
                f = f.join(i.extras.drop(columns=[c for c in i.extras if c in f]), on="query_id")
            if name in self.flakiness:  # 1: some metric of the sample changes across the judge's repeats
                f[FLAKY] = f["query_id"].map(self.flakiness[name].flaky).astype(float)
            f.insert(0, "run", name)
            frames.append(f)
            statuses.append(table.status.reset_index(drop=True))
        self._frame = pd.concat(frames, ignore_index=True)
        self._status = pd.concat(statuses, ignore_index=True)
        self.total = len(self._frame)
        self._row_in_run = np.concatenate([np.arange(t.n) for t in self.tables.values()])
        self._run_start = dict(zip(self.runs, np.r_[0, np.cumsum([t.n for t in self.tables.values()])].tolist()))
        self._judge_frame = pd.concat(judge_frames, ignore_index=True)
        self._judge_frame.insert(0, "query_id", self._frame["query_id"].array)  # shared, not made Python strings
        self._judge_frame.insert(0, "run", self._frame["run"].array)
        self._judge_status = pd.concat(judge_statuses, ignore_index=True)
        self.comparison = compare_runs(compared, judges=self.judges) if len(self.runs) > 1 else None

    def _start_views(self) -> None:
        """The rows' arrays and index, the group columns and the empty caches of the view."""
        self.slices: list[Slice] = []
        self._slice_rows: dict[str, np.ndarray] = {}
        self._rows = Rows(self._frame, self._status, self.runs, self.metrics, self.external, self._slice_rows)
        self._values, self._codes, self._run_code = self._rows.values, self._rows.codes, self._rows.run_code
        self.group_columns = ["run"] * (len(self.runs) > 1) + [
            c for c in self._frame.columns if c not in ("run", "query_id", "query", "response", *self.metrics)
            and self._frame[c].nunique() <= MAX_GROUPS and c not in COUNT_COLUMNS and c not in self.external] + ["n_passages"]
        self._order = np.arange(len(self._frame))
        self._mask = self._unbrushed = None
        self.version = 0
        self.errors: list[str] = []
        self.query = Query()  # as the last update set it
        self._summarizer = Summarizer(self._whole_table())
        self._groups: dict[str, tuple[np.ndarray, pd.Index]] = {}  # group column -> codes, names (_group_codes)
        self._cache: dict[str, tuple] = {}  # part of the view -> (inputs, value)

    def _add_builtin_slices(self) -> None:
        """The built-in slices, flaky labels for a run judged several times, and per external
        column with a counterpart where it disagrees with ours."""
        self.add_slices(builtin_slices(self._whole_table()) + [FLAKY_SLICE] * bool(self.repeats) + [
            Slice(f"{c} disagrees with {m}", f"abs({c} - {m}) >= {DISAGREE}",
                  f"another tool's {c} and ragwidgets' {m} differ by {DISAGREE} or more on the same answer", (m,))
            for c, m in self.counterparts.items()])

    def _whole_table(self) -> RunTable:
        """The runs' frames as one table (for the slices and the summary)."""
        return RunTable(scores=None, frame=self._frame, status=self._status)

    @property
    def defaults(self) -> dict:
        """The Query values the run opens with: the difference in the first metric (another
        tool's first number where no metric is defined)."""
        shown = self.metrics or self.external
        return {"compare_metric": shown[0] if shown else ""}

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
        self._rows.check_expression(expression)

    def update(self, query: Query, charts: Charts = Charts()) -> bool:
        """Keep and order the rows by ``query`` (``charts``: computed when the view asks); False:
        the rows of ``frame`` stay where they were."""
        self.query = query
        mask = self._rows.mask(query)
        self._order = self._rows.sort(np.flatnonzero(mask), query)
        self.version += 1
        if self._mask is None or not np.array_equal(mask, self._mask):
            self._mask = mask
            self._unbrushed = self._rows.mask(query, with_brush=False) if query.brush else mask
        return False

    def difference(self, metric: str) -> np.ndarray:
        """Per row: its ``metric`` minus the baseline run's on the same query (NaN where either is
        not defined, and on the baseline's rows)."""
        return self._rows.difference(metric)

    def columns(self) -> list[tuple[str, str]]:
        """The table's columns, as (key, kind: text, count, metric or difference)."""
        cols = [("query_id", "text"), ("query", "text")]
        if self.comparison is not None:
            cols = [("run", "text"), *cols, ("difference", "difference")]
        return cols + [(c, "count") for c in COUNT_COLUMNS] + [(m, "metric") for m in self.metrics] + [
            (c, "external") for c in self.external] + [(c, "mode") for c in self.modes]

    def window(self, start: int, count: int) -> dict:
        """Rows ``start`` ... ``start + count`` of the order: their positions in ``frame``, text
        columns and numeric ones (the item counts, the metrics and, comparing runs, the difference)."""
        return self._rows.window(self._order[start:start + count], self.metrics, self.external,
                                 self.query.compare_metric, self.modes)

    def top_k(self, run: str) -> pd.DataFrame:
        """What-if for ``run``: every passage-reading metric if the retriever kept only its top k
        passages, k = 1 ... the longest retrieval."""
        return top_k_curve(self.scores[run])

    # -- one sample ---------------------------------------------------------------------------
    def sample(self, row: int) -> Sample:
        """The Sample of ``frame`` row ``row`` (its reviewed labels, where reviewed)."""
        return self._reviewed_sample(self.runs[self._run_code[row]], int(self._row_in_run[row]))

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
