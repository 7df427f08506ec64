"""The state-space heatmap: every state, Undefined marked, clicks move the Explorer."""

import pytest
import traitlets

from ragwidgets.scenario import State
from ragwidgets.widgets.state_space import SELECTIONS, StateSpace, state_space_chart, state_space_frame


def cell(space, metric, retrieval, answer, citation):
    """A cell's value and label as the front end reads them (js/src/state_space.js cellIndex)."""
    grid = space._grid.state
    i = ((grid["rules"].index(citation) * len(grid["retrievals"]) + grid["retrievals"].index(retrieval))
         * len(grid["answers"]) + grid["answers"].index(answer))
    return grid["values"][metric][i], grid["labels"][metric][i]


def front_end(widget, **state):
    """Apply a state update the way a message from the browser does (a click sets ``current``)."""
    widget.set_state(state)


def test_frame_marks_undefined_and_current(harbor):
    frame = state_space_frame(harbor.scenario.sweep(), "citation_precision", harbor.state)
    assert len(frame) == 120
    none_rule = frame[frame.citation == "None"]
    assert (none_rule.label == "Undef").all() and (~none_rule.defined).all()
    assert none_rule.value.isna().all()
    assert frame.current.sum() == 1
    assert frame[frame.current].iloc[0][["retrieval", "answer", "citation"]].tolist() == [
        "Current sources", "Fully supported", "Matched"]


def test_static_chart_spec_and_offline_svg(harbor, tmp_path):
    chart = state_space_chart(harbor.scenario.sweep(), "context_relevance", harbor.state)
    spec = chart.to_dict()
    assert spec["facet"]["column"]["field"] == "citation"
    assert {p["name"] for p in spec["params"]} == set(SELECTIONS)
    assert spec["title"]["text"] == "Context relevance over all 120 states"
    harbor.state_space("completeness").chart().save(str(tmp_path / "space.svg"))
    svg = (tmp_path / "space.svg").read_text()
    assert "Undef" in svg and "Fully supported" in svg


def test_one_anywidget_with_every_metric_and_the_engine_values(harbor):
    space = harbor.state_space("citation_precision")
    assert isinstance(space, StateSpace) and "cellIndex" in space._esm
    grid = space._grid.state
    assert [m["key"] for m in grid["metrics"]] == ["context_relevance", "faithfulness", "citation_support",
                                                   "citation_precision", "completeness"]
    assert len(grid["values"]["completeness"]) == 120 == len(grid["rules"]) * len(grid["retrievals"]) * len(grid["answers"])
    sweep = harbor.scenario.sweep().set_index(["retrieval", "answer", "citation"])
    for metric in ("citation_precision", "context_relevance"):
        for (r, a, c), expected in sweep[metric].items():
            value, label = cell(space, metric, r, a, c)
            if expected != expected:
                assert (value, label) == (None, "Undef")
            else:
                assert value == pytest.approx(expected) and label != "Undef"
    assert cell(space, "citation_precision", "Current sources", "Fully supported", "Mixed") == (pytest.approx(2 / 3), "0.667")
    assert cell(space, "context_relevance", "No retrieval", "Fully supported", "Matched") == (None, "Undef")


def test_clicking_a_cell_moves_the_explorer(harbor):
    space = harbor.state_space("citation_precision")
    assert space.current == {"retrieval": "Current sources", "answer": "Fully supported", "citation": "Matched"}
    front_end(space, current={"retrieval": "No retrieval", "answer": "Empty answer", "citation": "None"})
    assert harbor.state == State("No retrieval", "Empty answer", "None")
    assert harbor.metrics["citation_precision"] is None
    front_end(space, current={"retrieval": "All sources", "answer": "Garden answer", "citation": "Matched"})
    assert harbor.state == State("All sources", "Garden answer", "Matched")
    # the heatmap follows the Explorer and outlines its state
    harbor.answer = "Outdated answer"
    assert space.current == {"retrieval": "All sources", "answer": "Outdated answer", "citation": "Matched"}
    front_end(space, metric="completeness")
    assert space.metric == "completeness" and harbor.state.answer == "Outdated answer"


def test_edited_passages_leave_no_cell_outlined(harbor):
    """With passages toggled the Explorer is in no cell of the sweep: nothing is outlined, and a
    click on its bundle's cell goes back to the bundle's passages."""
    space = harbor.state_space("citation_precision")
    harbor.toggle_passage("D2")
    assert space.current == {}
    front_end(space, current={"retrieval": "Current sources", "answer": "Fully supported", "citation": "Matched"})
    assert list(harbor.retrieved) == list(harbor.scenario.retrieval_bundles["Current sources"])
    assert space.current["retrieval"] == "Current sources"


def test_bad_metric_and_state_are_named(harbor):
    with pytest.raises(traitlets.TraitError, match="metric must be one of context_relevance.*not 'precision'"):
        harbor.state_space("precision")
    space = harbor.state_space()
    with pytest.raises(traitlets.TraitError, match="current must have retrieval, answer and citation"):
        space.current = {"retrieval": "All sources"}
    with pytest.raises(traitlets.TraitError, match="current retrieval 'Nowhere' is not a state; known: Current sources"):
        space.current = {"retrieval": "Nowhere", "answer": "Empty answer", "citation": "None"}


def test_static_html_fallback(harbor):
    """Where widgets cannot show, the bundle's text/html: one table per rule, ordered as the
    scenario lists bundles, values as text, the Explorer's state marked, names escaped."""
    space = harbor.state_space("citation_precision")
    data, _ = space._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    page = data["text/html"]
    assert page.startswith("<p><strong>Citation precision over all 120 states</strong>")
    assert page.count("<table") == 4 and "Citation rule: Mixed" in page
    assert page.index("Fully supported") < page.index("Empty answer") < page.index("Free admission")
    assert page.count("▶") == 1 + 1 and "<td>▶ 1</td>" in page  # the legend and the current cell
    harbor.toggle_passage("D2")
    assert "<td>▶" not in space._repr_mimebundle_()[0]["text/html"]
    harbor.scenario.citation_rules["<b>rule</b>"] = harbor.scenario.citation_rules["None"]
    assert "Citation rule: &lt;b&gt;rule&lt;/b&gt;" in space.static_html()


def test_a_closed_state_space_stops_following_and_is_freed(harbor):
    import gc
    import weakref
    space = harbor.state_space("citation_precision")
    harbor.retrieval = "No retrieval"
    assert space.current["retrieval"] == "No retrieval"
    gone = weakref.ref(space)
    space.close()
    del space
    harbor.retrieval = "Current sources"  # nothing follows any more
    gc.collect()
    assert gone() is None
    explorer = weakref.ref(harbor.state_space().explorer)
    assert explorer() is harbor
