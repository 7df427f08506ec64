"""Exports in a dark page and the theme in each host (defect 10, hosts): the snapshot banner's
contrast measured, the top-k input and Altair charts dark, each ES module stored once; theme.css
in pages that mimic VS Code (ipywidgets' light --jp-* plus its own variables) and Colab."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragwidgets.export import export_notebook
from test_frontends_static_html import open_offline

ROOT = Path(__file__).resolve().parents[2]

CONTRAST = """(el) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                       return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const cs = getComputedStyle(el);
  const [a, b] = [lum(rgb(cs.color)), lum(rgb(cs.backgroundColor))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def notebook(tmp_path, *sources) -> Path:
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "n.ipynb")
    return tmp_path / "n.ipynb"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """One notebook (two Explorers, a SampleExplorer, an Altair chart) exported light and dark."""
    tmp = tmp_path_factory.mktemp("export")
    nb = notebook(tmp, "import altair as alt, pandas as pd, ragwidgets as rw\nrw.Explorer.harbor()",
                  "rw.Explorer.harbor(retrieval='No retrieval')",
                  "rw.SampleExplorer(rw.evaluate(rw.datasets.synthetic_run(5, seed=3)))",
                  "alt.Chart(pd.DataFrame({'x': [1, 2, 3]})).mark_bar().encode(x='x:Q')")
    return {theme: export_notebook(nb, tmp / f"{theme}.html", theme=theme) for theme in ("light", "dark")}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_banner_reads_and_the_inputs_and_charts_follow_the_page(exported, theme, browser, artifacts):
    page = open_offline(browser, exported[theme])
    ratio = page.locator(".rw-snapshot-banner").evaluate(CONTRAST)
    assert ratio >= 4.5, f"banner contrast {ratio:.2f}:1"
    topk = page.locator(".rw-snapshot-view input[type=number]").first
    assert topk.count() == 1
    background = topk.evaluate("e => getComputedStyle(e).backgroundColor")
    assert (background == "rgb(255, 255, 255)") == (theme == "light"), background
    scheme = page.locator(".rw-snapshot-view .rw-widget").first.evaluate("e => getComputedStyle(e).colorScheme")
    assert (scheme == "dark") == (theme == "dark"), scheme  # native checkboxes and spinners follow
    chart = page.locator('.jp-OutputArea-output img[src^="data:image/svg+xml"]')
    assert chart.count() == 1  # the Altair chart, drawn offline
    svg = chart.evaluate("e => atob(e.src.split(',')[1])")
    assert ('<rect width="' in svg and 'fill="#333"' in svg.split(">", 2)[1]) == (theme == "dark"), svg[:300]
    assert page.locator(".rw-snapshot-view").count() == 3
    assert page.locator(".rw-live-note").count() == 0  # the export says it is a snapshot itself
    page.screenshot(path=str(artifacts / f"export_{theme}_banner.png"))
    assert not page.blocked and not page.errors, (page.blocked, page.errors)
    page.context.close()


def saved_state(page: str) -> dict:
    import json
    found = re.search(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def test_each_es_module_is_in_the_page_once(exported):
    from ragwidgets.widgets.base import bundled
    page = exported["light"].read_text(encoding="utf-8")
    state = saved_state(page)
    shared = state["rw_shared"]
    assert list(shared.values()).count(bundled("widget.js")) == 1
    assert list(shared.values()).count(bundled("widget.css")) == 1
    anywidgets = [m["state"] for m in state["state"].values() if m["model_name"] == "AnyModel"]
    assert len(anywidgets) == 3
    key = next(k for k, text in shared.items() if text == bundled("widget.js"))
    assert all(m["_esm"] == {"rw_shared": key} for m in anywidgets)  # three widgets, one module
    assert len(page) < 2 * len(bundled("widget.js")) + 400_000  # not three copies


HOSTS = [  # (body attributes, html attributes, body style, colour scheme, expected background)
    # VS Code dark: ipywidgets' CSS defines JupyterLab's light variables, VS Code its own
    ('data-vscode-theme-kind="vscode-dark"', "", "--jp-layout-color0: white; --jp-ui-font-color1: black;"
     " --vscode-editor-background: rgb(30, 30, 30); --vscode-editor-foreground: rgb(204, 204, 204)", "light",
     "rgb(30, 30, 30)"),
    ('data-vscode-theme-kind="vscode-light"', "", "--jp-layout-color0: rgb(1, 2, 3);"
     " --vscode-editor-background: rgb(255, 255, 254)", "dark", "rgb(255, 255, 254)"),
    # Colab dark: html[theme=dark], only the text colour set; the system preference light
    ("", 'theme="dark"', "--jp-ui-font-color1: rgb(213, 213, 213)", "light", "rgb(30, 30, 30)"),
    ("", 'theme="light"', "", "dark", "rgb(255, 255, 255)"),
    # JupyterLab (no VS Code attribute): its variables win
    ("", "", "--jp-layout-color0: rgb(17, 17, 17); --jp-ui-font-color1: rgb(230, 230, 230);"
     " --vscode-editor-background: red", "light", "rgb(17, 17, 17)"),
]


@pytest.mark.parametrize("body, root, style, scheme, background", HOSTS)
def test_theme_detects_the_host(browser, body, root, style, scheme, background, artifacts):
    css = (ROOT / "ragwidgets" / "static" / "widget.css").read_text()
    page = browser.new_context(color_scheme=scheme).new_page()
    page.set_content(f'<html {root}><head><style>{css}</style></head><body {body} style="{style}">'
                     '<div class="rw-widget">x <input type="number" value="3"></div></body></html>')
    widget = page.locator(".rw-widget")
    assert widget.evaluate("e => getComputedStyle(e).backgroundColor") == background
    assert page.locator("input").evaluate("e => getComputedStyle(e).backgroundColor") == background
    assert widget.evaluate(CONTRAST) >= 4.5
    page.context.close()
