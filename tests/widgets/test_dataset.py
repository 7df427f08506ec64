"""DatasetExplorer in Python: sources, filters, sort, brush, windows as binary, drill-down, compare."""

import json

import numpy as np
import pandas as pd
import pytest
import traitlets

import ragwidgets as rw
from ragwidgets import analysis as A
from ragwidgets.datasets import refchecker_human, synthetic_run


@pytest.fixture(scope="module")
def records():
    return synthetic_run(400, seed=5)


@pytest.fixture
def explorer(records):
    return rw.DatasetExplorer(records, chart_metric="hallucination")


def decode(header, buffers):
    """The front end's decoding: one float64 buffer per numeric column, then int8 statuses."""
    n = len(header["positions"])
    values = {name: np.frombuffer(buffers[i], dtype="<f8") for i, name in enumerate(header["numeric"])}
    status = {name: np.frombuffer(buffers[len(header["numeric"]) + i], dtype=np.int8)
              for i, name in enumerate(header["status"])}
    assert all(len(v) == n for v in values.values())
    return values, status


@pytest.mark.parametrize("kind", ["path", "scores", "frame", "records"])
def test_every_source_kind_gives_the_same_frame(tmp_path, records, kind):
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"results": records}))
    source = {"path": str(path), "scores": rw.evaluate(records), "frame": pd.DataFrame(records),
              "records": records}[kind]
    x = rw.DatasetExplorer(source)
    expected = rw.evaluate(records).frame
    assert list(x.frame["query_id"]) == list(expected.index)
    assert np.allclose(x.frame["hallucination"], expected["hallucination"], equal_nan=True)
    assert x.view_state["count"] == x.view_state["total"] == 400


def test_filters_and_sort_match_pandas(explorer):
    f = explorer.frame
    explorer.expression = "hallucination > 0 and claim_recall < 1"
    explorer.text = "HARBOR"
    expected = f[(f.hallucination > 0) & (f.claim_recall < 1) & f["query"].str.contains("harbor")]
    assert sorted(explorer.filtered.index) == sorted(expected.index)
    assert explorer.view_state["count"] == len(expected) > 0
    explorer.sort_by, explorer.descending = "faithfulness", True
    shown = explorer.filtered["faithfulness"].to_numpy()
    defined = shown[~np.isnan(shown)]
    assert list(defined) == sorted(defined, reverse=True)
    assert np.isnan(shown[len(defined):]).all()  # Undefined last


def test_bad_expression_raises_and_the_filter_stays(explorer, tmp_path):
    explorer.expression = "hallucination > 0"
    kept = list(explorer.order)
    with pytest.raises(ValueError, match="hallucinaton"):
        explorer.expression = "hallucinaton > 0"
    assert explorer.expression == "hallucination > 0" and list(explorer.order) == kept and len(kept) < 400
    assert "400 of 400" not in explorer.to_html(tmp_path / "r.html").read_text()
    explorer.send_state = lambda key=None: None
    explorer.set_state({"expression": "precison < 0.5"})  # from the front end: shown, the filter kept
    assert "precison" in explorer.view_state["error"] and explorer.view_state["count"] == len(kept)
    assert explorer.expression == "hallucination > 0" and len(explorer.filtered) == len(kept)
    explorer.expression = ""
    assert explorer.view_state["error"] == "" and explorer.view_state["count"] == 400


def test_brush_filters_table_but_not_its_own_chart(explorer):
    before = explorer.view_state["charts"]["distribution"]
    explorer.brush = {"metric": "hallucination", "lo": 0.5, "hi": 1.0}
    f = explorer.frame
    assert sorted(explorer.filtered.index) == sorted(f.index[(f.hallucination >= 0.5) & (f.hallucination <= 1)])
    assert explorer.view_state["charts"]["distribution"] == before  # crossfilter: the brushed chart keeps its bars
    explorer.brush = {"metric": "hallucination", "undefined": True}
    assert (explorer.status.loc[explorer.order, "hallucination"] == 1).all()
    assert explorer.view_state["count"] == before["undefined"]


def test_windows_are_binary_columns_in_table_order(explorer):
    explorer.sort_by, explorer.descending = "precision", False
    header, buffers = explorer.window(10, 25)
    assert header["positions"] == list(explorer.order[10:35])
    values, status = decode(header, buffers)
    rows = explorer.frame.iloc[explorer.order[10:35]]
    assert np.allclose(values["precision"], rows["precision"], equal_nan=True)
    assert list(status["precision"]) == list(explorer.status.loc[explorer.order[10:35], "precision"])
    assert header["query_id"] == list(rows["query_id"])


def test_charts_are_aggregated_with_undefined_apart(explorer):
    dist = explorer.view_state["charts"]["distribution"]
    f = explorer.frame
    assert sum(dist["counts"]) == f["hallucination"].notna().sum()
    assert dist["undefined"] == (explorer.status["hallucination"] == 1).sum()
    groups = explorer.view_state["charts"]["groups"]["rows"]
    by_psg = f.groupby("n_passages")["hallucination"].mean()
    for g in groups:
        assert g["mean"] == pytest.approx(by_psg[int(g["group"])])


