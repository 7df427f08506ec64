"""Hypothesis strategies: random RAGChecker-format records and random fact-ID lesson records."""

from __future__ import annotations

from hypothesis import strategies as st

LABELS = st.sampled_from(["Entailment", "Neutral", "Contradiction"])


@st.composite
def ragchecker_records(draw, max_claims: int = 6, max_passages: int = 5, labelled: bool = False):
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
        "answer2response": draw(st.lists(LABELS, min_size=n_resp, max_size=n_resp)),
        "response2answer": draw(st.lists(LABELS, min_size=n_gt, max_size=n_gt)),
        "retrieved2response": [draw(st.lists(LABELS, min_size=n_psg, max_size=n_psg)) for _ in range(n_resp)],
        "retrieved2answer": [draw(st.lists(LABELS, min_size=n_psg, max_size=n_psg)) for _ in range(n_gt)],
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
