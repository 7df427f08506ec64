"""Between a DataFrame of raw RAG outputs and RAGChecker-format records.

A row becomes a record ``{query_id, query, gt_answer, response, retrieved_context, ...}`` holding
the claims and labels the scores need that the row already has: from the configured columns,
else from the columns a previous ``score`` wrote under RAGChecker's names (``STORED_FIELDS``).
Every bad cell is a ``ScoringInputError`` naming the row and the column.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional, Union

import pandas as pd

from ..errors import InputError, InputWarning, RagWidgetsError
from ..judges import JUDGE_NEEDS
from ..judges.claims import TRIPLE_KEYS, claim_dict, claim_triple
from ..loaders import PASSAGE_SPELLINGS, Notes, parse_sample, read_records, spelled_key
from ..sources import is_missing, is_table, plain, read_run
from .requirements import RESPONSE, SIDE_CLAIMS, SIDE_LABELS, TARGET
from .template import StrOrTemplate, TemplateValue

if TYPE_CHECKING:
    from .config import RagChecker

STORED_FIELDS = JUDGE_NEEDS
"""The claim and label columns ``score`` writes (and reads back): the fields ``fill_labels`` fills,
named as in RAGChecker's results."""


class ScoringInputError(RagWidgetsError):
    """A bad DataFrame for the scorer: names the row and the column."""

    def __init__(self, message: str, *, row: Optional[str] = None, column: Optional[str] = None):
        self.row, self.column, self.detail = row, column, message
        where = ", ".join(p for p in (row, f"column {column!r}" if column else None) if p)
        super().__init__(f"{where}: {message}" if where else message)


_SPELLED = {key for spellings in PASSAGE_SPELLINGS.values() for key in spellings}


class _Row:
    """Reads the cells of one row; errors name the row and the column; passage spellings it ignores go
    to ``notes`` (said once per frame, as the loaders say them)."""

    def __init__(self, frame: pd.DataFrame, position: int, notes: Optional[Notes] = None):
        self.label = f"row {frame.index[position]!r}"
        self.values = frame.iloc[position]
        self.notes = Notes() if notes is None else notes

    def fail(self, column: StrOrTemplate, message: str):
        raise ScoringInputError(message, row=self.label, column=str(column))

    def cell(self, column: StrOrTemplate) -> Any:
        """The cell of ``column``, or the ``TemplateValue`` rendered from this row's cells."""
        if isinstance(column, TemplateValue):
            return column.render(lambda name: plain(self.values[name]))
        return self.values[column]

    def text(self, column: StrOrTemplate) -> str:
        value = self.cell(column)
        if is_missing(value):
            self.fail(column, "is empty; a text is needed")
        if not isinstance(value, str):
            self.fail(column, f"must be a string, got {type(value).__name__}")
        return value

    def passages(self, column: StrOrTemplate) -> list[dict]:
        cell = plain(self.cell(column))
        if cell is None:
            self.fail(column, "is empty; a list of passages is needed ([] for none)")
        if not isinstance(cell, list):
            self.fail(column, "must be a list of passages (strings or {doc_id, text} dicts), "
                              f"got {type(cell).__name__}")
        out = []
        for k, item in enumerate(cell):
            if isinstance(item, str):
                out.append({"doc_id": str(k), "text": item})
            elif isinstance(item, Mapping) and (key := spelled_key(item, "text")[0]) and isinstance(item[key], str):
                out.append(self.passage(item, f"{self.label}, column {column!r}, passage {k}", k))
            else:
                self.fail(column, f"passage {k} must be a string or a dict with a text string (under "
                                  f"{' / '.join(map(repr, PASSAGE_SPELLINGS['text']))}), got {item!r:.60}")
        return out

    def passage(self, item: Mapping, where: str, k: int) -> dict:
        """A passage dict under RAGChecker's doc_id and text, read from the key :func:`spelled_key` picks
        (the spellings beside it noted and dropped); its doc_id is its position when it has none."""
        out = {key: v for key, v in item.items() if key not in _SPELLED}
        for name in PASSAGE_SPELLINGS:
            key, beside = spelled_key(item, name)
            out[name] = str(k) if key is None else item[key]
            for other in beside:
                self.notes.add(("beside", other, key), where)
        out["doc_id"] = str(out["doc_id"])
        return out

    def claims(self, column: StrOrTemplate) -> Optional[list]:
        cell = plain(self.cell(column))
        if cell is None:
            return None
        if not isinstance(cell, list):
            self.fail(column, f"must be a list of {{subject, predicate, object}} claims, got {type(cell).__name__}")
        for j, claim in enumerate(cell):
            if isinstance(claim, Mapping):
                triple = all(isinstance(claim.get(k), str) for k in TRIPLE_KEYS)
                if not triple and not isinstance(claim.get("text"), str):
                    self.fail(column, f"claim {j} needs string 'subject', 'predicate' and 'object', got {claim!r:.80}")
            elif not isinstance(claim, str) and not (isinstance(claim, list) and len(claim) == 3):
                self.fail(column, f"claim {j} must be a {{subject, predicate, object}} dict, got {claim!r:.60}")
        return [claim_triple(c) for c in cell]

    def importance(self, column: StrOrTemplate) -> Optional[list]:
        cell = plain(self.cell(column))
        if cell is None:
            return None
        if not isinstance(cell, list):
            self.fail(column, f"must be a list of REQUIRED/OPTIONAL labels, got {type(cell).__name__}")
        out = []
        for j, label in enumerate(cell):
            if label is not None and not (isinstance(label, str) and label.upper() in ("REQUIRED", "OPTIONAL")):
                self.fail(column, f"label {j} must be 'REQUIRED', 'OPTIONAL' or null, got {label!r:.40}")
            out.append(None if label is None else label.upper())
        return out

    def stored(self, column: StrOrTemplate) -> Any:
        return plain(self.cell(column))


