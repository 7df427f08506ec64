"""The DatasetExplorer's checker calibration tab (widgets/dataset/calibration.py): the view carries
the fit's figures as analysis.calibration gives them, the front end's method request refits,
bad input from it is refused with the fit kept, and a review marks the fit stale."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")
pytest.importorskip("tokenizers")

import ragwidgets as rw  # noqa: E402
from local_models import calibration_run  # noqa: E402
from ragwidgets.engine.metrics import format_value  # noqa: E402
from ragwidgets.reviews import Reviews  # noqa: E402

E = "Entailment"


def ask(x, **message):
    sent = []
    x.send = lambda m, buffers=None: sent.append(m)
    x._handle_custom_msg({"request": 7, **message}, [])
    return sent[-1]


def test_the_tab_shows_the_fit_and_the_front_end_refits(tmp_path):
    checker, _, filled, reviews = calibration_run(tmp_path / "bin")
    x = rw.DatasetExplorer(filled, reviews=reviews)
    assert x.view_state["calibration"] is None and x.calibration is None
    fit = x.calibrate(checker, method="threshold")
    view = x.view_state["calibration"]
    json.dumps(view, allow_nan=False)
    assert x.calibration is fit and view["method"] == "threshold" and view["n"] == 24 and view["entailed"] == 12
    assert view["before"]["value"] == format_value(fit.before.value) and view["after"]["value"] == format_value(1.0)
    assert view["threshold"] == format_value(fit.threshold) and float(view["threshold"]) < 0.5
    assert "checker.calibrated(explorer.calibration)" in view["advice"] and "LocalChecker(" in view["checker"]
    assert list(view["diagrams"]) == ["before"] and view["diagrams"]["before"]["columns"][:3] == ["bin_low", "bin_high", "n"]
    assert sum(row[2] for row in view["diagrams"]["before"]["rows"]) == 24

    reply = ask(x, type="calibrate", method="isotonic")
    assert "error" not in reply, reply
    view = x.view_state["calibration"]
    assert view["method"] == "isotonic" and list(view["diagrams"]) == ["before", "after"]
    assert x.calibration.method == "isotonic"

    reply = ask(x, type="calibrate", method="temperature")
    assert "method must be one of threshold, platt, isotonic" in reply["error"]
    assert x.calibration.method == "isotonic"  # the fit kept
    with pytest.raises(TypeError, match="support"):
        x.calibrate(object())


def test_a_review_marks_the_fit_stale_and_fit_again_clears_it(tmp_path):
    checker, _, filled, reviews = calibration_run(tmp_path / "bin")
    x = rw.DatasetExplorer(filled, reviews=reviews)
    x.calibrate(checker)
    assert x.view_state["calibration"]["stale"] is False
    x.selected = 1  # q1: not reviewed yet
    x.review("retrieved2response", 0, E, doc_id="yes")
    assert x.view_state["calibration"]["stale"] is True and x.calibration.n == 24
    ask(x, type="calibrate", method="isotonic")
    assert x.view_state["calibration"]["stale"] is False and x.calibration.n == 25


def test_too_few_reviews_are_undefined_with_the_reason(tmp_path):
    checker, _, filled, reviews = calibration_run(tmp_path / "bin")
    x = rw.DatasetExplorer(filled, reviews=Reviews(list(reviews)[:4]))
    x.calibrate(checker)
    view = x.view_state["calibration"]
    assert view["threshold"] is None and "fewer than 10" in view["reason"] and view["after"]["value"] is None
    assert view["advice"].startswith("Undefined: 4 reviewed check(s)")
