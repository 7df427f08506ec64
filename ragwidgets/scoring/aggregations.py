"""Aggregations of one per-sample score into a per-task metric (the metric templates of RagChecker's configuration format).

Every aggregation sees only the samples whose score is defined; the samples whose score is
Undefined (NaN) are counted in ``undefined`` and never averaged, thresholded or binned as 0.
A statistic with nothing to work on (no defined samples, a 0 denominator) is None.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Optional, Union

import numpy as np
import pandas as pd

from ..engine.metrics import format_value
from ..engine.sums import mean_over_defined


@dataclass(frozen=True)
class AggregatedMetric:
    """One per-task metric: its ``value``, how many samples were defined and Undefined, and details."""

    key: str
    type: str
    score: str
    value: Any
    defined: int
    undefined: int
    details: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        value = format_value(self.value) if isinstance(self.value, float) else repr(self.value)
        return f"<{self.key} = {value} ({self.defined} defined, {self.undefined} Undefined)>"


def _ratio(num: float, den: float) -> Optional[float]:
    return float(num / den) if den else None


def _f1(precision: Optional[float], recall: Optional[float]) -> Optional[float]:
    """2PR / (P + R); 0 when P + R = 0; None when either is None."""
    if precision is None or recall is None:
        return None
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _row_error(metric: "MetricTemplate", column: str, row: Any, message: str) -> ValueError:
    return ValueError(f"metric {metric.name!r}: row {row!r}, column {column!r}: {message}")


@dataclass(frozen=True, kw_only=True)
class MetricTemplate:
    """Base of the templates: ``score`` is the score column aggregated, ``key`` the metric's name."""

    type: ClassVar[str] = ""
    score: str
    key: Optional[str] = None

    def __post_init__(self) -> None:
        if not isinstance(self.score, str) or not self.score:
            raise ValueError(f"{type(self).__name__}: score must be a score name")
        if self.key is not None and (not isinstance(self.key, str) or not self.key):
            raise ValueError(f"{type(self).__name__}: key must be a non-empty string or None")

    @property
    def name(self) -> str:
        """``key``, else ``"<type>_<score>"``."""
        return self.key or f"{self.type}_{self.score}"

    @property
    def columns(self) -> tuple[str, ...]:
        """Frame columns besides the score that this aggregation reads."""
        return ()

    def compute(self, scores: pd.Series, frame: pd.DataFrame) -> AggregatedMetric:
        """Aggregate ``scores`` (NaN = Undefined) over the rows of ``frame``."""
        values = pd.to_numeric(scores, errors="coerce").astype(float)
        defined = values.dropna()
        value, details = self._aggregate(defined, frame.loc[defined.index])
        undefined = len(values) - len(defined)
        return AggregatedMetric(self.name, self.type, self.score, value, len(defined), undefined, details)

    def _aggregate(self, defined: pd.Series, rows: pd.DataFrame) -> tuple[Any, dict]:
        raise NotImplementedError

    def __repr__(self) -> str:
        shown = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if f.name == "score" or getattr(self, f.name) != f.default]
        return f"{type(self).__name__}({', '.join(shown)})"


@dataclass(frozen=True, kw_only=True, repr=False)
class MeanMetricTemplate(MetricTemplate):
    """Mean of the defined values."""

    type: ClassVar[str] = "mean"

    def _aggregate(self, defined, rows):
        return mean_over_defined(defined.to_numpy(dtype=float), np.ones(len(defined), dtype=bool))[0], {}


@dataclass(frozen=True, kw_only=True, repr=False)
class MaxMetricTemplate(MetricTemplate):
    """Largest defined value."""

    type: ClassVar[str] = "max"

    def _aggregate(self, defined, rows):
        return (float(defined.max()) if len(defined) else None), {}


@dataclass(frozen=True, kw_only=True, repr=False)
class MinMetricTemplate(MetricTemplate):
    """Smallest defined value."""

    type: ClassVar[str] = "min"

    def _aggregate(self, defined, rows):
        return (float(defined.min()) if len(defined) else None), {}


@dataclass(frozen=True, kw_only=True, repr=False)
class StdDevMetricTemplate(MetricTemplate):
    """Standard deviation of the defined values with ``ddof`` (1: sample, 0: population).

    None with fewer than ``ddof + 1`` defined values.
    """

    type: ClassVar[str] = "std_dev"
    ddof: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.ddof not in (0, 1):
            raise ValueError("StdDevMetricTemplate: ddof must be 0 or 1")

    def _aggregate(self, defined, rows):
        if len(defined) <= self.ddof:
            return None, {}
        return float(np.std(defined.to_numpy(), ddof=self.ddof)), {}