def configured_columns(config: "RagChecker") -> dict[str, StrOrTemplate]:
    """Record field → the frame column (or ``TemplateValue``) the configuration names for it (unset ones left out)."""
    columns = {
        "query": config.query_column, "response": config.response_column, "retrieved_context": config.context_column,
        "gt_answer": config.target_column,
        SIDE_CLAIMS[RESPONSE]: config.response_claims_column, SIDE_CLAIMS[TARGET]: config.target_claims_column,
        SIDE_LABELS[RESPONSE]: config.response_labels_column, SIDE_LABELS[TARGET]: config.target_labels_column,
    }
    return {name: column for name, column in columns.items() if column is not None}


def source_columns(config: "RagChecker", frame: pd.DataFrame) -> dict[str, StrOrTemplate]:
    """Record field → the frame column it is read from (configured columns win over stored ones)."""
    columns = configured_columns(config)
    for name in STORED_FIELDS:
        if name not in columns and name in frame.columns:
            columns[name] = name
    return columns


def _check_columns(config: "RagChecker", frame: pd.DataFrame) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"score a pandas DataFrame or RAGChecker records, not {type(frame).__name__}")
    instructions = [v for v in (config.claim_extraction_instructions, config.claim_labeling_instructions)
                    if isinstance(v, TemplateValue)]
    for spec in [*configured_columns(config).values(), config.id_column, *instructions]:
        for column in spec.columns if isinstance(spec, TemplateValue) else [spec] if spec is not None else []:
            if column not in frame.columns:
                where = f"; {spec} reads it" if isinstance(spec, TemplateValue) else ""
                raise ScoringInputError(f"the DataFrame has no such column{where}; its columns: {list(frame.columns)}",
                                        column=column)


def row_texts(frame: pd.DataFrame, spec: Optional[StrOrTemplate]) -> Union[str, list[str], None]:
    """An instructions setting for ``fill_labels``: as it is, or a ``TemplateValue`` rendered for each row."""
    if not isinstance(spec, TemplateValue):
        return spec
    return [str(_Row(frame, p).cell(spec) or "") for p in range(len(frame))]


def row_ids(config: "RagChecker", frame: pd.DataFrame) -> list[str]:
    """One query_id per row: ``id_column``, else a ``query_id`` column, else the index; unique."""
    column = config.id_column or ("query_id" if "query_id" in frame.columns else None)
    ids = [str(v) for v in (frame[column] if column else frame.index)]
    seen: dict[str, int] = {}
    for position, qid in enumerate(ids):
        if qid in seen:
            raise ScoringInputError(
                f"id {qid!r} repeats row {frame.index[seen[qid]]!r}; ids must be unique"
                + ("" if column else " (set id_column, or give the DataFrame a unique index)"),
                row=f"row {frame.index[position]!r}", column=column or "index")
        seen[qid] = position
    return ids


