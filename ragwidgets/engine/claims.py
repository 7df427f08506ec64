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
"""

from __future__ import annotations

import numpy as np

from ..atomic import atomic_write
from ..loaders import gc_paused
from ..model import CONTRADICTED, ENTAILED, UNJUDGED
from .batch import Batch
from .derived import Derived
from .metrics import METRICS

RESPONSE, GROUND_TRUTH = "response", "ground_truth"
WORDS = np.array([None, "Neutral", "Entailment", "Contradiction"], dtype=object)  # label code + 1 -> word
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


def _records(samples):
    """The decoded plain records behind a fast load's samples (reviewed or not), else None."""
    flat = getattr(getattr(samples, "base", samples), "flat", None)
    return None if flat is None else flat.records


def _claim_texts(batch: Batch, side: str) -> tuple[list[str], list]:
    """Every claim's text and triple (None for a free-text claim), in the Batch's order."""
    records = _records(batch.samples)
    if records is not None:
        field = SIDES[side][3]
        triples = [(t.subject, t.predicate, t.object) for r in records for t in (getattr(r, field) or ())]
        return [" ".join(t) for t in triples], triples
    claims = [c for s in batch.samples for c in getattr(s, SIDES[side][2])]
    return [c.text for c in claims], [c.triple for c in claims]


def _doc_ids(batch: Batch) -> np.ndarray:
    records = _records(batch.samples)
    if records is not None:
        return np.array([p.doc_id for r in records for p in r.retrieved_context or ()], dtype=object)
    return np.array([p.doc_id for s in batch.samples for p in s.passages], dtype=object)


def _lists(owner: np.ndarray, values: np.ndarray, size: int, present: np.ndarray):
    """Per item: the ``values`` whose ``owner`` it is (``owner`` sorted), a list of strings in
    order; None where not ``present``. An Arrow list column, built without a Python loop."""
    import pandas as pd
    import pyarrow as pa

    offsets = np.searchsorted(owner, np.arange(size + 1)).astype(np.int32)
    lists = pa.ListArray.from_arrays(pa.array(offsets), pa.array(values, type=pa.string()),
                                          mask=pa.array(~present))
    return pd.arrays.ArrowExtensionArray(lists)


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

    doc_ids = _doc_ids(batch)
    qids = np.asarray(batch.query_ids, dtype=object)
    frames = []
    for side, (vector, grid, _, _) in SIDES.items():
        owner = batch.resp_sample if side == RESPONSE else batch.gt_sample
        offset = batch.resp_offset if side == RESPONSE else batch.gt_offset
        active = derived.resp_active if side == RESPONSE else derived.gt_active
        prefix = "r2r" if side == RESPONSE else "r2a"
        entry_claim, entry_psg, entry_label = (getattr(batch, f"{prefix}_{x}") for x in ("claim", "psg", "label"))
        n = len(owner)
        has_label, has_grid = batch.has[vector][owner], batch.has[grid][owner]
        labels, judged = getattr(batch, vector), getattr(judge, vector)
        word = np.where(has_label, WORDS[labels + 1], None)
        reviewed = np.zeros(n, dtype=bool) if cells is None else cells[vector]
        source = np.where(has_label & (labels != UNJUDGED), np.where(reviewed, "reviewer", "judge"), None)
        texts, triples = _claim_texts(batch, side)
        has_triple = np.array([t is not None for t in triples], dtype=bool)
        parts = np.array([x for t in triples if t is not None for x in t], dtype=object)
        triple = _lists(np.repeat(np.arange(n), np.where(has_triple, 3, 0)), parts, n, has_triple)
        columns = {
            "query_id": qids[owner], "side": np.full(n, side, dtype=object),
            "claim": np.arange(n, dtype=np.int64) - offset[owner], "text": texts, "triple": triple,
            "label": word, "judge_label": np.where(has_label, WORDS[judged + 1], None), "label_source": source,
        }
        for column, wanted in (("entailed_by", ENTAILED), ("contradicted_by", CONTRADICTED)):
            keep = entry_label == wanted
            columns[column] = _lists(entry_claim[keep], doc_ids[entry_psg[keep]], n, has_grid)
        grid_cells = np.zeros(len(entry_claim), dtype=bool) if cells is None else cells[grid]
        columns["passages_reviewed"] = _lists(entry_claim[grid_cells], doc_ids[entry_psg[grid_cells]], n, has_grid)
        for column, metric in FLAGS[side].items():
            columns[column] = _flag(derived, active, owner, metric, code)
        frames.append(pd.DataFrame(columns))
    out = pd.concat(frames, ignore_index=True)
    for column in (c for side in FLAGS.values() for c in side):
        out[column] = out[column].astype("boolean")  # absent on the other side: <NA>
    return out


def write_claims(frame, path) -> None:
    """Write the per-claim table whole (atomically) as CSV, Parquet or JSONL, by ``path``'s suffix;
    in CSV the list columns are JSON text."""
    import json
    import os

    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"write the claims table as {', '.join(SUFFIXES)} (by the file's suffix), not {suffix!r}")
    if suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(frame, preserve_index=False).replace_schema_metadata(None)  # plain Arrow types
        with atomic_write(path, "wb") as out:
            pq.write_table(table, out)
        return
    if suffix == ".csv":
        frame = frame.copy()
        for column in LIST_COLUMNS:
            frame[column] = [json.dumps(v, ensure_ascii=False) if isinstance(v, list) else None
                             for v in frame[column].tolist()]
        with atomic_write(path, encoding="utf-8") as out:
            frame.to_csv(out, index=False)
        return
    with atomic_write(path, encoding="utf-8") as out:
        frame.to_json(out, orient="records", lines=True, force_ascii=False)
