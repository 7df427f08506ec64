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
    out = export_notebook(ROOT / "notebooks" / name, tmp_path / name.replace(".ipynb", ".html"))
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
