"""Scores on a Dask cluster: each partition is read and scored by the single-process loader and
engine, and aggregates are a tree reduction of exact per-partition totals (:mod:`.totals`).

A partition is one file of a glob (JSON or JSONL, plain or gzipped) or one partition of a Dask
DataFrame of records. Per-sample scores come back as a lazy Dask DataFrame: ``query_id``,
``partition`` (the partition's number), the group columns asked for with ``by``, one float
column per reported metric (NaN unless defined) and ``<metric>_status`` (int8: 0 defined,
1 Undefined, 2 not computable).
"""

from __future__ import annotations

import glob
import math
import operator
import os
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd

from ..engine.evaluate import Scores, batch_of
from ..engine.evaluate import evaluate as evaluate_batch
from ..engine.metrics import ragchecker_summary
from ..engine.values import Settings
from ..errors import InputError
from ..loaders import load_samples
from .totals import RunTotals, finish, merge_runs

SPLIT_EVERY = 8  # partitions' totals merged per task of the tree reduction
FILE_GROUP = "file"  # by="file": each sample's group is the path of its file


def score_partition(settings: Settings, source, where: str) -> tuple[Scores | None, list[InputError], list[str]]:
    """One partition's Scores (None when every sample was skipped), the samples skipped
    (on_error="report") and the loader's warnings, each naming the partition."""
    try:
        loaded = load_samples(source, on_error=settings.on_error)
        if loaded.unnamed:
            raise InputError(f"{loaded.unnamed} sample(s) have no query_id (first: sample "
                             f"{loaded.first_unnamed}); on the Dask engine every sample needs one (ids by "
                             "position would repeat from partition to partition)", field="query_id")
        scores = evaluate_batch(batch_of(loaded), list(settings.names), mode=settings.mode,
                                undefined=settings.undefined) if len(loaded.samples) else None
    except InputError as err:
        raise _located(err, where) from None
    return scores, [_located(e, where) for e in loaded.errors], [f"{where}: {w}" for w in loaded.warnings]


def _located(err: InputError, where: str) -> InputError:
    return InputError(err.detail, sample=", ".join(p for p in (where, err.sample) if p), field=err.field)


def columns_of(scores: Scores):
    """(reported name, values, status codes) of every metric of a partition's Scores."""
    return [(shown, value, part.code[name]) for part in scores.parts for shown, value, _, name in part.columns()]


def frame_of(scores: Scores | None, settings: Settings, number: int = 0, groups: Mapping | None = None
             ) -> pd.DataFrame:
    """One row per sample: query_id, partition, group columns, each metric's value and its status code."""
    if scores is None:
        return _meta(settings, groups)
    n = scores.batch.n_samples
    data = {"query_id": pd.array(scores.batch.query_ids, dtype=object),
            "partition": np.full(n, number, dtype=np.int32)}
    for name, values in (groups or {}).items():
        data[name] = values
    columns = columns_of(scores)
    data.update({shown: value for shown, value, _ in columns})
    data.update({shown + "_status": code for shown, _, code in columns})
    return pd.DataFrame(data)


def _meta(settings: Settings, groups: Mapping | None = None) -> pd.DataFrame:
    data = {"query_id": pd.Series([], dtype=object), "partition": pd.Series([], dtype="int32")}
    data.update({name: pd.Series([], dtype=object) for name in groups or {}})
    data.update({name: pd.Series([], dtype="float64") for name in settings.reported})
    data.update({name + "_status": pd.Series([], dtype="int8") for name in settings.reported})
    return pd.DataFrame(data)


@dataclass
class Part:
    """One partition, scored: its rows, the samples it skipped and the loader's warnings."""

    frame: pd.DataFrame
    errors: list[InputError]
    warnings: list[str]


def _score_file(path: str, number: int, settings: Settings, by: Mapping[str, Callable]) -> Part:
    scores, errors, warnings = score_partition(settings, path, f"file {path}")
    n = 0 if scores is None else scores.batch.n_samples
    groups = {name: np.full(n, label(path), dtype=object) for name, label in by.items()}
    return Part(frame_of(scores, settings, number, groups), errors, warnings)


NESTED_FIELDS = ("retrieved_context", "response_claims", "gt_answer_claims", "answer2response", "response2answer",
                 "retrieved2response", "retrieved2answer", "corpus", "reference_facts")


