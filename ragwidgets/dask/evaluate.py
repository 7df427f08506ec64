"""Scores on a Dask cluster: each partition is read and scored by the single-process loader and
engine, and aggregates are a tree reduction of exact per-partition totals (:mod:`.totals`).

A partition is one file of a glob (JSON or JSONL, plain or gzipped) or one partition of a Dask
DataFrame of records. Per-sample scores come back as a lazy Dask DataFrame: ``query_id``, one
float column per reported metric (NaN unless defined) and ``<metric>_status`` (int8:
0 defined, 1 Undefined, 2 not computable).
"""

from __future__ import annotations

import glob
import math
import os
from dataclasses import dataclass, field

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd

from ..engine.evaluate import MODES, UNDEFINED_POLICIES, Scores, batch_of
from ..engine.evaluate import evaluate as evaluate_batch
from ..engine.metrics import resolve
from ..errors import InputError
from ..loaders import load_samples
from .totals import finish, merge, ragchecker_summary, totals_of

SPLIT_EVERY = 8  # partitions' totals merged per task of the tree reduction


@dataclass(frozen=True)
class Settings:
    """What to score: metric names, claim mode and Undefined policy (as in rw.evaluate)."""

    names: tuple[str, ...]
    mode: str = "all_claims"
    undefined: str = "null"

    @property
    def reported(self) -> list[str]:
        """Every reported metric key, in Scores.names' order."""
        prefixes = ("", "required_") if self.mode == "required_and_optional" else ("",)
        return [prefix + name for prefix in prefixes for name in self.names]

    def score(self, source, where: str) -> Scores:
        """The single-process Scores of one partition; an input error says which partition."""
        try:
            return evaluate_batch(batch_of(load_samples(source)), list(self.names), mode=self.mode,
                                  undefined=self.undefined)
        except InputError as err:
            raise InputError(err.detail, sample=", ".join(p for p in (where, err.sample) if p),
                             field=err.field) from None


def columns_of(scores: Scores):
    """(reported name, values, status codes) of every metric of a partition's Scores."""
    return [(shown, value, part.code[name]) for part in scores.parts for shown, value, _, name in part.columns()]


def frame_of(scores: Scores) -> pd.DataFrame:
    """One row per sample: query_id, each metric's value and its status code."""
    data = {"query_id": pd.array(scores.batch.query_ids, dtype=object)}
    for shown, value, code in columns_of(scores):
        data[shown] = value
    for shown, value, code in columns_of(scores):
        data[shown + "_status"] = code
    return pd.DataFrame(data)


def _meta(settings: Settings) -> pd.DataFrame:
    data = {"query_id": pd.Series([], dtype=object)}
    data.update({name: pd.Series([], dtype="float64") for name in settings.reported})
    data.update({name + "_status": pd.Series([], dtype="int8") for name in settings.reported})
    return pd.DataFrame(data)


def _score_file(path: str, settings: Settings) -> pd.DataFrame:
    return frame_of(settings.score(path, f"file {path}"))


NESTED_FIELDS = ("retrieved_context", "response_claims", "gt_answer_claims", "answer2response", "response2answer",
                 "retrieved2response", "retrieved2answer", "corpus", "reference_facts")


def _present(value) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _plain(value):
    """Lists for the arrays a Parquet or Arrow column holds (the loader reads JSON's types)."""
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _score_records(part: pd.DataFrame, settings: Settings, partition_info=None) -> pd.DataFrame:
    if part.empty:
        return _meta(settings)
    records = [{key: _plain(value) for key, value in row.items() if _present(value)}
               for row in part.to_dict("records")]  # a column missing from some records is NaN there
    where = f"partition {partition_info['number']}" if partition_info else "a partition"
    return frame_of(settings.score(records, where))


def paths_of(pattern) -> list[str]:
    """The files of a glob (or a list of paths), sorted; an error when none matches."""
    if isinstance(pattern, (list, tuple)):
        paths = [os.fspath(p) for p in pattern]
    else:
        paths = sorted(glob.glob(os.fspath(pattern), recursive=True))
    if not paths:
        raise InputError(f"no file matches {os.fspath(pattern)!r}" if not isinstance(pattern, (list, tuple))
                         else "no file given")
    return paths


