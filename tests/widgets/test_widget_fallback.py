"""Every widget's display bundle: the widget view, and a text / HTML summary a host shows where it
cannot draw the widget (no kernel: the widget, the run, n samples, the headline metrics); the
liveness ping answered by the base class, never by a widget's own message handler."""

import html
import re

import ragwidgets as rw
from ragwidgets.engine.metrics import format_value, metric_label


def bundle(widget) -> dict:
    data, _ = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert " object at 0x" not in data["text/plain"]
    return data


def test_the_dataset_explorer_says_its_run_samples_and_means():
    run = rw.datasets.synthetic_run(30, seed=2)
    d = rw.DatasetExplorer(run)
    data = bundle(d)
    text = data["text/plain"]
    assert text.startswith("DatasetExplorer")
    assert f"samples: {d.total}" in text
    first = d.view_state["summary"][0]
    assert f"{metric_label(first['metric'])}: {format_value(first['mean'])}" in text  # as the views show it
    assert html.escape(metric_label(first["metric"])) in data["text/html"]


def test_several_runs_are_named_and_each_mean_says_its_run():
    runs = {"a": rw.datasets.synthetic_run(20, seed=1), "b": rw.datasets.synthetic_run(20, seed=1)}
    text = bundle(rw.DatasetExplorer(runs))["text/plain"]
    assert "runs: a, b" in text
    assert re.search(r"\((a|b)\): ", text)


def test_the_explorer_says_its_world_state_and_values_with_undefined_named():
    e = rw.Explorer.harbor(retrieval="No retrieval")
    text = bundle(e)["text/plain"]
    assert text.startswith("Explorer: Harbor Museum")
    assert "No retrieval" in text
    assert e.metrics["context_relevance"] is None
    assert "Context relevance: Undefined" in text


def test_the_state_space_keeps_its_tables_and_says_its_metric_and_state():
    e = rw.Explorer.harbor()
    data = bundle(e.state_space("citation_precision"))
    assert "metric: Citation precision" in data["text/plain"]
    assert "states: 120" in data["text/plain"]
    assert "<table" in data["text/html"]


def test_data_text_in_the_html_summary_is_escaped(example_samples):
    s = rw.SampleExplorer([example_samples[0]])
    data = bundle(s)
    assert "<script" not in data["text/html"].lower()
    title = s._view.state["title"]
    assert html.escape(title) in data["text/html"]


def test_a_ping_gets_a_pong_and_never_reaches_the_widgets_own_handler():
    d = rw.DatasetExplorer(rw.datasets.synthetic_run(10, seed=1))
    sent = []
    d.send = lambda content, buffers=None: sent.append(content)
    d._handle_custom_msg({"type": "ping"}, [])
    assert sent == [{"type": "pong"}]
    d._handle_custom_msg({"type": "bogus", "request": 7}, [])  # other messages still reach it
    assert sent[1]["request"] == 7 and "unknown request" in sent[1]["error"]
