"""The state-space view: one metric over every state of a lesson world.

:class:`StateSpace` is the linked widget (one anywidget, drawn by ``js/src/state_space.js``):
one panel per citation rule, rows retrieval bundles, columns answer bundles; each cell shows
its value as text, or "Undef" on a grey cell, so it reads without colour; the Explorer's state
is outlined and a click on a cell moves the Explorer there. :func:`state_space_chart` is the
same view as a static Altair chart (rendered offline by vl-convert-python).
"""

from __future__ import annotations

import html

import altair as alt
import pandas as pd
import traitlets

from ..engine.metrics import CITATION_METRICS, format_value, metric_label
from .base import Widget, bundled, encode_view, view_trait

UNDEFINED_FILL = "#b0b0b0"
SELECTIONS = ("cell", "undefined_cell")  # one per clickable layer
FOLLOWED = ["retrieval", "answer", "citation", "retrieved"]  # the Explorer's traits that move its state


def state_space_frame(sweep: pd.DataFrame, metric: str, current=None) -> pd.DataFrame:
    """The sweep's columns retrieval/answer/citation plus value, label and current."""
    out = sweep[["retrieval", "answer", "citation"]].copy()
    value = sweep[metric].astype(float)
    out["value"] = value.where(value.notna(), None)
    out["label"] = [("Undef" if v != v else format_value(v)) for v in value]
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
    label = metric_label(metric)
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


