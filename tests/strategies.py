"""Hypothesis strategies: random RAGChecker-format records and random fact-ID lesson records."""

from __future__ import annotations

import copy
import gzip
import json

import numpy as np
from hypothesis import strategies as st

JUDGED = ["Entailment", "Neutral", "Contradiction"]


@st.composite
def ragchecker_records(draw, max_claims: int = 6, max_passages: int = 5, labelled: bool = False,
                       unjudged: bool = True):
    """A valid record in RAGChecker's plain format; with ``unjudged``, half the records have some
    null (unjudged) labels (ragchecker 0.1.9 has none: its parity test draws without)."""
    labels = st.sampled_from(JUDGED + [None] if unjudged and draw(st.booleans()) else JUDGED)
    n_resp = draw(st.integers(0, max_claims))
    n_gt = draw(st.integers(0, max_claims))
    n_psg = draw(st.integers(0, max_passages))
    record = {
        "query_id": "q",
        "query": "q?",
        "gt_answer": "gt",
        "response": "resp",
        "retrieved_context": [{"doc_id": f"d{k}", "text": f"passage {k}"} for k in range(n_psg)],
        "response_claims": [[f"s{j}", "p", "o"] for j in range(n_resp)],
        "gt_answer_claims": [[f"g{i}", "p", "o"] for i in range(n_gt)],
        "answer2response": draw(st.lists(labels, min_size=n_resp, max_size=n_resp)),
        "response2answer": draw(st.lists(labels, min_size=n_gt, max_size=n_gt)),
        "retrieved2response": [draw(st.lists(labels, min_size=n_psg, max_size=n_psg)) for _ in range(n_resp)],
        "retrieved2answer": [draw(st.lists(labels, min_size=n_psg, max_size=n_psg)) for _ in range(n_gt)],
    }
    if labelled:
        flags = st.sampled_from(["REQUIRED", "OPTIONAL", "required", "Optional"])
        record["response_claim_labels"] = draw(st.lists(flags, min_size=n_resp, max_size=n_resp))
        record["gt_answer_claim_labels"] = draw(st.lists(flags, min_size=n_gt, max_size=n_gt))
    return record


FACTS = ["a", "b", "c", "d", "e"]


@st.composite
def fact_records(draw):
    """A lesson-style record: sources with fact IDs, some retrieved, claims citing sources."""
    n_src = draw(st.integers(1, 5))
    sources = [{"doc_id": f"D{k}", "text": f"source {k}",
                "facts": draw(st.lists(st.sampled_from(FACTS), max_size=3, unique=True)),
                "relevant": draw(st.booleans())} for k in range(n_src)]
    retrieved_ids = draw(st.lists(st.sampled_from([s["doc_id"] for s in sources]), unique=True))
    ids = [s["doc_id"] for s in sources]
    claims = [{"text": f"claim {j}", "facts": draw(st.lists(st.sampled_from(FACTS), max_size=2, unique=True)),
               "cites": draw(st.lists(st.sampled_from(ids), max_size=2))}
              for j in range(draw(st.integers(0, 5)))]
    return {
        "query_id": "lesson",
        "retrieved_context": [s for s in sources if s["doc_id"] in retrieved_ids],
        "corpus": [s for s in sources if s["doc_id"] not in retrieved_ids],
        "response_claims": claims,
        "reference_facts": draw(st.lists(st.sampled_from(FACTS), max_size=4)),
    }


# -- RAGChecker files, valid and broken: for the differential test of the two load paths -------------

ODD_VALUES = ["x", "", 3, -1, 2 ** 70, 1.5, True, False, None, [], {}, ["x"], {"a": 1}, [["x"]]]
ODD_LABELS = ["entailment", " Neutral ", "Entailed", "", "Entailment|", True, False, 1, 0, 1.0, [], {},
              ["Entailment"], "null"]
RAGCHECKER_METRICS = {"precision": 0.5, "recall": 1.0, "f1": 0.6666666666666666, "claim_recall": 0,
                      "faithfulness": None}


def _pick(draw, items):
    return draw(st.sampled_from(sorted(items)))


def _one(draw, values):
    """One of ``values``, a copy (changes to it must not reach the constants)."""
    return copy.deepcopy(draw(st.sampled_from(values)))


def _cells(record):
    """(field, path) of every label in the record's label arrays."""
    out = []
    for name in ("answer2response", "response2answer"):
        if isinstance(record.get(name), list):
            out += [(name, (j,)) for j in range(len(record[name]))]
    for name in ("retrieved2response", "retrieved2answer"):
        if isinstance(record.get(name), list):
            out += [(name, (i, k)) for i, row in enumerate(record[name]) if isinstance(row, list)
                    for k in range(len(row))]
    return out


