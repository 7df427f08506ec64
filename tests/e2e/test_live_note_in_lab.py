"""Defect 4 in JupyterLab: a live view says nothing; the same notebook saved with its widget
state and reopened with a fresh kernel says, above each view, that it is a snapshot until the
cell runs again; running the cells again brings live views without the note. Screenshots at
1280 x 800 with the file browser open, light and dark."""

from __future__ import annotations

import contextlib
import json
import sqlite3

import nbformat
import pytest

from e2e_support import OfflinePage, kernel_answered, lab_theme, trust_store, wait_or_show
from live_js import NOTE
from test_harbor_in_lab import TIMEOUT, open_and_run

CELLS = ["import ragwidgets as rw\nrw.Explorer.harbor()",
         "rw.DatasetExplorer(rw.datasets.synthetic_run(200, seed=4))"]


def page_for(browser, theme: str) -> OfflinePage:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=theme)
    return OfflinePage(context.new_page())


def show_files(page, theme: str) -> None:
    page.evaluate("window.jupyterapp.commands.execute('filebrowser:activate')")
    lab_theme(page, theme, TIMEOUT)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_reopened_notebook_says_its_views_are_snapshots_until_run(lab, browser, artifacts, theme):
    from playwright.sync_api import expect
    base, token, root = lab
    setting = root.parent / "settings" / "@jupyter-widgets" / "jupyterlab-manager" / "plugin.jupyterlab-settings"
    setting.parent.mkdir(parents=True, exist_ok=True)
    setting.write_text(json.dumps({"saveState": True}))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    name = f"live_{theme}.ipynb"
    nbformat.write(nb, root / name)

    p = page_for(browser, theme)
    page = p.page
    open_and_run(p, lab, name, widgets=1)
    page.wait_for_function("document.querySelectorAll('.rw-root, .rw-dataset').length >= 2", timeout=TIMEOUT)
    kernel_answered(page, 2)  # each view's ping answered by the live kernel (live.js)
    assert page.locator(".rw-live-note").count() == 0
    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("!window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=TIMEOUT)
    with contextlib.closing(sqlite3.connect(trust_store(root.parent))) as store:  # the server's own (own_trust_store)
        assert store.execute("SELECT count(*) FROM nbsignatures").fetchone()[0] >= 1  # signed in its own store
    page.evaluate("window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    page.context.close()

    p = page_for(browser, theme)
    page = p.page
    page.goto(f"{base}/lab/tree/{name}?token={token}&reset", timeout=TIMEOUT)
    wait_or_show(page, "document.querySelectorAll('.rw-root, .rw-dataset').length >= 2",
                 artifacts / f"live_note_reopened_{theme}_timeout.png", TIMEOUT)
    notes = page.locator(".rw-live-note")
    expect(notes).to_have_count(2, timeout=15_000)
    assert notes.all_text_contents() == [NOTE, NOTE]
    expect(page.locator('[data-rw-live="snapshot"]')).to_have_count(2)  # what kernel_answered waits past
    show_files(page, theme)
    for k in range(2):  # each note sits right above its view, inside its output
        assert notes.nth(k).evaluate("e => e.nextElementSibling.classList.contains('rw-live-root')")
    notes.first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"live_note_reopened_{theme}.png"))
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.screenshot(path=str(artifacts / f"live_note_reopened_{theme}_1600.png"))

    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        """() => window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status === 'idle'
                 && ![...document.querySelectorAll('.jp-InputArea-prompt')].some(e => e.textContent.includes('*'))""",
        timeout=TIMEOUT)
    kernel_answered(page, 2)  # the views drawn again, each answered by the new kernel
    expect(notes).to_have_count(0)
    assert not p.blocked and not p.errors, (p.blocked, p.errors)
    page.context.close()
