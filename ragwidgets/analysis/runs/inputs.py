"""Every input a run model opens, read once: :func:`read_runs` turns a path, records, Scores, a
ScoringResult, a table (DataFrame, Parquet, CSV, ragas, Phoenix: :mod:`ragwidgets.sources`) or
``{run_name: source}`` into one :class:`RunInput` per run; :func:`cluster_model` says which back
end's model opens a source instead (a Dask-scored run), None: in memory."""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import count

import numpy as np
import pandas as pd

from ...backends import backend
from ...engine import evaluate
from ...engine.evaluate import Scores
from ...errors import InputWarning, RagWidgetsError
from ...judges.repeats import REPEATS_FIELD
from ...loaders import KNOWN_FIELDS
from ...reviews import ReviewLog, Reviews, as_reviews
from ...sources import is_scoring_result, is_table, read_run, scoring_records
from ..compare import JudgeInfo, judge_info
from ..external import counterparts
from ..judge_variance import Repeats, repeat_scores
from ..table import COUNT_COLUMNS

MAX_GROUPS = 50  # a column with more distinct values is not offered for "mean by group"
FLAKY = "flaky_labels"  # the run table's column for a run judged several times (1: flaky, 0: steady)
RESERVED = (*COUNT_COLUMNS, "run", "query_id", "query", "response", "difference", FLAKY)  # the run table's own columns


@dataclass(frozen=True)
class RunInput:
    """One run's source, read: its Scores (its reviews applied), ``extras`` (a table's other short
    columns and other tools' numbers, by query_id; None: none), ``external`` (those numbers'
    names -> the metric each measures the same as, :data:`~ragwidgets.analysis.external.COUNTERPARTS`;
    None for most), ``repeats`` (each repeat's Scores; None: judged once), ``judge`` (who labelled
    it) and ``log`` (its reviews file, where reviews were given as a path)."""

    scores: Scores
    extras: pd.DataFrame | None
    external: dict[str, str | None]
    repeats: Repeats | None
    judge: JudgeInfo
    log: ReviewLog | None = None


def is_runs(source) -> bool:
    """Whether ``source`` is ``{run_name: source}`` (not one run's records or results)."""
    return isinstance(source, dict) and "results" not in source and "query_id" not in source and bool(source)


def _backend_of(source) -> str | None:
    """The back end that builds ``source``'s run model (``run_backend`` on its type), None: in memory."""
    return getattr(type(source), "run_backend", None)


def cluster_model(source):
    """The run model class of ``source``'s back end (a Dask-scored run's), None for a run held in
    memory; RagWidgetsError for several runs among which one is not in memory."""
    name = _backend_of(source)
    if name is None:
        if is_runs(source) and any(_backend_of(v) for v in source.values()):
            raise RagWidgetsError("comparing runs is not available on Dask-scored runs: open one run at a time, "
                                  "DatasetExplorer(scores)")
        return None
    return backend(name)


def read_runs(source, reviews=None) -> dict[str, RunInput]:
    """Each run of ``source`` (one run is named "run") read, with its ``reviews`` (one run's, or
    ``{run: reviews}``; a path is a reviews file, read and later appended to). An input error of
    one of several runs names the run."""
    sources = {str(name): src for name, src in (source if is_runs(source) else {"run": source}).items()}
    given = per_run(reviews, list(sources), "reviews", "a review names a claim of one run's response")
    out = {}
    for name, src in sources.items():
        log = ReviewLog(given[name]) if isinstance(given.get(name), (str, os.PathLike)) else None
        try:
            out[name] = read_input(src, log.reviews if log else as_reviews(given[name]) if name in given else None, log)
        except ValueError as err:  # InputError included: it already names the sample and field
            if len(sources) == 1:
                raise
            raise type(err)(f"run {name!r}: {err}") from None
    return out


def read_input(source, reviews: Reviews | None = None, log: ReviewLog | None = None) -> RunInput:
    """One run's :class:`RunInput` (``reviews`` applied)."""
    records = None
    if isinstance(source, Scores):
        scores = source if reviews is None else source.reviewed(reviews)
    elif is_scoring_result(source):
        judged, carried = scoring_records(source)
        scores = evaluate(judged, reviews=carried if reviews is None else reviews)
        named = {c: name for c, name in source.frame.attrs.get("external", {}).items() if c in source.frame.columns}
        if named:  # another tool's numbers the scorer kept beside its rows, under the tool's own names
            scores.external = source.frame[list(named)].rename(columns=named).set_axis(
                pd.Index(scores.batch.query_ids, name="query_id"))
            scores.external_tool = source.frame.attrs.get("external_tool", "external")
    elif not is_table(source):
        scores = evaluate(source, reviews=reviews)
    else:
        run = read_run(source)
        scores = evaluate(run.records, reviews=reviews)
        scores.external, scores.external_tool = run.external, run.tool
        records = pd.DataFrame(run.records)
    extras, external = _extras(scores, records)
    return RunInput(scores, extras, external, _judge_repeats(source), judge_info(source), log)


