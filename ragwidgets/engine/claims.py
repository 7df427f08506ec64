"""The per-claim table: one row per claim (response claims, then ground-truth claims), every
label with its source (the judge or a reviewer), built from a Batch's flat arrays at once.

Columns: ``query_id``, ``side`` ("response" / "ground_truth"), ``claim`` (0-based index in the
sample's list of that side), ``text``, ``triple`` (None for a free-text claim); ``label``: the
claim against the other answer (``answer2response`` for a response claim, ``response2answer``
for a ground-truth claim; None where the sample carries no such labels or the label is
unjudged), ``judge_label`` (the judge's word for it) and ``label_source`` ("judge" / "reviewer";
None without a label); ``entailed_by`` / ``contradicted_by``: the doc_ids of the retrieved
passages that entail / contradict it (``retrieved2*``; None where the sample carries no such
labels), ``passages_reviewed``: the doc_ids whose label a reviewer set; and the engine's own
per-claim facts behind the metrics (each a metric's numerator, :mod:`ragwidgets.engine.metrics`),
None where that metric is not defined for the sample or the claim is not in play:
``faithful``, ``hallucinated``, ``self_knowledge``, ``noise_in_relevant``, ``noise_in_irrelevant``
(response claims) and ``retrieved`` (ground-truth claims).

The few-valued columns (query_id, side, the labels, their source) are categoricals and the list
columns Arrow lists, so a table of millions of claims is built from the flat arrays at once.

:func:`write_frame` is the one writer of a table as CSV, Parquet or JSONL by the file's suffix
(this table: :func:`write_claims`; the failure notes: :func:`write_notes`; the failure-mode table).
"""

from __future__ import annotations

import numpy as np

from ..arrow_json import json_text, jsonl_bytes
from ..atomic import atomic_write
from ..loaders import gc_paused
from ..model import CONTRADICTED, ENTAILED, UNJUDGED
from ..notes import as_notes
from ..reviews import SPELLING
from .batch import Batch
from .derived import Derived
from .metrics import METRICS

RESPONSE, GROUND_TRUTH = "response", "ground_truth"
LABEL_WORDS = [SPELLING[code] for code in range(len(SPELLING))]  # label code -> word
SOURCES = ["judge", "reviewer"]
FLAGS = {RESPONSE: {"faithful": "faithfulness", "hallucinated": "hallucination", "self_knowledge": "self_knowledge",
                    "noise_in_relevant": "noise_sensitivity_in_relevant",
                    "noise_in_irrelevant": "noise_sensitivity_in_irrelevant"},
         GROUND_TRUTH: {"retrieved": "claim_recall"}}  # column -> the metric whose numerator it is
FLAG_METRICS = tuple(m for side in FLAGS.values() for m in side.values())
SIDES = {  # side -> (vector matrix, grid matrix, claims field of a Sample, of a plain record)
    RESPONSE: ("answer2response", "retrieved2response", "response_claims", "response_claims"),
    GROUND_TRUTH: ("response2answer", "retrieved2answer", "gt_claims", "gt_answer_claims"),
}
LIST_COLUMNS = ("triple", "entailed_by", "contradicted_by", "passages_reviewed")
SUFFIXES = (".csv", ".parquet", ".jsonl")
CHUNK = 200_000  # rows turned into JSON lines at a time


def _flat(samples):
    """The fast load's columns behind its samples (reviewed or not), else None."""
    return getattr(getattr(samples, "base", samples), "flat", None)


def _items(batch: Batch) -> tuple[dict[str, tuple[object, np.ndarray, object]], object]:
    """Per side, every claim's text (an Arrow array), whether it has a triple, and the triples'
    words in order (an Arrow array, 3 a triple); and every passage's doc_id (an Arrow array), in
    the Batch's order. A fast load's records are read again from the file, once, their words
    gathered without a Python step per claim."""
    import pyarrow as pa
    import pyarrow.compute as pc

    flat = _flat(batch.samples)
    if flat is not None:
        words, doc_ids = flat.claim_words()
        claims = {}
        for side in SIDES:
            parts = words[SIDES[side][3]]
            n = len(parts) // 3
            triples = pa.LargeListArray.from_arrays(pa.array(np.arange(0, 3 * n + 1, 3, dtype=np.int64)), parts)
            text = pc.binary_join(triples, pa.scalar(" ", pa.large_string()))
            claims[side] = (text, np.ones(n, dtype=bool), parts.cast(pa.string()))
        return claims, doc_ids.cast(pa.string())
    found = {side: [] for side in SIDES}
    doc_ids = []
    for s in batch.samples:
        for side in SIDES:
            found[side].extend(getattr(s, SIDES[side][2]))
        doc_ids.extend(p.doc_id for p in s.passages)
    claims = {}
    for side in SIDES:
        triples = [c.triple for c in found[side]]
        claims[side] = (pa.array([c.text for c in found[side]], type=pa.large_string()),
                        np.array([t is not None for t in triples], dtype=bool),
                        pa.array([x for t in triples if t is not None for x in t], type=pa.string()))
    return claims, pa.array(doc_ids, type=pa.string())


