"""The state-space heatmap: every state, Undefined marked, clicks move the Explorer."""

import altair as alt

from ragwidgets.scenario import State
from ragwidgets.widgets.charts import SELECTIONS, state_space_chart, state_space_frame


def click(space, name, retrieval, answer, citation):
    """What the browser sends when a cell is clicked: the selection's Vega signal."""
    value = {"vlPoint": {"or": [{"retrieval": retrieval, "answer": answer, "citation": citation}]}}
    space.chart._vl_selections = {n: {"value": value if n == name else None, "store": []} for n in SELECTIONS}


def test_frame_marks_undefined_and_current(harbor):
    frame = state_space_frame(harbor.scenario.sweep(), "citation_precision", harbor.state)
    assert len(frame) == 120
    none_rule = frame[frame.citation == "None"]
    assert (none_rule.label == "Undef").all() and (~none_rule.defined).all()
    assert none_rule.value.isna().all()
    assert frame.current.sum() == 1
    assert frame[frame.current].iloc[0][["retrieval", "answer", "citation"]].tolist() == [
        "Current sources", "Fully supported", "Matched"]


def test_chart_spec(harbor):
    chart = state_space_chart(harbor.scenario.sweep(), "context_relevance", harbor.state)
    spec = chart.to_dict()
    assert spec["facet"]["column"]["field"] == "citation"
    assert {p["name"] for p in spec["params"]} == set(SELECTIONS)
    assert spec["title"]["text"] == "Context relevance over all 120 states"


def test_chart_renders_offline(harbor, tmp_path):
    chart = state_space_chart(harbor.scenario.sweep(), "completeness", harbor.state)
    chart.save(str(tmp_path / "space.svg"))
    svg = (tmp_path / "space.svg").read_text()
    assert "Undef" in svg and "Fully supported" in svg


def test_clicking_a_cell_moves_the_explorer(harbor):
    space = harbor.state_space("citation_precision")
    assert alt.JupyterChart._is_offline
    click(space, "undefined_cell", "No retrieval", "Empty answer", "None")
    assert harbor.state == State("No retrieval", "Empty answer", "None")
    assert harbor.metrics["citation_precision"] is None
    click(space, "cell", "All sources", "Garden answer", "Matched")
    assert harbor.state == State("All sources", "Garden answer", "Matched")
    # the chart follows the explorer and outlines its state
    harbor.answer = "Outdated answer"
    current = [r for r in space.chart.spec["datasets"].values()][0]
    assert [(r["retrieval"], r["answer"]) for r in current if r["current"]] == [("All sources", "Outdated answer")]
    space.picker.value = "completeness"
    assert space.chart.spec["title"]["text"].startswith("Completeness")


def test_edited_passages_leave_no_cell_outlined(harbor):
    """With passages toggled the Explorer is in no cell of the sweep: nothing is outlined."""
    space = harbor.state_space("citation_precision")
    outlined = lambda: [(r["retrieval"], r["answer"], r["citation"])  # noqa: E731
                        for r in next(iter(space.chart.spec["datasets"].values())) if r["current"]]
    assert outlined() == [("Current sources", "Fully supported", "Matched")]
    harbor.toggle_passage("D2")
    assert outlined() == []
    harbor.toggle_passage("D2")
    assert outlined() == [("Current sources", "Fully supported", "Matched")]
