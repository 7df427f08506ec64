"""The run explorer's questions about a Dask-scored run, answered on the cluster.

Each partition's scores are indexed once on its worker (:mod:`.index`, kept there by
``ClusterRun``). A view is then one small task per partition: it keeps the rows the filter keeps
(an expression in the project's language on the partition's columns, then the brush) and
answers with small things only, for the pieces of the view asked for: its ``n`` rows first by
the sort metric (from the metric's sorted order; defined values only: the table), its totals
(:mod:`.totals`: the summary), the chart metric's histogram over the rows kept without the brush
(the bins of :func:`~ragwidgets.analysis.aggregates.distribution`, so they equal the in-process
explorer's), per-group totals of the chart metric, and the scatter's cells. One task per worker
answers for the partitions it holds and merges their answers there (the table's rows chosen by
key before any is copied); the kernel merges the workers' answers, receiving at most ``n`` rows
from each. A drill-down reads one partition again on a worker and sends back the one sample.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import dask
import distributed
import numpy as np
import pandas as pd

from ..errors import InputError
from ..loaders import is_jsonl, read_source, load_samples
from ..model import Sample
from .evaluate import DaskScores, Part, record_of
from .index import PartIndex
from .totals import finish, merge

PARTITION = "partition"  # the frame's column of each row's partition number


PIECES = ("table", "summary", "distribution", "groups", "scatter")


@dataclass(frozen=True)
class ViewSpec:
    """What one view asks of every partition (a run model's Query and Charts, as plain values).

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


def index_of(part: Part, metrics, group_columns) -> PartIndex:
    """The index of one scored partition (kept on its worker by ``ClusterRun``)."""
    return PartIndex.of(part.frame, metrics, group_columns)


def partition_view(index: PartIndex, spec: ViewSpec) -> dict:
    """One partition's answer to ``spec`` (see the module docstring), from its index; the
    table's piece is its candidate rows' positions (``rows``), copied later only if chosen."""
    unbrushed, kept = index.masks(spec.expression, spec.brush)
    out = {}
    m = spec.chart_metric
    if "table" in spec.pieces:
        rows, defined = index.first(spec.sort_by, spec.descending, spec.n, kept)
        out["table"] = {"defined": defined, "rows": rows}
    if "summary" in spec.pieces:
        totals = index.totals(kept)
        out["summary"] = {name: totals[name] for name in spec.metrics}
    if "distribution" in spec.pieces:
        out["distribution"] = index.distribution(m, unbrushed)
    if "groups" in spec.pieces:
        out["groups"] = index.group_totals(m, spec.group_by, kept)
    if "scatter" in spec.pieces:
        out["scatter"] = index.scatter(*spec.scatter, kept)
    return out


def _order(values: np.ndarray, partitions: np.ndarray, rows: np.ndarray, spec: ViewSpec) -> np.ndarray:
    """Positions of the first ``spec.n`` rows by the sort value (highest first when
    ``spec.descending``), ties by partition and then row: the run's order."""
    return np.lexsort((rows, partitions, -values if spec.descending else values))[:spec.n]


def worker_view(spec: ViewSpec, *indexes: PartIndex) -> dict:
    """The answer of the partitions ``indexes`` (those one worker holds), merged there: the
    table's rows are chosen by their keys among every partition's candidates, and only the
    chosen ``spec.n`` are copied from the frames (with ``_row``, their position in the partition)."""
    views = [partition_view(index, spec) for index in indexes]
    if "table" in spec.pieces:
        rows = [v["table"]["rows"] for v in views]
        keys = [np.concatenate(k) for k in zip(*((index.columns[spec.sort_by].values[r],
                                                  index.frame[PARTITION].to_numpy()[r], r)
                                                 for index, r in zip(indexes, rows)))]
        chosen = np.zeros(len(keys[0]), dtype=bool)
        chosen[_order(*keys, spec)] = True
        start = 0
        for index, view, r in zip(indexes, views, rows):
            mine = r[chosen[start:start + len(r)]]
            start += len(r)
            view["table"] = {"defined": view["table"]["defined"], "top": index.frame.iloc[mine].assign(_row=mine)}
    return merge_views(*views, spec=spec)


def merge_views(*views: dict, spec: ViewSpec) -> dict:
    """The answer of the union of the partitions that gave ``views`` (in any order)."""
    out = {}
    if "table" in spec.pieces:
        top = pd.concat([v["table"]["top"] for v in views], ignore_index=True)
        order = _order(top[spec.sort_by].to_numpy(), top[PARTITION].to_numpy(), top["_row"].to_numpy(), spec)
        out["table"] = {"defined": sum(v["table"]["defined"] for v in views), "top": top.iloc[order]}
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


def place(futures: list) -> dict:
    """The partitions' index futures by a worker holding each (``{address: [futures]}``, in the
    run's order; None: not held, for the scheduler to place), once they are computed."""
    distributed.wait(futures)
    where = distributed.default_client().who_has(futures)
    out: dict = {}
    for future in futures:
        held = where.get(future.key) or (None,)
        out.setdefault(held[0], []).append(future)
    return out


def ask(placed: dict, spec: ViewSpec) -> dict:
    """Compute ``spec`` over every partition on the cluster: one task per worker (:func:`worker_view`
    over the indexes it holds, ``placed`` as :func:`place` gives; run elsewhere if they moved),
    merged in the kernel.

    Returns the pieces asked for, in the in-process explorer's shapes: ``table`` (``defined``:
    rows with the sort metric defined; ``top``: the first ``n`` of them, in order), ``summary``
    (Scores.aggregate's shape), ``distribution``, ``groups``, ``scatter``.
    """
    client = distributed.default_client()
    tasks = [client.submit(worker_view, spec, *futures, pure=False,
                           **({} if worker is None else {"workers": [worker], "allow_other_workers": True}))
             for worker, futures in placed.items()]
    answer = merge_views(*client.gather(tasks), spec=spec)
    if "table" in answer:
        answer["table"]["top"] = answer["table"]["top"].drop(columns="_row").reset_index(drop=True)
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
