"""Why a score is what it is: one sample's values with their fractions and the items behind them.

Item ids: response claims ``R1..Rn``, ground-truth claims ``G1..Gm``, passages by doc_id,
citations ``R2→D3``, reference facts by fact ID.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model import CONTRADICTED, ENTAILED, UNJUDGED, facts_entail
from .values import DEFINED, NOT_COMPUTABLE, UNDEFINED, Evaluation, item_space
from .metrics import CITATIONS, GT_CLAIMS, METRICS, PASSAGES, REFERENCE_FACTS, RESPONSE_CLAIMS, format_value


@dataclass(frozen=True)
class MetricValue:
    """One metric of one sample: value (None = Undefined), its fraction, and the items behind it."""

    name: str
    value: float | None
    status: str  # defined | undefined | not computable
    numerator: int | None
    denominator: int | None
    reason: str | None
    definition: str
    family: str
    group: str
    numerator_items: tuple[str, ...] = ()
    denominator_items: tuple[str, ...] = ()
    formula: str | None = None  # for f1, which is not a ratio of counts
    substituted: bool = False  # a 0 that ragchecker 0.1.9 reports instead of the counted value

    @property
    def fraction(self) -> str:
        """"2/2 = 1", "0/0 = Undefined", the f1 formula, or for ragchecker's substitute zero
        the counted fraction and the 0 that replaces it: "3/11 = 0.273 → 0"."""
        if self.status == NOT_COMPUTABLE:
            return "not computable"
        shown = format_value(self.value)
        if self.formula:
            return f"{self.formula} = {shown}"
        if self.numerator is None:
            return shown
        if self.substituted:
            counted = format_value(self.numerator / self.denominator if self.denominator else None)
            return f"{self.numerator}/{self.denominator} = {counted} → {shown}"
        return f"{self.numerator}/{self.denominator} = {shown}"

    @property
    def text(self) -> str:
        """E.g. "context_relevance = 2/2 = 1" or "faithfulness = 0/0 = Undefined (no answer claims)"."""
        out = f"{self.name} = {self.fraction}"
        return f"{out} ({self.reason})" if self.reason else out


@dataclass(frozen=True)
class Citation:
    doc_id: str
    retrieved: bool
    entails: bool | None  # None: unknown (a corpus source without fact IDs, or unjudged)
    valid: bool
    why: str
    contradicts: bool = False  # judged as contradicting the claim (not merely not mentioning it)


@dataclass(frozen=True)
class ClaimRow:
    id: str
    text: str
    facts: tuple[str, ...] | None
    required: bool | None
    correct: bool | None  # entailed by the ground-truth answer (None: no label)
    supported_by: tuple[str, ...]  # retrieved passages that entail it
    citations: tuple[Citation, ...] | None  # None: the claim carries no citation information
    contradicted_by: tuple[str, ...] = ()  # retrieved passages that contradict it
    contradicted: bool = False  # the ground-truth answer contradicts it

    @property
    def faithful(self) -> bool:
        return bool(self.supported_by)

    @property
    def verdict(self) -> str:
        """E.g. "incorrect (contradicted by the ground truth), supported by D1; contradicted by D3";
        the passages named in neither list do not mention the claim."""
        status = "" if self.correct is None else "correct, " if self.correct else \
            "incorrect (contradicted by the ground truth), " if self.contradicted else "incorrect, "
        out = f"{status}supported by {', '.join(self.supported_by) or 'no retrieved passage'}"
        return f"{out}; contradicted by {', '.join(self.contradicted_by)}" if self.contradicted_by else out


@dataclass(frozen=True)
class GroundTruthRow:
    id: str
    text: str
    required: bool | None
    covered: bool | None  # entailed by the response
    supported_by: tuple[str, ...]
    contradicted_by: tuple[str, ...] = ()  # retrieved passages that contradict it
    contradicted: bool = False  # the response contradicts it


@dataclass(frozen=True)
class PassageRow:
    doc_id: str
    text: str
    rank: int | None  # 1-based retrieval rank, None for corpus sources
    retrieved: bool
    relevant: bool | None
    outdated: bool
    facts: tuple[str, ...] | None
    entails_response: tuple[str, ...]
    entails_gt: tuple[str, ...]
    contradicts_response: tuple[str, ...] = ()
    contradicts_gt: tuple[str, ...] = ()


@dataclass(frozen=True)
class FactRow:
    fact_id: str
    present: bool
    stated_by: tuple[str, ...]


@dataclass(frozen=True)
class SampleExplanation:
    query_id: str
    metrics: dict[str, MetricValue]
    claims: tuple[ClaimRow, ...]
    gt_claims: tuple[GroundTruthRow, ...]
    passages: tuple[PassageRow, ...]
    reference_facts: tuple[FactRow, ...]

    def __str__(self) -> str:
        return "\n".join(m.text for m in self.metrics.values())


def _why(doc_id: str, retrieved: bool, entails: bool | None, contradicts: bool) -> str:
    if retrieved and entails:
        return f"valid: {doc_id} was retrieved and entails the claim"
    if retrieved and contradicts:
        return f"invalid: {doc_id} contradicts the claim"
    if retrieved:
        return f"invalid: {doc_id} does not entail the claim" if entails is False else \
            f"invalid: the label of {doc_id} against the claim is unjudged"
    if entails:
        return f"invalid: {doc_id} entails the claim but was not retrieved"
    return f"invalid: {doc_id} was not retrieved"


def explain_sample(ev: Evaluation, i: int) -> SampleExplanation:
    """Everything about sample ``i`` that the views show, from arrays already computed."""
    b, d = ev.batch, ev.derived
    s = b.samples[i]
    r0, g0, p0 = int(b.resp_offset[i]), int(b.gt_offset[i]), int(b.psg_offset[i])
    n_psg = len(s.passages)
    active = d.psg_active[p0:p0 + n_psg]
    doc_ids = [p.doc_id for p in s.passages]

    resp_play = d.resp_active[r0:r0 + len(s.response_claims)]
    gt_play = d.gt_active[g0:g0 + len(s.gt_claims)]

    resp_ids = [f"R{j + 1}" for j in range(len(s.response_claims))]
    gt_ids = [f"G{j + 1}" for j in range(len(s.gt_claims))]

    def labelled(matrix, in_play, code: int, ids: list[str]) -> tuple[list[list[str]], list[list[str]]] | None:
        """Claims x passages labelled ``code``, with both the claim and the passage in play: each
        claim's doc_ids and each passage's claim ids, in order (one step per label found, not
        one per cell)."""
        if matrix is None:
            return None
        rows, cols = np.nonzero((matrix == code) & active[None, :] & in_play[:, None])
        by_claim, by_passage = [[] for _ in range(matrix.shape[0])], [[] for _ in range(n_psg)]
        for j, k in zip(rows.tolist(), cols.tolist()):
            by_claim[j].append(doc_ids[k])
            by_passage[k].append(ids[j])
        return by_claim, by_passage

    resp_entails = labelled(s.retrieved2response, resp_play, ENTAILED, resp_ids)
    gt_entails = labelled(s.retrieved2answer, gt_play, ENTAILED, gt_ids)
    resp_contra = labelled(s.retrieved2response, resp_play, CONTRADICTED, resp_ids)
    gt_contra = labelled(s.retrieved2answer, gt_play, CONTRADICTED, gt_ids)

    def entailing(grid, row: int) -> tuple[str, ...]:
        return () if grid is None else tuple(grid[0][row])

    def entailed_rows(grid, k: int) -> tuple[str, ...]:
        return () if grid is None else tuple(grid[1][k])

    claims = []
    for j, c in enumerate(s.response_claims):
        if not resp_play[j]:
            continue
        citations = None
        if c.cites is not None:
            citations = []
            for doc_id in c.cites:
                k = doc_ids.index(doc_id) if doc_id in doc_ids else -1
                retrieved = k >= 0 and bool(active[k])
                contradicts = False
                if k >= 0 and s.retrieved2response is not None:
                    label = s.retrieved2response[j, k]
                    entails = None if label == UNJUDGED else bool(label == ENTAILED)
                    contradicts = bool(label == CONTRADICTED)
                elif s.uses_facts:
                    entails = facts_entail(c.facts, s.source(doc_id).facts)
                else:
                    entails = None
                citations.append(Citation(doc_id, retrieved, entails, bool(retrieved and entails),
                                          _why(doc_id, retrieved, entails, contradicts), contradicts))
            citations = tuple(citations)
        correct = None
        if s.answer2response is not None and s.answer2response[j] != UNJUDGED:
            correct = bool(s.answer2response[j] == ENTAILED)
        claims.append(ClaimRow(f"R{j + 1}", c.text, c.facts, c.required, correct,
                               entailing(resp_entails, j), citations, entailing(resp_contra, j),
                               s.answer2response is not None and bool(s.answer2response[j] == CONTRADICTED)))
    gt_rows = tuple(
        GroundTruthRow(f"G{j + 1}", c.text, c.required,
                       None if s.response2answer is None or s.response2answer[j] == UNJUDGED
                       else bool(s.response2answer[j] == ENTAILED),
                       entailing(gt_entails, j), entailing(gt_contra, j),
                       s.response2answer is not None and bool(s.response2answer[j] == CONTRADICTED))
        for j, c in enumerate(s.gt_claims) if gt_play[j])
    passages = [PassageRow(p.doc_id, p.text, k + 1, bool(active[k]), p.relevant, p.outdated, p.facts,
                           entailed_rows(resp_entails, k), entailed_rows(gt_entails, k),
                           entailed_rows(resp_contra, k), entailed_rows(gt_contra, k))
                for k, p in enumerate(s.passages)]
    passages += [PassageRow(p.doc_id, p.text, None, False, p.relevant, p.outdated, p.facts, (), ())
                 for p in s.corpus]
    facts = ()
    if s.reference_facts is not None:
        stated = {f: tuple(f"R{j + 1}" for j, c in enumerate(s.response_claims)
                           if resp_play[j] and f in (c.facts or ())) for f in s.reference_facts}
        facts = tuple(FactRow(f, bool(stated[f]), stated[f]) for f in s.reference_facts)

    ids = _item_ids(ev, i)
    metrics = {}
    for name in ev.names:
        m = METRICS[name]
        status = ev.status[name][i]
        value = None if status != DEFINED else float(ev.value[name][i])
        num = den = None
        num_items = den_items = ()
        formula = None
        substituted = False
        if name == "f1" and status == DEFINED:
            p, r = (format_value(float(ev.value[x][i])) for x in ("precision", "recall"))
            formula = f"2·{p}·{r}/({p} + {r})" if ev.value["precision"][i] + ev.value["recall"][i] else None
        elif name != "f1" and status != NOT_COMPUTABLE:
            num, den = int(ev.numerator[name][i]), int(ev.denominator[name][i])
            num_items, den_items = _items(ev, m, i, ids)
            substituted = status == DEFINED and value == 0 and (den == 0 or num > 0)
        reason = _substitute_reason(ev, m, i, den, ids) if substituted else ev.reason_of(name, i)
        metrics[ev.prefix + name] = MetricValue(
            ev.prefix + name, value, status, num, den, reason, m.definition, m.family,
            m.group, num_items, den_items, formula, substituted)
    return SampleExplanation(s.query_id, metrics, tuple(claims), gt_rows, tuple(passages), facts)


def _substitute_reason(ev: Evaluation, m, i: int, den: int, ids) -> str:
    """Why ragchecker 0.1.9 reports 0 here: its zero for Undefined (den 0), or for a sample with
    no items of a ``zero_unless`` kind in play."""
    if den == 0:
        return f"ragchecker 0.1.9 reports 0 for Undefined: {m.undefined}"
    empty = [kind for kind in m.zero_unless if not item_space(ev.derived, kind)[1][ids[kind][0]].any()]
    return f"ragchecker 0.1.9 reports 0 with no {' or '.join(empty)} in play"


def _item_ids(ev: Evaluation, i: int) -> dict[str, tuple[np.ndarray, list[str]]]:
    """For each item kind: the global indices of sample ``i``'s items and their ids."""
    b = ev.batch
    s = b.samples[i]
    resp = np.arange(b.resp_offset[i], b.resp_offset[i + 1])
    gt = np.arange(b.gt_offset[i], b.gt_offset[i + 1])
    psg = np.arange(b.psg_offset[i], b.psg_offset[i + 1])
    cit = np.flatnonzero(b.cit_sample == i)
    ref = np.flatnonzero(b.ref_sample == i)
    cit_ids = [f"R{int(b.cit_claim[c] - b.resp_offset[i]) + 1}→{doc}"
               for c, doc in zip(cit, (doc for c in s.response_claims for doc in (c.cites or ())))]
    return {
        RESPONSE_CLAIMS: (resp, [f"R{j + 1}" for j in range(len(resp))]),
        GT_CLAIMS: (gt, [f"G{j + 1}" for j in range(len(gt))]),
        PASSAGES: (psg, [p.doc_id for p in s.passages]),
        CITATIONS: (cit, cit_ids),
        REFERENCE_FACTS: (ref, list(s.reference_facts or ())),
    }


def _items(ev: Evaluation, m, i: int, ids) -> tuple[tuple[str, ...], tuple[str, ...]]:
    index, names = ids[m.over]
    _, active = item_space(ev.derived, m.over)
    den_mask = active[index] if m.denominator is None else (active & m.denominator(ev.derived))[index]
    num_mask = den_mask & m.numerator(ev.derived)[index]
    return (tuple(n for n, k in zip(names, num_mask) if k), tuple(n for n, k in zip(names, den_mask) if k))


__all__ = ["MetricValue", "SampleExplanation", "ClaimRow", "Citation", "PassageRow", "FactRow",
           "GroundTruthRow", "explain_sample", "UNDEFINED"]
