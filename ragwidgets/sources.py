"""Runs from where they live: tables of records in other tools' shapes read as RAGChecker records.

:func:`read_run` takes a Parquet or CSV file, a pandas DataFrame, an Arrow table, or any object
with ``to_pandas()`` (a Hugging Face ``datasets.Dataset``, a ragas ``EvaluationDataset`` or
``EvaluationResult``; none of these libraries is imported) and tells its shape by its columns:

=============  ==========================================================================
shape          columns read (-> RAGChecker field)
=============  ==========================================================================
ragchecker     RAGChecker's own fields (``query``, ``gt_answer``, ``retrieved_context``, ...)
ragas          ragas >= 0.2: user_input -> query, response, retrieved_contexts ->
               retrieved_context, reference -> gt_answer
ragas_v1       ragas < 0.2: question -> query, answer -> response, contexts ->
               retrieved_context, ground_truth (or ground_truths) -> gt_answer
phoenix        OpenInference spans as Phoenix exports them (``get_spans_dataframe()``), one
               sample per ``context.trace_id``: the root span's (else the last LLM span's)
               ``attributes.input.value`` / ``attributes.output.value`` with the
               ``attributes.retrieval.documents`` of the trace's RETRIEVER spans
               (``document.id`` -> doc_id, ``document.content`` -> text; another chunk
               of a document is a passage of its own, ``<id>#2``, said once)
=============  ==========================================================================

The mapping is said once (an :class:`InputWarning`: "read as ragas >= 0.2 columns: user_input ->
query, ..."). Columns that fit two shapes are an :class:`InputError` naming what was found and
the option that settles it (``shape=``); ``columns={frame column: RAGChecker field}`` maps a
table of no known shape. Numeric columns the table carries besides (ragas' ``faithfulness``, a
human rating, a latency; a Phoenix trace's ``latency_ms``) come back apart, as ``external``:
never scored, their NaN is "missing".
"""

from __future__ import annotations

import ast
import json
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import count
from pathlib import Path
from typing import Any

import numpy as np

from .errors import InputError, InputWarning
from .model import LABEL_MATRICES

TABLE_SUFFIXES = (".parquet", ".csv")
MAX_LITERAL = 1_000_000  # characters of a CSV cell read as a Python literal (ragas writes lists so); JSON has no limit
SHAPES = {  # shape -> (how the note names it, frame column -> RAGChecker field)
    "ragchecker": ("RAGChecker", {}),
    "ragas": ("ragas >= 0.2", {"user_input": "query", "response": "response",
                               "retrieved_contexts": "retrieved_context", "reference": "gt_answer"}),
    "ragas_v1": ("ragas < 0.2", {"question": "query", "answer": "response", "contexts": "retrieved_context",
                                 "ground_truth": "gt_answer", "ground_truths": "gt_answer"}),
    "phoenix": ("Phoenix (OpenInference) spans", {"attributes.input.value": "query",
                                                  "attributes.output.value": "response",
                                                  "attributes.retrieval.documents": "retrieved_context"}),
}
TOOLS = {"ragchecker": "external", "ragas": "ragas", "ragas_v1": "ragas", "phoenix": "phoenix"}
_SIGNS = {  # shape -> the columns that say it (any one of them)
    "ragchecker": {"query", "gt_answer", "retrieved_context"},
    "ragas": {"user_input", "retrieved_contexts"},
    "ragas_v1": {"question", "contexts", "ground_truths"},
    "phoenix": {"context.trace_id"},
}
_CLAIM_FIELDS = {"response_claims", "gt_answer_claims", *LABEL_MATRICES}
FIELD_SPELLINGS = {  # another tool's name of a RAGChecker field -> that field (the ragas shapes', and TruLens' context)
    **{c: f for s in ("ragas", "ragas_v1") for c, f in SHAPES[s][1].items() if c != f}, "context": "retrieved_context"}
_ID_COLUMNS = ("query_id", "id", "sample_id")  # a row's name, the first of these present
_TRACE, _SPAN_KIND, _KIND_ATTRIBUTE = "context.trace_id", "span_kind", "attributes.openinference.span.kind"


