"""Every aggregation: its value, and Undefined (NaN) samples counted apart, never as 0."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pandas as pd
import pytest

from ragwidgets.scoring import (BinaryClassificationMetricTemplate, F1ScoreMetricTemplate, FrequencyMetricTemplate,
                                MaxMetricTemplate, MeanMetricTemplate, MinMetricTemplate,
                                MulticlassClassificationMetricTemplate, PrecisionMetricTemplate, PythonMetricTemplate,
                                RecallMetricTemplate, StdDevMetricTemplate, WeightedAverageMetricTemplate)
from ragwidgets.scoring.aggregations import as_template

NAN = float("nan")


@pytest.fixture
def frame():
    return pd.DataFrame({
        "s": [0.2, NAN, 0.8, 1.0, NAN, 0.4],
        "w": [1.0, 100.0, 3.0, 0.0, 100.0, 1.0],
        "gold": [False, True, True, True, False, True],
        "grade": ["low", "high", "high", "mid", "low", "mid"],
    }, index=list("abcdef"))


def run(template, frame):
    return template.compute(frame[template.score], frame)


@pytest.mark.parametrize("template, value", [
    (MeanMetricTemplate(score="s"), 0.6),
    (MaxMetricTemplate(score="s"), 1.0),
    (MinMetricTemplate(score="s"), 0.2),
    (StdDevMetricTemplate(score="s"), float(np.std([0.2, 0.8, 1.0, 0.4], ddof=1))),
    (StdDevMetricTemplate(score="s", ddof=0), float(np.std([0.2, 0.8, 1.0, 0.4]))),
    (WeightedAverageMetricTemplate(score="s", weights_column="w"), (0.2 + 2.4 + 0.4) / 5),
    (PythonMetricTemplate(score="s", function=lambda v: float(v.median())), 0.6),
    (PythonMetricTemplate(score="s", function=statistics.median), 0.6),
])
def test_statistics_over_the_defined_samples(frame, template, value):
    metric = run(template, frame)
    assert metric.value == pytest.approx(value)
    assert (metric.defined, metric.undefined) == (4, 2)


def test_undefined_is_never_zero(frame):
    """A mean that counted the Undefined samples as 0 would be 2.4 / 6 = 0.4."""
    assert run(MeanMetricTemplate(score="s"), frame).value == pytest.approx(0.6)
    assert run(MinMetricTemplate(score="s"), frame).value == pytest.approx(0.2)
    assert run(FrequencyMetricTemplate(score="s"), frame).value["[0, 0.2)"] == 0


def test_frequency_bins(frame):
    metric = run(FrequencyMetricTemplate(score="s", bins=(0, 0.5, 1)), frame)
    assert metric.value == {"[0, 0.5)": 2, "[0.5, 1]": 2}
    assert metric.details == {"edges": [0.0, 0.5, 1.0], "outside": 0}
    assert run(FrequencyMetricTemplate(score="s", bins=(0, 0.5)), frame).details["outside"] == 2
    with pytest.raises(ValueError, match="increasing"):
        FrequencyMetricTemplate(score="s", bins=(1, 0))


def test_binary_classification_and_its_precision_recall_f1(frame):
    # defined rows: a 0.2/False, c 0.8/True, d 1.0/True, f 0.4/True; threshold 0.5 → tp 2, fn 1, tn 1
    binary = run(BinaryClassificationMetricTemplate(score="s", label_column="gold", threshold=0.5), frame)
    assert binary.details == {"tp": 2, "fp": 0, "tn": 1, "fn": 1, "accuracy": 0.75, "precision": 1.0,
                              "recall": pytest.approx(2 / 3), "f1": pytest.approx(0.8)}
    assert binary.value == 0.75 and binary.undefined == 2
    options = dict(score="s", label_column="gold", threshold=0.5)
    assert run(PrecisionMetricTemplate(**options), frame).value == 1.0
    assert run(RecallMetricTemplate(**options), frame).value == pytest.approx(2 / 3)
    assert run(F1ScoreMetricTemplate(**options), frame).value == pytest.approx(0.8)
    no_positives = PrecisionMetricTemplate(score="s", label_column="gold", threshold=1.5)
    assert run(no_positives, frame).value is None
    assert run(RecallMetricTemplate(score="s", label_column="grade", positive_label="mid"), frame).value == 0.5


def test_multiclass_classification(frame):
    template = MulticlassClassificationMetricTemplate(score="s", label_column="grade", thresholds=(0.3, 0.9),
                                                      classes=("low", "mid", "high"))
    metric = run(template, frame)
    # a 0.2→low (low), c 0.8→mid (high), d 1.0→high (mid), f 0.4→mid (mid)
    assert metric.value == 0.5 and (metric.defined, metric.undefined) == (4, 2)
    assert metric.details["confusion"]["high"] == {"low": 0, "mid": 1, "high": 0}
    assert metric.details["per_class"]["low"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert metric.details["per_class"]["high"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert metric.details["macro_f1"] == pytest.approx((1.0 + 0.5 + 0.0) / 3)
    with pytest.raises(ValueError, match=r"len\(thresholds\) \+ 1"):
        MulticlassClassificationMetricTemplate(score="s", label_column="grade", thresholds=(0.5,), classes=("a",))


def test_nothing_defined_gives_none_and_counts_everything(frame):
    frame["s"] = NAN
    for template in (MeanMetricTemplate(score="s"), MaxMetricTemplate(score="s"), StdDevMetricTemplate(score="s"),
                     WeightedAverageMetricTemplate(score="s", weights_column="w"),
                     BinaryClassificationMetricTemplate(score="s", label_column="gold")):
        metric = run(template, frame)
        assert metric.value is None and (metric.defined, metric.undefined) == (0, 6)
    assert run(StdDevMetricTemplate(score="s"), frame.assign(s=[0.5] + [NAN] * 5)).value is None  # one value, ddof 1


def test_bad_cells_name_the_row_and_column(frame):
    frame.loc["c", "w"] = -1.0
    with pytest.raises(ValueError, match=r"metric 'weighted_average_s': row 'c', column 'w': .*≥ 0"):
        run(WeightedAverageMetricTemplate(score="s", weights_column="w"), frame)
    frame["gold"] = frame["gold"].astype(object)
    frame.loc["d", "gold"] = None
    with pytest.raises(ValueError, match=r"row 'd', column 'gold': the gold label is missing"):
        run(BinaryClassificationMetricTemplate(score="s", label_column="gold"), frame)
    frame.loc["f", "grade"] = "top"
    with pytest.raises(ValueError, match=r"row 'f', column 'grade': gold class 'top'"):
        run(MulticlassClassificationMetricTemplate(score="s", label_column="grade", thresholds=(0.3, 0.9),
                                                   classes=("low", "mid", "high")), frame)


def test_templates_from_dicts_and_reprs(frame):
    template = as_template({"type": "weighted_average", "score": "s", "weights_column": "w", "key": "wavg"})
    assert isinstance(template, WeightedAverageMetricTemplate) and template.name == "wavg"
    assert repr(template) == "WeightedAverageMetricTemplate(score='s', key='wavg', weights_column='w')"
    assert repr(run(template, frame)) == "<wavg = 0.6 (4 defined, 2 Undefined)>"
    assert repr(run(FrequencyMetricTemplate(score="s", bins=(0, 1)), frame)) == (
        "<frequency_s = {'[0, 1]': 4} (4 defined, 2 Undefined)>")
    with pytest.raises(ValueError, match="metric of type 'mean'"):
        as_template({"type": "mean", "score": "s", "weights_column": "w"})
    assert math.isclose(run(as_template({"type": "mean", "score": "s"}), frame).value, 0.6)