@dataclass(frozen=True, kw_only=True, repr=False)
class FrequencyMetricTemplate(MetricTemplate):
    """Histogram of the defined values over ``bins`` (edges; each bin ``[lo, hi)``, the last ``[lo, hi]``).

    ``value``: ``{"[lo, hi)": count}``; values outside the edges are counted in ``details["outside"]``.
    """

    type: ClassVar[str] = "frequency"
    bins: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)

    def __post_init__(self) -> None:
        super().__post_init__()
        edges = tuple(float(b) for b in self.bins)
        if len(edges) < 2 or any(b >= a for a, b in zip(edges[1:], edges)) or not all(map(math.isfinite, edges)):
            raise ValueError("FrequencyMetricTemplate: bins must be at least two finite, increasing edges")
        object.__setattr__(self, "bins", edges)

    def _aggregate(self, defined, rows):
        edges = self.bins
        last = len(edges) - 2
        labels = [f"[{lo:g}, {hi:g}{']' if k == last else ')'}" for k, (lo, hi) in enumerate(zip(edges, edges[1:]))]
        counts, _ = np.histogram(defined.to_numpy(), bins=np.array(edges))
        outside = int(((defined < edges[0]) | (defined > edges[-1])).sum())
        return dict(zip(labels, (int(c) for c in counts))), {"edges": list(edges), "outside": outside}


@dataclass(frozen=True, kw_only=True, repr=False)
class WeightedAverageMetricTemplate(MetricTemplate):
    """Σ wᵢ·xᵢ / Σ wᵢ over the defined samples, weights from ``weights_column`` (finite, ≥ 0).

    None when the defined samples' weights sum to 0.
    """

    type: ClassVar[str] = "weighted_average"
    weights_column: str

    @property
    def columns(self):
        return (self.weights_column,)

    def _aggregate(self, defined, rows):
        weights = []
        for row, w in rows[self.weights_column].items():
            try:
                w = float(w)
            except (TypeError, ValueError):
                raise _row_error(self, self.weights_column, row, f"a weight must be a number, got {w!r:.40}") from None
            if not math.isfinite(w) or w < 0:
                raise _row_error(self, self.weights_column, row, f"a weight must be finite and ≥ 0, got {w!r}")
            weights.append(w)
        total = float(sum(weights))
        value = _ratio(float(np.dot(weights, defined.to_numpy())), total) if weights else None
        return value, {"total_weight": total}


def _gold_flags(metric: "_ThresholdTemplate", rows: pd.DataFrame) -> list[bool]:
    flags = []
    for row, label in rows[metric.label_column].items():
        if label is None or (isinstance(label, float) and math.isnan(label)):
            raise _row_error(metric, metric.label_column, row, "the gold label is missing")
        flags.append(bool(label == metric.positive_label))
    return flags


@dataclass(frozen=True, kw_only=True, repr=False)
class _ThresholdTemplate(MetricTemplate):
    """A score ≥ ``threshold`` predicts the positive class; gold is ``label_column == positive_label``.

    value = the confusion statistic named by ``statistic``; details = the whole confusion.
    """

    statistic: ClassVar[str]
    label_column: str
    threshold: float = 0.5
    positive_label: Any = True

    @property
    def columns(self):
        return (self.label_column,)

    def confusion(self, defined: pd.Series, rows: pd.DataFrame) -> dict:
        """tp, fp, tn, fn, and accuracy, precision, recall, f1 (None when their denominator is 0)."""
        predicted = (defined >= self.threshold).to_numpy()
        gold = np.array(_gold_flags(self, rows), dtype=bool)
        tp, fp = int((predicted & gold).sum()), int((predicted & ~gold).sum())
        fn, tn = int((~predicted & gold).sum()), int((~predicted & ~gold).sum())
        precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        return {"tp": tp, "fp": fp, "tn": tn, "fn": fn, "accuracy": _ratio(tp + tn, len(defined)),
                "precision": precision, "recall": recall, "f1": _f1(precision, recall)}

    def _aggregate(self, defined, rows):
        details = self.confusion(defined, rows)
        return details[self.statistic], details


@dataclass(frozen=True, kw_only=True, repr=False)
class BinaryClassificationMetricTemplate(_ThresholdTemplate):
    """Score ≥ ``threshold`` as a binary classifier of ``label_column``: value = accuracy, details = confusion."""

    type: ClassVar[str] = "binary_classification"
    statistic: ClassVar[str] = "accuracy"


@dataclass(frozen=True, kw_only=True, repr=False)
class PrecisionMetricTemplate(_ThresholdTemplate):
    """tp / (tp + fp) of the classifier score ≥ ``threshold`` against ``label_column``."""

    type: ClassVar[str] = "precision"
    statistic: ClassVar[str] = "precision"


@dataclass(frozen=True, kw_only=True, repr=False)
class RecallMetricTemplate(_ThresholdTemplate):
    """tp / (tp + fn) of the classifier score ≥ ``threshold`` against ``label_column``."""

    type: ClassVar[str] = "recall"
    statistic: ClassVar[str] = "recall"


@dataclass(frozen=True, kw_only=True, repr=False)
class F1ScoreMetricTemplate(_ThresholdTemplate):
    """2PR / (P + R) of the classifier score ≥ ``threshold`` against ``label_column`` (0 when P + R = 0)."""

    type: ClassVar[str] = "f1_score"
    statistic: ClassVar[str] = "f1"