@dataclass
class SourceRun:
    """A table read as a run: RAGChecker ``records``, the ``external`` numeric columns (a DataFrame
    indexed by query_id, or None), the ``shape`` it was read as, the ``tool`` that named the external
    columns ("ragas", "phoenix", "external") and the ``note`` that said the mapping."""

    records: list[dict]
    external: Any
    shape: str
    tool: str
    note: str


def is_missing(value: Any) -> bool:
    """None, NaN or pd.NA: a cell with nothing in it."""
    return value is None or type(value).__name__ == "NAType" or (isinstance(value, float) and math.isnan(value))


def plain(value: Any) -> Any:
    """The cell as plain Python: numpy arrays (e.g. read back from parquet) as lists, NaN as None."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        value = value.item()
    return None if is_missing(value) else value


def is_table_path(source: Any) -> bool:
    """Whether ``source`` names a Parquet or CSV file (by its suffix, any case)."""
    return isinstance(source, (str, Path)) and Path(source).suffix.lower() in TABLE_SUFFIXES \
        and not (isinstance(source, str) and source.lstrip()[:1] in ("{", "["))


def is_table(source: Any) -> bool:
    """Whether :func:`read_run` reads ``source``: a table file, a DataFrame, an Arrow table, an
    object with ``to_pandas()`` (records, results objects and JSON files are the loaders')."""
    return isinstance(source, SourceRun) or is_table_path(source) or (
        not isinstance(source, (str, Path, bytes, list, tuple, dict)) and callable(getattr(source, "to_pandas", None))) \
        or type(source).__name__ == "DataFrame" and hasattr(source, "columns")


def is_scoring_result(source: Any) -> bool:
    """Whether ``source`` is a :class:`~ragwidgets.scoring.ScoringResult` (told by its fields: the
    scorer is loaded on first use, never to ask this)."""
    return hasattr(source, "records") and hasattr(source, "score_columns")


def scoring_records(result: Any) -> tuple[list, Any]:
    """A ScoringResult read as the judge said it and the reviews beside it: its judge's records
    (``judge_result``'s when it was reviewed: its own ``records`` hold the reviewed labels) and
    its ``reviews`` (None: not reviewed)."""
    return (getattr(result, "judge_result", None) or result).records, getattr(result, "reviews", None)


def read_run(source: Any, *, shape: str | None = None, columns: Mapping[str, str] | None = None) -> SourceRun:
    """``source`` (see :func:`is_table`, or a list of records in another tool's shape: :func:`tool_shape`)
    read as a run of RAGChecker records.

    ``shape``: one of :data:`SHAPES` (None: told by the columns; columns of two shapes are an
    error naming this option). ``columns``: frame column -> RAGChecker field, applied first (the
    shape is then "ragchecker" unless given). The mapping is said once as an InputWarning."""
    if isinstance(source, SourceRun):
        return source
    if shape is not None and shape not in SHAPES:
        raise ValueError(f"shape must be one of {', '.join(map(repr, SHAPES))}, not {shape!r}")
    name, frame, given = *_frame(source), shape is not None
    if columns:
        missing = [c for c in columns if c not in frame.columns]
        if missing:
            raise InputError(f"{name} has no column {missing[0]!r} (columns= names it); its columns: "
                             f"{_listed(frame.columns)}")
        frame = frame.rename(columns=dict(columns))
        shape = shape or "ragchecker"
    _check_column_names(name, frame)
    shape = shape or _shape(name, frame.columns)
    if shape == "phoenix":
        frame = _traces(name, frame)
    label, mapping = SHAPES[shape]
    mapping = {c: f for c, f in mapping.items() if c in frame.columns and shape != "phoenix"}
    ids, id_column, id_note = _ids(frame)
    numeric = [] if shape == "ragchecker" else [  # RAGChecker frames keep their extra columns (group columns) as before
        c for c in frame.columns if c not in mapping and c != id_column and _is_number_column(frame[c])]
    kept = [c for c in frame.columns if c not in numeric and c != id_column]
    records = []
    for position, row in enumerate(frame[kept].itertuples(index=False, name=None)):
        record = {"query_id": ids[position]}
        for column, value in zip(kept, row):
            value = _cell(value, column)
            if value is None:
                continue
            field = mapping.get(column, column)
            if column == "ground_truths" and isinstance(value, list):
                value = " ".join(map(str, value))
            record[field] = value
        records.append(record)
    external = None
    if numeric:
        external = frame[numeric].astype(float).set_axis(ids).rename_axis("query_id")
    said = [f"{c} -> {f}" for c, f in mapping.items()] if shape != "phoenix" else [
        "context.trace_id -> query_id", "the root (else last LLM) span's attributes.input.value -> query, "
        "attributes.output.value -> response", "the RETRIEVER spans' attributes.retrieval.documents -> retrieved_context"]
    note = f"{name} read as {label} columns: {', '.join(said + [id_note] if shape != 'phoenix' else said)}"
    if numeric:
        note += f"; kept apart as {TOOLS[shape]} columns (not scored): {', '.join(numeric)}"
    if shape != "ragchecker" or numeric or given:
        warnings.warn(note, InputWarning, stacklevel=2)
    return SourceRun(records, external, shape, TOOLS[shape], note)


def _frame(source: Any):
    """(a name for messages, a pandas DataFrame) of a table source."""
    import pandas as pd

    if is_table_path(source):
        path = Path(source)
        if not path.is_file():
            raise InputError(f"no such file: {path}")
        try:
            frame = pd.read_parquet(path) if path.suffix.lower() == ".parquet" else _read_csv(path)
        except InputError:
            raise
        except Exception as err:  # pyarrow's and pandas' own errors: the file is not what its name says
            raise InputError(f"cannot read {path} as {path.suffix.lower()[1:]}: {err}") from None
        return str(path), frame
    if isinstance(source, pd.DataFrame):
        return "the DataFrame", source
    if isinstance(source, list):
        return "the records", pd.DataFrame.from_records(source)
    if callable(getattr(source, "to_pandas", None)):
        frame = source.to_pandas()
        if not isinstance(frame, pd.DataFrame):
            raise InputError(f"{type(source).__name__}.to_pandas() gave a {type(frame).__name__}, not a DataFrame")
        return f"the {type(source).__name__}", frame
    raise InputError(f"cannot read a {type(source).__name__} as a run: give a Parquet or CSV file, a DataFrame, an "
                     "Arrow table or an object with to_pandas()")


def _read_csv(path: Path):
    """A CSV file of records; a cell holding a list or object (JSON, or Python's repr as ragas writes
    it) is read as one."""
    import pandas as pd

    frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    for column in frame.columns:
        if frame[column].dtype == object or pd.api.types.is_string_dtype(frame[column]):
            frame[column] = pd.Series([_structured(v, column, k) for k, v in enumerate(frame[column])],
                                      index=frame.index, dtype=object)
    return frame


def _structured(value: Any, column: str, row: int) -> Any:
    if not isinstance(value, str) or value.lstrip()[:1] not in ("[", "{"):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        pass
    if len(value) > MAX_LITERAL:
        raise InputError(f"holds {len(value):,} characters that are not JSON; a Python literal is read up to "
                         f"{MAX_LITERAL:,} (write the column as JSON)", sample=f"CSV row {row}", field=column)
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise InputError(f"starts like a list or object but is neither JSON nor a Python literal: {value[:60]!r}",
                         sample=f"CSV row {row}", field=column) from None


def _check_column_names(name: str, frame) -> None:
    """InputError naming the first column whose name is not text (a number, a tuple)."""
    column = next((c for c in frame.columns if not isinstance(c, str)), None)
    if column is not None:
        raise InputError(f"{name}'s column {column!r} has a name that is not text ({type(column).__name__}): rename it "
                         f"(frame.rename(columns={{{column!r}: 'my_name'}}), or columns={{{column!r}: 'query'}})",
                         field=str(column))


def _listed(columns) -> str:
    names = [str(c) for c in columns]
    return ", ".join(names[:15]) + (f", ... ({len(names)} in all)" if len(names) > 15 else "")


def tool_shape(records: list) -> str | None:
    """The other tool's shape (ragas, ragas_v1, phoenix) of a list of records, told by their keys as a
    table's by its columns, so the rows of a ragas DataFrame given as dicts (or JSON lines) read as the
    DataFrame does; None for RAGChecker's records (the first has a field of its own: query, gt_answer,
    retrieved_context) and for anything but a list of dicts. Keys of two shapes are the InputError
    :func:`read_run` gives."""
    if not (isinstance(records, list) and records and isinstance(records[0], dict)) \
            or _SIGNS["ragchecker"] & records[0].keys():
        return None
    if not all(isinstance(r, dict) for r in records):
        return None
    keys = set().union(*(r.keys() for r in records))
    if not any(signs & keys for shape, signs in _SIGNS.items() if shape != "ragchecker"):
        return None
    shape = _shape("the records", keys)
    return None if shape == "ragchecker" else shape


def _shape(name: str, columns) -> str:
    found = {shape: sorted(signs & set(map(str, columns))) for shape, signs in _SIGNS.items()}
    found = {shape: cols for shape, cols in found.items() if cols}
    if not found and _CLAIM_FIELDS & set(map(str, columns)):
        return "ragchecker"  # claims and labels (beside another tool's columns they are read as they are)
    if len(found) == 1:
        return next(iter(found))
    options = ", ".join(map(repr, SHAPES))
    if not found:
        raise InputError(f"{name} has no columns of a shape ragwidgets reads ({options}); its columns: "
                         f"{_listed(columns)}. Map them: rw.read_run(source, columns={{'my_question': 'query', "
                         "'my_answer': 'response', 'my_passages': 'retrieved_context'})")
    said = "; ".join(f"{SHAPES[s][0]} ({', '.join(cols)})" for s, cols in found.items())
    raise InputError(f"{name} has the columns of more than one shape: {said}. Say which: "
                     f"rw.read_run(source, shape={next(iter(found))!r}) (shapes: {options})")


def _ids(frame) -> tuple[list[str], str | None, str]:
    """Each row's query_id, the column it came from (None: the row's position) and how the note says it."""
    for column in _ID_COLUMNS:
        if column in frame.columns:
            return [str(plain(v)) for v in frame[column]], column, f"query_id: the {column!r} column"
    return [str(k) for k in range(len(frame))], None, "query_id: the row's position"


def _is_number_column(column) -> bool:
    import pandas as pd

    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def _cell(value: Any, column: str) -> Any:
    value = plain(value)
    if column in ("retrieved_contexts", "contexts") and isinstance(value, list):
        return [{"doc_id": f"P{k + 1}", "text": v} if isinstance(v, str) else v for k, v in enumerate(value)]
    return value


def _traces(name: str, spans):
    """One row per trace of a Phoenix span frame: query_id, query, response, retrieved_context, and
    ``latency_ms`` of the answering span where the frame has start and end times (a time with no
    time zone is read as UTC, said once where times with one are beside it)."""
    import pandas as pd

    kind_column = _SPAN_KIND if _SPAN_KIND in spans.columns else _KIND_ATTRIBUTE
    needed = [_TRACE, kind_column, "attributes.input.value", "attributes.output.value"]
    missing = [c for c in needed if c not in spans.columns]
    if missing:
        raise InputError(f"{name} looks like Phoenix spans ({_TRACE}) but lacks {', '.join(missing)}; "
                         f"its columns: {_listed(spans.columns)}")
    times = {c: _times(spans, c) for c in ("start_time", "end_time") if c in spans.columns}
    _say_naive_times(name, times)
    spans = spans.assign(**{c: utc for c, (utc, _) in times.items()})
    traced = ~spans[_TRACE].map(is_missing).to_numpy(dtype=bool)
    if not traced.all():
        warnings.warn(f"{name}: {int((~traced).sum())} span(s) have no {_TRACE} (first: span row "
                      f"{int(np.argmin(traced))}) and belong to no sample; they are left out", InputWarning, stacklevel=3)
        spans = spans[traced]
    if "start_time" in spans.columns:
        spans = spans.sort_values("start_time", kind="stable")
    kinds = spans[kind_column].astype(str).str.upper()
    has_docs = "attributes.retrieval.documents" in spans.columns
    rows, chunks, repeats = [], [], []
    for trace, group in spans.groupby(_TRACE, sort=False):
        kind = kinds.loc[group.index]
        answers = group[(kind != "RETRIEVER") & group["attributes.output.value"].map(lambda v: not is_missing(v))]
        roots = answers[answers["parent_id"].map(is_missing)] if "parent_id" in answers.columns else answers.iloc[:0]
        llms = answers[kinds.loc[answers.index] == "LLM"]
        span = roots.iloc[0] if len(roots) else llms.iloc[-1] if len(llms) else answers.iloc[-1] if len(answers) else None
        if span is None:
            raise InputError("no LLM or chain span with an output (attributes.output.value) in this trace",
                             sample=f"trace {trace!r}", field="attributes.output.value")
        documents = [_document(doc, trace, k)
                     for docs in (group.loc[kind == "RETRIEVER", "attributes.retrieval.documents"] if has_docs else ())
                     for k, doc in enumerate(plain(docs) or ())]
        row = {"query_id": str(trace), "query": _text(span["attributes.input.value"]),
               "response": _text(span["attributes.output.value"]),
               "retrieved_context": _passages(documents, trace, chunks, repeats)}
        if "start_time" in span.index and "end_time" in span.index:
            row["latency_ms"] = (span["end_time"] - span["start_time"]).total_seconds() * 1e3
        rows.append(row)
    if chunks:
        trace, old, new = chunks[0]
        warnings.warn(f"{name}: {len(chunks)} document chunk(s) share their document.id with another chunk of the "
                      f"same trace; each is kept as a passage of its own under a new doc_id (first: trace {trace!r}, "
                      f"{old!r} -> {new!r})", InputWarning, stacklevel=3)
    if repeats:
        trace, doc_id = repeats[0]
        warnings.warn(f"{name}: {len(repeats)} document(s) retrieved again in the same trace (the same document.id "
                      f"and content) are read once (first: trace {trace!r}, {doc_id!r})", InputWarning, stacklevel=3)
    return pd.DataFrame(rows)


def _times(spans, column: str):
    """A span frame's ``column`` as UTC times (NaT where missing), and the span rows of its times
    with no time zone (read as UTC). A cell that is not a time (a number, text no date reader reads)
    or is outside the times pandas holds (a placeholder such as 9999-12-31) is an InputError naming
    its span row and the column."""
    import pandas as pd

    values = spans[column]
    if pd.api.types.is_datetime64_any_dtype(values):
        naive = np.flatnonzero(values.notna().to_numpy()) if values.dt.tz is None else np.zeros(0, dtype=int)
        utc = values.dt.tz_localize("UTC") if values.dt.tz is None else values.dt.tz_convert("UTC")
        bounds = (pd.Timestamp.min.tz_localize("UTC"), pd.Timestamp.max.tz_localize("UTC"))
        outside = (utc.notna() & ~utc.between(*bounds)).to_numpy()
        if outside.any():
            row = int(np.argmax(outside))
            raise _not_a_time(utc.iloc[row].isoformat(), row, spans[_TRACE].iloc[row], column, outside=True)
        return utc.dt.as_unit("ns"), naive
    times, naive = [], []
    for row, (trace, value) in enumerate(zip(spans[_TRACE], values)):
        if value is pd.NaT or is_missing(value):
            times.append(pd.NaT)
            continue
        try:
            if not isinstance(value, (str, datetime, np.datetime64)):
                raise TypeError
            time = pd.Timestamp(value)
            if time.tzinfo is None:
                naive.append(row)
            times.append((time.tz_localize("UTC") if time.tzinfo is None else time.tz_convert("UTC")).as_unit("ns"))
        except pd.errors.OutOfBoundsDatetime:
            raise _not_a_time(value, row, trace, column, outside=True) from None
        except (TypeError, ValueError, OverflowError):
            raise _not_a_time(value, row, trace, column) from None
    return pd.Series(times, index=spans.index, dtype="datetime64[ns, UTC]"), np.array(naive, dtype=int)


def _not_a_time(value: Any, row: int, trace: Any, column: str, *, outside: bool = False) -> InputError:
    """The error for a span's time that is not a time, or (``outside``) one outside the times read."""
    import pandas as pd

    said = (f"is outside the times read ({pd.Timestamp.min:%Y-%m-%d} to {pd.Timestamp.max:%Y-%m-%d}; a placeholder?)"
            if outside else "is not a time (give datetimes or ISO 8601 text)")
    return InputError(f"{value!r:.60} {said}", sample=f"span row {row} (trace {trace!r})", field=column)


def _say_naive_times(name: str, times: dict) -> None:
    """Say once how many span times with no time zone were read as UTC beside times that have one
    (where the latency between them depends on it); naive times alone are read as UTC unsaid."""
    naive = {column: rows for column, (_, rows) in times.items() if len(rows)}
    n_naive = sum(len(rows) for rows in naive.values())
    if not naive or n_naive == sum(int(utc.notna().sum()) for utc, _ in times.values()):
        return
    row, column = min((int(rows[0]), column) for column, rows in naive.items())
    warnings.warn(f"{name}: {n_naive} span time(s) with no time zone, beside times with one, are read as UTC "
                  f"(first: span row {row}, {column})", InputWarning, stacklevel=4)


def _passages(documents: list[dict], trace: Any, chunks: list, repeats: list) -> list[dict]:
    """A trace's documents as passages: one retrieved again (same id and text) read once (noted in
    ``repeats``), another chunk of a document kept under a doc_id of its own (``<id>#2``; noted in
    ``chunks``), one with no id named ``P<position>``; a made id never takes a given one."""
    kept, pairs = [], set()
    for document in documents:
        pair = (document["doc_id"], document["text"])
        if pair[0] is not None and pair in pairs:
            repeats.append((trace, pair[0]))
            continue
        pairs.add(pair)
        kept.append(document)
    taken = {d["doc_id"] for d in kept if d["doc_id"] is not None}
    seen: set[str] = set()
    out = []
    for k, document in enumerate(kept):
        doc_id = document["doc_id"]
        if doc_id is None or doc_id in seen:
            new = _free(f"P{k + 1}", taken, bare=True) if doc_id is None else _free(doc_id, taken)
            if doc_id is not None:
                chunks.append((trace, doc_id, new))
            doc_id = new
            taken.add(doc_id)
        seen.add(doc_id)
        out.append({"doc_id": doc_id, "text": document["text"]})
    return out


def _free(base: str, taken: set, *, bare: bool = False) -> str:
    """``base`` itself (where ``bare``) or the first of ``base#2``, ``base#3``, ... not in ``taken``."""
    if bare and base not in taken:
        return base
    return next(name for n in count(2) if (name := f"{base}#{n}") not in taken)


def _text(value: Any) -> str:
    value = plain(value)
    return "" if value is None else value if isinstance(value, str) else json.dumps(value)


def _document(doc: Any, trace: Any, k: int) -> dict:
    """An OpenInference document (``document.content``, ``document.id``; flat dotted keys as
    Phoenix exports them, or nested under ``document``) as {doc_id, text}."""
    if isinstance(doc, Mapping) and isinstance(doc.get("document"), Mapping):
        doc = {f"document.{key}": v for key, v in doc["document"].items()}
    if not isinstance(doc, Mapping) or not isinstance(doc.get("document.content"), str):
        raise InputError(f"document {k} must be an object with a 'document.content' string, got {doc!r:.80}",
                         sample=f"trace {trace!r}", field="attributes.retrieval.documents")
    doc_id = doc.get("document.id")
    return {"doc_id": None if doc_id is None else str(doc_id), "text": doc["document.content"]}
