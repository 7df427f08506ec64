"""Each static form of a notebook with ragwidgets, opened from disk in headless Chromium offline
(issue 39 item 4): stock nbconvert's HTML of a tutorial shows each widget's text/html summary
where no widget can be drawn; `ragwidgets export --dark` draws tutorial 04's Altair charts dark
(pixels sampled); an export shows a 60 x 80 claim x passage matrix open, not behind an inert
button. Screenshots go to artifacts/."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from e2e_support import big_sample_record
from ragwidgets.export import export_notebook
from test_frontends_static_html import open_offline

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = ROOT / "ragwidgets" / "tutorials"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

# A pixel of an <img>, read through a canvas: [r, g, b, a] at (x, y) of its natural size.
PIXEL = """([e, x, y]) => { const c = document.createElement('canvas');
  c.width = e.naturalWidth; c.height = e.naturalHeight;
  const g = c.getContext('2d'); g.drawImage(e, 0, 0);
  return Array.from(g.getImageData(x, y, 1, 1).data); }"""


def open_static(browser, path: Path):
    """``path`` (a page with no snapshot renderer) opened offline: every request that is not
    file:, data: or blob: aborted and kept in ``page.blocked``."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.blocked, page.errors = [], []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:", "blob:"))
               else (page.blocked.append(r.request.url), r.abort()))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(path.as_uri())
    return page


def nbconvert(*args, cwd: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "nbconvert", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_stock_nbconvert_html_of_a_tutorial_shows_each_widgets_summary(browser, tmp_path, artifacts):
    """Stock `jupyter nbconvert` (GitHub, nbviewer and docs pages render alike): a notebook run and
    saved without widget state keeps every widget's text/html, which the HTML exporter shows in
    place of the widget view (its WidgetsDataTypeFilter drops a view with no state)."""
    shutil.copy(TUTORIALS / "01_harbor_museum.ipynb", tmp_path / "01.ipynb")
    nbconvert("--to", "notebook", "--execute", "--ExecutePreprocessor.store_widget_state=False",
              "--output", "run.ipynb", "01.ipynb", cwd=tmp_path)
    saved = json.loads((tmp_path / "run.ipynb").read_text(encoding="utf-8"))
    widgets = [o["data"] for c in saved["cells"] for o in c.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]
    assert len(widgets) == 3  # two Explorers and the state space
    for data in widgets:
        # what a renderer that draws no widget picks first (GitHub: text/html before text/plain)
        assert "text/html" in data and "text/plain" in data, list(data)
        assert "<script" not in "".join(data["text/html"]).lower()
    nbconvert("--to", "html", "run.ipynb", "--output", "run.html", cwd=tmp_path)
    page_text = (tmp_path / "run.html").read_text(encoding="utf-8")
    assert WIDGET_VIEW not in page_text  # no widget view left to draw: the summaries stand instead
    page = open_static(browser, tmp_path / "run.html")
    summaries = page.locator(".rw-fallback-summary")
    assert summaries.count() == 2  # the two Explorers; the state space's own tables below
    from playwright.sync_api import expect
    expect(summaries.first).to_contain_text("Explorer: Harbor Museum")
    expect(summaries.first).to_contain_text("Faithfulness")
    space = page.get_by_text("Citation precision over all 120 states")
    expect(space).to_be_visible()
    assert page.locator(".rw-fallback-summary table").count() == 2
    assert page.get_by_text(re.compile(r"^Citation rule: ")).count() == 4  # the state space: one table per rule
    summaries.first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "static_nbconvert_01.png"))
    space.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "static_nbconvert_01_state_space.png"))
    assert not page.errors, page.errors
    page.context.close()


def test_dark_export_of_tutorial_04_draws_its_altair_charts_dark(browser, tmp_path, artifacts):
    """Tutorial 04 draws its charts in the kernel (Altair's svg renderer): in the dark export each
    is a dark chart, its background pixel dark, not a white box."""
    out = export_notebook(TUTORIALS / "04_error_analysis.ipynb", tmp_path / "04_dark.html", theme="dark")
    page = open_offline(browser, out)
    charts = page.locator('.jp-OutputArea-output img[src^="data:image/svg+xml"]')
    assert charts.count() >= 2, charts.count()  # the top-k curve and the groups chart
    for k in range(charts.count()):
        chart = charts.nth(k)
        chart.scroll_into_view_if_needed()
        r, g, b, a = page.evaluate(PIXEL, [chart.element_handle(), 1, 1])
        assert a == 255 and r + g + b < 3 * 80, (k, r, g, b, a)
        svg = chart.evaluate("e => atob(e.src.split(',')[1])")
        assert 'fill="#000"' not in svg, svg[:300]  # no black text (a label, a title) left on the dark ground
        chart.screenshot(path=str(artifacts / f"export_04_dark_chart_{k}.png"))
    prompts = page.locator(".jp-InputPrompt").all_text_contents()
    assert any("[1]" in p for p in prompts), prompts[:3]  # the export's own first cell left no trace
    assert not page.blocked and not page.errors, (page.blocked, page.errors)
    page.context.close()


def test_an_export_shows_the_full_60_by_80_matrix(browser, tmp_path, artifacts):
    """A SampleExplorer of a 60-passage x 80-claim sample: live, its matrix waits behind "Show
    the full matrix"; in the export (inert, no kernel) the matrix is drawn open."""
    import nbformat
    (tmp_path / "big.json").write_text(json.dumps([big_sample_record()]), encoding="utf-8")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from ragwidgets.widgets import SampleExplorer\nSampleExplorer('big.json')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "big.ipynb")
    out = export_notebook(tmp_path / "big.ipynb", tmp_path / "big.html")
    page = open_offline(browser, out)
    view = page.locator(".rw-snapshot-view")
    from playwright.sync_api import expect
    expect(view.locator(".rw-matrix").first).to_be_attached()
    assert view.locator("[data-testid=show-matrix]").count() == 0
    rows = view.locator(".rw-matrix tbody tr")
    assert rows.count() == 80 + 40  # response claims, then ground-truth claims
    assert rows.first.locator("td").count() == 60
    wrap = view.locator(".rw-matrix-wrap")
    assert wrap.evaluate("e => e.scrollHeight <= e.clientHeight + 1")  # no row hidden in an inert scroller
    # reached as a reader does, by the wheel: down the page to the last row, sideways to the last column
    output = page.locator(".jp-OutputArea-output:has(> .rw-snapshot-view)")
    wrap.scroll_into_view_if_needed()
    box = wrap.bounding_box()
    page.mouse.move(box["x"] + 300, max(box["y"], 0) + 100)
    last_row = rows.last
    last_col = last_row.locator("td").last  # the last passage's cell of the last claim
    in_view = "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"
    for _ in range(40):
        if last_row.evaluate("e => e.getBoundingClientRect().bottom <= innerHeight"):
            break
        page.mouse.wheel(0, 400)
        page.wait_for_timeout(50)
    for _ in range(20):
        if last_col.evaluate(in_view):
            break
        page.mouse.wheel(400, 0)
        page.wait_for_timeout(50)
    assert last_col.evaluate(in_view), (last_col.bounding_box(), output.evaluate("e => [e.scrollLeft, e.scrollWidth, e.clientWidth]"))
    page.screenshot(path=str(artifacts / "export_full_matrix_end.png"))
    page.evaluate("() => { document.querySelector('.jp-OutputArea-output:has(> .rw-snapshot-view)').scrollLeft = 0; }")
    wrap.screenshot(path=str(artifacts / "export_full_matrix.png"))
    assert not page.blocked and not page.errors, (page.blocked, page.errors)
    page.context.close()
