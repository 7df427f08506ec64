"""Read RAGChecker-format results (JSON ``{"results": [...]}`` or JSONL) into validated Samples.

Every problem is an :class:`InputError` naming the sample and the field. With
``on_error="report"`` a bad sample is set aside with its error and the others are kept.
"""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from .errors import InputError
from .model import ENTAILED, NOT_ENTAILED, UNJUDGED, Claim, Passage, Sample, fact_labels

_LABELS = {"entailment": ENTAILED, "neutral": NOT_ENTAILED, "contradiction": NOT_ENTAILED}
_EXACT = {"Entailment": ENTAILED, "Neutral": NOT_ENTAILED, "Contradiction": NOT_ENTAILED, None: UNJUDGED}
_KNOWN_FIELDS = {
    "query_id", "query", "gt_answer", "response", "retrieved_context", "corpus",
    "response_claims", "gt_answer_claims", "answer2response", "response2answer",
    "retrieved2response", "retrieved2answer", "reference_facts", "response_claim_labels",
    "gt_answer_claim_labels", "metrics",
}


@dataclass
class LoadResult:
    """Samples that parsed, and the errors of those that did not (``on_error="report"``)."""

    samples: list[Sample]
    errors: list[InputError] = field(default_factory=list)


def read_records(source: str | Path | dict | list) -> list[dict]:
    """The sample records of a results file, a JSON string's parsed object, or a list.

    Accepts ``{"results": [...]}`` (JSON), one sample per line (JSONL), or a bare list.
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.exists():
            raise InputError(f"no such file: {path}")
        text = path.read_text(encoding="utf-8")
        if path.suffix.lower() == ".jsonl":
            source = _read_jsonl(text, path)
        else:
            try:
                source = json.loads(text)
            except json.JSONDecodeError as err:
                if len([line for line in text.splitlines() if line.strip()]) < 2:
                    raise InputError(f"{path} is not valid JSON: {err}") from None
                source = _read_jsonl(text, path)
    if isinstance(source, dict):
        if "results" not in source:
            raise InputError("expected {'results': [sample, ...]}; the key is missing", field="results")
        source = source["results"]
        if not isinstance(source, list):
            raise InputError(f"must be a list of samples, got {type(source).__name__}", field="results")
    if not isinstance(source, list):
        raise InputError(f"expected a list of samples or {{'results': [...]}}, got {type(source).__name__}")
    return source


def _read_jsonl(text: str, path: Path) -> list:
    records = []
    for n, line in ((n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as err:
            raise InputError(f"{path} line {n} is not valid JSON (JSONL expects one sample per line): {err}") \
                from None
    return records


def load_samples(source, *, on_error: str = "raise") -> LoadResult:
    """Parse every sample of ``source`` (see :func:`read_records`).

    ``on_error="raise"`` stops at the first bad sample; ``"report"`` keeps the good ones and
    lists the errors. Duplicate ``query_id`` values are an error.
    """
    if on_error not in ("raise", "report"):
        raise ValueError(f"on_error must be 'raise' or 'report', not {on_error!r}")
    with _gc_paused():
        return _load(read_records(source), on_error)


@contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector while building many small objects (none are cyclic)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _load(records: list, on_error: str) -> LoadResult:
    result = LoadResult(samples=[])
    seen: dict[str, int] = {}
    for index, record in enumerate(records):
        try:
            sample = parse_sample(record, index)
            if sample.query_id in seen:
                raise InputError(
                    f"duplicate query_id, also used by sample {seen[sample.query_id]}",
                    sample=_label(index, sample.query_id), field="query_id")
            seen[sample.query_id] = index
            result.samples.append(sample)
        except InputError as err:
            if on_error == "raise":
                raise
            result.errors.append(err)
    return result


def _label(index: int, query_id: Any) -> str:
    return f"sample {index} (query_id {query_id!r})" if query_id is not None else f"sample {index}"


_new_tuple = tuple.__new__  # builds a NamedTuple from all its fields at C speed (its __new__ is Python)


def _string_triples(items: list) -> tuple[Claim, ...] | None:
    """Claims from a list of [s, p, o] string triples (RAGChecker's own form), else None."""
    out = []
    for c in items:
        if type(c) is not list or len(c) != 3:
            return None
        s, p, o = c
        if type(s) is not str or type(p) is not str or type(o) is not str:
            return None
        out.append(_new_tuple(Claim, (f"{s} {p} {o}", (s, p, o), None, None, None)))  # Claim(text, triple)
    return tuple(out)


def _plain_passages(items: list) -> tuple[Passage, ...] | None:
    """Passages from RAGChecker's own {doc_id: str, text: str} objects, else None."""
    out = []
    for item in items:
        if type(item) is not dict or len(item) != 2:
            return None
        doc_id, text = item.get("doc_id"), item.get("text")
        if type(doc_id) is not str or type(text) is not str:
            return None
        out.append(_new_tuple(Passage, (doc_id, text, None, None, False)))  # Passage(doc_id, text)
    return tuple(out)


class _Parser:
    """Parses one record; every error names the sample and the field."""

    def __init__(self, record: Any, index: int):
        self.index = index
        qid = record.get("query_id") if isinstance(record, dict) else None
        self.where = _label(index, qid)
        if not isinstance(record, dict):
            self.fail(None, f"a sample must be a JSON object, got {type(record).__name__}")
        self.record = record

    def fail(self, field_name: str | None, message: str):
        raise InputError(message, sample=self.where, field=field_name)

    def text(self, name: str) -> str:
        value = self.record.get(name, "")
        if value is None:
            return ""
        if not isinstance(value, str):
            self.fail(name, f"must be a string, got {type(value).__name__}")
        return value

    def string_list(self, value: Any, name: str) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, (str, int)) for v in value):
            self.fail(name, f"must be a list of strings, got {value!r:.80}")
        return tuple(str(v) for v in value)

    def flag(self, value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            self.fail(name, f"must be true or false, got {value!r:.40}")
        return value

    def passages(self, name: str) -> tuple[Passage, ...]:
        items = self.record.get(name)
        if items is None:
            return ()
        if not isinstance(items, list):
            self.fail(name, f"must be a list of {{doc_id, text}} objects, got {type(items).__name__}")
        plain = _plain_passages(items)
        if plain is not None:
            return plain
        out = []
        for k, item in enumerate(items):
            where = f"{name}[{k}]"
            if isinstance(item, str):
                item = {"text": item}
            if not isinstance(item, dict):
                self.fail(where, f"must be an object with doc_id and text, got {type(item).__name__}")
            doc_id = item.get("doc_id")
            if doc_id is None:
                doc_id = f"{'P' if name == 'retrieved_context' else 'C'}{k + 1}"
            elif not isinstance(doc_id, (str, int)):
                self.fail(f"{where}.doc_id", f"must be a string, got {doc_id!r:.40}")
            text = item.get("text", "")
            if not isinstance(text, str):
                self.fail(f"{where}.text", f"must be a string, got {type(text).__name__}")
            facts = item.get("facts")
            relevant = item.get("relevant")
            out.append(Passage(
                doc_id=str(doc_id), text=text,
                facts=None if facts is None else self.string_list(facts, f"{where}.facts"),
                relevant=None if relevant is None else self.flag(relevant, f"{where}.relevant"),
                outdated=self.flag(item.get("outdated", False), f"{where}.outdated"),
            ))
        return tuple(out)

    def claims(self, name: str) -> tuple[tuple[Claim, ...], bool]:
        items = self.record.get(name)
        if items is None:
            return (), False
        if not isinstance(items, list):
            self.fail(name, f"must be a list of claims, got {type(items).__name__}")
        triples = _string_triples(items)
        if triples is not None:
            return triples, True
        return tuple(self.claim(item, f"{name}[{j}]") for j, item in enumerate(items)), True

    def claim(self, item: Any, where: str) -> Claim:
        if isinstance(item, str):
            return Claim(text=item)
        if isinstance(item, (list, tuple)):
            if len(item) != 3 or not all(isinstance(v, (str, int, float)) for v in item):
                self.fail(where, f"a claim triple must be [subject, predicate, object], got {item!r:.80}")
            triple = tuple(str(v) for v in item)
            return Claim(text=" ".join(triple), triple=triple)
        if not isinstance(item, dict):
            self.fail(where, f"a claim must be a string, a triple or an object, got {type(item).__name__}")
        triple = None
        if any(k in item for k in ("subject", "predicate", "object")):
            missing = [k for k in ("subject", "predicate", "object") if not isinstance(item.get(k), str)]
            if missing:
                self.fail(f"{where}.{missing[0]}", "a claim object with a triple needs string subject, predicate and object")
            triple = (item["subject"], item["predicate"], item["object"])
        text = item.get("text")
        if text is not None and not isinstance(text, str):
            self.fail(f"{where}.text", f"must be a string, got {type(text).__name__}")
        facts = item.get("facts")
        facts = None if facts is None else self.string_list(facts, f"{where}.facts")
        if text is None:
            text = " ".join(triple) if triple else ", ".join(facts or ())
        cites = item.get("cites")
        if isinstance(cites, str):
            cites = [cites]
        cites = None if cites is None else tuple(dict.fromkeys(self.string_list(cites, f"{where}.cites")))
        label = item.get("label")
        return Claim(text=text, triple=triple, facts=facts, cites=cites,
                     required=None if label is None else self.required_flag(label, f"{where}.label"))

    def required_flag(self, label: Any, where: str) -> bool:
        if isinstance(label, str) and label.strip().lower() in ("required", "optional"):
            return label.strip().lower() == "required"
        self.fail(where, f"must be 'REQUIRED' or 'OPTIONAL' (any case), got {label!r:.40}")

    def apply_labels(self, claims: tuple[Claim, ...], name: str) -> tuple[Claim, ...]:
        labels = self.record.get(name)
        if labels is None:
            return claims
        if not isinstance(labels, list) or len(labels) != len(claims):
            n = len(labels) if isinstance(labels, list) else type(labels).__name__
            self.fail(name, f"must list one REQUIRED/OPTIONAL label per claim: {len(claims)} claims, got {n}")
        out = []
        for j, (claim, label) in enumerate(zip(claims, labels)):
            required = self.required_flag(label, f"{name}[{j}]")
            if claim.required is not None and claim.required != required:
                self.fail(f"{name}[{j}]", "disagrees with the claim's own 'label'")
            out.append(claim._replace(required=required))
        return tuple(out)

    def label_vector(self, name: str, length: int, claims_field: str) -> np.ndarray | None:
        value = self.record.get(name)
        if value is None:
            return None
        if not isinstance(value, list):
            self.fail(name, f"must be a list of labels, got {type(value).__name__}")
        if len(value) != length:
            self.fail(name, f"has {len(value)} labels but {claims_field} has {length} claims")
        return self.codes(value, (length,), lambda j: f"{name}[{j}]")

    def label_matrix(self, name: str, rows: int, cols: int, claims_field: str) -> np.ndarray | None:
        value = self.record.get(name)
        if value is None:
            return None
        if not isinstance(value, list):
            self.fail(name, f"must be a list of label rows, got {type(value).__name__}")
        if len(value) != rows:
            self.fail(name, f"has {len(value)} rows but {claims_field} has {rows} claims")
        for i, row in enumerate(value):
            if not isinstance(row, list) or len(row) != cols:
                n = len(row) if isinstance(row, list) else type(row).__name__
                self.fail(f"{name}[{i}]", f"must have one label per retrieved passage: {cols} passages, got {n}")
        flat = list(chain.from_iterable(value))
        return self.codes(flat, (rows, cols), lambda e: f"{name}[{e // cols}][{e % cols}]")

    def codes(self, flat: list, shape: tuple[int, ...], where) -> np.ndarray:
        """Label codes for a flat list of labels; RAGChecker's exact spellings take a fast path."""
        try:
            codes = list(map(_EXACT.get, flat))
        except TypeError:  # an unhashable label
            codes = [None]
        if None in codes:
            codes = [self.label(v, where(e)) for e, v in enumerate(flat)]
        return np.array(codes, dtype=np.int8).reshape(shape)

    def label(self, value: Any, where: str) -> int:
        if value is True or value is False:
            return int(value)
        if value is None:
            return UNJUDGED
        if isinstance(value, str):
            code = _LABELS.get(value.strip().lower())
            if code is not None:
                return code
        self.fail(where, f"unknown label {value!r:.40}; expected Entailment, Neutral, Contradiction, "
                         "true/false, or null for unjudged")


def parse_sample(record: Any, index: int = 0) -> Sample:
    """Validate one RAGChecker-format record (with the citation-family extensions)."""
    p = _Parser(record, index)
    r = p.record
    qid = r.get("query_id", index)
    if not isinstance(qid, (str, int)):
        p.fail("query_id", f"must be a string, got {qid!r:.40}")
    passages = p.passages("retrieved_context")
    corpus = p.passages("corpus")
    seen_ids: set[str] = set()
    for name, group in (("retrieved_context", passages), ("corpus", corpus)):
        for k, passage in enumerate(group):
            if passage.doc_id in seen_ids:
                p.fail(f"{name}[{k}].doc_id", f"doc_id {passage.doc_id!r} appears twice")
            seen_ids.add(passage.doc_id)
    resp, has_resp = p.claims("response_claims")
    gt, has_gt = p.claims("gt_answer_claims")
    resp = p.apply_labels(resp, "response_claim_labels")
    gt = p.apply_labels(gt, "gt_answer_claim_labels")
    for j, claim in enumerate(resp):
        for doc_id in claim.cites or ():
            if doc_id not in seen_ids:
                p.fail(f"response_claims[{j}].cites",
                       f"cites {doc_id!r}, which is neither a retrieved passage nor in 'corpus'")
    reference = r.get("reference_facts")
    reference = None if reference is None else tuple(dict.fromkeys(p.string_list(reference, "reference_facts")))

    fields = dict(passages=passages, response_claims=resp, gt_claims=gt, has_gt_claims=has_gt,
                  reference_facts=reference)
    uses_facts = any(x.facts is not None for group in (resp, gt, passages, corpus) for x in group)
    if uses_facts:
        labels = fact_labels(fields)
    else:
        n_psg = len(passages)
        for name, claims_field, present in (("answer2response", "response_claims", has_resp),
                                            ("retrieved2response", "response_claims", has_resp),
                                            ("response2answer", "gt_answer_claims", has_gt),
                                            ("retrieved2answer", "gt_answer_claims", has_gt)):
            if r.get(name) is not None and not present:
                p.fail(name, f"is given but '{claims_field}' is missing, so its shape cannot be checked")
        labels = {
            "answer2response": p.label_vector("answer2response", len(resp), "response_claims"),
            "response2answer": p.label_vector("response2answer", len(gt), "gt_answer_claims"),
            "retrieved2response": p.label_matrix("retrieved2response", len(resp), n_psg, "response_claims"),
            "retrieved2answer": p.label_matrix("retrieved2answer", len(gt), n_psg, "gt_answer_claims"),
        }
    return Sample(
        query_id=str(qid), query=p.text("query"), gt_answer=p.text("gt_answer"),
        response=p.text("response"), corpus=corpus,
        entailment="facts" if uses_facts else "labels", **fields, **labels,
    )


def as_samples(data: Any) -> list[Sample]:
    """Samples from a Sample, a list of Samples or records, one record, a results object, or a path."""
    if isinstance(data, Sample):
        return [data]
    if isinstance(data, list) and all(isinstance(s, Sample) for s in data):
        return data
    if isinstance(data, dict) and "results" not in data and _KNOWN_FIELDS & data.keys():
        return [parse_sample(data)]  # one record
    return load_samples(data).samples

