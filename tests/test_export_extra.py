"""vl-convert-python is the ``[export]`` extra: without it the widgets and their charts work, and
each export that draws a chart outside the browser says in one line which extra to install."""

import sys

import nbformat
import pytest

import ragwidgets as rw
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.errors import RagWidgetsError
from ragwidgets.export import altair_to_svg

MESSAGE = r'^drawing charts outside the browser \(.*\) needs vl-convert-python: pip install "ragwidgets\[export\]"$'


@pytest.fixture
def no_vl_convert(monkeypatch):
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # import vl_convert raises ImportError


@pytest.fixture
def explorer():
    return rw.DatasetExplorer(rw.evaluate(synthetic_run(50, seed=1)))


def test_the_widgets_and_their_charts_need_no_vl_convert(no_vl_convert, explorer):
    explorer.chart_metric = "hallucination"
    assert explorer.view_state and explorer.chart("distribution").to_dict()


def test_a_static_report_names_the_extra(no_vl_convert, explorer, tmp_path):
    with pytest.raises(RagWidgetsError, match=MESSAGE):
        explorer.to_html(tmp_path / "report.html")
    assert not (tmp_path / "report.html").exists()


def test_exporting_a_notebook_with_a_chart_names_the_extra_and_one_without_needs_none(no_vl_convert):
    chart = {"application/vnd.vegalite.v5+json": {"mark": "point", "data": {"values": [{"x": 1}]}}}
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("chart")])
    nb.cells[0].outputs = [nbformat.v4.new_output("display_data", data=chart)]
    with pytest.raises(RagWidgetsError, match=MESSAGE):
        altair_to_svg(nb)
    plain = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
    plain.cells[0].outputs = [nbformat.v4.new_output("execute_result", data={"text/plain": "1"})]
    altair_to_svg(plain)
    assert plain.cells[0].outputs[0]["data"] == {"text/plain": "1"}
