"""One home for the display rules: a metric's number shown by one formatter (engine/metrics.py
``format_value``), the same rule the lesson's fractions follow ("2/3 = 0.667", "2/2 = 1")."""

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ragwidgets.engine.metrics import format_value

PACKAGE = Path(__file__).resolve().parents[1] / "ragwidgets"
FORMAT_SPEC = re.compile(r"\{[^{}]*:[+ ]?\.\d+[fge%]\}")  # an f-string's {x:.3f}, {x:+.3f}, {x:.1%}, ...
NOT_METRIC_VALUES = {  # numbers formatted in their own way, on purpose
    "judges/jobs.py",  # a cost in money
    "judges/lexical.py",  # the lexical judge's overlap score in its reason ("3/4 = 0.75 ≥ threshold")
    "judges/local.py",  # a local checker's output probabilities in its reason ("entailment 0.912")
    "analysis/review_queue.py",  # a quota and a per-label move (1e-5 and less): significant digits
    "analysis/corrected.py",  # the raw estimate outside [0, 1]: the digits that leave the range
}


@pytest.mark.parametrize("value, shown", [
    (0.5, "0.5"), (2 / 3, "0.667"), (1.0, "1"), (0.0, "0"), (1, "1"), (-0.0001, "0"), (0.0005, "0.001"),
    (None, "Undefined"), (math.nan, "Undefined"), (np.float32("nan"), "Undefined"), (pd.NA, "Undefined"),
    (np.float64(0.25), "0.25"), ("text", "text"), ({"[0, 0.5)": 2}, "{'[0, 0.5)': 2}"),
])
def test_a_value_shows_three_decimals_at_most_without_trailing_zeros(value, shown):
    assert format_value(value) == shown


def test_a_percent_shows_one_decimal_and_a_difference_its_sign():
    assert [format_value(x, percent=True) for x in (50.0, 66.666, 12.25)] == ["50", "66.7", "12.2"]
    assert [format_value(x, signed=True) for x in (0.05, -0.05, 0.0, 1e-5)] == ["+0.05", "-0.05", "0", "0"]


def test_no_other_module_formats_a_number_with_its_own_format_spec():
    own = {}
    for path in PACKAGE.rglob("*.py"):
        name = path.relative_to(PACKAGE).as_posix()
        if name in NOT_METRIC_VALUES or name == "engine/metrics.py":
            continue
        hits = [n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if FORMAT_SPEC.search(line)]
        if hits:
            own[name] = hits
    assert own == {}, f"format these with engine.metrics.format_value: {own}"
