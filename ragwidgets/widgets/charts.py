"""The state-space view: one metric over every state of a lesson world, as an Altair heatmap.

Rows are answer bundles, columns retrieval bundles, one panel per citation rule. Each cell shows
its value as text, or "Undef" on a grey cell, so the chart reads without colour; the Explorer's
current state is outlined. Rendered offline (``alt.JupyterChart.enable_offline()``, Vega from
vl-convert-python), and a click on a cell moves the linked Explorer to that state.
"""

from __future__ import annotations

import altair as alt
import ipywidgets
import pandas as pd

from ..engine.explain import format_number
from ..engine.metrics import CITATION_METRICS
from .view import LABELS

UNDEFINED_FILL = "#b0b0b0"
SELECTIONS = ("cell", "undefined_cell")  # one per clickable layer


def state_space_frame(sweep: pd.DataFrame, metric: str, current=None) -> pd.DataFrame:
    """The sweep's columns retrieval/answer/citation plus value, label and current."""
    out = sweep[["retrieval", "answer", "citation"]].copy()
    value = sweep[metric].astype(float)
    out["value"] = value.where(value.notna(), None)
    out["label"] = [("Undef" if v != v else format_number(v)) for v in value]
    out["defined"] = value.notna()
    out["current"] = False
    if current is not None:
        out["current"] = ((out.retrieval == current.retrieval) & (out.answer == current.answer)
                          & (out.citation == current.citation))
    return out


def state_space_chart(sweep: pd.DataFrame, metric: str, current=None, *, cell: int = 30) -> alt.FacetChart:
    """Heatmap of ``metric`` over retrieval x answer, faceted by citation rule.

    Undefined cells are grey and read "Undef"; point selections over (retrieval, answer,
    citation) report clicks: ``cell`` on defined cells, ``undefined_cell`` on Undefined ones.
    """
    frame = state_space_frame(sweep, metric, current)
    retrievals = list(dict.fromkeys(frame.retrieval))
    answers = list(dict.fromkeys(frame.answer))
    rules = list(dict.fromkeys(frame.citation))
    pick, pick_undefined = (alt.selection_point(name=name, fields=["retrieval", "answer", "citation"],
                                                on="click", clear=False, empty=False)
                            for name in SELECTIONS)
    x = alt.X("retrieval:N", sort=retrievals, title="Retrieval bundle",
              axis=alt.Axis(labelAngle=-40, labelLimit=130))
    y = alt.Y("answer:N", sort=answers, title="Answer bundle")
    label = LABELS.get(metric, metric)
    tooltip = [alt.Tooltip("retrieval:N"), alt.Tooltip("answer:N"), alt.Tooltip("citation:N"),
               alt.Tooltip("label:N", title=label)]
    base = alt.Chart().encode(x=x, y=y)
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color("value:Q", title=label, scale=alt.Scale(domain=[0, 1], scheme="blues")),
        tooltip=tooltip,
    ).transform_filter(alt.datum.defined).add_params(pick)
    undefined = base.mark_rect(stroke="white", strokeWidth=1, fill=UNDEFINED_FILL).encode(
        tooltip=tooltip,
    ).transform_filter(~alt.datum.defined).add_params(pick_undefined)
    # No tooltip on the labels: Vega-Lite makes them non-interactive, so a click on a label
    # reaches the cell beneath it.
    text = base.mark_text(fontSize=9).encode(
        text="label:N",
        color=alt.condition(alt.datum.defined & (alt.datum.value > 0.6), alt.value("white"), alt.value("black")),
    )
    outline = base.mark_rect(fill=None, stroke="#d62728", strokeWidth=3).encode().transform_filter(
        "datum.current")
    layered = alt.layer(cells, undefined, text, outline, data=frame).properties(width=cell * len(retrievals),
                                                                     height=cell * len(answers) * 0.75)
    return layered.facet(
        column=alt.Column("citation:N", sort=rules, title="Citation rule"),
    ).properties(title=alt.TitleParams(
        f"{label} over all {len(frame)} states",
        subtitle="Grey “Undef”: Undefined. Red outline: the Explorer's state. Click a cell to go there.",
        anchor="start"))


class StateSpace(ipywidgets.VBox):
    """A metric picker above the linked heatmap; follows the Explorer (outlining its state
    unless its passages are edited) and moves it on click."""

    def __init__(self, explorer, metric: str = "context_relevance"):
        alt.JupyterChart.enable_offline()
        self.explorer = explorer
        self.sweep = explorer.scenario.sweep()
        metrics = [m for m in CITATION_METRICS if m in self.sweep.columns]
        if metric not in metrics:
            raise ValueError(f"metric must be one of {', '.join(metrics)}, not {metric!r}")
        self.picker = ipywidgets.Dropdown(options=[(LABELS[m], m) for m in metrics], value=metric,
                                          description="Metric")
        self._drawn = (metric, self._current())
        self.chart = alt.JupyterChart(self._chart(), embed_options={"renderer": "svg", "actions": False})
        self._watch_selection()
        self.picker.observe(lambda _: self._redraw(), names="value")
        explorer.observe(lambda _: self._redraw(), names=["retrieval", "answer", "citation", "retrieved"])
        super().__init__([self.picker, self.chart])

    @property
    def metric(self) -> str:
        return self.picker.value

    def _current(self):
        """The Explorer's state, or None while its passages differ from the bundle's (then it
        is in no cell of the sweep)."""
        e = self.explorer
        return e.state if list(e.retrieved) == list(e.scenario.retrieval_bundles[e.retrieval]) else None

    def _chart(self):
        return state_space_chart(self.sweep, self.metric, self._current())

    def _redraw(self) -> None:
        if self._drawn == (self.metric, self._current()):
            return
        self._drawn = (self.metric, self._current())
        self.chart.chart = self._chart()
        self._watch_selection()

    def _watch_selection(self) -> None:
        self.chart.selections.observe(self._clicked, list(SELECTIONS))

    def _clicked(self, change) -> None:
        picked = change["new"].value
        if picked:
            self.go(**{k: picked[0][k] for k in ("retrieval", "answer", "citation")})

    def go(self, retrieval: str, answer: str, citation: str) -> None:
        """What a click on a cell does: move the Explorer there."""
        self.explorer.move_to(retrieval, answer, citation)
