"""The run explorer's questions about a Dask-scored run, answered on the cluster.

A view is one pass over the (persisted) score frame: each partition keeps the rows the filter
keeps (an expression evaluated with pandas, then the brush) and answers with small things only,
for the pieces of the view asked for: its ``n`` rows first by the sort metric (``nlargest`` /
``nsmallest``, defined values only: the table), its totals (:mod:`.totals`: the summary), the
chart metric's histogram over the rows kept without the brush
(:func:`~ragwidgets.analysis.aggregates.distribution`, so bins equal the in-process explorer's),
per-group totals of the chart metric, and the scatter's cells. The answers merge by the tree
reduction of :func:`.evaluate.tree_reduce`; the kernel receives at most ``n`` rows. A
drill-down reads one partition again on a worker and sends back the one sample.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from dataclasses import dataclass, field

import dask
import numpy as np
import pandas as pd

from ..analysis.aggregates import distribution, scatter_cells
from ..analysis.filtering import expression_mask
from ..analysis.table import DEFINED_CODE, UNDEFINED_CODE
from ..errors import InputError
from ..loaders import is_jsonl, read_source, load_samples
from ..model import Sample
from .evaluate import DaskScores, record_of, tree_reduce
from .totals import finish, merge, totals_of

PARTITION = "partition"  # the frame's column of each row's partition number


PIECES = ("table", "summary", "distribution", "groups", "scatter")


@dataclass(frozen=True)
class ViewSpec:
    """What one view asks of every partition (the explorer's controls, as plain values).

    ``brush`` is ``{}``, ``{"metric", "lo", "hi"}`` (defined values in [lo, hi]) or
    ``{"metric", "undefined": True}``; the table is the first ``n`` rows by ``sort_by``
    (highest first when ``descending``; ties in the order of the run). Only the ``pieces``
    named are computed (the explorer keeps the others: their controls did not change).
    """

    metrics: tuple[str, ...]
    sort_by: str
    descending: bool = False
    n: int = 500
    expression: str = ""
    brush: dict = field(default_factory=dict)
    chart_metric: str = ""
    scatter: tuple[str, str] | None = None
    group_by: str = ""
    pieces: frozenset[str] = frozenset(PIECES)


def keep_masks(part: pd.DataFrame, spec: ViewSpec) -> tuple[np.ndarray, np.ndarray]:
    """(rows the expression keeps, rows the expression and the brush keep) of one partition."""
    kept = np.ones(len(part), dtype=bool)
    if spec.expression.strip():
        kept &= expression_mask(part, spec.expression)
    b = spec.brush
    if not b.get("metric"):
        return kept, kept
    codes = part[b["metric"] + "_status"].to_numpy()
    if b.get("undefined"):
        return kept, kept & (codes == UNDEFINED_CODE)
    values = part[b["metric"]].to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        inside = (codes == DEFINED_CODE) & (values >= float(b.get("lo", 0))) & (values <= float(b.get("hi", 1)))
    return kept, kept & inside


def _first(values: pd.Series, spec: ViewSpec) -> np.ndarray:
    """Positions (``values`` has a RangeIndex) of the first ``spec.n`` values, highest first when
    ``spec.descending`` (``nlargest`` / ``nsmallest``; ties: ``keep="first"``, the run's order)."""
    pick = values.nlargest if spec.descending else values.nsmallest
    return pick(spec.n, keep="first").index.to_numpy()


def partition_view(part: pd.DataFrame, spec: ViewSpec) -> dict:
    """One partition's answer to ``spec`` (see the module docstring); columns are read as arrays
    under the filter's mask, so only the table's rows are ever copied whole."""
    unbrushed, kept = keep_masks(part, spec)

    def column(name: str, mask: np.ndarray = kept) -> tuple[np.ndarray, np.ndarray]:
        return part[name].to_numpy(dtype=float)[mask], part[name + "_status"].to_numpy()[mask]

    out = {}
    m = spec.chart_metric
    if "table" in spec.pieces:
        defined = np.flatnonzero(kept & (part[spec.sort_by + "_status"].to_numpy() == DEFINED_CODE))
        rows = defined[_first(pd.Series(part[spec.sort_by].to_numpy()[defined]), spec)]
        out["table"] = {"defined": len(defined), "top": part.iloc[rows].assign(_row=rows)}
    if "summary" in spec.pieces:
        out["summary"] = totals_of((name, *column(name)) for name in spec.metrics)
    if "distribution" in spec.pieces:
        out["distribution"] = distribution(*column(m, unbrushed))
    if "groups" in spec.pieces:
        rows = part.loc[kept, [spec.group_by, m, m + "_status"]]
        out["groups"] = {group: totals_of([(m, g[m].to_numpy(), g[m + "_status"].to_numpy())])[m]
                         for group, g in rows.groupby(spec.group_by, sort=False)}
    if "scatter" in spec.pieces:
        cells = scatter_cells(*column(spec.scatter[0]), *column(spec.scatter[1]))
        out["scatter"] = {**cells, "cells": Counter({(i, j): c for i, j, c in cells["cells"]})}
    return out


def merge_views(*views: dict, spec: ViewSpec) -> dict:
    """The answer of the union of the partitions that gave ``views`` (in the run's order)."""
    out = {}
    if "table" in spec.pieces:
        top = pd.concat([v["table"]["top"] for v in views], ignore_index=True)
        out["table"] = {"defined": sum(v["table"]["defined"] for v in views),
                        "top": top.iloc[_first(top[spec.sort_by], spec)]}
    if "summary" in spec.pieces:
        out["summary"] = merge(*(v["summary"] for v in views))
    if "distribution" in spec.pieces:
        d = [v["distribution"] for v in views]
        out["distribution"] = {"edges": d[0]["edges"], "counts": np.sum([x["counts"] for x in d], axis=0).tolist(),
                               **{k: sum(x[k] for x in d) for k in ("undefined", "not_computable")}}
    if "groups" in spec.pieces:
        out["groups"] = merge(*(v["groups"] for v in views))
    if "scatter" in spec.pieces:
        s = [v["scatter"] for v in views]
        out["scatter"] = {"bins": s[0]["bins"], "cells": sum((x["cells"] for x in s), Counter()),
                          "left_out": sum(x["left_out"] for x in s)}
    return out


def group_rows(groups: dict) -> list[dict]:
    """analysis.aggregates.group_means' rows from merged per-group totals (exact means)."""
    means = finish(groups)
    return [{"group": str(g), "mean": means[g]["mean"], "defined": groups[g][0], "size": sum(groups[g][:3])}
            for g in pd.Index(list(groups)).sort_values()]


def ask(partitions: list, spec: ViewSpec) -> dict:
    """Compute ``spec`` over every partition on the cluster (one pass); ``partitions``: the score
    frame's partitions as Dask delayed objects (``DaskScores.frame.to_delayed()``).

    Returns the pieces asked for, in the in-process explorer's shapes: ``table`` (``defined``:
    rows with the sort metric defined; ``top``: the first ``n`` of them, in order), ``summary``
    (Scores.aggregate's shape), ``distribution``, ``groups``, ``scatter``.
    """
    parts = [dask.delayed(partition_view)(p, spec) for p in partitions]
    answer = tree_reduce(parts, functools.partial(merge_views, spec=spec)).compute()
    if "table" in answer:
        top = answer["table"]["top"]
        values = top[spec.sort_by].to_numpy()
        order = np.lexsort((top["_row"].to_numpy(), top[PARTITION].to_numpy(), -values if spec.descending else values))
        answer["table"]["top"] = top.iloc[order].drop(columns="_row").reset_index(drop=True)
    if "summary" in answer:
        answer["summary"] = finish(answer["summary"])
    if "distribution" in answer:
        answer["distribution"] = {"metric": spec.chart_metric, **answer["distribution"]}
    if "scatter" in answer:
        s = answer["scatter"]
        answer["scatter"] = {"x": spec.scatter[0], "y": spec.scatter[1], "bins": s["bins"], "left_out": s["left_out"],
                             "cells": [[i, j, c] for (i, j), c in sorted(s["cells"].items())]}
    if "groups" in answer:
        answer["groups"] = {"by": spec.group_by, "metric": spec.chart_metric, "rows": group_rows(answer["groups"])}
    return answer


def _sample_in_file(path: str, query_id: str) -> Sample:
    """Sample ``query_id`` of a results file: in JSONL only the lines holding its text are parsed."""
    name, data = read_source(path)
    if is_jsonl(name):
        needle = query_id.encode()
        for line in data.removeprefix(b"\xef\xbb\xbf").splitlines():
            if needle in line:
                record = json.loads(line)
                if isinstance(record, dict) and str(record.get("query_id")) == query_id:
                    return load_samples([record]).samples[0]
    else:
        loaded = load_samples(path)
        ids = loaded.flat.query_ids if loaded.flat is not None else [s.query_id for s in loaded.samples]
        if query_id in ids:
            return loaded.samples[ids.index(query_id)]
    raise InputError(f"not in file {path} any more (was it changed after scoring?)", sample=f"query_id {query_id!r}")


def _sample_in_records(part: pd.DataFrame, number: int, query_id: str, by: tuple[str, ...]) -> Sample:
    row = part[part["query_id"].astype(str) == query_id]
    if row.empty:
        raise InputError(f"not in partition {number} of the source DataFrame", sample=f"query_id {query_id!r}")
    return load_samples([record_of(row.iloc[0], by)]).samples[0]


def fetch_sample(scores: DaskScores, partition: int, query_id: str) -> Sample:
    """The one sample ``query_id`` of partition ``partition``, read again on a worker (the file,
    or that partition of the source DataFrame); only that sample comes back."""
    source = scores.source
    if isinstance(source, (list, tuple)):
        task = dask.delayed(_sample_in_file)(str(source[partition]), query_id)
    else:
        task = dask.delayed(_sample_in_records)(source.to_delayed()[partition], partition, query_id, scores.by)
    return task.compute()
