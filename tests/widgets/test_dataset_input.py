"""DatasetExplorer under malformed input from the front end: every control value is checked where it
enters (the previous valid state kept, the reason shown), every request gets one reply (with
``error`` when it failed), and a valid change afterwards updates the view."""

import json
import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.datasets import synthetic_run
from ragwidgets.widgets.dataset.core import REQUESTS

CONTROLS = ("run", "text", "expression", "slice", "brush", "sort_by", "descending", "chart_metric", "scatter_x",
            "scatter_y", "group_by", "compare_metric", "percent", "selected")
NAMES = st.sampled_from(["precision", "precison", "hallucination", "n_passages", "query", "difference", "run",
                         "", " ", "__class__", "hallucinated", "nonsense", "a" * 300, "\u202eexe.live"])
NUMBERS = (st.integers(-10**30, 10**30) | st.floats(allow_nan=True, allow_infinity=True)
           | st.sampled_from([0, 1, -1, 200, 2000, 2001, math.nan, math.inf, -math.inf, True]))
JSON = st.recursive(st.none() | st.booleans() | NUMBERS | st.text(max_size=12) | NAMES,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | NAMES, inner,
                                                                                 max_size=4),
                    max_leaves=8)
EXPRESSIONS = st.sampled_from(["precison < 0.5", "precision <", "__import__('os')", "precision < 0.5 and",
                               "query", "1", "precision.__class__", "(" * 200, "precision < 0.5"])
BRUSHES = st.fixed_dictionaries({}, optional={"metric": NAMES, "lo": NUMBERS | JSON, "hi": NUMBERS | JSON,
                                              "undefined": JSON, "extra": JSON})
VALUES = {"expression": EXPRESSIONS | JSON, "brush": BRUSHES | JSON, "selected": NUMBERS | JSON}
PATCHES = st.lists(st.sampled_from(CONTROLS).flatmap(
    lambda name: st.tuples(st.just(name), VALUES.get(name, NAMES | JSON))), min_size=1, max_size=3).map(dict)
MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(REQUESTS) | JSON},
    optional={"start": NUMBERS | JSON, "count": NUMBERS | JSON, "delta": NUMBERS | JSON, "name": NAMES | JSON,
              "expression": EXPRESSIONS | JSON, "which": st.sampled_from(["main", "other", "key"]) | JSON,
              "patch": st.dictionaries(st.sampled_from(["retrieved", "selected", "predict", "predictions",
                                                        "undefined", "x"]), JSON, max_size=3) | JSON})


@pytest.fixture(scope="module")
def explorer():
    x = rw.DatasetExplorer(synthetic_run(60, seed=3), chart_metric="hallucination")
    x.replies, x.returned = [], []
    x.send = lambda content, buffers=None: x.replies.append((content, buffers or []))
    x.send_state = lambda key=None: x.returned.append(key)
    return x


def still_works(x) -> None:
    """A valid change from the front end afterwards updates the view; the view is the traits' state."""
    x.set_state({"run": "", "text": "", "slice": "", "brush": {}, "selected": -1, "expression": "n_passages >= 2"})
    view = x._view.state
    assert view["error"] == "" and view["controls"] == {k: getattr(x, k) for k in x._controls}
    assert view["count"] == int((x.frame["n_passages"] >= 2).sum()) < 60
    x.set_state({"expression": ""})
    assert x._view.state["count"] == 60


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(patches=st.lists(PATCHES, min_size=1, max_size=4))
@example(patches=[{"brush": {"metric": "precision", "lo": 2.0}}])  # a bound left out: its message once raised KeyError
@example(patches=[{"brush": {"metric": "precision", "hi": -1.0}}])
def test_malformed_control_values_are_refused_and_shown(explorer, patches):
    for patch in patches:
        before = {k: getattr(explorer, k) for k in CONTROLS}
        explorer.returned.clear()
        explorer.set_state(patch)  # what the comm's "update" calls: it must not raise
        refused = [name for key in explorer.returned for name in key]
        for name in patch:
            if name in refused:  # the previous value kept, sent back, the reason in the view
                assert getattr(explorer, name) == before[name]
                assert explorer.view_state["error"]
        explorer._view.state
    still_works(explorer)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(messages=st.lists(MESSAGES, min_size=1, max_size=5), garbage=st.sampled_from([None, "rows", 3, [1]]))
def test_every_request_gets_one_reply(explorer, messages, garbage):
    explorer.selected = 5  # a drill-down open, for the drill requests
    for k, message in enumerate([*messages, garbage]):
        if isinstance(message, dict):
            message = {**message, "request": k}
        explorer.replies.clear()
        explorer._handle_custom_msg(message, [])  # what the comm's custom message calls: it must not raise
        assert len(explorer.replies) == 1, message
        reply, buffers = explorer.replies[0]
        assert reply["request"] == (k if isinstance(message, dict) else None)
        assert reply["type"] == ("rows" if isinstance(message, dict) and message["type"] == "rows" else "reply")
        assert "error" in reply or (isinstance(message, dict) and message["type"] in REQUESTS)
        if "error" in reply:
            assert isinstance(reply["error"], str) and reply["error"] and not buffers
        json.dumps(reply, allow_nan=False)
    still_works(explorer)
    explorer._handle_custom_msg({"type": "rows", "start": 0, "count": 10, "request": "last"}, [])
    reply, buffers = explorer.replies[-1]
    assert reply["request"] == "last" and "error" not in reply and len(reply["positions"]) == 10 and buffers


def test_the_audit_cases(explorer):
    """A NaN brush bound and group_by on a metric column are refused, and later changes still work."""
    for patch in ({"brush": {"metric": "precision", "lo": math.nan, "hi": 1}}, {"group_by": "precision"},
                  {"expression": "precison < 0.5"}, {"sort_by": ["precision"]}, {"descending": "yes"}):
        explorer.returned.clear()
        explorer.set_state(patch)
        assert [k for k in explorer.returned if k] == [list(patch)]
        name = next(iter(patch))
        assert name in explorer.view_state["error"] or "precison" in explorer.view_state["error"]
        explorer.set_state({"text": "harbor"})
        assert explorer.view_state["error"] == "" and explorer.view_state["count"] == int(
            explorer.frame["query"].str.contains("harbor").sum())
        explorer.set_state({"text": ""})
    still_works(explorer)
    for message, error in [({"type": "rows", "start": -1, "count": 10}, "start must be a whole number ≥ 0"),
                           ({"type": "rows", "start": 0, "count": 10**9}, "count must be a whole number from 0"),
                           ({"type": "rows", "start": "0", "count": 10}, "start must be a whole number"),
                           ({"type": "step", "delta": math.nan}, "delta must be a whole number"),
                           ({"type": "add_slice", "name": "x", "expression": "precison > 1"}, "precison"),
                           ({"type": "drill", "which": "key", "patch": {}}, "no drill-down view 'key'"),
                           ({"type": "sql"}, "unknown request 'sql'")]:
        explorer._handle_custom_msg({**message, "request": 1}, [])
        assert error in explorer.replies[-1][0]["error"]
    assert sorted(explorer.order) == list(range(60))  # no request changed the filter
