"""The data model: one RAG exchange (a sample), its passages, claims and entailment labels.

Labels are stored as int8 numpy arrays: 1 entailed, 0 not entailed (neutral: not mentioned),
2 contradicted, -1 unjudged; ``LABEL_CODES`` maps RAGChecker's spellings to them (the one table
the loaders, the judges and the views share). The metrics count a contradiction as not entailed (RAGChecker's rule);
only the views tell the two apart.
Shapes (n = response claims, m = ground-truth claims, k = retrieved passages):
``answer2response`` (n,), ``response2answer`` (m,), ``retrieved2response`` (n, k),
``retrieved2answer`` (m, k). A matrix the sample does not carry is None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

ENTAILED, NOT_ENTAILED, CONTRADICTED, UNJUDGED = 1, 0, 2, -1
ENTAILMENT, NEUTRAL, CONTRADICTION = "Entailment", "Neutral", "Contradiction"
LABEL_CODES = {ENTAILMENT: ENTAILED, NEUTRAL: NOT_ENTAILED, CONTRADICTION: CONTRADICTED}  # RAGChecker's spellings
LABEL_SPELLINGS = tuple(LABEL_CODES)
_ANY_CASE = {spelling.lower(): code for spelling, code in LABEL_CODES.items()}
REQUIRED, OPTIONAL = "REQUIRED", "OPTIONAL"  # a claim's importance label (any case)
IMPORTANCE_LABELS = (REQUIRED, OPTIONAL)
_IMPORTANCE_ANY_CASE = {REQUIRED.lower(): True, OPTIONAL.lower(): False}

LABEL_MATRICES = ("answer2response", "response2answer", "retrieved2response", "retrieved2answer")


def label_code(value) -> int | None:
    """The code of one label as input spells it: a spelling in any case (spaces around ignored),
    a boolean (true: entailed), or None (unjudged); None when it is none of these."""
    if value is True or value is False:
        return int(value)
    if value is None:
        return UNJUDGED
    return _ANY_CASE.get(value.strip().lower()) if isinstance(value, str) else None


def required_flag(label) -> bool | None:
    """REQUIRED → True, OPTIONAL → False (any case, spaces around ignored); None otherwise."""
    if isinstance(label, str) and label.strip().lower() in _IMPORTANCE_ANY_CASE:
        return _IMPORTANCE_ANY_CASE[label.strip().lower()]
    return None


class Passage(NamedTuple):
    """A source document: retrieved (in rank order) or only known to the corpus."""

    doc_id: str
    text: str
    facts: tuple[str, ...] | None = None
    relevant: bool | None = None
    outdated: bool = False


class Claim(NamedTuple):
    """An atomic claim: a triple, a free text, or authored fact IDs, with optional citations.

    ``cites`` is None when the claim carries no citation information, () when it cites nothing.
    ``required`` is None when the claim has no REQUIRED/OPTIONAL label.
    """

    text: str
    triple: tuple[str, str, str] | None = None
    facts: tuple[str, ...] | None = None
    cites: tuple[str, ...] | None = None
    required: bool | None = None


@dataclass(eq=False, slots=True)
class Sample:
    """One RAG exchange with everything known about it (treated as immutable; not frozen only
    because a frozen dataclass costs a tenth of the parsing time of 100k samples).

    ``entailment`` says what decided the labels: "facts" (authored fact IDs on any claim or
    source) or "labels" (the RAGChecker label matrices as given). In a facts sample a claim
    without ``cites`` cites nothing.
    """

    query_id: str
    query: str = ""
    gt_answer: str = ""
    response: str = ""
    passages: tuple[Passage, ...] = ()
    corpus: tuple[Passage, ...] = ()
    response_claims: tuple[Claim, ...] = ()
    gt_claims: tuple[Claim, ...] = ()
    has_gt_claims: bool = True
    reference_facts: tuple[str, ...] | None = None
    answer2response: np.ndarray | None = None
    response2answer: np.ndarray | None = None
    retrieved2response: np.ndarray | None = None
    retrieved2answer: np.ndarray | None = None
    entailment: str = "labels"

    @property
    def uses_facts(self) -> bool:
        return self.entailment == "facts"

    @property
    def has_citations(self) -> bool:
        return any(c.cites is not None for c in self.response_claims)

    @property
    def is_citation_sample(self) -> bool:
        """Carries any citation-family extension (facts, citations, relevance, reference)."""
        return (
            self.uses_facts
            or self.has_citations
            or self.reference_facts is not None
            or any(p.relevant is not None for p in self.passages)
        )

    def source(self, doc_id: str) -> Passage | None:
        """The retrieved passage or corpus source with this doc_id, or None."""
        for p in self.passages + self.corpus:
            if p.doc_id == doc_id:
                return p
        return None


def facts_entail(claim_facts: tuple[str, ...] | None, source_facts) -> bool:
    """A source entails a claim iff the claim's facts are non-empty and all among the source's."""
    return bool(claim_facts) and set(claim_facts) <= set(source_facts or ())


def fact_labels(sample_fields: dict) -> dict[str, np.ndarray | None]:
    """Label matrices decided by authored fact IDs.

    retrieved2response[j, k] / retrieved2answer[i, k]: passage k entails the claim.
    answer2response[j]: the ground-truth facts (gt claims' facts, else ``reference_facts``)
    include all of response claim j's facts. response2answer[i]: the response claims'
    facts include all of gt claim i's facts.
    """
    resp = sample_fields["response_claims"]
    gt = sample_fields["gt_claims"]
    psg = sample_fields["passages"]
    has_gt = sample_fields["has_gt_claims"]

    def grid(claims):
        out = np.zeros((len(claims), len(psg)), dtype=np.int8)
        for i, c in enumerate(claims):
            for k, p in enumerate(psg):
                out[i, k] = facts_entail(c.facts, p.facts)
        return out

    gt_facts = None
    if has_gt:
        gt_facts = {f for c in gt for f in (c.facts or ())}
    elif sample_fields["reference_facts"] is not None:
        gt_facts = set(sample_fields["reference_facts"])
    resp_facts = {f for c in resp for f in (c.facts or ())}
    return {
        "retrieved2response": grid(resp),
        "retrieved2answer": grid(gt) if has_gt else None,
        "answer2response": None if gt_facts is None else
        np.array([facts_entail(c.facts, gt_facts) for c in resp], dtype=np.int8),
        "response2answer": np.array([facts_entail(c.facts, resp_facts) for c in gt], dtype=np.int8)
        if has_gt else None,
    }
