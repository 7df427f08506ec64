"""The reviews panel (``js/src/dataset/trust.js``): per reviewed run, the metrics whose mean the
reviews moved, the reviews that did not match, and while the trust panel is open its tables: the
judge–reviewer agreement and the corrected scores of the reviewed runs."""

from __future__ import annotations

import pandas as pd

from ...analysis.agreement import agreement
from ...analysis.corrected import corrected
from ...analysis.plan import review_plan
from ...analysis.runs import require
from ...engine.metrics import format_value, metric_label
from .common import VIEW, Context, Panel, frame_view, judged_scores

PLAN_WIDTH = 0.05  # the review plan: random reviews for a corrected interval of ± this


class TrustPanel(Panel):
    """The reviews' part of the view (``reviews``; None for a run that cannot review); ``tables``
    holds the trust panel's tables while it is open (None: closed)."""

    key = "trust"
    requests = {"trust": VIEW}

    def __init__(self, model):
        super().__init__(model)
        self.judged = judged_scores(model)
        self.tables: dict | None = None

    def part(self, ctx: Context, view: dict) -> dict:
        return {"reviews": self._lines() if "reviews" in self.model.capabilities else None}

    def on_trust(self, ctx: Context, message: dict) -> None:
        self.open(bool(message.get("open", True)))

    def open(self, value: bool) -> None:
        """Open (compute the tables) or close the trust panel."""
        require(self.model, "reviews")
        self.tables = self._tables() if value else None

    def reviewed(self, ctx: Context) -> None:
        if self.tables is not None:
            self.tables = self._tables()

    def trust(self) -> dict:
        """The trust panel's tables as analysis gives them (see
        :meth:`~ragwidgets.widgets.dataset.DatasetExplorer.trust`)."""
        require(self.model, "reviews")
        judged, reviews, first = self.judged, self.model.reviews, self.model.runs[0]
        per_run = reviews if isinstance(reviews, dict) else {first: reviews}
        several = len(judged) > 1
        return {"agreement": agreement(judged if several else judged[first],
                                       per_run if several else per_run[first], by="run" if several else None),
                "corrected": {run: corrected(judged[run], per_run[run]) for run in judged} if several
                else corrected(judged[first], per_run[first])}

    def _tables(self) -> dict:
        """The trust panel's view: each table's columns and rows (None: Undefined, with its reason)."""
        t = self.trust()
        tables = t["corrected"] if isinstance(t["corrected"], dict) else {"": t["corrected"]}
        table = t["agreement"].table
        by = [t["agreement"].by] if t["agreement"].by else []
        agreement_shown = pd.DataFrame({
            "kind": table["kind"], **{b: table[b] for b in by}, "n": table["n"], "samples": table["n_samples"],
            "agreement": table["agreement"], "kappa": table["kappa"],
            "kappa 95%": [_interval(lo, hi) for lo, hi in zip(table["kappa_low"], table["kappa_high"])],
            "majority label": table["majority_label"], "base rate": table["base_rate"],
            "macro-F1": table["macro_f1"], "majority macro-F1": table["majority_macro_f1"],
            "2-class kappa": table["binary_kappa"], "reason": table["reason"]})
        reviews = self.model.reviews
        return {"agreement": frame_view(agreement_shown),
                "corrected": {run: frame_view(pd.DataFrame({
                    "metric": [metric_label(m) for m in f.index],
                    **{k: v for name in ("judge", "reviewed", "corrected") for k, v in (
                        (name, f[f"{name}_mean"]),
                        (f"{name} 95%", [_interval(lo, hi) for lo, hi in zip(f[f"{name}_low"], f[f"{name}_high"])]))},
                    "reviewed samples": f["n_reviewed"], "discordant": f["n_discordant"], "samples": f["n_samples"],
                    f"to review for ±{PLAN_WIDTH:g}": review_plan(f, PLAN_WIDTH)["more"].reindex(f.index),
                    "reason": f["reason"]}))
                    for run, f in tables.items()},
                "n_reviews": sum(len(r) for r in ([reviews] if not isinstance(reviews, dict) else reviews.values()))}

    def _lines(self) -> dict:
        """The run-level "what changed": per reviewed run, the metrics whose mean moved."""
        runs = []
        for run in self.model.runs:
            s = self.model.review_summary(run)
            n = int(s["reviews"].iat[0]) if len(s) else 0
            if not n:
                continue
            moved = [f"{metric_label(m)} {format_value(r.judge_mean)} → {format_value(r.reviewed_mean)}"
                     for m, r in s.iterrows() if format_value(r.judge_mean) != format_value(r.reviewed_mean)]
            runs.append({"run": run, "reviews": n, "samples": int(s["reviewed_samples"].iat[0]),
                         "line": f"{', '.join(moved) or 'no mean changed'} after {n} review{'s' if n != 1 else ''}"})
        return {"runs": runs, "problems": [str(p) for p in self.model.review_problems[:20]], "trust": self.tables}


def _interval(low, high) -> str | None:
    """An interval as the trust panel shows it, "0.372–0.428"; None (Undefined) when either end is."""
    if format_value(low) == "Undefined" or format_value(high) == "Undefined":
        return None
    return f"{format_value(low)}–{format_value(high)}"
