"""The fast path for an Arrow table (a Parquet file) of RAGChecker's plain columns: list columns
straight into the fast path's label arrays, no Python object per sample.

:func:`flat_from_arrow` checks the shapes :class:`ragwidgets._fastload._Columns` checks, with
numpy over the list offsets (claims per sample, passages, each label array's length and each
grid row's), turns labels into int8 codes through one lookup of the value column, and keeps each
sample readable on demand as its JSON line (:class:`ArrowRows`, made by Arrow). The result is the
FlatRecords the JSON lines would give: None where the validator must read the table (a wrong
shape, a duplicate doc_id or query_id, another label spelling, nothing to score), and
:class:`Unsupported` for a column type this path does not read (then the table's JSON lines go
through ``_fastload.read_flat``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ._fastload import LABEL_GRIDS, LABEL_VECTORS, TEXTS, TextRecord, FlatRecords
from .arrow_json import jsonl_bytes
from .model import LABEL_CODES, UNJUDGED

SPELLINGS = pa.array(list(LABEL_CODES), type=pa.large_string())
CODES = np.array(list(LABEL_CODES.values()), dtype=np.int8)
TEXT_FIELDS = tuple(TextRecord.__struct_fields__)  # what a Sample is built from, again, when asked for
BATCH = 8192  # rows turned into JSON lines at a time when the samples are read in order


class Unsupported(Exception):
    """A column type this path does not read."""


class ArrowRows(Sequence):
    """Each row of a table as its JSON line (bytes), made by Arrow when asked for."""

    def __init__(self, table: pa.Table):
        self.table = table.select([c for c in TEXT_FIELDS if c in table.column_names])

    def __len__(self) -> int:
        return self.table.num_rows

    def __getitem__(self, i: int) -> bytes:
        return jsonl_bytes(self.table.slice(range(len(self))[i], 1))[:-1]

    def __iter__(self) -> Iterator[bytes]:
        for start in range(0, len(self), BATCH):
            yield from jsonl_bytes(self.table.slice(start, BATCH)).split(b"\n")[:-1]


def _columns(table: pa.Table) -> dict[str, pa.Array]:
    """Each column as one array (dictionaries decoded), all-null (null type) ones left out."""
    out = {}
    for name in table.column_names:
        column = table[name].combine_chunks()
        if pa.types.is_dictionary(column.type):
            column = column.dictionary_decode()
        if not pa.types.is_null(column.type):
            out[name] = column
    return out


def _lists(column: pa.Array | None, n: int) -> tuple[np.ndarray, np.ndarray, pa.Array | None]:
    """(given, length, values) of a list column: which rows hold a list, each one's length (-1 where
    none), and their values in order (null rows skipped)."""
    if column is None:
        return np.zeros(n, dtype=bool), np.full(n, -1, dtype=np.int64), None
    if not (pa.types.is_list(column.type) or pa.types.is_large_list(column.type)):
        raise Unsupported(f"a {column.type} column")
    length = pc.fill_null(pc.list_value_length(column), -1).to_numpy(zero_copy_only=False).astype(np.int64)
    return length >= 0, length, column.flatten()


def _strings(values: pa.Array | None) -> bool:
    return values is not None and (pa.types.is_string(values.type) or pa.types.is_large_string(values.type))


def _codes(values: pa.Array) -> np.ndarray | None:
    """int8 codes of label strings (null: unjudged); None when one is not an exact spelling."""
    if pa.types.is_null(values.type):
        return np.full(len(values), UNJUDGED, dtype=np.int8)
    if not _strings(values):
        raise Unsupported(f"labels of type {values.type}")
    at = pc.index_in(values.cast(pa.large_string()), value_set=SPELLINGS)
    if at.null_count != values.null_count:
        return None  # another spelling: the validator reads (and names) it
    return np.where(at.is_null().to_numpy(zero_copy_only=False), UNJUDGED,
                    CODES[pc.fill_null(at, 0).to_numpy(zero_copy_only=False)]).astype(np.int8)


def _claims(column: pa.Array | None, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(given, count) of a claims column of [subject, predicate, object] triples; None when a
    triple is not exactly three strings (then the validator reads it)."""
    given, count, triples = _lists(column, n)
    if triples is None or not len(triples):
        return given, count
    if pa.types.is_null(triples.type) or triples.null_count:
        return None
    _, parts, words = _lists(triples, len(triples))
    if (parts != 3).any() or words is None or pa.types.is_null(words.type) or words.null_count:
        return None
    if not _strings(words):
        raise Unsupported(f"claims of type {triples.type}")
    return given, count