def check_lists_kept(frame: dd.DataFrame, lists) -> None:
    """An error if Dask turned any of the columns ``lists`` (lists per row) into text."""
    texts = [c for c in frame.columns if c in lists and pd.api.types.is_string_dtype(frame.dtypes[c])
             and frame.dtypes[c] != object]
    if texts:
        raise InputError("Dask turned these lists into text when the DataFrame was made (its "
                         "dataframe.convert-string setting): make it inside "
                         "dask.config.set({'dataframe.convert-string': False})", field=texts[0])


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


def record_of(row: Mapping, skip=()) -> dict:
    """A row of a DataFrame of records as the loader reads it: arrays as lists, missing values (a
    column absent from some records is NaN there) and the ``skip`` columns (groups) left out."""
    return {key: _plain(value) for key, value in row.items() if key not in skip and _present(value)}


def _score_records(part: pd.DataFrame, number: int, settings: Settings, by: tuple[str, ...]) -> Part:
    records = [record_of(row, by) for row in part.to_dict("records")]
    scores, errors, warnings = score_partition(settings, records, f"partition {number}")
    if scores is None:
        return Part(_meta(settings, dict.fromkeys(by)), errors, warnings)
    kept = _kept_rows(part, scores, errors)
    groups = {name: part[name].to_numpy(dtype=object)[kept] for name in by}
    return Part(frame_of(scores, settings, number, groups), errors, warnings)


def _kept_rows(part: pd.DataFrame, scores: Scores, errors: list) -> np.ndarray:
    """Positions of the partition's rows that were scored (all of them unless some were skipped)."""
    if not errors:
        return np.arange(len(part))
    if "query_id" not in part:
        raise InputError("on_error='report' on a DataFrame needs a query_id column, to tell which rows "
                         "were skipped", field="query_id")
    position = {str(q): i for i, q in enumerate(part["query_id"].tolist())}
    return np.array([position[q] for q in scores.batch.query_ids], dtype=np.int64)


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


def tree_reduce(parts: list, combine=merge_runs, split_every: int = SPLIT_EVERY):
    """One delayed result from many: ``combine`` applied ``split_every`` at a time, level by level."""
    if not parts:
        return dask.delayed(combine)()
    while len(parts) > 1:
        parts = [dask.delayed(combine)(*parts[i:i + split_every]) for i in range(0, len(parts), split_every)]
    return parts[0]