def tree_reduce(parts: list, split_every: int = SPLIT_EVERY):
    """One delayed totals from many: merged ``split_every`` at a time, level by level."""
    if not parts:
        return dask.delayed(merge)()
    while len(parts) > 1:
        parts = [dask.delayed(merge)(*parts[i:i + split_every]) for i in range(0, len(parts), split_every)]
    return parts[0]


def _totals_of_frame(part: pd.DataFrame, reported: list[str]) -> dict:
    return totals_of((name, part[name].to_numpy(), part[name + "_status"].to_numpy()) for name in reported)


@dataclass
class DaskScores:
    """Scores of a run on a Dask cluster (``rw.evaluate(source, engine="dask")``).

    ``frame`` is lazy; :meth:`aggregate` computes every partition's totals on the cluster and
    merges them by a tree reduction. Values per sample equal the single-process engine's; means
    are the exact sum of the defined values over their count, rounded once.
    """

    frame: dd.DataFrame
    settings: Settings
    _aggregate: dict | None = field(default=None, repr=False)

    @property
    def names(self) -> list[str]:
        """Every reported metric key (as Scores.names)."""
        return self.settings.reported

    def partition_totals(self) -> list:
        """Each partition's totals, as Dask delayed objects (see :mod:`ragwidgets.dask.totals`)."""
        return [dask.delayed(_totals_of_frame)(p, self.names) for p in self.frame.to_delayed()]

    def totals(self, split_every: int = SPLIT_EVERY):
        """The run's totals as one Dask delayed object: the partitions' merged by a tree reduction."""
        return tree_reduce(self.partition_totals(), split_every)

    def aggregate(self) -> dict[str, dict]:
        """Per metric: mean over defined samples (None if none) and the defined, Undefined and
        not-computable counts (Scores.aggregate's shape), computed on the cluster once."""
        if self._aggregate is None:
            self._aggregate = finish(self.totals().compute())
        return self._aggregate

    def ragchecker_summary(self) -> dict[str, dict[str, float | None]]:
        """RAGChecker's report: mean over defined samples × 100, one decimal, by group."""
        return ragchecker_summary(self.aggregate())

    def top(self, metric: str, n: int = 10, smallest: bool = False) -> pd.DataFrame:
        """The ``n`` samples with the highest (or lowest) defined values of ``metric``, computed
        with nlargest / nsmallest per partition (ties: as pandas keeps them)."""
        if metric not in self.names:
            raise KeyError(f"no metric {metric!r} here; scored: {', '.join(self.names)}")
        defined = self.frame[self.frame[metric + "_status"] == 0]
        picked = defined.nsmallest(n, metric) if smallest else defined.nlargest(n, metric)
        return picked.compute().reset_index(drop=True)


def evaluate(source, scores=None, *, mode: str = "all_claims", undefined: str = "null") -> DaskScores:
    """Score ``source`` lazily on Dask: a glob (or list) of JSON/JSONL(.gz) files, one partition
    per file, or a Dask DataFrame whose rows are RAGChecker records. Runs on the current
    ``distributed.Client`` when there is one (else Dask's local scheduler)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if undefined not in UNDEFINED_POLICIES:
        raise ValueError(f"undefined must be 'null' or 'zero', not {undefined!r}")
    settings = Settings(resolve(scores), mode, undefined)
    meta = _meta(settings)
    if isinstance(source, dd.DataFrame):
        texts = [c for c in NESTED_FIELDS if c in source.columns and pd.api.types.is_string_dtype(source.dtypes[c])
                 and source.dtypes[c] != object]
        if texts:
            raise InputError("Dask turned these lists into text when the DataFrame was made (its "
                             "dataframe.convert-string setting): make it inside "
                             "dask.config.set({'dataframe.convert-string': False})", field=texts[0])
        frame = source.map_partitions(_score_records, settings, meta=meta, align_dataframes=False)
    elif isinstance(source, (str, os.PathLike, list, tuple)):
        frame = dd.from_map(_score_file, paths_of(source), settings=settings, meta=meta,
                            label="ragwidgets-score", enforce_metadata=False)
    else:
        raise TypeError("engine='dask' scores a glob of JSON/JSONL(.gz) files, a list of paths or a "
                        f"dask.dataframe.DataFrame of records, not {type(source).__name__}")
    return DaskScores(frame, settings)