def flat_from_arrow(table: pa.Table) -> FlatRecords | None:
    """The FlatRecords of ``table`` (see the module docstring): None where the validator must read
    it; :class:`Unsupported` for a column type this path does not read."""
    n = table.num_rows
    if "metrics" in table.column_names:
        raise Unsupported("ragchecker's own metrics column")
    columns = _columns(table)
    qid = columns.get("query_id")
    if qid is None or qid.null_count or not (_strings(qid) or pa.types.is_integer(qid.type)):
        raise Unsupported("query_id must be strings or integers, none missing")
    for name in TEXTS:
        if name in columns and not _strings(columns[name]):
            raise Unsupported(f"{name} of type {columns[name].type}")
    has_psg, k, passages = _lists(columns.get("retrieved_context"), n)
    resp = _claims(columns.get("response_claims"), n)
    gt = _claims(columns.get("gt_answer_claims"), n)
    if resp is None or gt is None:
        return None
    (has_resp, nr), (has_gt, ng) = resp, gt
    if (~has_psg & ~has_resp & ~has_gt).any():
        return None  # nothing to score, or labels without their claims
    k = np.where(has_psg, k, 0)
    if passages is not None and len(passages):
        kind = passages.type
        names = [kind.field(i).name for i in range(kind.num_fields)] if pa.types.is_struct(kind) else []
        if sorted(names) != ["doc_id", "text"]:
            raise Unsupported(f"passages of type {kind}")
        fields = dict(zip(names, passages.flatten()))
        doc_id, text = fields["doc_id"], fields["text"]
        if passages.null_count or not (_strings(doc_id) and _strings(text)) or doc_id.null_count or text.null_count:
            return None
        owner = np.repeat(np.arange(n), k)
        codes = pc.dictionary_encode(doc_id).indices.to_numpy(zero_copy_only=False).astype(np.int64)
        if len(np.unique(owner * (int(codes.max()) + 1) + codes)) != len(codes):
            return None  # a sample names one doc_id twice
    no_psg = has_psg & (k == 0)
    has, labels = {}, {}
    for name, rows in (("answer2response", nr), ("response2answer", ng)):
        given, length, values = _lists(columns.get(name), n)
        if (given & (length != rows)).any():
            return None
        codes = np.zeros(0, dtype=np.int8) if values is None else _codes(values)
        if codes is None:
            return None
        has[name] = given | (~given & (rows == 0))
        per_claim = np.zeros(int(np.maximum(rows, 0).sum()), dtype=np.int8)
        per_claim[np.repeat(given, np.maximum(rows, 0))] = codes
        labels[name] = per_claim
    for name, rows in (("retrieved2response", nr), ("retrieved2answer", ng)):
        given, length, grid_rows = _lists(columns.get(name), n)
        if (given & (length != rows)).any():
            return None
        codes = np.zeros(0, dtype=np.int8)
        if grid_rows is not None and len(grid_rows):
            if pa.types.is_null(grid_rows.type) or grid_rows.null_count:
                return None
            _, width, values = _lists(grid_rows, len(grid_rows))
            if (width != np.repeat(k, np.where(given, length, 0))).any():
                return None  # a row of the grid is not one label per passage
            codes = _codes(values) if values is not None else np.zeros(0, dtype=np.int8)
            if codes is None:
                return None
        has[name] = given | (~given & ((rows == 0) | ((rows > 0) & no_psg)))
        labels[name] = codes
    query_ids = qid.cast(pa.large_string()).to_pylist()
    if len(set(query_ids)) != n:
        return None
    texts = {name: pa.chunked_array([pc.fill_null(columns[name].cast(pa.large_string()), "") if name in columns
                                     else pa.array([""] * n, type=pa.large_string())]) for name in TEXTS}
    return FlatRecords(source=ArrowRows(table), query_ids=query_ids, n_resp=np.maximum(nr, 0), n_gt=np.maximum(ng, 0),
                       n_psg=k, labels={name: labels[name] for name in (*LABEL_VECTORS, *LABEL_GRIDS)},
                       has={name: has[name] for name in (*LABEL_VECTORS, *LABEL_GRIDS)}, texts=texts,
                       n_unnamed=0, first_unnamed=None)
