"""Shared helpers for the judge-trust tests: a judge that errs at class-dependent rates over
RAGChecker records, and the reviews that give the true labels of chosen samples."""

import copy

import numpy as np

from ragwidgets.reviews import Review

LABEL_KINDS = ("answer2response", "response2answer")
PASSAGE_KINDS = ("retrieved2response", "retrieved2answer")


def erring(labels, rng):
    """10% of Entailment labels said Neutral, 25% of Neutral said Entailment."""
    u = rng.random(len(labels))
    return ["Neutral" if lab == "Entailment" and x < 0.10 else "Entailment" if lab == "Neutral" and x < 0.25
            else lab for lab, x in zip(labels, u)]


def judged_records(truth: list[dict], seed: int = 0) -> list[dict]:
    """The records with every label passed through :func:`erring`."""
    rng = np.random.default_rng(seed)
    out = copy.deepcopy(truth)
    for r in out:
        for kind in LABEL_KINDS:
            r[kind] = erring(r[kind], rng)
        for kind in PASSAGE_KINDS:
            r[kind] = [erring(row, rng) for row in r[kind]]
    return out


def true_reviews(truth: list[dict], positions, *, kinds=LABEL_KINDS + PASSAGE_KINDS) -> list[Review]:
    """One review per label of ``kinds`` of the samples at ``positions``, giving the true label."""
    out = []
    for i in positions:
        r = truth[int(i)]
        qid = r["query_id"]
        for kind in kinds:
            if kind in LABEL_KINDS:
                out += [Review(qid, kind, j, lab) for j, lab in enumerate(r[kind])]
            else:
                docs = [p["doc_id"] for p in r["retrieved_context"]]
                out += [Review(qid, kind, j, lab, doc_id=docs[k]) for j, row in enumerate(r[kind])
                        for k, lab in enumerate(row)]
    return out
