"""A run's charts as Altair charts (offline: PNG / SVG through vl-convert with ``chart.save``).

They draw the pre-aggregated data of :mod:`ragwidgets.analysis.aggregates`, so a chart holds a
few dozen rows whatever the run's size: a metric's distribution with its Undefined count as a
separate grey bar, a binned scatter of two metrics, and a metric's mean by group.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ..engine.metrics import DIGITS, format_value, metric_label

UNDEFINED_FILL = "#9e9e9e"
BAR_FILL = "#4c78a8"


def distribution_chart(dist: dict, metric: str, *, width: int = 360, height: int = 160) -> alt.Chart:
    """Bars over the bins of [0, 1], then "Undefined" (and "not computable") as their own grey bars."""
    edges = dist["edges"]
    rows = [{"bin": f"{lo:g}–{hi:g}", "count": c, "kind": "defined"}
            for lo, hi, c in zip(edges[:-1], edges[1:], dist["counts"])]
    rows.append({"bin": "Undefined", "count": dist["undefined"], "kind": "Undefined"})
    if dist["not_computable"]:
        rows.append({"bin": "not computable", "count": dist["not_computable"], "kind": "not computable"})
    frame = pd.DataFrame(rows)
    return alt.Chart(frame).mark_bar().encode(
        x=alt.X("bin:N", sort=list(frame["bin"]), title=metric_label(metric), axis=alt.Axis(labelAngle=-40)),
        y=alt.Y("count:Q", title="samples"),
        color=alt.Color("kind:N", scale=alt.Scale(domain=["defined", "Undefined", "not computable"],
                                                  range=[BAR_FILL, UNDEFINED_FILL, "#d0d0d0"]),
                        legend=None),
        tooltip=["bin:N", "count:Q"],
    ).properties(width=width, height=height, title=f"{metric_label(metric)}: distribution "
                 f"({dist['undefined']} Undefined)")


def scatter_chart(scatter: dict, x: str, y: str, *, size: int = 220) -> alt.Chart:
    """Counts of samples over a grid of (x, y) cells; samples Undefined in either are left out."""
    step = 1 / scatter["bins"]
    frame = pd.DataFrame([{"x0": i * step, "x1": (i + 1) * step, "y0": j * step, "y1": (j + 1) * step,
                           "count": c} for i, j, c in scatter["cells"]],
                         columns=["x0", "x1", "y0", "y1", "count"])
    return alt.Chart(frame).mark_rect().encode(
        x=alt.X("x0:Q", title=metric_label(x), scale=alt.Scale(domain=[0, 1])), x2="x1:Q",
        y=alt.Y("y0:Q", title=metric_label(y), scale=alt.Scale(domain=[0, 1])), y2="y1:Q",
        color=alt.Color("count:Q", scale=alt.Scale(scheme="blues"), title="samples"),
        tooltip=["count:Q"],
    ).properties(width=size, height=size, title=f"{metric_label(y)} vs {metric_label(x)} "
                 f"({scatter['left_out']} Undefined in one, left out)")


def group_means_chart(groups: list[dict], metric: str, by: str, *, width: int = 360) -> alt.Chart:
    """One bar per group: the mean over its defined samples (no bar when none is defined)."""
    frame = pd.DataFrame(groups, columns=["group", "mean", "defined", "size"])
    frame["text"] = [f"{format_value(m)} (n={d if m is not None and m == m else s})"
                     for m, d, s in zip(frame["mean"], frame["defined"], frame["size"])]
    base = alt.Chart(frame).encode(y=alt.Y("group:N", sort=list(frame["group"]), title=by))
    bars = base.mark_bar(color=BAR_FILL).encode(
        x=alt.X("mean:Q", title=f"mean {metric_label(metric)}", scale=alt.Scale(domain=[0, 1])),
        tooltip=["group:N", "mean:Q", "defined:Q", "size:Q"])
    text = base.mark_text(align="left", dx=4).transform_calculate(at="datum.mean || 0").encode(
        x="at:Q", text="text:N")
    return (bars + text).properties(width=width, height=max(60, 22 * len(frame)),
                                    title=f"{metric_label(metric)} by {by}")


def top_k_chart(curve: pd.DataFrame, *, width: int = 360, height: int = 200) -> alt.Chart:
    """Each metric's mean if the retriever kept only its top k passages (from
    :func:`ragwidgets.analysis.top_k_curve`), with the Undefined count in the tooltip."""
    frame = curve.assign(label=[metric_label(m) for m in curve["metric"]])
    return alt.Chart(frame).mark_line(point=True).encode(
        x=alt.X("k:O", title="passages kept (top k)"),
        y=alt.Y("mean:Q", title="mean over defined samples", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("label:N", title="metric"),
        tooltip=["label:N", "k:O", alt.Tooltip("mean:Q", format=f".{DIGITS}~f"), "defined:Q", "undefined:Q"],
    ).properties(width=width, height=height, title="What-if: only the top k passages kept (no judge call)")
