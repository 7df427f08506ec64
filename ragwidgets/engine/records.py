"""Scores back as RAGChecker's results file: each sample's texts, claims and label matrices (its
reviewed labels where reviewed), its metrics, and RAGChecker's grouped summary.

A record carries RAGChecker's fields (claims as ``[subject, predicate, object]`` or their text,
labels as ``Entailment`` / ``Neutral`` / ``Contradiction``, null where unjudged) and the claims'
REQUIRED / OPTIONAL labels where given; the citation-family extensions (fact IDs, citations,
relevance flags, reference facts, a corpus) are not RAGChecker's and are left out.
"""

from __future__ import annotations

import json

from ..atomic import atomic_write
from ..model import IMPORTANCE_LABELS, LABEL_MATRICES, Sample
from ..reviews import SPELLING

CLAIM_FIELDS = (("response_claims", "response_claims", "response_claim_labels"),
                ("gt_claims", "gt_answer_claims", "gt_answer_claim_labels"))


def _labels(matrix) -> list:
    return [[SPELLING.get(int(v)) for v in row] if matrix.ndim == 2 else SPELLING.get(int(row)) for row in matrix]


def ragchecker_record(sample: Sample, metrics: dict[str, float | None]) -> dict:
    """One sample in RAGChecker's format, with ``metrics`` as its per-sample results."""
    record = {"query_id": sample.query_id, "query": sample.query, "gt_answer": sample.gt_answer,
              "response": sample.response}
    if sample.passages or sample.retrieved2response is not None or sample.retrieved2answer is not None:
        record["retrieved_context"] = [{"doc_id": p.doc_id, "text": p.text} for p in sample.passages]
    for attr, field, labels in CLAIM_FIELDS:
        claims = getattr(sample, attr)
        if attr == "gt_claims" and not sample.has_gt_claims:
            continue
        record[field] = [list(c.triple) if c.triple is not None else c.text for c in claims]
        if claims and all(c.required is not None for c in claims):
            record[labels] = [IMPORTANCE_LABELS[0] if c.required else IMPORTANCE_LABELS[1] for c in claims]
    for kind in LABEL_MATRICES:
        matrix = getattr(sample, kind)
        if matrix is not None:
            record[kind] = _labels(matrix)
    record["metrics"] = metrics
    return record


def write_ragchecker(results: dict, path, indent: int | None = 2) -> str:
    """``results`` as JSON text, written whole to ``path`` when given."""
    text = json.dumps(results, ensure_ascii=False, indent=indent)
    if path is not None:
        with atomic_write(path, encoding="utf-8") as out:
            out.write(text)
    return text