class StateSpace(Widget):
    """The heatmap as one anywidget, metric picker included (every anywidget host shows it:
    JupyterLab, Notebook 7, Voilà, marimo via ``mo.ui.anywidget``, VS Code).

    Traits: ``metric`` (the picker), ``current`` (the Explorer's state as a dict, ``{}`` while
    its passages differ from the bundle's: then it is in no cell). Setting ``current`` (what a
    click on a cell does) moves the Explorer there; moving the Explorer moves ``current``.
    ``_grid`` holds every metric's values, so switching metric needs no message to Python.
    """

    _esm = bundled("state_space.js")
    _css = bundled("state_space.css")

    metric = traitlets.Unicode("context_relevance").tag(sync=True)
    current = traitlets.Dict().tag(sync=True)
    _grid = view_trait()  # the grid, built once (one view encoder: NaN refused, Undefined is null)

    def __init__(self, explorer, metric: str = "context_relevance"):
        self.explorer = explorer
        self._following = False  # observing the Explorer (a widget refused while built never is)
        self.sweep = explorer.scenario.sweep()
        self._metrics = [m for m in CITATION_METRICS if m in self.sweep.columns]
        super().__init__(metric=metric, current=self._explorer_state(), _grid=encode_view(self._grid_state()))
        self.observe(self._clicked, names="current")
        explorer.observe(self._follow, names=FOLLOWED)
        self._following = True

    @traitlets.validate("metric")
    def _valid_metric(self, proposal):
        if proposal["value"] not in self._metrics:
            raise traitlets.TraitError(f"metric must be one of {', '.join(self._metrics)}, not {proposal['value']!r}")
        return proposal["value"]

    @traitlets.validate("current")
    def _valid_current(self, proposal):
        value = dict(proposal["value"])
        if value and set(value) != {"retrieval", "answer", "citation"}:
            raise traitlets.TraitError(f"current must have retrieval, answer and citation, not {sorted(value)}")
        sc = self.explorer.scenario
        for part, known in (("retrieval", sc.retrieval_bundles), ("answer", sc.answer_bundles),
                            ("citation", sc.citation_rules)):
            if value and value[part] not in known:
                raise traitlets.TraitError(f"current {part} {value[part]!r} is not a state; known: {', '.join(known)}")
        return value

    def _grid_state(self) -> dict:
        """Names in sweep order; per metric a flat value (None = Undefined) and label list,
        rule-major, then retrieval, then answer (the front end's ``cellIndex``)."""
        sc = self.explorer.scenario
        rules, retrievals, answers = list(sc.citation_rules), list(sc.retrieval_bundles), list(sc.answer_bundles)
        values, labels = {}, {}
        for m in self._metrics:
            frame = state_space_frame(self.sweep, m).set_index(["citation", "retrieval", "answer"])
            frame = frame.reindex(pd.MultiIndex.from_product([rules, retrievals, answers]))
            values[m] = [None if v != v or v is None else float(v) for v in frame.value]
            labels[m] = frame.label.tolist()
        return {"title": f"State space of {sc.title}", "rules": rules, "retrievals": retrievals,
                "answers": answers, "metrics": [{"key": m, "label": metric_label(m)} for m in self._metrics],
                "values": values, "labels": labels}

    def _explorer_state(self) -> dict:
        """The Explorer's state, or {} while its passages differ from the bundle's."""
        e = self.explorer
        if list(e.retrieved) != list(e.scenario.retrieval_bundles[e.retrieval]):
            return {}
        return {"retrieval": e.retrieval, "answer": e.answer, "citation": e.citation}

    def _outlined(self):
        """The state to outline in a static view: the Explorer's, unless it is in no cell."""
        return self.explorer.state if self.current else None

    def _follow(self, _change) -> None:
        self.current = self._explorer_state()

    def close(self) -> None:
        """Stop following the Explorer (which would otherwise keep this widget alive), then close
        (again when the collector finalises it: once is enough)."""
        if self._following:
            self.explorer.unobserve(self._follow, names=FOLLOWED)
            self._following = False
        super().close()

    def _clicked(self, change) -> None:
        if change["new"] and change["new"] != self._explorer_state():
            self.go(**change["new"])

    def go(self, retrieval: str, answer: str, citation: str) -> None:
        """What a click on a cell does: move the Explorer there."""
        self.explorer.move_to(retrieval, answer, citation)

    def static_html(self) -> str:
        """The view as plain HTML tables, one per citation rule (values as text, "Undef" for
        Undefined, ▶ on the Explorer's state): the fallback where widgets cannot show."""
        sc = self.explorer.scenario
        frame = state_space_frame(self.sweep, self.metric, self._outlined())
        frame["shown"] = frame.label.where(~frame.current, "▶ " + frame.label)
        parts = [f"<p><strong>{html.escape(metric_label(self.metric))} over all {len(frame)} states</strong> "
                 "(static view: “Undef” is Undefined, ▶ the Explorer's state)</p>"]
        for rule in sc.citation_rules:
            table = frame[frame.citation == rule].pivot(index="retrieval", columns="answer", values="shown")
            table = table.reindex(index=list(sc.retrieval_bundles), columns=list(sc.answer_bundles))
            parts.append(f"<p>Citation rule: {html.escape(rule)}</p>" + table.to_html(border=0))
        return "\n".join(parts)

    def describe(self) -> tuple[str, list[tuple[str, str]]]:
        """The world's title; the metric, the number of states and the Explorer's state."""
        frame = state_space_frame(self.sweep, self.metric, self._outlined())
        here = frame[frame.current]
        lines = [("metric", metric_label(self.metric)), ("states", str(len(frame)))]
        if len(here):
            r = here.iloc[0]
            lines.append((f"{r.retrieval} · {r.answer} · {r.citation}", r.label))
        return self.explorer.scenario.title, lines

    def _repr_mimebundle_(self, **kwargs):
        """The widget, and :meth:`static_html` as ``text/html`` for hosts that draw no widgets
        (GitHub, nbviewer, ``nbconvert --to html`` without widget state)."""
        data, metadata = super()._repr_mimebundle_(**kwargs)
        return {**data, "text/html": self.static_html()}, metadata

    def chart(self) -> alt.FacetChart:
        """The same view as a static Altair chart (``.save("x.svg")`` renders it offline)."""
        return state_space_chart(self.sweep, self.metric, self._outlined())

    def __repr__(self) -> str:
        return f"StateSpace({self.explorer.scenario.title!r}, metric={self.metric!r}, current={self.current})"
