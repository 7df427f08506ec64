"""The summary panel (``js/src/dataset/summary.js``): each run's metric means with their
intervals, from the run model's view; ``percent`` shows them × 100, as RAGChecker reports them."""

from __future__ import annotations

from .common import Context, Panel


class SummaryPanel(Panel):
    """The summary, × 100 while ``percent`` is on (the means and their intervals)."""

    key = "summary"

    def part(self, ctx: Context, view: dict) -> dict:
        if not ctx.controls["percent"]:
            return {}
        return {"summary": [{**r, **{k: None if r[k] is None else r[k] * 100 for k in ("mean", "ci_low", "ci_high")}}
                            for r in view["summary"]]}
