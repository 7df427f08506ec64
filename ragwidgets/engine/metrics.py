"""Every metric, defined once: a ratio of counted items, with its Undefined rule beside it.

A metric counts items of one kind (``over``) in each sample: the denominator is the items in
play that satisfy ``denominator`` (all of them when None), the numerator those of them that
also satisfy ``numerator``. The value is numerator / denominator, Undefined when the denominator
is 0 (``undefined`` says why). ``f1`` is the one metric that is not a ratio of counts.
``label`` is the title the views and reports give it; ``lower_is_better`` marks the error rates.

``zero_unless`` reproduces ragchecker 0.1.9 (``undefined="zero"``): besides turning Undefined
into 0, ragchecker reports 0 when the sample has no items of these kinds.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .derived import Derived

REQUIRED_PREFIX = "required_"  # a metric over REQUIRED claims only is reported as required_<name>
RESPONSE_CLAIMS, GT_CLAIMS, PASSAGES, CITATIONS, REFERENCE_FACTS = (
    "response claims", "gt claims", "passages", "citations", "reference facts")


@dataclass(frozen=True)
class Metric:
    name: str
    label: str  # as the views and reports title it
    family: str  # "ragchecker" | "citation" | "both"
    group: str  # "overall" | "retriever" | "generator" | "citation"
    over: str
    numerator: Callable[[Derived], np.ndarray] | None
    definition: str
    undefined: str
    needs: tuple[str, ...]
    denominator: Callable[[Derived], np.ndarray] | None = None
    zero_unless: tuple[str, ...] = ()
    lower_is_better: bool = False

    @property
    def in_ragchecker(self) -> bool:
        return self.family in ("ragchecker", "both")


METRICS: dict[str, Metric] = {m.name: m for m in (
    # RAGChecker: overall
    Metric("precision", "Precision", "ragchecker", "overall", RESPONSE_CLAIMS,
           lambda d: d.resp_correct,
           "response claims entailed by the ground-truth answer / response claims",
           "no response claims", ("answer2response",)),
    Metric("recall", "Recall", "ragchecker", "overall", GT_CLAIMS, lambda d: d.gt_covered,
           "ground-truth claims entailed by the response / ground-truth claims",
           "no ground-truth claims", ("response2answer",)),
    Metric("f1", "F1", "ragchecker", "overall", RESPONSE_CLAIMS, None,
           "2·precision·recall / (precision + recall); 0 when both are 0",
           "precision or recall is Undefined", ("answer2response", "response2answer")),
    # RAGChecker: retriever
    Metric("claim_recall", "Claim recall", "ragchecker", "retriever", GT_CLAIMS,
           lambda d: d.gt_retrieved,
           "ground-truth claims entailed by at least one retrieved passage / ground-truth claims",
           "no ground-truth claims", ("retrieved2answer",)),
    Metric("context_precision", "Context precision", "ragchecker", "retriever", PASSAGES,
           lambda d: d.psg_useful,
           "retrieved passages that entail at least one ground-truth claim / retrieved passages",
           "no retrieved passages", ("retrieved2answer",)),
    # RAGChecker: generator
    Metric("context_utilization", "Context utilization", "ragchecker", "generator", GT_CLAIMS,
           lambda d: d.gt_covered,
           "ground-truth claims entailed by a retrieved passage and by the response / "
           "ground-truth claims entailed by a retrieved passage",
           "no ground-truth claim is entailed by a retrieved passage",
           ("retrieved2answer", "response2answer"), denominator=lambda d: d.gt_retrieved),
    Metric("noise_sensitivity_in_relevant", "Noise sensitivity (relevant)", "ragchecker",
           "generator", RESPONSE_CLAIMS, lambda d: d.resp_incorrect & d.resp_in_relevant,
           "incorrect response claims entailed by a relevant passage (one entailing a "
           "ground-truth claim) / response claims",
           "no response claims", ("retrieved2response", "answer2response", "retrieved2answer"),
           lower_is_better=True),
    Metric("noise_sensitivity_in_irrelevant", "Noise sensitivity (irrelevant)", "ragchecker",
           "generator", RESPONSE_CLAIMS, lambda d: d.resp_incorrect & d.resp_only_in_irrelevant,
           "incorrect response claims entailed by an irrelevant passage and by no relevant one / "
           "response claims",
           "no response claims", ("retrieved2response", "answer2response", "retrieved2answer"),
           zero_unless=(GT_CLAIMS,), lower_is_better=True),
    Metric("hallucination", "Hallucination", "ragchecker", "generator", RESPONSE_CLAIMS,
           lambda d: d.resp_incorrect & d.resp_unfaithful,
           "incorrect response claims entailed by no retrieved passage / response claims",
           "no response claims", ("retrieved2response", "answer2response"), zero_unless=(PASSAGES,),
           lower_is_better=True),
    Metric("self_knowledge", "Self-knowledge", "ragchecker", "generator", RESPONSE_CLAIMS,
           lambda d: d.resp_correct & d.resp_unfaithful,
           "correct response claims entailed by no retrieved passage / response claims",
           "no response claims", ("retrieved2response", "answer2response"), zero_unless=(PASSAGES,)),
    # Both families: the lesson's faithfulness is RAGChecker's.
    Metric("faithfulness", "Faithfulness", "both", "generator", RESPONSE_CLAIMS,
           lambda d: d.resp_faithful,
           "answer claims entailed by at least one retrieved passage / answer claims",
           "no answer claims", ("retrieved2response",)),
    # Citation family (the lesson)
    Metric("context_relevance", "Context relevance", "citation", "citation", PASSAGES,
           lambda d: d.psg_flagged_relevant,
           "question-relevant retrieved passages / retrieved passages",
           "no retrieved documents", ("relevance",)),
    Metric("citation_support", "Citation support", "citation", "citation", RESPONSE_CLAIMS,
           lambda d: d.resp_validly_cited,
           "answer claims with at least one valid citation (retrieved and on its own entailing) / "
           "answer claims",
           "no answer claims", ("citations",)),
    Metric("citation_precision", "Citation precision", "citation", "citation", CITATIONS,
           lambda d: d.cit_valid,
           "valid citations / present citations (claim–source pairs)",
           "no citations", ("citations",)),
    Metric("completeness", "Completeness", "citation", "citation", REFERENCE_FACTS,
           lambda d: d.ref_covered,
           "distinct reference facts stated by the answer's claims / distinct reference facts; "
           "an empty answer gives 0",
           "no reference facts", ("reference",)),
)}

RAGCHECKER_METRICS = tuple(n for n, m in METRICS.items() if m.in_ragchecker)
CITATION_METRICS = ("context_relevance", "faithfulness", "citation_support", "citation_precision",
                    "completeness")
ALL_METRICS = RAGCHECKER_METRICS + tuple(n for n in CITATION_METRICS if n not in RAGCHECKER_METRICS)
RAGCHECKER_GROUPS = {g: tuple(n for n in RAGCHECKER_METRICS if METRICS[n].group == g)
                     for g in ("overall", "retriever", "generator")}


def resolve(names) -> tuple[str, ...]:
    """Validate a selection of metric names (None = all), keeping the given order."""
    if names is None:
        return ALL_METRICS
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in names if n not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(ALL_METRICS)}")
    if not names:
        raise ValueError("select at least one metric")
    return tuple(dict.fromkeys(names))


def metric_of(name: str) -> Metric:
    """The definition behind a reported metric name (``precision`` or ``required_precision``);
    KeyError for a name that is no metric's."""
    return METRICS[name.removeprefix(REQUIRED_PREFIX)]