def test_selection_steps_through_filtered_rows_and_drills_down(explorer):
    explorer.slice = "hallucinated"
    order = list(explorer.order)
    explorer.step(1)
    assert explorer.selected == order[0]
    explorer.step(1)
    assert explorer.selected == order[1]
    drill = explorer._drill.state
    assert drill["title"].endswith(explorer.frame["query_id"].iat[order[1]])
    assert explorer.view_state["selected"]["index"] == 1
    explorer.step(-5)
    assert explorer.selected == order[0]
    explorer.selected = -1
    assert not explorer._drill and explorer._drill.state is None


def test_slices_from_the_front_end_and_saved(explorer, tmp_path):
    explorer._handle_custom_msg({"type": "add_slice", "name": "long", "expression": "n_response_claims >= 10"}, [])
    assert explorer.view_state["slices"][-1] == {"name": "long", "expression": "n_response_claims >= 10",
                                                 "description": "", "size": int((explorer.frame.n_response_claims >= 10).sum())}
    explorer.save_slices(tmp_path / "s.json")
    again = rw.DatasetExplorer(explorer.frame.iloc[:0].pipe(lambda _: synthetic_run(50, seed=5)), slices=tmp_path / "s.json")
    assert "long" in [s["name"] for s in again.view_state["slices"]]


def test_runs_compare_on_shared_queries_with_side_by_side_drill():
    a, b = synthetic_run(300, seed=1, quality=0.4), synthetic_run(300, seed=1, quality=0.6)
    x = rw.DatasetExplorer({"base": a, "better": b[:250]}, compare_metric="precision")
    cmp = x.view_state["compare"]
    assert cmp["shared"] == 250 and cmp["left_out"] == {"base": 50, "better": 0}
    row = next(r for r in cmp["rows"] if r["metric"] == "precision")
    assert row["difference"] > 0 and not row["includes_zero"]
    x.run, x.sort_by, x.descending = "better", "difference", True
    diff = x.model.difference(x.compare_metric)[x.order]
    defined = diff[~np.isnan(diff)]
    assert list(defined) == sorted(defined, reverse=True) and defined[0] > 0
    x.selected = int(x.order[0])
    assert x._other.state["title"].startswith("base (baseline)")
    assert x._drill.state["title"].startswith("better")


def test_refchecker_runs_side_by_side():
    x = rw.DatasetExplorer(refchecker_human("zero_context"))
    assert x.runs[0] == "alpaca_7B" and len(x.runs) == 7
    gpt4 = [r for r in x.view_state["summary"] if r["run"] == "gpt4" and r["metric"] == "precision"][0]
    assert gpt4["defined"] + gpt4["undefined"] == 100
    assert x.view_state["charts"]["groups"]["by"] == "run"


def test_to_html_is_self_contained(explorer, tmp_path):
    from html.parser import HTMLParser
    explorer.expression = "hallucination > 0"
    path = explorer.to_html(tmp_path / "report.html")
    text = path.read_text()
    HTMLParser().feed(text)  # parses
    assert text.count("<svg") == 4 and "data-chart='top_k'" in text and "<script" not in text
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text
    assert "The 20 worst samples by Hallucination" in text


def test_untrusted_text_is_escaped_in_the_report(tmp_path):
    rec = synthetic_run(3)
    rec[0]["query"] = "<img src=x onerror=alert(1)>"
    path = rw.DatasetExplorer(rec).to_html(tmp_path / "r.html")
    assert "<img src=x" not in path.read_text()


def test_top_k_what_if_from_the_explorer(records):
    x = rw.DatasetExplorer(records[:80])
    curve = x.top_k()
    assert curve.equals(A.top_k_curve(x.scores["run"]))
    assert "citation_precision" not in set(curve["metric"])  # not computable on any sample: left out
    spec = x.chart("top_k").to_dict()
    assert spec["mark"]["type"] == "line"
    assert len(next(iter(spec["datasets"].values()))) == len(curve)


def test_bad_input_is_named(records, tmp_path):
    x = rw.DatasetExplorer(records[:30])
    with pytest.raises(traitlets.TraitError, match="selected must be a row of frame"):
        x.selected = 30
    with pytest.raises(traitlets.TraitError, match="brush metric must be one of"):
        x.brush = {"metric": "nonsense", "lo": 0, "hi": 1}
    with pytest.raises(traitlets.TraitError, match="brush lo must be a finite number"):
        x.brush = {"metric": "precision", "lo": "0", "hi": 1}
    with pytest.raises(traitlets.TraitError, match="sort_by must be one of"):
        x.sort_by = "nonsense"
    bad = [dict(records[0], answer2response="yes")]
    with pytest.raises(rw.InputError, match=r"run 'b': .*sample 0.*answer2response"):
        rw.DatasetExplorer({"a": records[:5], "b": bad})
