"""A metric over a run history as an Altair chart (offline: SVG / PNG through vl-convert), drawn from
:attr:`ragwidgets.history_store.History.frame`: one row per run, whatever the runs' size."""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

from ..engine.metrics import format_value, metric_label
from ..errors import InputError
from .run_charts import BAR_FILL

BAND_FILL = "#9ecae1"
JUDGE_COLOR = "#b35806"
NO_JUDGE = "not given"


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def trend_rows(frame: pd.DataFrame, metric: str) -> pd.DataFrame:
    """One row per run, oldest first: run, commit, judge (text), accepted, n, time, mean, lo, hi,
    ``label`` ("mean [lo, hi]") and ``judge_changed`` (its judge differs from the run before's)."""
    if metric not in frame.columns or f"{metric}_lo" not in frame.columns:
        known = [c for c in frame.columns if f"{c}_lo" in frame.columns]
        raise InputError(f"no run of the history has {metric!r:.80}; its metrics: {', '.join(known) or 'none'}",
                         field="metric")
    judges = [NO_JUDGE if _missing(j) else str(j) for j in frame["judge"]]
    return pd.DataFrame({
        "run": [str(n) for n in frame.index], "time": [str(t) for t in frame["time"]],
        "commit": ["—" if _missing(c) else str(c) for c in frame["commit"]], "judge": judges,
        "accepted": ["accepted" if a else "not accepted" for a in frame["accepted"]], "n": frame["n"].to_numpy(),
        "mean": frame[metric].to_numpy(dtype=float), "lo": frame[f"{metric}_lo"].to_numpy(dtype=float),
        "hi": frame[f"{metric}_hi"].to_numpy(dtype=float),
        "label": [f"{format_value(m)} [{format_value(a)}, {format_value(b)}]" if not math.isnan(m) else "Undefined"
                  for m, a, b in zip(frame[metric], frame[f"{metric}_lo"], frame[f"{metric}_hi"])],
        "judge_changed": [k > 0 and j != judges[k - 1] for k, j in enumerate(judges)],
    })


def history_chart(frame: pd.DataFrame, metric: str, *, width: int = 480, height: int = 220) -> alt.LayerChart:
    """``metric`` over the runs of a history frame, oldest first on the x axis: the means as a line of
    points (filled: accepted), their intervals as a band and a rule at each point, the first run's
    judge ("judge: J") and a dashed rule labelled with the new judge at each run whose judge
    differs from the run before's; a point's tooltip says the run, its time, commit, judge, n and
    the mean with its interval. A run that lacks the metric keeps its place on the axis, with no
    point, and breaks the line and the band."""
    rows = trend_rows(frame, metric)
    runs = list(rows["run"])
    x = alt.X("run:N", sort=runs, title="run (oldest first)", axis=alt.Axis(labelAngle=-30, labelLimit=120))
    title = f"{metric_label(metric)} (mean, 95% interval)"  # the intervals the history stores
    y = alt.Y("mean:Q", title=title, scale=alt.Scale(zero=False))
    every = alt.Chart(rows).encode(x=x)  # a run without the metric breaks the line and the band
    band = every.mark_area(color=BAND_FILL, opacity=0.45, invalid="break-paths-filter-domains").encode(
        y=alt.Y("lo:Q", title=title), y2="hi:Q")
    line = every.mark_line(color=BAR_FILL, invalid="break-paths-filter-domains").encode(y=y)
    measured = alt.Chart(rows[rows["mean"].notna()]).encode(x=x)
    whiskers = measured.mark_rule(color=BAR_FILL, opacity=0.6).encode(y="lo:Q", y2="hi:Q")  # a lone run's too
    points = measured.mark_point(size=60, filled=True, stroke=BAR_FILL, strokeWidth=1.5).encode(
        y=y, fill=alt.Fill("accepted:N", scale=alt.Scale(domain=["accepted", "not accepted"],
                                                         range=[BAR_FILL, "white"]), title=None,
                                legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("run:N"), alt.Tooltip("time:N", title="added"), alt.Tooltip("commit:N"),
                 alt.Tooltip("judge:N"), alt.Tooltip("n:Q", format=","),
                 alt.Tooltip("label:N", title=metric_label(metric)), alt.Tooltip("accepted:N", title="status")])
    rows["said"] = "judge: " + rows["judge"]
    changes = alt.Chart(rows[rows["judge_changed"]]).encode(x=x)
    rule = changes.mark_rule(color=JUDGE_COLOR, strokeDash=[4, 3]).encode(
        tooltip=[alt.Tooltip("run:N"), alt.Tooltip("said:N", title="judge changed to")])
    label = alt.Chart(rows[rows["judge_changed"] | (rows.index == 0)]).mark_text(
        color=JUDGE_COLOR, align="left", baseline="top", dx=3, dy=2).encode(x=x, y=alt.value(0), text="said:N")
    return alt.layer(band, line, whiskers, points, rule, label).properties(
        width=width, height=height, title=f"{metric_label(metric)} over the run history")
