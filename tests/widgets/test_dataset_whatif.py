"""The DatasetExplorer's what-if panel, Python side: its numbers are analysis.top_k_curve /
drop_passages on the rows the controls keep (of the run shown), asked through the request
channel (every request answered, a bad pattern as an error), and as ``explorer.what_if``."""

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets import analysis as A
from ragwidgets.datasets import synthetic_run
from ragwidgets.widgets.dataset.common import frame_view


@pytest.fixture(scope="module")
def records():
    return synthetic_run(200, seed=11)


def ask(x, **message):
    x.replies = []
    x.send = lambda content, buffers=None: x.replies.append(content)
    x._handle_custom_msg({**message, "request": 1}, [])
    assert len(x.replies) == 1  # one reply, whatever happened
    return x.replies[0]


def test_what_if_is_the_analysis_on_the_filtered_rows(records):
    x = rw.DatasetExplorer(records)
    x.expression = "hallucination > 0.2"
    rows = np.sort(x.order)  # one run: the frame's rows are its samples
    assert 0 < len(rows) < len(records)
    w = x.what_if(doc_id=r"-0$")
    assert w["run"] == "run" and w["samples"] == len(rows)
    pd.testing.assert_frame_equal(w["top_k"], A.top_k_curve(x.scores["run"], rows=rows))
    alone = rw.evaluate([records[i] for i in rows])  # the same samples as a run of their own
    pd.testing.assert_frame_equal(w["top_k"], A.top_k_curve(alone))
    expected = A.drop_passages(alone, doc_id=r"-0$")
    pd.testing.assert_frame_equal(w["dropped"], expected.table)
    assert w["n_dropped"] == expected.n_dropped and w["samples_touched"] == expected.samples_touched
    assert x.what_if()["dropped"] is None and x.what_if("", "")["dropped"] is None  # blank: no rule
    x.expression = ""
    pd.testing.assert_frame_equal(x.what_if()["top_k"], x.top_k())  # nothing filtered: the whole run


@pytest.mark.filterwarnings("ignore:comparing runs")
def test_the_run_shown_and_its_filtered_rows_of_several_runs(records):
    a, b = records[:90], synthetic_run(90, seed=12)
    x = rw.DatasetExplorer({"a": a, "b": b})
    x.text = "archive"
    for run, recs in (("a", a), ("b", b)):
        kept = x.filtered[x.filtered["run"] == run]["query_id"].tolist()
        alone = rw.evaluate([r for r in recs if r["query_id"] in set(kept)])
        assert x.what_if(run=run)["samples"] == len(kept) > 0
        pd.testing.assert_frame_equal(x.what_if(run=run)["top_k"], A.top_k_curve(alone))
        x.run = run  # the run shown is the default
        pd.testing.assert_frame_equal(x.what_if(text="Passage 1")["dropped"],
                                      A.drop_passages(alone, text="Passage 1").table)
        x.run = ""
    assert x.what_if()["run"] == "a"  # all runs shown: the first
    with pytest.raises(ValueError, match="run must be one of 'a', 'b', not 'c'"):
        x.what_if(run="c")


def test_the_panels_request_replies_with_the_tables(records):
    x = rw.DatasetExplorer(records[:60])
    x.brush = {"metric": "faithfulness", "lo": 0.0, "hi": 0.5}
    reply = ask(x, type="whatif", doc_id="-1$", text="")
    assert "error" not in reply and reply["type"] == "reply" and reply["version"] == x.model.version
    w = x.what_if(doc_id="-1$")
    assert reply["samples"] == len(x.order) == w["samples"]
    assert reply["top_k"] == frame_view(w["top_k"]) and reply["dropped"] == frame_view(w["dropped"])
    assert reply["labels"]["context_precision"] == "Context precision"
    assert reply["n_dropped"] == w["n_dropped"] > 0
    undefined = [r for r in reply["top_k"]["rows"] if r[2] is None]  # no defined sample: None, never 0
    assert all(r[3] == 0 for r in undefined)
    assert "whatif" in x.view_state and x.view_state["whatif"] is True


def test_a_bad_pattern_is_an_error_reply_and_changes_nothing(records):
    x = rw.DatasetExplorer(records[:40])
    before = x.view_state
    reply = ask(x, type="whatif", doc_id="(", text=None)
    assert reply["error"].startswith("ValueError: the doc_id pattern '(' is not a valid regular expression")
    assert ask(x, type="whatif", text=["x"])["error"] == "ValueError: the text pattern must be a string, not ['x']"
    assert "at most 1000" in ask(x, type="whatif", text="a" * 1001)["error"]
    assert x.view_state == before


def test_an_empty_filter_has_no_curve_and_says_so(records):
    x = rw.DatasetExplorer(records[:40])
    x.expression = "hallucination > 2"
    reply = ask(x, type="whatif", doc_id="-0$")
    assert reply["samples"] == 0 and reply["top_k"]["rows"] == []
    assert reply["dropped"]["rows"] == []  # no sample: no metric computable, none listed (never a 0)
