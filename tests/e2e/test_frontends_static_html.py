"""The three tutorials exported by `ragwidgets export`, opened from disk in headless Chromium with
every request that is not a local file blocked: each widget drawn from its saved state, inert."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragwidgets.export import export_notebook

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = {"01_harbor_museum.ipynb": 3, "02_ragchecker_sample.ipynb": 1, "03_scoring_with_a_judge.ipynb": 0}


def open_offline(browser, path: Path, **context):
    """A page showing ``path``; every request that is not file:, data: or blob: is aborted and kept."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}, **context).new_page()
    page.blocked, page.errors = [], []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:", "blob:"))
               else (page.blocked.append(r.request.url), r.abort()))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_function("document.body.dataset.rwSnapshot === 'drawn'", timeout=30_000)
    return page


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_exported_tutorial_shows_its_widgets_offline(name, browser, tmp_path, artifacts):
    from playwright.sync_api import expect
    out = export_notebook(ROOT / "ragwidgets" / "tutorials" / name, tmp_path / name.replace(".ipynb", ".html"))
    page = open_offline(browser, out)
    expect(page.locator(".rw-snapshot-banner")).to_contain_text(f"Snapshot of {name}")
    views = page.locator(".rw-snapshot-view")
    expect(views).to_have_count(TUTORIALS[name])
    assert page.locator(".rw-snapshot-note").count() == 0 and page.locator(".rw-fallback").count() == 0
    for k in range(views.count()):
        assert views.nth(k).evaluate("e => e.inert && e.getBoundingClientRect().height > 100")
        expect(views.nth(k).locator("xpath=preceding-sibling::p[1]")).to_have_text("Snapshot · controls disabled")
    page.screenshot(path=str(artifacts / f"export_{name.replace('.ipynb', '')}.png"), full_page=False)
    if name.startswith("01"):
        # the last view: run-all ends with reset(), the state space outlines the default state
        space = page.locator(".rw-space")
        expect(space.locator('[data-cell="Current sources|Fully supported|Matched"]')).to_have_attribute("aria-current", "true")
        expect(page.locator(".rw-widget").first.locator("[data-testid=state]")).to_contain_text("Current sources")
        space.scroll_into_view_if_needed()
        space.screenshot(path=str(artifacts / "export_state_space.png"))
    assert not page.blocked, page.blocked
    assert not page.errors, page.errors
    page.context.close()


def test_exported_page_dark_theme_and_fallback(browser, tmp_path):
    """--theme dark: the widgets follow the page's JupyterLab variables; a widget that is not an
    anywidget keeps its text form, saying why."""
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import ipywidgets, ragwidgets as rw\ndisplay(ipywidgets.IntSlider(3))\nrw.Explorer.harbor()")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "dark.ipynb")
    out = export_notebook(tmp_path / "dark.ipynb", tmp_path / "dark.html", theme="dark")
    page = open_offline(browser, out)
    assert page.locator(".rw-widget").evaluate("e => getComputedStyle(e).backgroundColor") != "rgb(255, 255, 255)"
    assert page.locator(".rw-widget").evaluate("e => getComputedStyle(e).color") != "rgb(31, 31, 31)"
    assert page.locator(".rw-snapshot-note").all_text_contents() == [
        "IntSliderModel is not drawn in a snapshot: its text form is shown."]
    assert page.locator(".rw-fallback").all_text_contents()[0].startswith("IntSlider(value=3")
    assert not page.blocked and not page.errors, (page.blocked, page.errors)
    page.context.close()


