"""Reviews applied to a run held in memory while it is explored (:class:`LiveReviews`, a part of
:class:`~.memory.InMemoryRun`): only the reviewed samples are scored again, their values written
into the held tables and what derives from them found again; a run's Scores are rebuilt when
next asked for. The judge's own values stay in ``judge_frame`` / ``judge_status``."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ...engine import evaluate
from ...engine.evaluate import Scores
from ...engine.sums import mean_over_defined
from ...errors import InputWarning
from ...model import Sample
from ...reviews import ReviewProblem, Reviews, apply_to_sample, as_reviews, gone, warn_problems
from ..compare import compare_runs
from ..slices import members
from ..table import DEFINED_CODE, RunTable, run_table


class LiveReviews:
    """The reviews of an :class:`~.memory.InMemoryRun`: per run the judge's Scores (``_judge``),
    the reviews in force (``_reviews``), their file (``_logs``), the reviews that did not match
    (``_problems``) and the runs whose Scores are stale (``_stale``)."""

    reviewed_rows = np.zeros(0, dtype=np.int64)  # the frame positions the last review() scored again

    @property
    def scores(self) -> dict[str, Scores]:
        """Each run's Scores under its reviews (a run reviewed live is scored again when asked for)."""
        for name in sorted(self._stale):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", InputWarning)  # warned when the reviews came
                self._scores[name] = self._judge[name].reviewed(self._reviews[name])
        self._stale.clear()
        return self._scores

    @property
    def reviews(self) -> Reviews | dict[str, Reviews]:
        """The reviews in force: one run's Reviews, or ``{run: Reviews}`` for several runs."""
        return self._reviews[self.runs[0]] if len(self.runs) == 1 else dict(self._reviews)

    @property
    def review_files(self) -> dict[str, str]:
        """Each run's reviews file (the path given), for the runs whose reviews were given as one."""
        return {name: log.path for name, log in self._logs.items()}

    @property
    def review_problems(self) -> list[ReviewProblem]:
        """The reviews that did not match their sample (not applied), every run's."""
        return [p for name in self.runs for p in self._problems[name]]

    @property
    def judge_frame(self) -> pd.DataFrame:
        """``run``, ``query_id`` and the metrics under the judge's labels, row for row as ``frame``."""
        return self._judge_frame

    @property
    def judge_status(self) -> pd.DataFrame:
        """The status codes of ``judge_frame``'s metrics (as ``status`` for ``frame``)."""
        return self._judge_status

    def _reviewed_sample(self, run: str, i: int) -> Sample:
        judged = self._judge[run].batch.samples[i]
        mine = self._reviews[run].for_sample(judged.query_id)
        return apply_to_sample(judged, mine)[0] if mine else judged

    def review_summary(self, run: str | None = None) -> pd.DataFrame:
        """Per metric of ``run`` (the only run by default): the mean over defined samples under the
        judge's labels and under the reviews (None where no sample is defined), and how many labels
        and samples are reviewed: "faithfulness 0.60 -> 0.80 after 2 reviews"."""
        name = self._run_name(run)
        frame = self._cached(f"review means {name}", (), lambda: self._review_means(name)).copy()
        frame["reviews"] = len(self._reviews[name])
        frame["reviewed_samples"] = len(self._reviews[name].query_ids)
        return frame

    def _review_means(self, name: str) -> pd.DataFrame:
        """Per metric of run ``name``: its exact means under the judge's labels and the reviews (kept
        in the view cache until a review changes the values: every view shows them; a metric's
        reviewed mean is found again only when a review changed its values)."""
        rows = None
        out = {}
        for m in self.metrics:
            if (name, m) not in self._reviewed_means:
                rows = self._run_code == self.runs.index(name) if rows is None else rows
                self._reviewed_means[name, m] = mean_over_defined(self._values[m][rows],
                                                                  self._codes[m][rows] == DEFINED_CODE)[0]
            out[m] = {"judge_mean": self._judge_means[name][m], "reviewed_mean": self._reviewed_means[name, m]}
        return pd.DataFrame.from_dict(out, orient="index").rename_axis("metric")

    @functools.cached_property
    def _reviewed_means(self) -> dict[tuple[str, str], float | None]:
        """(run, metric) -> its exact mean under the reviews, for the metrics no review changed since."""
        return {}

    @functools.cached_property
    def _judge_means(self) -> dict[str, dict]:
        """Per run, per metric: its exact mean under the judge's labels (found once: a review never
        changes them, and every review that changes a value asked for them again)."""
        out = {}
        for code, name in enumerate(self.runs):
            rows = self._run_code == code
            out[name] = {m: mean_over_defined(self._judge_frame[m].to_numpy()[rows],
                                              self._judge_status[m].to_numpy()[rows] == DEFINED_CODE)[0]
                         for m in self.metrics}
        return out

    def _run_name(self, run: str | None) -> str:
        if run is None:
            if len(self.runs) > 1:
                raise ValueError(f"several runs: name the run ({', '.join(map(repr, self.runs))})")
            return self.runs[0]
        if run not in self.runs:
            raise ValueError(f"no run {run!r}; runs: {', '.join(map(repr, self.runs))}")
        return run

    def review(self, reviews, *, run: str | None = None) -> np.ndarray:
        """Apply more reviews (a Review, its JSON object, several, Reviews or a reviews file) to ``run``
        (the only run by default): only the reviewed samples are scored again, and ``frame``,
        ``status``, the summary, slices, comparison and order follow. Appended to the run's reviews
        file when it was given as a path. A review that does not match its sample is kept out, listed
        in ``review_problems`` and warned about. Returns the ``frame`` positions of the reviewed samples."""
        name = self._run_name(run)
        new = as_reviews([reviews] if isinstance(reviews, Mapping) else reviews)
        if name in self._logs:
            for r in new.history:
                self._logs[name].append(r)
        self._reviews[name] = merged = self._reviews[name] + new
        judge = self._judge[name]
        positions = judge._positions  # query_id -> position, found once per run
        found, samples, problems = [], [], gone(new, positions)
        for qid in new.query_ids:
            if qid in positions:
                sample, wrong = apply_to_sample(judge.batch.samples[positions[qid]], merged.for_sample(qid))
                found.append(positions[qid])
                samples.append(sample)
                problems += wrong
        again = set(new.query_ids)
        kept = [p for p in self._problems[name] if p.review.query_id not in again]
        self._problems[name] = kept + problems
        warn_problems(problems)
        self.reviewed_rows = self._run_start[name] + np.array(found, dtype=np.int64)
        if found:
            self._stale.add(name)
            self._patch(name, np.array(found, dtype=np.int64), samples)
        return self.reviewed_rows

    def _patch(self, name: str, found: np.ndarray, samples: list[Sample]) -> None:
        """Score ``samples`` (run ``name``'s at positions ``found``) and write their values into the held tables."""
        judge = self._judge[name]
        part = judge.parts[0]
        psg = part.derived.psg_active
        offset = judge.batch.psg_offset
        active = np.concatenate([psg[offset[i]:offset[i + 1]] for i in found])
        scored = evaluate(samples, part.names, mode=judge.mode, undefined=judge.undefined, passage_active=active)
        table = run_table(scored, self.metrics)
        rows = self._run_start[name] + found
        held = self.tables[name]
        changed = []
        for m in self.metrics:
            value, code = table.frame[m].to_numpy(dtype=float), table.status[m].to_numpy()
            same = np.array_equal(value, self._values[m][rows], equal_nan=True)
            if same and np.array_equal(code, self._codes[m][rows]):
                continue
            changed.append(m)
            for frame, at, new in ((self._frame, rows, value), (self._status, rows, code),
                                   (held.frame, found, value), (held.status, found, code)):
                column = frame[m].to_numpy(copy=True)  # a whole column set at once: cheaper than .iloc
                column[at] = new
                frame[m] = column
        self._refresh(changed, rows)

    def _refresh(self, changed: list[str], rows: np.ndarray) -> None:
        """Everything derived from the held values, found again after the metrics ``changed`` did
        on the ``frame`` rows ``rows`` (the summary's pieces of the other metrics are kept; a
        slice's expression reads one row at a time, so only these rows are tested again)."""
        if not changed:
            return
        self._rows.changed(changed)
        for key in [k for k in self._reviewed_means if k[1] in changed]:
            del self._reviewed_means[key]
        self._summarizer.update(RunTable(scores=None, frame=self._frame, status=self._status), changed)
        self._cache = {}
        part = RunTable(scores=None, frame=self._frame.iloc[rows], status=self._status.iloc[rows])
        for s in self.slices:  # a few rows in or out of each sorted set: no sort of the whole set (a review's cost)
            held = self._slice_rows[s.name]
            kept = held[~np.isin(held, rows)]
            new = np.unique(rows[members(part, s)]).astype(held.dtype, copy=False)
            self._slice_rows[s.name] = np.insert(kept, np.searchsorted(kept, new), new)
        if len(self.runs) > 1:
            self.comparison = compare_runs(self.tables, judges=self.judges)
        self._mask = None
        order, version = self._order, self.version
        self.update(self.query)
        if np.array_equal(order, self._order):
            self.version = version  # the same order: the rows stay in place, only these rows' values are new
