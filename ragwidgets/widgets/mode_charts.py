"""Failure modes × runs as an Altair chart (offline: SVG / PNG through vl-convert, no CDN), drawn
from :func:`~ragwidgets.analysis.failure_modes.mode_table`'s frame: a few rows per mode and run,
whatever the run's size."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ..analysis.failure_modes import percent
from ..engine.metrics import format_percent
from .run_charts import BAR_FILL

ESTIMATES = {"read": ("rate", "lo", "hi", "share of the samples read"),
             "run": ("run_rate", "run_lo", "run_hi", "estimated share of the run")}


def mode_chart(table: pd.DataFrame, *, estimate: str = "read", level: float = 0.95, width: int = 360) -> alt.Chart:
    """Each failure mode's rate with its interval (a rule from ``lo`` to ``hi``), modes on the y
    axis sorted by the samples tagged over every run (most first), one point per run coloured by
    run (one run: a bar per mode). ``estimate`` "read": the rate among the samples read; "run": the
    estimated share of the whole run (rows where it is not estimable left out). Several groups
    (``by``): one row of the chart per group."""
    if estimate not in ESTIMATES:
        raise ValueError(f"estimate is one of {', '.join(ESTIMATES)}, not {estimate!r}")
    rate, lo, hi, title = ESTIMATES[estimate]
    frame = table.loc[table[rate].notna(), ["run", "group", "mode", "tagged", "read", rate, lo, hi]]
    frame = frame.rename(columns={rate: "rate", lo: "lo", hi: "hi"}).astype({"run": str, "group": str, "mode": str})
    shown = f"{title} " if estimate == "run" else ""  # the run's share is not tagged / read: say which figure it is
    frame["label"] = [f"{t:,} of {r:,} read · {shown}{percent(x)} [{percent(a)}, {percent(b)}]"
                      for t, r, x, a, b in zip(frame["tagged"], frame["read"], frame["rate"], frame["lo"], frame["hi"])]
    order = list(frame.groupby("mode", sort=False)["tagged"].sum().sort_values(ascending=False, kind="stable").index)
    runs = list(dict.fromkeys(frame["run"]))
    several = len(runs) > 1
    y = alt.Y("mode:N", sort=order, title="failure mode")
    x = alt.X("rate:Q", title=f"{title} ({format_percent(level)} interval)", scale=alt.Scale(domain=[0, 1]),
              axis=alt.Axis(format="%", values=[0, 0.2, 0.4, 0.6, 0.8, 1]))
    tooltip = ["run:N", "mode:N", "label:N"] if several else ["mode:N", "label:N"]
    base = alt.Chart().encode(y=y, tooltip=tooltip)
    if several:
        color = alt.Color("run:N", title="run", sort=runs)
        offset = alt.YOffset("run:N", sort=runs)
        marks = (base.mark_rule(strokeWidth=2).encode(x=alt.X("lo:Q"), x2="hi:Q", color=color, yOffset=offset),
                 base.mark_point(filled=True, size=50).encode(x=x, color=color, yOffset=offset))
    else:
        marks = (base.mark_bar(color=BAR_FILL, opacity=0.75).encode(x=x),
                 base.mark_rule(strokeWidth=2, color="#333").encode(x=alt.X("lo:Q"), x2="hi:Q"))
    height = max(60, (14 * len(runs) + 8 if several else 22) * max(1, len(order)))
    groups = list(dict.fromkeys(frame["group"]))
    chart = alt.layer(*marks, data=frame).properties(width=width, height=height)
    if len(groups) > 1:
        chart = chart.facet(row=alt.Row("group:N", sort=groups, title=None)).resolve_scale(y="independent")
    return chart.properties(title=f"Failure modes: {title}" + (" by run" if several else ""))