def _lists(owner: np.ndarray, values, size: int, present: np.ndarray):
    """Per item: the ``values`` (an Arrow array) whose ``owner`` it is (``owner`` sorted), a list of
    strings in order; None where not ``present``. An Arrow list column, built without a Python loop."""
    import pandas as pd
    import pyarrow as pa

    offsets = np.searchsorted(owner, np.arange(size + 1)).astype(np.int32)
    return pd.arrays.ArrowExtensionArray(pa.ListArray.from_arrays(pa.array(offsets), values, mask=pa.array(~present)))


def _words(codes: np.ndarray, known: np.ndarray):
    """Label codes as a categorical of their words (missing where not ``known`` or unjudged)."""
    import pandas as pd

    return pd.Categorical.from_codes(np.where(known & (codes != UNJUDGED), codes, -1), categories=LABEL_WORDS)


def _flag(d: Derived, active: np.ndarray, owner: np.ndarray, metric: str, code: dict):
    import pandas as pd
    values = METRICS[metric].numerator(d)
    unknown = (code[metric][owner] != 0) | ~active
    return pd.arrays.BooleanArray(np.asarray(values, dtype=bool), unknown)


def claims_frame(batch: Batch, derived: Derived, code: dict[str, np.ndarray], judge: Batch,
                 cells: dict[str, np.ndarray] | None):
    """The per-claim table (see the module docstring). ``code``: the status codes per sample of
    :data:`FLAG_METRICS` under ``derived``'s masks; ``judge``: the Batch of the judge's labels
    (``batch`` itself when unreviewed); ``cells``: per label matrix, True where reviewed (None: none)."""
    with gc_paused():  # millions of small objects, none cyclic
        return _claims_frame(batch, derived, code, judge, cells)


def _claims_frame(batch, derived, code, judge, cells):
    import pandas as pd
    import pyarrow as pa

    claim_items, doc_ids = _items(batch)
    qids = pd.Index(batch.query_ids)  # unique: the categories of the query_id column
    frames = []
    for number, (side, (vector, grid, _, _)) in enumerate(SIDES.items()):
        owner = batch.resp_sample if side == RESPONSE else batch.gt_sample
        offset = batch.resp_offset if side == RESPONSE else batch.gt_offset
        active = derived.resp_active if side == RESPONSE else derived.gt_active
        prefix = "r2r" if side == RESPONSE else "r2a"
        entry_claim, entry_psg, entry_label = (getattr(batch, f"{prefix}_{x}") for x in ("claim", "psg", "label"))
        n = len(owner)
        has_label, has_grid = batch.has[vector][owner], batch.has[grid][owner]
        labels = getattr(batch, vector)
        reviewed = np.zeros(n, dtype=bool) if cells is None else cells[vector]
        source = np.where(has_label & (labels != UNJUDGED), reviewed.astype(np.int8), -1)
        texts, has_triple, parts = claim_items[side]
        columns = {
            "query_id": pd.Categorical.from_codes(owner, categories=qids),
            "side": pd.Categorical.from_codes(np.full(n, number), categories=list(SIDES)),
            "claim": np.arange(n, dtype=np.int64) - offset[owner], "text": pd.arrays.ArrowStringArray(texts),
            "triple": _lists(np.repeat(np.arange(n), np.where(has_triple, 3, 0)), parts, n, has_triple),
            "label": _words(labels, has_label), "judge_label": _words(getattr(judge, vector), has_label),
            "label_source": pd.Categorical.from_codes(source, categories=SOURCES),
        }
        for column, wanted in (("entailed_by", ENTAILED), ("contradicted_by", CONTRADICTED)):
            keep = np.flatnonzero(entry_label == wanted)
            columns[column] = _lists(entry_claim[keep], doc_ids.take(entry_psg[keep]), n, has_grid)
        grid_cells = np.zeros(len(entry_claim), dtype=bool) if cells is None else cells[grid]
        columns["passages_reviewed"] = _lists(entry_claim[grid_cells], doc_ids.take(entry_psg[grid_cells]), n, has_grid)
        for column, metric in FLAGS[side].items():
            columns[column] = _flag(derived, active, owner, metric, code)
        frames.append(pd.DataFrame(columns))
    out = pd.concat(frames, ignore_index=True)
    for column in (c for side in FLAGS.values() for c in side):
        out[column] = out[column].astype("boolean")  # absent on the other side: <NA>
    return out


FORMULA_START = r"^[=+\-@\t\r]"  # a spreadsheet runs a cell starting so as a formula
PLAIN_NUMBER = r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"  # read as a number, never run