def frame_to_records(config: "RagChecker", frame: pd.DataFrame) -> list[dict]:
    """RAGChecker-format records of the rows, with the claims and labels the scores need; a passage
    spelling ignored beside another is an InputWarning, once per frame (as the loaders say it)."""
    _check_columns(config, frame)
    needs = config.needs
    columns = source_columns(config, frame)
    ids = row_ids(config, frame)
    records, notes = [], Notes()
    for position, qid in enumerate(ids):
        row = _Row(frame, position, notes)
        record = {"query_id": qid, "query": row.text(config.query_column), "response": row.text(config.response_column),
                  "retrieved_context": row.passages(config.context_column)}
        if config.target_column is not None:
            record["gt_answer"] = row.text(config.target_column)
        for name in STORED_FIELDS:
            if name not in needs or name not in columns:
                continue
            column = columns[name]
            if name.endswith("_claims"):
                value = row.claims(column)
            elif name.endswith("_labels"):
                value = row.importance(column)
            else:
                value = row.stored(column)
            if value is not None:
                record[name] = value
        _validate(record, position, row, columns)
        records.append(record)
    for message in notes.messages():
        warnings.warn(message, InputWarning, stacklevel=4)
    return records


def _validate(record: dict, position: int, row: _Row, columns: dict[str, str]) -> None:
    """Parse the record as the engine will (importance labels aside), naming the column at fault."""
    try:
        parse_sample({k: v for k, v in record.items() if not k.endswith("_labels")}, position)
    except InputError as err:
        raise as_scoring_error(err, row.label, columns) from None


def as_scoring_error(err: InputError, row: str, columns: dict[str, str]) -> ScoringInputError:
    """An engine or judge input error re-addressed to the frame's row and column."""
    path = err.field or ""
    base = path.split("[", 1)[0].split(".", 1)[0]
    column = columns.get(base)
    detail = err.detail if column is None or path == base else f"{path}: {err.detail}"
    return ScoringInputError(detail, row=row, column=column or path or None)


def records_to_frame(config: "RagChecker", data: Any) -> pd.DataFrame:
    """A DataFrame of RAGChecker-format records under the configured column names.

    ``data``: a list of records, ``{"results": [...]}``, or a path to such a JSON / JSONL file.
    Per-sample ``metrics`` are dropped: the scorer computes them again.
    """
    try:
        records = read_records(data)
    except InputError as err:
        raise ScoringInputError(str(err)) from None
    rename = {k: v for k, v in configured_columns(config).items() if isinstance(v, str)}
    rows = []
    for index, record in enumerate(records):
        if not isinstance(record, Mapping):
            raise ScoringInputError(f"a record must be a JSON object, got {type(record).__name__}",
                                    row=f"record {index}")
        rows.append({rename.get(k, k): v for k, v in record.items() if k != "metrics"})
    return pd.DataFrame(rows)


def source_frame(config: "RagChecker", data: Any) -> pd.DataFrame:
    """``data`` as the scorer's DataFrame. A DataFrame holding the configured query, response and
    context columns is used as it is; another table (ragas, Phoenix spans, a Parquet or CSV file,
    an Arrow table, ``to_pandas()``: :func:`ragwidgets.sources.read_run`) is mapped to the configured
    columns, its numeric columns kept beside (``<tool>_<name>`` where a score would take the name);
    anything else is RAGChecker records (:func:`records_to_frame`)."""
    needed = [c for c in (config.query_column, config.response_column, config.context_column) if isinstance(c, str)]
    if isinstance(data, pd.DataFrame) and all(c in data.columns for c in needed):
        return data
    if not is_table(data):
        return records_to_frame(config, data)
    try:
        run = read_run(data)
    except InputError as err:
        raise ScoringInputError(str(err)) from None
    rename = {k: v for k, v in configured_columns(config).items() if isinstance(v, str)}
    frame = pd.DataFrame([{rename.get(k, k): v for k, v in r.items()} for r in run.records])
    if run.external is not None:
        taken = set(frame.columns) | set(config.score_columns)
        external = run.external.reset_index(drop=True)
        names = {c: f"{run.tool}_{c}" if c in taken else c for c in external}
        frame = frame.join(external.rename(columns=names))
        frame.attrs.update(external={v: k for k, v in names.items()}, external_tool=run.tool)  # column -> the tool's name
    return frame


def write_back(frame: pd.DataFrame, records: list[dict], fields: list[str]) -> pd.DataFrame:
    """A copy of ``frame`` with ``fields`` of the records as columns (claims as ``{subject, predicate, object}`` dicts)."""
    out = frame.copy()
    for name in fields:
        values = [record.get(name) for record in records]
        if name.endswith("_claims"):
            values = [None if v is None else [claim_dict(c) for c in v] for v in values]
        out[name] = pd.Series(values, index=out.index, dtype=object)
    return out
