"""The charts panel (``js/src/dataset/charts.js``): the run model's pre-aggregated charts of the
chosen metrics (``chart_metric``, ``scatter_x`` / ``scatter_y``, ``group_by``), the charts a run
opens with, and each chart as an Altair chart for Python."""

from __future__ import annotations

import pandas as pd

from .common import Panel

KINDS = ("distribution", "scatter", "groups", "top_k")


class ChartsPanel(Panel):
    """The charts' choices; their data is the run model's view (``charts``)."""

    key = "charts"

    def defaults(self) -> dict:
        """The charts a run opens with: its first metric's (another tool's first number where no
        metric is defined), the scatter of the first two, or of another tool's score against ours."""
        model = self.model
        shown = model.metrics or list(model.external)
        first = shown[0] if shown else ""
        pair = next(iter(model.counterparts.items()), (first, shown[1] if len(shown) > 1 else first))
        return {"chart_metric": first, "scatter_x": pair[0], "scatter_y": pair[1], "group_by": model.group_columns[0]}


def altair_chart(kind: str, charts: dict, top_k: pd.DataFrame | None = None):
    """The view's ``distribution``, ``scatter`` or ``groups`` chart (``charts``: the view's), or the
    ``top_k`` what-if curve (``top_k``), as an Altair chart."""
    from ..run_charts import distribution_chart, group_means_chart, scatter_chart, top_k_chart
    if kind == "distribution":
        return distribution_chart(charts["distribution"], charts["distribution"]["metric"])
    if kind == "scatter":
        return scatter_chart(charts["scatter"], charts["scatter"]["x"], charts["scatter"]["y"])
    if kind == "groups":
        return group_means_chart(charts["groups"]["rows"], charts["groups"]["metric"], charts["groups"]["by"])
    if kind == "top_k":
        return top_k_chart(top_k)
    raise ValueError(f"chart kind must be {', '.join(KINDS[:-1])} or {KINDS[-1]}, not {kind!r}")