def csv_text(column):
    """A string column (Arrow) as CSV cells a spreadsheet will not run: a value starting with
    = + - @, a tab or a carriage return gets a leading single quote, unless it is a plain number
    ("-5", "+1.5e3"); other values and nulls as they are."""
    import pyarrow as pa
    import pyarrow.compute as pc

    risky = pc.and_kleene(pc.match_substring_regex(column, FORMULA_START),
                          pc.invert(pc.match_substring_regex(column, PLAIN_NUMBER)))
    quote, empty = pa.scalar("'", column.type), pa.scalar("", column.type)
    return pc.if_else(risky, pc.binary_join_element_wise(quote, column, empty), column)


def csv_cells(frame: "pd.DataFrame") -> "pd.DataFrame":
    """``frame`` with its text cells and column names as :func:`csv_text`
    writes them for a CSV file (one starting with = + - @, a tab or a carriage return, and not a
    plain number, gets a leading single quote); numeric columns and text columns with no such cell
    as they are (not copied)."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    def text(values) -> pa.Array:
        return pa.array(values.astype("string"), type=pa.large_string(), from_pandas=True)

    out = frame.copy(deep=False)
    for i, (_, column) in enumerate(frame.items()):
        categorical = isinstance(column.dtype, pd.CategoricalDtype)
        if column.dtype.kind in "biufcmM" or not pc.any(pc.match_substring_regex(
                text(column.cat.categories if categorical else column), FORMULA_START)).as_py():
            continue  # numbers, and text with no cell to quote (a category: its categories checked)
        out.isetitem(i, pd.Series(csv_text(text(column)).to_pylist(), index=frame.index, dtype=object))
    out.columns = csv_text(pa.array([str(c) for c in frame.columns], type=pa.large_string())).to_pylist()
    return out


def write_frame(frame, path, *, list_columns=(), joined: str | None = None, what: str = "table") -> None:
    """Write a table (a pandas DataFrame) whole (atomically) as CSV, Parquet or JSONL, by ``path``'s
    suffix (Arrow does the writing, no Python loop per row): the one writer of a table by suffix.
    ``list_columns`` hold lists (of strings when every list is empty): Arrow lists in Parquet and
    JSONL; in CSV JSON text, or the items joined by ``joined`` when given; and in CSV a text that
    a spreadsheet would run as a formula is quoted (:func:`csv_text`). ``what`` names the table
    in the error for another suffix (a ValueError)."""
    import os

    import pyarrow as pa
    import pyarrow.compute as pc

    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"write the {what} as {', '.join(SUFFIXES)} (by the file's suffix), not {suffix!r}")
    table = pa.Table.from_pandas(frame, preserve_index=False).replace_schema_metadata(None)  # plain Arrow types
    for name in list_columns:
        kind = table.schema.field(name).type
        if pa.types.is_list(kind) and pa.types.is_null(kind.value_type):  # every list empty
            table = table.set_column(table.column_names.index(name), name,
                                     table[name].cast(pa.list_(pa.large_string())))
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        with atomic_write(path, "wb") as out:
            pq.write_table(table, out)
        return
    if suffix == ".csv":
        import pyarrow.csv as pacsv

        columns = []
        for name in table.column_names:
            column = table[name].combine_chunks()
            if pa.types.is_dictionary(column.type):
                column = column.dictionary_decode()
            if name in list_columns and joined is not None:
                column = pc.binary_join(column.cast(pa.list_(pa.large_string())), pa.scalar(joined, pa.large_string()))
            elif name in list_columns:
                column = pc.if_else(column.is_null(), pa.scalar(None, pa.large_string()), json_text(column))
            if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
                column = csv_text(column)
            columns.append(column)
        with atomic_write(path, "wb") as out:
            pacsv.write_csv(pa.table(columns, names=table.column_names), out)
        return
    with atomic_write(path, "wb") as out:
        for start in range(0, table.num_rows, CHUNK):
            out.write(jsonl_bytes(table.slice(start, CHUNK)))


def write_claims(frame, path) -> None:
    """Write the per-claim table whole (atomically) as CSV, Parquet or JSONL, by ``path``'s suffix
    (:func:`write_frame`; in CSV the list columns are JSON text)."""
    write_frame(frame, path, list_columns=LIST_COLUMNS, what="claims table")


def write_notes(notes, path) -> int:
    """Write the notes in force (:meth:`~ragwidgets.notes.Notes.to_frame`; a path, Notes, a NoteLog,
    records: :func:`~ragwidgets.notes.as_notes`) whole as CSV, Parquet or JSONL, by ``path``'s
    suffix (:func:`write_frame`); returns the notes written. ``claim`` is a whole number (empty for
    a sample's note); ``tags`` a list in Parquet and JSONL (the JSONL is a notes file
    :meth:`~ragwidgets.notes.Notes.read` reads back), its tags joined by "; " in CSV (a tag holding
    "; " reads back from CSV as two). ``ragwidgets.notes.as_notes(path)`` reads each back."""
    frame = as_notes(notes).to_frame()
    frame["claim"] = frame["claim"].astype("Int64")
    write_frame(frame, path, list_columns=("tags",), joined="; ", what="notes")
    return len(frame)