@dataclass
class DaskScores:
    """Scores of a run on a Dask cluster (``rw.evaluate(source, engine="dask")``).

    ``frame`` is lazy; :meth:`aggregate` computes every partition's totals on the cluster and
    merges them by a tree reduction (checking query_ids are unique across partitions). Values
    per sample equal the single-process engine's; means are the exact sum of the defined values
    over their count, rounded once. :meth:`persist` keeps the scored partitions on the cluster,
    so that later questions do not score the run again.
    """

    run_backend: ClassVar[str] = "cluster_run"  # the back end of its run model, for the DatasetExplorer
    parts: list  # one dask Delayed Part per partition
    settings: Settings
    source: object  # the list of files (one per partition) or the Dask DataFrame of records
    by: tuple[str, ...] = ()
    _totals: RunTotals | None = field(default=None, repr=False)
    _errors: list | None = field(default=None, repr=False)
    _warnings: list | None = field(default=None, repr=False)

    @property
    def names(self) -> list[str]:
        """Every reported metric key (as Scores.names)."""
        return self.settings.reported

    @property
    def meta(self) -> pd.DataFrame:
        """The frame's columns and types, with no rows."""
        return _meta(self.settings, dict.fromkeys(self.by))

    @property
    def frame(self) -> dd.DataFrame:
        """Per-sample scores, one Dask partition per source partition (lazy). query_ids stay Python
        strings (Dask would convert them to Arrow text on every access to a partition)."""
        pieces = [dask.delayed(operator.attrgetter("frame"))(p) for p in self.parts]
        with dask.config.set({"dataframe.convert-string": False}):
            return dd.from_delayed(pieces, meta=self.meta, verify_meta=False)

    def where(self, number: int) -> str:
        """Partition ``number`` in words: its file, or its number in the source frame."""
        return f"file {self.source[number]}" if isinstance(self.source, list) else f"partition {number}"

    def persist(self) -> DaskScores:
        """Score every partition now and keep the results on the cluster (or in memory without one)."""
        self.parts = list(dask.persist(*self.parts))
        return self

    def _summaries(self) -> list:
        """Per partition, one task reading its Part once: its totals, query_id hashes, skipped
        samples and warnings (so a partition's scores are freed as soon as that task is done)."""
        by = list(self.by)
        return [dask.delayed(_summary)(p, self.names, by) for p in self.parts]

    def partition_totals(self) -> list:
        """Each partition's totals, as Dask delayed objects (see :class:`.totals.RunTotals`)."""
        return [dask.delayed(operator.attrgetter("totals"))(s) for s in self._summaries()]

    def _compute(self) -> None:
        if self._totals is not None:
            return
        summaries = self._summaries()
        pick = {name: [dask.delayed(operator.attrgetter(name))(s) for s in summaries]
                for name in ("totals", "ids", "errors", "warnings")}
        totals, repeated, errors, warnings = dask.compute(tree_reduce(pick["totals"], merge_runs),
                                                          _repeated_ids(pick["ids"]), pick["errors"], pick["warnings"])
        if len(repeated):
            self._name_repeated(repeated)
        self._totals = totals
        self._errors = [e for part in errors for e in part]
        self._warnings = [w for part in warnings for w in part]

    def _name_repeated(self, hashes: pd.Index) -> None:
        """Raise naming a query_id found in two partitions (or two samples), if one is really repeated
        (not a 64-bit hash collision)."""
        frame = self.frame
        rows = frame[frame["query_id"].map_partitions(_hashed_in, hashes)][["query_id", "partition"]].compute()
        for query_id, where in rows.groupby("query_id", sort=True)["partition"]:
            if len(where) > 1:
                places = " and ".join(self.where(k) for k in sorted(set(where.tolist())))
                raise InputError(f"query_id {query_id!r} is used {len(where)} times, in {places}: query_ids "
                                 "must be unique across the run", field="query_id")

    def aggregate(self, by: str | list[str] | None = None) -> dict:
        """Per metric: mean over defined samples (None if none) and the defined, Undefined and
        not-computable counts (Scores.aggregate's shape), computed on the cluster once. With
        ``by`` (columns named in ``evaluate(..., by=)``): ``{group: that dict}``, a group being a
        value, or a tuple of values for several columns."""
        self._compute()
        if by is None:
            return finish(self._totals.metrics)
        columns = [by] if isinstance(by, str) else list(by)
        unknown = [c for c in columns if c not in self.by]
        if unknown:
            raise KeyError(f"no group column {unknown[0]!r}; evaluate(..., engine='dask', by=...) named "
                           f"{', '.join(self.by) or 'none'}")
        groups = self._totals.regroup([self.by.index(c) for c in columns])
        return {key[0] if isinstance(by, str) else key: finish(t) for key, t in groups.items()}

    @property
    def samples(self) -> int:
        """How many samples were scored."""
        self._compute()
        return self._totals.samples

    @property
    def errors(self) -> list[InputError]:
        """The samples skipped (``on_error="report"``), each naming its partition."""
        self._compute()
        return self._errors

    @property
    def warnings(self) -> list[str]:
        """The loaders' warnings (unknown fields, say), each naming its partition."""
        self._compute()
        return self._warnings

    def ragchecker_summary(self) -> dict[str, dict[str, float | None]]:
        """RAGChecker's report: mean over defined samples × 100, one decimal, by group."""
        return ragchecker_summary(self.aggregate())

    def top(self, metric: str, n: int = 10, smallest: bool = False) -> pd.DataFrame:
        """The ``n`` samples with the highest (or lowest) defined values of ``metric``, computed
        with nlargest / nsmallest per partition (ties: as pandas keeps them)."""
        if metric not in self.names:
            raise KeyError(f"no metric {metric!r} here; scored: {', '.join(self.names)}")
        frame = self.frame
        defined = frame[frame[metric + "_status"] == 0]
        picked = defined.nsmallest(n, metric) if smallest else defined.nlargest(n, metric)
        return picked.compute().reset_index(drop=True)