def _mutate(draw, record: dict) -> None:
    """One change that may or may not break the record, in place."""
    kind = draw(st.sampled_from(["arity", "claim form", "label", "shape", "null", "type", "drop", "extra",
                                 "query_id", "passage", "metrics", "facts"]))
    claim_fields = [f for f in ("response_claims", "gt_answer_claims") if record.get(f)
                    and isinstance(record[f], list)]
    if kind == "arity" and claim_fields:
        name = draw(st.sampled_from(claim_fields))
        j = draw(st.integers(0, len(record[name]) - 1))
        claim = ["s", "p", "o", "x", "y"][:draw(st.sampled_from([4, 2, 5, 1, 0, 3]))]
        if claim and draw(st.booleans()):  # a part that is not a string
            claim[draw(st.integers(0, len(claim) - 1))] = _one(draw, [1, 2.5, None, True, ["x"], {}])
        record[name][j] = claim
    elif kind == "claim form" and claim_fields:
        name = draw(st.sampled_from(claim_fields))
        j = draw(st.integers(0, len(record[name]) - 1))
        s, p, o = (record[name][j] + ["s", "p", "o"])[:3] if isinstance(record[name][j], list) else ("s", "p", "o")
        record[name][j] = _one(draw, [
            f"{s} {p} {o}", {"subject": s, "predicate": p, "object": o}, {"text": f"{s} {p} {o}"},
            {"subject": s, "predicate": p}, [s, p, o, "extra"], [s, p, 7]])
    elif kind == "label" and _cells(record):
        name, path = draw(st.sampled_from(_cells(record)))
        target = record[name]
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = _one(draw, ODD_LABELS + JUDGED + [None])
    elif kind == "shape":
        name = _pick(draw, {"answer2response", "response2answer", "retrieved2response", "retrieved2answer"})
        value = record.get(name)
        if isinstance(value, list):
            how = draw(st.sampled_from(["append", "pop", "row append", "row pop", "row scalar"]))
            rows = [row for row in value if isinstance(row, list)]
            if how == "append":
                value.append([] if name.startswith("retrieved") else "Neutral")
            elif how == "pop" and value:
                value.pop()
            elif how == "row append" and rows:
                rows[0].append("Entailment")
            elif how == "row pop" and rows and rows[0]:
                rows[0].pop()
            elif how == "row scalar" and value:
                value[0] = "Entailment"
    elif kind in ("null", "type", "drop") and record:
        name = _pick(draw, record)
        if kind == "drop":
            del record[name]
        else:
            record[name] = None if kind == "null" else _one(draw, ODD_VALUES)
    elif kind == "extra":
        name = draw(st.sampled_from(["retrieved2responses", "contexts", "notes", "corpus", "reference_facts",
                                     "response_claim_labels", "metric"]))
        record[name] = _one(draw, [[], ["a"], "x", None, {"k": 1}])
    elif kind == "query_id":
        record["query_id"] = _one(draw, ["q", "0", 0, 7, -3, 2 ** 70, 1.0, True, None, ["q"], ""])
    elif kind == "passage" and isinstance(record.get("retrieved_context"), list) and record["retrieved_context"]:
        passages = record["retrieved_context"]
        k = draw(st.integers(0, len(passages) - 1))
        passages[k] = _one(draw, [
            {"text": "no id"}, {"doc_id": "d0", "text": "same id as the first"}, "a passage as a string",
            {"doc_id": "dx", "text": 5}, {"doc_id": 5, "text": "int id"}, {"doc_id": "dx", "text": "t", "score": 1},
            {"doc_id": "dx", "text": "t", "relevant": True}, {"doc_id": "dx"}, None, ["dx", "t"]])
    elif kind == "metrics":
        record["metrics"] = _one(draw, [RAGCHECKER_METRICS, {}, {"precision": "high"}, {"a": {"b": 1}},
                                        [0.5], "0.5", 0.5, None])
    elif kind == "facts":  # fact IDs beside the label matrices: mixed evidence
        if claim_fields:
            name = draw(st.sampled_from(claim_fields))
            record[name][0] = {"text": "a claim with facts", "facts": ["f1"]}
        elif isinstance(record.get("retrieved_context"), list) and record["retrieved_context"]:
            record["retrieved_context"][0] = dict(record["retrieved_context"][0], facts=["f1"])


@st.composite
def broken_records(draw):
    """A valid plain record (sometimes with ragchecker's own per-sample ``metrics``), then 0-2 changes."""
    record = draw(ragchecker_records(max_claims=3, max_passages=3))
    if draw(st.booleans()):
        record["metrics"] = copy.deepcopy(RAGCHECKER_METRICS)
    for _ in range(draw(st.integers(0, 2))):
        _mutate(draw, record)
    return record


@st.composite
def results_files(draw):
    """(file name, bytes, records): valid records, 0-2 changes among them, written as a JSON object,
    a bare list or JSONL, maybe gzipped, maybe with a byte order mark and CRLF line ends."""
    records = draw(st.lists(ragchecker_records(max_claims=3, max_passages=3), min_size=1, max_size=4))
    with_metrics = draw(st.booleans())  # as in ragchecker's own output files
    for i, record in enumerate(records):
        record["query_id"] = f"q{i}"
        if with_metrics:
            record["metrics"] = copy.deepcopy(RAGCHECKER_METRICS)
    for _ in range(draw(st.integers(0, 2))):  # changes to some records, often none or one
        _mutate(draw, records[draw(st.integers(0, len(records) - 1))])
    form = draw(st.sampled_from(["object", "list", "jsonl"]))
    if form == "jsonl":
        end = draw(st.sampled_from(["\n", "\r\n"]))
        text = end.join(json.dumps(r) for r in records) + draw(st.sampled_from(["", end, end + " " + end]))
    elif form == "list":
        text = json.dumps(records, indent=draw(st.sampled_from([None, 1])))
    else:
        top = {"results": records}
        if draw(st.booleans()):
            top["metrics"] = _one(draw, [{"overall": {"precision": 76.4}}, {"x": "y"}, [], None])
        text = json.dumps(top, indent=draw(st.sampled_from([None, 2])))
    data = text.encode()
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    zipped = draw(st.booleans())
    name = "results." + ("jsonl" if form == "jsonl" else "json") + (".gz" if zipped else "")
    return name, gzip.compress(data) if zipped else data, records


def same_sample(a, b, ignore=()) -> bool:
    """Whether two Samples hold the same fields (arrays compared by shape and value), but ``ignore``."""
    for name in a.__dataclass_fields__:
        if name in ignore:
            continue
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if x is None or y is None or x.shape != y.shape or not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True