@pytest.mark.parametrize("host, scheme, background", [
    ("", "light", "rgb(255, 255, 255)"),                                     # no host variables: the system's
    ("", "dark", "rgb(30, 30, 30)"),
    ("--background: rgb(24, 28, 26)", "light", "rgb(24, 28, 26)"),         # marimo
    ("--vscode-editor-background: rgb(31, 31, 31); --background: red", "light", "rgb(31, 31, 31)"),  # VS Code
    ("--jp-layout-color0: rgb(17, 17, 17); --vscode-editor-background: red", "dark", "rgb(17, 17, 17)"),  # Jupyter
])
def test_theme_follows_the_host_variables_first_found(browser, host, scheme, background):
    """theme.css (via the bundled state_space.css): JupyterLab's variables, else VS Code's, else
    marimo's, else prefers-color-scheme."""
    css = (ROOT / "ragwidgets" / "static" / "state_space.css").read_text()
    page = browser.new_context(color_scheme=scheme).new_page()
    page.set_content(f'<style>{css}</style><body style="{host}"><div class="rw-space">x</div></body>')
    assert page.locator(".rw-space").evaluate("e => getComputedStyle(e).backgroundColor") == background
    page.context.close()


SCRAPED = "<!--<script>var hidden = 1;</script> and </script><script>window.ran = 1</script>"  # no -->


def hostile_records():
    """A small run whose texts hold what scraped pages hold (a commented-out script, a stray
    </script>) and whose IDs hold a bidi override."""
    from ragwidgets.datasets import synthetic_run
    records = synthetic_run(30, seed=2)
    hostile = next(r for r in records if r["retrieved_context"])
    records.remove(hostile)
    hostile.update(query_id="\u202eq0", query="Which page? " + SCRAPED)
    hostile["retrieved_context"][0] = {"doc_id": "\u202eexe.live", "text": SCRAPED}
    return [hostile, *records]


def test_scraped_html_and_bidi_ids_in_the_data_leave_every_widget_drawn(browser, tmp_path, artifacts):
    """`<!--` then `<script` in the data once swallowed the page's widget state (0 widgets drawn,
    no note why): the state is inert JSON, every widget is drawn, the text shown as text."""
    import json

    import nbformat
    from playwright.sync_api import expect
    (tmp_path / "hostile.json").write_text(json.dumps({"results": hostile_records()}))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in (
        "import json, ragwidgets as rw\nrecords = json.load(open('hostile.json'))['results']",
        "rw.SampleExplorer(records)",
        "rw.DatasetExplorer(records, selected=0)",
        "explorer = rw.Explorer.harbor()\nexplorer",
        "explorer.state_space('citation_precision')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "hostile.ipynb")
    out = export_notebook(tmp_path / "hostile.ipynb", tmp_path / "hostile.html")
    page = open_offline(browser, out)
    views = page.locator(".rw-snapshot-view")
    expect(views).to_have_count(4)
    assert page.locator(".rw-snapshot-note").count() == 0 and page.locator(".rw-fallback").count() == 0
    sample = views.nth(0)
    expect(sample.locator('[data-key="source:\u202eexe.live"] .rw-idtext').first).to_have_text("⟨U+202E⟩exe.live")
    assert SCRAPED in sample.inner_text()
    assert "⟨U+202E⟩q0" in views.nth(1).inner_text()
    assert page.evaluate("window.ran === undefined && typeof hidden === 'undefined'")
    page.screenshot(path=str(artifacts / "export_hostile.png"), full_page=False)
    assert not page.blocked and not page.errors, (page.blocked, page.errors)
    page.context.close()


def test_the_run_report_shows_scraped_html_as_text_and_bidi_ids(browser, tmp_path, artifacts):
    from playwright.sync_api import expect

    import ragwidgets as rw
    path = rw.DatasetExplorer(hostile_records(), chart_metric="precision").to_html(tmp_path / "report.html", worst=30)
    page = browser.new_context(viewport={"width": 1280, "height": 800}, java_script_enabled=False).new_page()
    page.goto(path.as_uri())
    first = page.locator(".sample", has_text="⟨U+202E⟩q0")
    expect(first).to_have_count(1)
    assert SCRAPED in first.inner_text() and "⟨U+202E⟩exe.live" in first.inner_text()
    assert "\u202e" not in page.locator("body").inner_text()
    first.screenshot(path=str(artifacts / "report_hostile.png"))
    page.context.close()
