"""The review queue (``js/src/dataset/queue.js``): the samples of one run to review next, in
order (:func:`ragwidgets.analysis.review_queue`: random, stratified or consequential), the item
shown, which items are done (:func:`~ragwidgets.analysis.review_queue.sample_done`: every label of
the queue's kinds reviewed, by two reviewers for a double one), and the progress line:
"37 of 200 reviewed · faithfulness ±0.06, 140 more for ±0.05" (the corrected interval's
half-width of the main metric, :func:`~ragwidgets.analysis.corrected` with the queue as its
design, and :func:`~ragwidgets.analysis.plan.review_plan`'s reviews still to do) and the reviews
file's name. The interval costs a pass over the run (~0.1 s at 100k samples): it is computed when
the front end asks (``queue_interval``, after a pause in the reviewing), never on a review."""

from __future__ import annotations

import warnings

import numpy as np

from ...analysis.corrected import corrected
from ...analysis.plan import review_plan
from ...analysis.review_queue import EMPTY, EMPTY_STEP, NO_QUEUE, ReviewQueue, review_queue, sample_done
from ...analysis.runs import require
from ...engine.metrics import format_value
from .common import VIEW, Context, Panel, judged_scores

PLAN_WIDTH = 0.05  # the progress line's plan: random reviews for a corrected interval of ± this
NO_FILE = "not saved: pass reviews='file.jsonl'"


class QueuePanel(Panel):
    """The review queue's part of the view (``queue``: None without one): ``queue`` the
    ReviewQueue, ``run`` the run it is over, ``at`` the item shown, ``rows`` each item's row of the
    model's frame, ``done`` whether each item is reviewed, ``interval`` the progress line's
    interval words (None: not computed since the last review) and ``interval_metric`` the chart
    metric they were computed for (another chart metric makes them stale)."""

    key = "queue"
    requests = {"queue_interval": VIEW}

    def __init__(self, model):
        super().__init__(model)
        self.judged = judged_scores(model)
        self.queue: ReviewQueue | None = None
        self.run = ""
        self.at = 0
        self.rows = np.zeros(0, dtype=np.int64)
        self.done = np.zeros(0, dtype=bool)
        self.interval: str | None = None
        self.interval_metric: str | None = None

    def start(self, ctx: Context, n: int, strategy: str, seed: int, options: dict) -> ReviewQueue:
        """A new queue over the run shown (all runs shown: the first), for ``ctx.reviewer`` (a
        double sample another reviewer has reviewed comes back as a second review); returns it."""
        require(self.model, "reviews", " (the labels stay on the cluster).")
        run = ctx.controls.get("run") or self.model.runs[0]
        queue = review_queue(self.judged[run], n, strategy=strategy, seed=seed, reviews=self._reviews(run),
                             reviewer=ctx.reviewer, **options)
        in_run = np.flatnonzero(self.model.frame["run"].to_numpy() == run)
        self.queue, self.run, self.at = queue, run, 0
        self.rows = in_run[queue.frame["position"].to_numpy(dtype=np.int64)]
        self.done = np.zeros(len(queue), dtype=bool)  # drawn: not fully reviewed, or not yet by this reviewer
        self.interval = None
        return queue

    def step(self, step: int) -> int:
        """Move ``step`` items on (negative: back), kept within the queue; the item's frame row."""
        if self.queue is None or not len(self.queue):
            raise ValueError(NO_QUEUE if self.queue is None else EMPTY_STEP)
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
            raise ValueError(f"step must be a whole number, not {step!r:.80}")
        self.at = min(max(self.at + int(step), 0), len(self.queue) - 1)
        return int(self.rows[self.at])

    @property
    def progress(self) -> tuple[int, int] | None:
        """(reviewed, total) of the queue; None without one."""
        return None if self.queue is None else (int(self.done.sum()), len(self.queue))

    def reviewed(self, ctx: Context) -> None:
        """The item shown and the selected sample, if queued, are done or not again; the interval is stale."""
        if self.queue is None or not len(self.queue):
            return
        for i in {self.at, *np.flatnonzero(self.rows == ctx.selected).tolist()}:
            self.done[i] = self._done(i)
        self.interval = None

    def on_queue_interval(self, ctx: Context, message: dict) -> None:
        """Compute the progress line's interval (the front end asks after a pause in the reviewing)."""
        if self.queue is not None and self.interval is None:
            self.interval = self.interval_words(ctx)
            self.interval_metric = ctx.controls.get("chart_metric")

    def part(self, ctx: Context, view: dict) -> dict:
        q = self.queue
        if q is None:
            return {"queue": None}
        if self.interval_metric != ctx.controls.get("chart_metric"):  # computed for another metric: ask again
            self.interval = None
        reviewed, total = self.progress
        file = self.model.review_files.get(self.run)
        return {"queue": {
            "strategy": q.strategy, "run": self.run if len(self.model.runs) > 1 else None, "kinds": list(q.kinds),
            "position": self.at, "total": total, "reviewed": reviewed, "row": int(self.rows[self.at]) if total else None,
            "query_id": q.query_ids[self.at] if total else None, "note": q.note, "eligible": q.eligible,
            "double": "second review" if total and q.query_ids[self.at] in q.double else None,
            "line": f"{reviewed} of {total} reviewed" if total else EMPTY, "interval": self.interval,
            "file": f"Saved to {file}" if file else NO_FILE}}

    def interval_words(self, ctx: Context) -> str:
        """"faithfulness ±0.06, 140 more for ±0.05": the corrected interval's half-width of the main
        metric (the chart's, when reviews move it; else the first that reads a label) and the random
        reviews still to do for ±PLAN_WIDTH; Undefined said as such."""
        if self.queue.strategy == "consequential":
            return "no corrected interval: a consequential queue is not a random sample"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            plan = review_plan(corrected(self.judged[self.run], self._reviews(self.run), design=self.queue),
                               PLAN_WIDTH)
        if not len(plan):
            return "no metric here reads a label"
        metric = ctx.controls.get("chart_metric")
        metric = metric if metric in plan.index else plan.index[0]
        row = plan.loc[metric]
        half = format_value(row["half_width"])  # "Undefined" for None
        if row["n_needed"] is None:
            more = f"{row['more']} at random first, to measure the judge's disagreement"
        elif row["more"] == 0:
            more = f"±{PLAN_WIDTH:g} reached"
        else:
            more = f"{row['more']} more for ±{PLAN_WIDTH:g}"
        return f"{metric} ±{half}, {more}"

    def _reviews(self, run: str):
        reviews = self.model.reviews
        return reviews[run] if isinstance(reviews, dict) else reviews

    def _done(self, i: int) -> bool:
        """Whether queued sample ``i`` is done (:func:`~ragwidgets.analysis.review_queue.sample_done`)."""
        sample = self.judged[self.run].batch.samples[int(self.queue.frame["position"].iat[i])]
        return sample_done(self.queue, sample, self._reviews(self.run))