@dataclass(frozen=True, kw_only=True, repr=False)
class MulticlassClassificationMetricTemplate(MetricTemplate):
    """The score binned by ``thresholds`` into ``classes`` (below the first threshold: ``classes[0]``;
    at or above threshold t: the next class) against the gold classes in ``label_column``.

    value = accuracy; details: per-class precision / recall / f1, ``macro_f1``, ``confusion[gold][predicted]``.
    """

    type: ClassVar[str] = "multiclass_classification"
    label_column: str
    thresholds: tuple[float, ...]
    classes: tuple[Any, ...]

    def __post_init__(self) -> None:
        super().__post_init__()
        thresholds = tuple(float(t) for t in self.thresholds)
        classes = tuple(self.classes)
        if not thresholds or any(b <= a for a, b in zip(thresholds, thresholds[1:])):
            raise ValueError("MulticlassClassificationMetricTemplate: thresholds must be increasing, at least one")
        if len(classes) != len(thresholds) + 1 or len(set(classes)) != len(classes):
            raise ValueError("MulticlassClassificationMetricTemplate: give len(thresholds) + 1 distinct classes")
        object.__setattr__(self, "thresholds", thresholds)
        object.__setattr__(self, "classes", classes)

    @property
    def columns(self):
        return (self.label_column,)

    def _aggregate(self, defined, rows):
        predicted = [self.classes[bisect.bisect_right(self.thresholds, v)] for v in defined]
        gold = []
        for row, label in rows[self.label_column].items():
            if label not in self.classes:
                message = f"gold class {label!r:.40} is not one of {list(self.classes)}"
                raise _row_error(self, self.label_column, row, message)
            gold.append(label)
        confusion = {g: {p: 0 for p in self.classes} for g in self.classes}
        for g, p in zip(gold, predicted):
            confusion[g][p] += 1
        per_class = {}
        for c in self.classes:
            tp = confusion[c][c]
            precision = _ratio(tp, sum(confusion[g][c] for g in self.classes))
            recall = _ratio(tp, sum(confusion[c].values()))
            per_class[c] = {"precision": precision, "recall": recall, "f1": _f1(precision, recall)}
        f1s = [v["f1"] for v in per_class.values() if v["f1"] is not None]
        accuracy = _ratio(sum(confusion[c][c] for c in self.classes), len(gold))
        return accuracy, {"per_class": per_class, "macro_f1": float(np.mean(f1s)) if f1s else None,
                          "confusion": confusion}


@dataclass(frozen=True, kw_only=True, repr=False)
class PythonMetricTemplate(MetricTemplate):
    """A user's function of the defined values: ``function(values: pd.Series) -> value``.

    ``function`` is a Python callable, given from Python. An import path such as
    ``"statistics:median"`` is refused: a configuration (a dict, a JSON file) would otherwise run
    code from any module it names. It never sees the Undefined samples (they are counted in
    ``undefined``).
    """

    type: ClassVar[str] = "python"
    function: Callable[[pd.Series], Any]

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.function, str):
            raise ValueError(f"PythonMetricTemplate: function {self.function!r} is a name, and a configuration "
                             "does not import code: import the function in Python and pass it "
                             "(function=statistics.median)")
        if not callable(self.function):
            raise ValueError("PythonMetricTemplate: function must be a callable")

    def _aggregate(self, defined, rows):
        return self.function(defined), {}


TEMPLATES: dict[str, type[MetricTemplate]] = {
    t.type: t for t in (
        MeanMetricTemplate, MaxMetricTemplate, MinMetricTemplate, StdDevMetricTemplate, FrequencyMetricTemplate,
        WeightedAverageMetricTemplate, BinaryClassificationMetricTemplate, MulticlassClassificationMetricTemplate,
        PrecisionMetricTemplate, RecallMetricTemplate, F1ScoreMetricTemplate, PythonMetricTemplate,
    )
}


TEMPLATE_CLASS_NAMES = {t.__name__: t.type for t in TEMPLATES.values()}
"""The configuration format's spellings of the types (``"MeanMetricTemplate"``) → the short ones (``"mean"``)."""


def as_template(spec: Union[MetricTemplate, Mapping[str, Any]]) -> MetricTemplate:
    """A template, or one built from a dict with its ``type`` (``{"type": "mean", "score": "recall"}``, or the
    configuration format's ``{"type": "MeanMetricTemplate", ...}``)."""
    if isinstance(spec, MetricTemplate):
        return spec
    if not isinstance(spec, Mapping):
        raise TypeError(f"a metric must be a MetricTemplate or a dict with a 'type', got {type(spec).__name__}")
    options = dict(spec)
    kind = options.pop("type", None)
    kind = TEMPLATE_CLASS_NAMES.get(kind, kind)
    if kind not in TEMPLATES:
        raise ValueError(f"unknown metric type {kind!r}; known: {', '.join(TEMPLATES)} (or the class names, "
                         "e.g. 'MeanMetricTemplate')")
    try:
        return TEMPLATES[kind](**options)
    except TypeError as err:
        raise ValueError(f"metric of type {kind!r}: {err}") from None


def default_metrics(score_columns: Sequence[str]) -> tuple[MetricTemplate, ...]:
    """The metrics used when none are configured: the mean of every score."""
    return tuple(MeanMetricTemplate(score=c) for c in score_columns)