def _hashed(ids):
    """64-bit hashes of query_ids (pandas' fixed-key hash: the same in every process)."""
    return pd.util.hash_pandas_object(ids, index=False).to_numpy()


@dataclass
class Summary:
    """What the run's questions need of one partition (see ``DaskScores._summaries``)."""

    totals: RunTotals
    ids: pd.Series  # uint64 hashes of its query_ids
    errors: list[InputError]
    warnings: list[str]


def _summary(part: Part, names: list[str], by: list[str]) -> Summary:
    return Summary(RunTotals.of_frame(part.frame, names, by), pd.Series(_hashed(part.frame["query_id"])),
                   part.errors, part.warnings)


def _repeated_ids(ids: list) -> object:
    """The hashes of query_ids seen more than once, by a hash-partitioned count (memory per task
    bounded by a partition's share, whatever the run's size), as one delayed Index. ``ids``: each
    partition's hashes, as Dask delayed Series."""
    with dask.config.set({"dataframe.convert-string": False}):
        hashes = dd.from_delayed(ids, meta=pd.Series([], dtype="uint64"), verify_meta=False)
    counts = hashes.value_counts(split_out=max(1, len(ids) // SPLIT_EVERY))
    return dask.delayed(_index_of_all)(counts[counts > 1].to_delayed())


def _hashed_in(ids: pd.Series, hashes: pd.Index) -> pd.Series:
    return pd.Series(np.isin(_hashed(ids), hashes.to_numpy()), index=ids.index)


def _index_of_all(pieces: list[pd.Series]) -> pd.Index:
    return pd.Index(np.concatenate([p.index.to_numpy() for p in pieces]) if pieces else [])


def _file_groups(by) -> dict[str, Callable]:
    """``by`` for files: "file", or {column: callable(path) -> label}."""
    if by is None:
        return {}
    if by == FILE_GROUP:
        return {FILE_GROUP: os.fspath}
    if isinstance(by, Mapping) and all(isinstance(k, str) and callable(v) for k, v in by.items()):
        return dict(by)
    raise TypeError("for files, by is 'file' or {column: function(path) -> group}, e.g. "
                    "{'system': lambda path: path.split('/')[-2]}")


def evaluate(source, scores=None, *, mode: str = "all_claims", undefined: str = "null", on_error: str = "raise",
             by=None) -> DaskScores:
    """Score ``source`` lazily on Dask: a glob (or list) of JSON/JSONL(.gz) files, one partition
    per file, or a Dask DataFrame whose rows are RAGChecker records. Runs on the current
    ``distributed.Client`` when there is one (else Dask's local scheduler).

    ``by`` adds group columns, for :meth:`DaskScores.aggregate`'s per-group aggregates: columns
    of the DataFrame (a name or a list), or for files ``"file"`` or ``{column: function(path)}``.
    ``on_error="report"``: skip bad samples, listed in :attr:`DaskScores.errors`.
    """
    settings = Settings(scores, mode, undefined, on_error)
    if isinstance(source, dd.DataFrame):
        columns = () if by is None else (by,) if isinstance(by, str) else tuple(by)
        missing = [c for c in columns if c not in source.columns]
        if missing:
            raise InputError(f"by names a column the DataFrame lacks; its columns: {', '.join(source.columns)}",
                             field=missing[0])
        check_lists_kept(source, NESTED_FIELDS)
        name = f"ragwidgets-score-{uuid.uuid4().hex[:8]}"
        parts = [dask.delayed(_score_records)(p, k, settings, columns, dask_key_name=(name, k))
                 for k, p in enumerate(source.to_delayed())]
        return DaskScores(parts, settings, source, columns)
    if isinstance(source, (str, os.PathLike, list, tuple)):
        paths = paths_of(source)
        groups = _file_groups(by)
        name = f"ragwidgets-score-{uuid.uuid4().hex[:8]}"
        parts = [dask.delayed(_score_file)(path, k, settings, groups, dask_key_name=(name, k))
                 for k, path in enumerate(paths)]
        return DaskScores(parts, settings, paths, tuple(groups))
    raise TypeError("engine='dask' scores a glob of JSON/JSONL(.gz) files, a list of paths or a "
                    f"dask.dataframe.DataFrame of records, not {type(source).__name__}")