def _extras(scores: Scores, records: pd.DataFrame | None) -> tuple[pd.DataFrame | None, dict]:
    """A run's other short columns (groupable) of its table's ``records`` and other tools'
    numeric columns, by query_id, and those numbers' names (``<tool>_<name>`` where a metric or a
    column of the run table has the name) -> the metric each measures the same as."""
    if records is None and (scores.external is None or not len(scores.external.columns)):
        return None, {}  # nothing beside the metrics: no frame of a million empty rows
    ids = list(scores.batch.query_ids)
    extras = pd.DataFrame(index=pd.Index(ids))
    if records is not None:
        extra = [c for c in records.columns if c not in KNOWN_FIELDS
                 and records[c].map(lambda v: isinstance(v, (str, int, bool, np.integer))).all()
                 and records[c].nunique() <= MAX_GROUPS]
        if extra:
            extras = records[extra].set_axis(records["query_id"])
    tool = scores.external_tool or "external"
    theirs = list(scores.external.columns) if scores.external is not None else []
    names = _unclashed([*extras.columns, *theirs], {*scores.names, *RESERVED}, tool)
    extras = extras.rename(columns=names)
    external: dict[str, str | None] = {}
    if theirs:
        pairs = counterparts(tool, theirs)
        extras = extras.join(scores.external.rename(columns=names), how="outer")
        external = {names[c]: pairs.get(c) for c in theirs}
    extras = extras.reindex(ids).rename_axis("query_id")
    return (extras if len(extras.columns) else None), external


def _unclashed(columns: list[str], reserved: set[str], tool: str) -> dict[str, str]:
    """Each of a table's ``columns`` -> the name the run table shows it under: its own, or for one
    ``reserved`` (a metric's, a column of the run table's own) ``<tool>_<name>`` (``_2``, ``_3``, ...
    until free); the renames said in one InputWarning."""
    taken = reserved | set(columns)
    names = {}
    for column in columns:
        name = column
        if column in reserved:
            name = next(n for k in count(1) if (n := f"{tool}_{column}" + (f"_{k}" if k > 1 else "")) not in taken)
            taken.add(name)
        names[column] = name
    renamed = [f"{c} -> {n}" for c, n in names.items() if c != n]
    if renamed:
        warnings.warn(f"columns named as ragwidgets' own metrics or run-table columns are renamed: "
                      f"{', '.join(renamed)}", InputWarning, stacklevel=5)
    return names


def _judge_repeats(source) -> Repeats | None:
    """The Scores of each repeat of a run whose records keep every repeat's labels (records, or a
    ScoringResult, filled with ``repeats=k``), else None."""
    records = source.records if is_scoring_result(source) else source
    if not isinstance(records, (list, tuple)) or not any(isinstance(r, Mapping) and r.get(REPEATS_FIELD)
                                                         for r in records):
        return None
    return repeat_scores(records)


def per_run(given, runs: list[str], what: str, names: str) -> dict:
    """``given`` (one run's ``what``, e.g. reviews or notes, or ``{run: ...}``) as run -> value (a
    path stays a path); a ValueError for a run the source lacks, several runs given one value, or
    one file given to two runs (each line of it ``names`` something of one run only)."""
    if given is None:
        return {}
    if isinstance(given, Mapping):
        unknown = [str(r) for r in given if str(r) not in runs]
        if unknown:
            raise ValueError(f"{what} for run(s) {', '.join(map(repr, unknown))}, which this source lacks; "
                             f"its runs: {', '.join(map(repr, runs))}")
        out = {str(r): v for r, v in given.items() if v is not None}
        files: dict[str, str] = {}
        for run, value in out.items():
            if isinstance(value, (str, os.PathLike)):
                key = os.path.realpath(value)
                if key in files:  # one file would hold both runs' lines, each then applied to the other
                    raise ValueError(f"runs {files[key]!r} and {run!r} are given the same {what} file "
                                     f"{os.fspath(value)!r}: {names}; give each run its own file")
                files[key] = run
        return out
    if len(runs) > 1:
        raise ValueError(f"several runs: give {what} per run, {{run_name: {what}}} ({names})")
    return {runs[0]: given}
