"""`ragwidgets export`: one HTML page, nothing from a CDN, widgets' saved state and text fallbacks in it."""

import base64
import json
import re
from html.parser import HTMLParser

import nbformat
import pytest

from ragwidgets.cli import main
from ragwidgets.errors import RagWidgetsError
from ragwidgets.export import altair_to_svg, export_notebook

pytest.importorskip("nbclient")


class Tags(HTMLParser):
    """Every URL a script, link, img or iframe tag would load."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href"):
            if tag in ("script", "link", "img", "iframe") and a.get(key):
                self.urls.append(a[key])


def notebook(tmp_path, *sources):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    return path


def test_export_writes_one_offline_page(tmp_path, capsys):
    path = notebook(tmp_path, "import ragwidgets as rw\nexplorer = rw.Explorer.harbor()\nexplorer",
                    "explorer.retrieval = 'No retrieval'\nexplorer.state_space('citation_precision')",
                    "print('<b>printed, not markup</b>')",
                    "import ipywidgets\nipywidgets.HTML('<b>a widget that is not an anywidget</b>')",
                    "import altair as alt, pandas as pd\n"
                    "alt.Chart(pd.DataFrame({'label': ['offline bar']})).mark_bar().encode(y='label')")
    assert main(["export", str(path), str(tmp_path / "out" / "nb.html")]) == 0
    assert "wrote" in capsys.readouterr().out
    html = (tmp_path / "out" / "nb.html").read_text()
    tags = Tags()
    tags.feed(html)
    assert [u for u in tags.urls if not u.startswith("data:")] == [], f"the page would load {tags.urls}"
    assert not re.search(r"cdn\.jsdelivr|unpkg\.com|cdnjs|require\.js", html)
    assert "Snapshot of nb.ipynb" in html and "controls are disabled" in html
    state = json.loads(re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>',
                                 html, re.S).group(1))
    shared, state = state["rw_shared"], state["state"]
    models = [m["state"] for m in state.values() if m["model_name"] == "AnyModel"]
    explorer = next(m for m in models if m.get("retrieval"))
    space = next(m for m in models if "_grid" in m)
    assert explorer["retrieval"] == "No retrieval" and "render" in shared[explorer["_esm"]["rw_shared"]]
    assert space["metric"] == "citation_precision" and space["current"]["retrieval"] == "No retrieval"
    # each widget output keeps its text form, escaped, for where it cannot be drawn
    assert '<div class="rw-fallback"><div class="rw-fallback-summary"><b>Explorer: Harbor Museum</b>' in html
    assert '<div class="rw-fallback"><p><strong>Citation precision over all 120 states</strong>' in html
    assert "<pre class=\"rw-fallback\">HTML(value='&lt;b&gt;a widget that is not an anywidget&lt;/b&gt;'" in html
    assert "&lt;b&gt;printed, not markup&lt;/b&gt;" in html and "<b>printed" not in html
    assert re.search(r'<script type="module">.*renderSnapshot', html, re.S)
    # the Altair chart (HTML that would load Vega from a CDN) is an inline SVG, its text in it
    svgs = [base64.b64decode(u.split(",", 1)[1]).decode() for u in tags.urls if u.startswith("data:image/svg+xml")]
    assert len(svgs) == 1 and "offline bar" in svgs[0] and "altair-viz" not in html


def test_export_without_widget_state_says_so(tmp_path):
    """--no-execute on a notebook saved without widget state: text forms, and the banner says why."""
    path = notebook(tmp_path, "x = 1")
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].outputs = [nbformat.v4.new_output("display_data", data={
        "text/plain": "Explorer('Harbor Museum', ...)",
        "application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2, "version_minor": 0}})]
    nbformat.write(nb, path)
    html = export_notebook(path, tmp_path / "x.html", execute=False).read_text()
    assert "saved without widget state, so its widgets show only their text form" in html
    assert "<pre>Explorer('Harbor Museum', ...)</pre>" in html


def test_export_errors_name_the_notebook(tmp_path, capsys):
    with pytest.raises(RagWidgetsError, match="no such notebook"):
        export_notebook(tmp_path / "missing.ipynb", tmp_path / "x.html")
    (tmp_path / "text.ipynb").write_text("not json")
    assert main(["export", str(tmp_path / "text.ipynb"), str(tmp_path / "x.html")]) == 2
    assert "text.ipynb: not a readable notebook" in capsys.readouterr().err
    path = notebook(tmp_path, "1 / 0")
    with pytest.raises(RagWidgetsError, match=r"nb.ipynb: a cell failed while running, nothing written(.|\n)*ZeroDivisionError"):
        export_notebook(path, tmp_path / "x.html")
    assert not (tmp_path / "x.html").exists()


def test_a_chart_that_cannot_be_drawn_names_its_cell():
    page = '<div id="altair-viz-ab12"></div><script>(function(spec, opt){})({"mark": 5}, {});</script>'
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("m"), nbformat.v4.new_code_cell("chart")])
    nb.cells[1].outputs = [nbformat.v4.new_output("display_data", data={"text/html": page})]
    with pytest.raises(RagWidgetsError, match=r"^cell 2: an Altair chart could not be drawn offline \(Vega-Lite[^\n]*\)$"):
        altair_to_svg(nb)


def test_inline_json_is_inert_in_every_html_parser_state():
    from ragwidgets.export import script_json
    data = {"text": "<!--<script>x</script>--> & </SCRIPT> \u2028\u2029 <b>", "id": "\u202eexe.live"}
    text = script_json(json.dumps(data, ensure_ascii=False))
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == data
