"""What changed, claim by claim, drawn in the comparison tab (``js/src/dataset/compare.js``): for
the compare metric and one run against the baseline, the queries that moved most and under each
the claims whose labels changed (:func:`~ragwidgets.analysis.changes.moved_claims`: "entailed → not
entailed, by passage d3"), each query with its row in the explorer's table, which the front end
opens in the drill-down. Found when the front end asks (``claim_changes``: the run, how many
queries), never on a view: it reads those queries' claims. The request is bounded (at most
MAX_TOP queries, MAX_CHANGES changes a query sent, the rest counted); a review, or another compare
metric, leaves the changes stale and the front end asks again."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analysis.changes import moved_claims
from .common import VIEW, Context, Panel, whole

TOP = 10  # the queries found unless the front end asks for more
MAX_TOP = 50  # the most queries one request finds
MAX_CHANGES = 40  # the changes of one query the view carries (the rest counted)
CHANGE_FIELDS = ("claim", "claim_text", "kind", "passage", "base_label", "new_label", "change")


class ChangesPanel(Panel):
    """The claim changes' part of the view (``changes``; None unless runs are compared in the
    kernel): the compare metric, the runs that may be asked for, and ``found`` (None until the
    front end asks, or when stale): the metric, run and top they were found for and per query
    its values, its row in the table and its changes."""

    key = "changes"
    requests = {"claim_changes": VIEW}

    def __init__(self, model):
        super().__init__(model)
        self.found: dict | None = None

    def shows(self) -> bool:
        """Whether runs are compared here with their claims in the kernel."""
        return self.model.comparison is not None and "claims" in self.model.capabilities

    def part(self, ctx: Context, view: dict) -> dict:
        if not self.shows():
            return {"changes": None}
        metric = ctx.controls.get("compare_metric", "")
        found = self.found if self.found is not None and self.found["metric"] == metric else None
        return {"changes": {"metric": metric, "runs": self.model.runs[1:], "top": TOP, "max_top": MAX_TOP,
                            "found": found}}

    def reviewed(self, ctx: Context) -> None:
        """The labels moved: the changes are found again when asked."""
        self.found = None

    def on_claim_changes(self, ctx: Context, message: dict) -> dict:
        """Find the changes of ``run`` (one of the runs after the baseline; default the first)
        against the baseline in the compare metric, for its ``top`` queries that moved most
        (default TOP, at most MAX_TOP): ``{"queries"}``, how many were found."""
        if not self.shows():
            raise ValueError("claim changes need two or more runs compared in the kernel")
        runs = self.model.runs
        run = message.get("run") or runs[1]
        if run not in runs[1:]:
            raise ValueError(f"run must be one of {', '.join(map(repr, runs[1:]))[:300]}, not {run!r:.80}")
        top = whole(message.get("top", TOP), "top", 1, MAX_TOP)
        metric = ctx.controls.get("compare_metric", "")
        comparison = self.model.comparison
        if metric not in comparison.values[run]:
            raise ValueError(f"the compare metric {metric!r:.80} is not compared between the runs")
        scores = self.model.scores
        frame = moved_claims(comparison.per_sample(metric, run), scores[runs[0]], scores[run], top=top)
        self.found = {"metric": metric, "run": run, "top": top, "baseline": runs[0],
                      "queries": self._queries(frame, run)}
        return {"queries": len(self.found["queries"])}

    def _queries(self, frame, run: str) -> list[dict]:
        """Per query of ``frame`` (moved_claims'), in its order: its values, its row in the table
        and its first MAX_CHANGES changes (``more``: those left out)."""
        table = self.model.frame
        in_run = np.flatnonzero(table["run"].to_numpy() == run)
        row_of = dict(zip(table["query_id"].to_numpy()[in_run].tolist(), in_run.tolist()))
        out = []
        for qid, rows in frame.groupby("query_id", sort=False):
            first = rows.iloc[0]
            claims = rows[rows["claim"].notna()]  # none: the query moved with every label as it was
            changes = [{k: _plain(v) for k, v in zip(CHANGE_FIELDS, r)}
                       for r in claims[list(CHANGE_FIELDS)].head(MAX_CHANGES).itertuples(index=False)]
            out.append({"query_id": str(qid), "row": row_of.get(qid, -1), "base_value": float(first["base_value"]),
                        "new_value": float(first["new_value"]), "difference": float(first["difference"]),
                        "changes": changes, "more": len(claims) - len(changes),
                        "said": "" if len(claims) else first["change"]})
        return out


def _plain(value):
    """A cell as the view carries it: None for a missing one, a Python int for the claim."""
    if value is None or value is pd.NA:
        return None
    return int(value) if isinstance(value, np.integer) else value
