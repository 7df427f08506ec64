"""`ragwidgets export --dark` (issue 39 item 2): Altair charts drawn in the kernel (the svg renderer,
as tutorial 04 does) come out in Vega's dark theme, not white boxes; a chart saved as light Vega SVG
is recoloured to the same; the export's own theme cell leaves no trace; `--dark` is `--theme dark`."""

import base64
import re

import nbformat
import pytest

from ragwidgets.cli import main
from ragwidgets.export import ALTAIR_DARK_CELL, altair_to_svg, darken_svg

alt = pytest.importorskip("altair")
vlc = pytest.importorskip("vl_convert")


def chart():
    import pandas as pd
    frame = pd.DataFrame({"x": [1, 2], "y": ["a", "b"]})
    bars = alt.Chart(frame).mark_bar().encode(x="x:Q", y="y:N", color="y:N")
    return (bars + bars.mark_text(dx=4).encode(text="y:N")).properties(title="T")


def fills(svg: str) -> set[str]:
    return set(re.findall(r'(?:fill|stroke)="([^"]+)"', svg))


def test_a_light_vega_svg_gets_the_dark_themes_colours():
    spec = chart().to_dict()
    light = vlc.vegalite_to_svg(spec)
    dark = darken_svg(light)
    assert dark.split(">", 2)[1].endswith('fill="#333"/')  # the background
    assert "#000" not in fills(dark) and "white" not in fills(dark)
    bars_only = alt.Chart(chart().layer[0].data).mark_bar().encode(x="x:Q", y="y:N").to_dict()
    assert darken_svg(vlc.vegalite_to_svg(bars_only)) == vlc.vegalite_to_svg(bars_only, theme="dark")
    other = '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="white"/><text fill="#000">x</text></svg>'
    assert darken_svg(other) == other  # not Vega's: left alone
    assert darken_svg(dark) == dark


def test_saved_svg_charts_are_darkened_only_on_a_dark_page():
    svg = vlc.vegalite_to_svg(chart().to_dict())
    def nb():
        out = nbformat.v4.new_output("display_data", data={"image/svg+xml": svg, "text/plain": "chart"})
        return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("c", outputs=[out])])
    light, dark = nb(), nb()
    altair_to_svg(light, "light")
    altair_to_svg(dark, "dark")
    assert light.cells[0].outputs[0].data["image/svg+xml"] == svg
    assert 'fill="#333"' in dark.cells[0].outputs[0].data["image/svg+xml"].split(">", 2)[1]


def test_the_kernels_dark_theme_draws_svg_charts_dark_with_white_text():
    before = alt.theme.active
    try:
        exec(ALTAIR_DARK_CELL, {})
        with alt.renderers.enable("svg"):
            svg = chart()._repr_mimebundle_()["image/svg+xml"]
    finally:
        alt.theme.enable(before)
    assert 'fill="#333"' in svg.split(">", 2)[1]
    assert "#000" not in fills(svg)  # axis labels, title and the text marks


def test_a_dark_export_runs_the_kernels_charts_dark_and_leaves_no_trace(tmp_path, capsys):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import altair as alt, pandas as pd\nalt.renderers.enable('svg')\n1 + 1"),
        nbformat.v4.new_code_cell("alt.Chart(pd.DataFrame({'x': [1, 2]})).mark_bar().encode(x='x:Q')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "n.ipynb")
    assert main(["export", str(tmp_path / "n.ipynb"), str(tmp_path / "n.html"), "--dark"]) == 0
    page = (tmp_path / "n.html").read_text(encoding="utf-8")
    images = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert len(images) == 1
    svg = base64.b64decode(images[0]).decode()
    assert 'fill="#333"' in svg.split(">", 2)[1] and "#000" not in fills(svg)
    assert "ragwidgets_export_dark" not in page  # the theme cell is not in the page
    assert re.findall(r'InputArea-prompt">In.\[(\d+)\]', page) == ["1", "2"]  # counted as if it never ran
    assert 'data-jp-theme-light="false"' in page