def metric_label(name: str) -> str:
    """The title every view and report gives a reported metric name: its definition's label,
    "(required)" added for the value over REQUIRED claims; any other name as itself."""
    base = name.removeprefix(REQUIRED_PREFIX)
    if base not in METRICS:
        return name
    return METRICS[base].label if base == name else f"{METRICS[base].label} (required)"


DIGITS, PERCENT_DIGITS = 3, 1  # decimals shown at most: a value in [0, 1], a percent (× 100)


def format_value(x, *, percent: bool = False, signed: bool = False) -> str:
    """A metric value (or a statistic on its scale: a mean, a bound, kappa) as every view, report
    and the command line show it: ``DIGITS`` decimals at most (a percent: ``PERCENT_DIGITS``),
    trailing zeros dropped ("0.5", "0.667", "1", as the lesson's "2/3 = 0.667"); "Undefined" for
    None or NaN; what is not a number (a table cell's text) as itself. ``signed``: a difference,
    with "+" before a positive one."""
    if x is None or type(x).__name__ == "NAType" or isinstance(x, numbers.Real) and math.isnan(x):
        return "Undefined"
    if not isinstance(x, numbers.Real):
        return str(x)
    text = f"{x:{'+' if signed else ''}.{PERCENT_DIGITS if percent else DIGITS}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "+0") else text


def format_percent(x) -> str:
    """A share in [0, 1] as a percent with ``PERCENT_DIGITS`` decimals at most ("2.5%", "95%");
    "—" for None."""
    return "—" if x is None else f"{format_value(100 * x, percent=True)}%"


def format_p(p) -> str:
    """A p-value: two significant digits ("0.031", "0.0012"), "< 0.0001" below that; "Undefined" for None or NaN."""
    if p is None or isinstance(p, numbers.Real) and math.isnan(p):
        return "Undefined"
    return "< 0.0001" if p < 1e-4 else f"{p:.2g}"


def ragchecker_summary(aggregate: dict[str, dict], prefixes=("", REQUIRED_PREFIX)) -> dict[str, dict]:
    """RAGChecker's report from an aggregate (``Scores.aggregate``'s shape, in one process or on
    a cluster): per group, each metric's mean × 100 rounded to one decimal (None: no defined sample)."""
    out = {}
    for prefix in prefixes:
        for group, members in RAGCHECKER_GROUPS.items():
            for name in members:
                if prefix + name in aggregate:
                    mean = aggregate[prefix + name]["mean"]
                    out.setdefault(prefix + group, {})[prefix + name] = (
                        None if mean is None else float(round(mean * 100, 1)))
    return out
