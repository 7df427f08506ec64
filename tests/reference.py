"""A plain, per-sample reading of the metric definitions, written independently of the engine.

Inputs are RAGChecker-format records with string/bool labels, ``None`` for unjudged; outputs are
{metric: float | None} (None = Undefined). Loops over lists, no numpy: slow and obvious, for
property tests.
"""

from __future__ import annotations


def _yes(label) -> bool:
    return label is True or label == "Entailment"


def _ratio(num: int, den: int):
    return None if den == 0 else num / den


# The label arrays each definition reads: one unjudged label among them leaves the metric Undefined.
READS = {
    "precision": ("answer2response",),
    "recall": ("response2answer",),
    "f1": ("answer2response", "response2answer"),
    "claim_recall": ("retrieved2answer",),
    "context_precision": ("retrieved2answer",),
    "context_utilization": ("retrieved2answer", "response2answer"),
    "noise_sensitivity_in_relevant": ("answer2response", "retrieved2response", "retrieved2answer"),
    "noise_sensitivity_in_irrelevant": ("answer2response", "retrieved2response", "retrieved2answer"),
    "hallucination": ("answer2response", "retrieved2response"),
    "self_knowledge": ("answer2response", "retrieved2response"),
    "faithfulness": ("retrieved2response",),
}


def _unjudged(value) -> bool:
    return any(_unjudged(v) for v in value) if isinstance(value, list) else value is None


def reference_metrics(record: dict) -> dict:
    a2r = [_yes(x) for x in record["answer2response"]]
    r2a_vec = [_yes(x) for x in record["response2answer"]]
    r2r = [[_yes(x) for x in row] for row in record["retrieved2response"]]
    r2a = [[_yes(x) for x in row] for row in record["retrieved2answer"]]
    n_resp, n_gt, n_psg = len(a2r), len(r2a_vec), len(record["retrieved_context"])

    faithful = [any(row) for row in r2r]
    useful = [any(r2a[i][k] for i in range(n_gt)) for k in range(n_psg)]
    by_relevant = [any(r2r[j][k] and useful[k] for k in range(n_psg)) for j in range(n_resp)]
    by_irrelevant = [any(r2r[j][k] and not useful[k] for k in range(n_psg)) for j in range(n_resp)]
    retrieved_gt = [any(row) for row in r2a]

    out = {
        "precision": _ratio(sum(a2r), n_resp),
        "recall": _ratio(sum(r2a_vec), n_gt),
        "claim_recall": _ratio(sum(retrieved_gt), n_gt),
        "context_precision": _ratio(sum(useful), n_psg),
        "context_utilization": _ratio(sum(1 for i in range(n_gt) if retrieved_gt[i] and r2a_vec[i]),
                                      sum(retrieved_gt)),
        "noise_sensitivity_in_relevant": _ratio(
            sum(1 for j in range(n_resp) if not a2r[j] and by_relevant[j]), n_resp),
        "noise_sensitivity_in_irrelevant": _ratio(
            sum(1 for j in range(n_resp) if not a2r[j] and by_irrelevant[j] and not by_relevant[j]), n_resp),
        "hallucination": _ratio(sum(1 for j in range(n_resp) if not a2r[j] and not faithful[j]), n_resp),
        "self_knowledge": _ratio(sum(1 for j in range(n_resp) if a2r[j] and not faithful[j]), n_resp),
        "faithfulness": _ratio(sum(faithful), n_resp),
    }
    p, r = out["precision"], out["recall"]
    out["f1"] = None if p is None or r is None else (0.0 if p + r == 0 else 2 * p * r / (p + r))
    for name, fields in READS.items():
        if any(_unjudged(record[f]) for f in fields):
            out[name] = None
    return out


def reference_citation_metrics(record: dict) -> dict:
    """The lesson's five metrics from fact IDs (claims are objects with facts and cites)."""
    retrieved = {d["doc_id"]: d for d in record.get("retrieved_context", [])}
    claims = record.get("response_claims", [])

    def entails(doc, claim):
        return bool(claim["facts"]) and set(claim["facts"]) <= set(doc.get("facts", []))

    relevant = sum(1 for d in retrieved.values() if d["relevant"])
    supported = sum(1 for c in claims if any(entails(d, c) for d in retrieved.values()))
    pairs = [(c, doc) for c in claims for doc in dict.fromkeys(c.get("cites", []))]
    valid = [(c, doc) for c, doc in pairs if doc in retrieved and entails(retrieved[doc], c)]
    cited_ok = sum(1 for c in claims if any(vc is c for vc, _ in valid))
    reference = list(dict.fromkeys(record["reference_facts"]))
    stated = {f for c in claims for f in c["facts"]}
    return {
        "context_relevance": _ratio(relevant, len(retrieved)),
        "faithfulness": _ratio(supported, len(claims)),
        "citation_support": _ratio(cited_ok, len(claims)),
        "citation_precision": _ratio(len(valid), len(pairs)),
        "completeness": _ratio(sum(1 for f in reference if f in stated), len(reference)),
    }
