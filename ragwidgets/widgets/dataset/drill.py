"""The drill-down (``js/src/dataset/drill.js``): the one-sample view
(:class:`~ragwidgets.widgets._sample_view.SampleView`) of the selected row, beside the same
query's answer in the baseline run when runs are compared; its actions (passages in play, the
Undefined mode, predictions), reviews of its labels and the judge's traces behind them. A
selection inside it is drawn in the browser and never sent here."""

from __future__ import annotations

import warnings

from ...analysis.judge_variance import label_distributions
from ...analysis.runs import not_available, require
from ...errors import InputWarning
from ...judges.traces import Trace, find_trace
from ...reviews import Reviews
from .._sample_view import SampleView
from .._view import show_id
from .common import DRILL, NOTHING, REVIEWED, Context, Panel, judged_scores

WHICH = ("main", "other")  # the drilled sample's view, the baseline run's same query


class DrillPanel(Panel):
    """The drill-down's views: ``views`` holds the shown sample's ``key`` (the model's), its
    ``run`` and a SampleView per open view (``main``, ``other``); ``drilled`` the row it shows."""

    key = "drill"
    requests = {"drill": DRILL, "review": REVIEWED, "trace": NOTHING}

    def __init__(self, model):
        super().__init__(model)
        self.judged = judged_scores(model)  # the judge's Scores per run, for "judge said"
        self.views: dict = {}
        self.drilled = -1
        self.title = ""  # the main view's title when runs are compared

    def show(self, ctx: Context) -> tuple[dict, str]:
        """The drill-down of the selected row: ``{"_drill": view, "_other": view}`` (None: none)
        and why the model could not drill into it ("" when it could)."""
        row = self.drilled = ctx.selected
        closed = {"_drill": None, "_other": None}
        if not 0 <= row < len(self.model.frame):
            self.views = {}
            return closed, ""
        runs = self.model.runs
        key = self.model.sample_key(row)
        if self.views.get("key") != key:
            try:
                drill = self.model.drill(row)
            except Exception as err:  # noqa: BLE001 - shown in the view, as every other error
                self.views = {}
                return closed, str(err)
            self.views = {"key": key, "run": drill.run,
                          "main": self._view(drill.run, drill.query_id, drill.sample, drill.undefined)}
            self.title = f"{show_id(drill.run)} · {show_id(drill.query_id)}"
            if drill.baseline is not None:
                self.views["other"] = self._view(runs[0], drill.query_id, drill.baseline, drill.undefined)
        other = self.views.get("other")
        return {"_drill": self._payload(ctx, "main", self.title if len(runs) > 1 else None),
                "_other": None if other is None else self._payload(
                    ctx, "other", f"{show_id(runs[0])} (baseline) · {show_id(other.sample.query_id)}")}, ""

    def _view(self, run: str, query_id: str, sample, undefined: str) -> SampleView:
        """One sample's view: over the judge's labels with the run's reviews of it in force
        (reviewable), or the model's sample as it is (a run that cannot review)."""
        if "reviews" not in self.model.capabilities:
            return SampleView(sample, undefined=undefined)
        judged = self.judged[run]
        reviews = self.model.reviews if len(self.model.runs) == 1 else self.model.reviews[run]
        return SampleView(judged.samples[judged.sample_index(query_id)], undefined=undefined,
                          reviews=reviews.for_sample(query_id), reviewable=True)

    def _payload(self, ctx: Context, which: str, title: str | None) -> dict:
        view = self.views[which].view(title=title)
        repeats = getattr(self.model, "repeats", {}).get(self._run(which))
        if repeats is not None:  # judged several times: the labels whose repeats disagree, with their counts
            view["repeats"] = {"n": repeats.n_repeats, "labels": label_distributions(repeats, view["query_id"])}
        if "review" in view:  # the next label to review per kind (the keyboard path), where the reviews are saved
            view["review"].update(traces=ctx.judge is not None, error="", queue=None,
                                  file=self.model.review_files.get(self._run(which)),
                                  next=self.views[which].reviewed.unreviewed())
        else:
            said = not_available(self.model, "reviews", " (the labels stay on the cluster).")
            view["review_note"] = said[0].upper() + said[1:]
        return view

    def _run(self, which: str) -> str:
        return self.views["run"] if which == "main" else self.model.runs[0]

    def _open(self, which) -> SampleView:
        if which not in WHICH or which not in self.views:
            raise ValueError(f"no drill-down view {which!r:.80} (open: "
                             f"{', '.join(k for k in WHICH if k in self.views) or 'none'})")
        return self.views[which]

    def on_drill(self, ctx: Context, message: dict) -> None:
        """Apply a view's action (``which``: "main" or "other"; ``patch``: its fields)."""
        which, patch = message.get("which"), message.get("patch")
        view = self._open(which)
        if not isinstance(patch, dict):
            raise ValueError(f"a drill-down patch must be an object, not {patch!r:.80}")
        view.apply(patch)

    def on_review(self, ctx: Context, message: dict) -> None:
        m = message
        self.review(ctx, m.get("kind"), m.get("claim"), m.get("label"), m.get("doc_id"), which=m.get("which", "main"))

    def on_trace(self, ctx: Context, message: dict) -> dict:
        m = message
        found, why = self.trace(ctx, m.get("which", "main"), m.get("kind"), m.get("claim"), m.get("doc_id"))
        return {"trace": None if found is None else found.to_json(), "reason": why}

    def review(self, ctx: Context, kind: str, claim: int, label: str | None, doc_id: str | None = None,
               note: str = "", *, which: str = "main") -> list:
        """Review a label of an open view's sample and put it in force in the run model; the
        Reviews made (see :meth:`~ragwidgets.widgets.dataset.DatasetExplorer.review`)."""
        require(self.model, "reviews", " (a Dask-scored run's labels stay on the cluster)")
        made = self._open(which).review(kind, claim, label, doc_id, reviewer=ctx.reviewer, note=note)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)  # the sample view checked them: they match
            self.model.review(Reviews(made), run=self._run(which))
        return made

    def trace(self, ctx: Context, which, kind, claim, doc_id=None) -> tuple[Trace | None, str]:
        """The judge's trace behind one label of an open view's sample and why there is none."""
        if ctx.judge is None:
            return None, "no trace kept: no judge was given (DatasetExplorer(..., judge=...))"
        return find_trace(ctx.judge, self._open(which).judged, kind, claim, doc_id)
