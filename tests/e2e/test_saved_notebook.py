"""A saved notebook reopened in JupyterLab shows the widgets' last view, not "model not found".

JupyterLab keeps widget state in the notebook when its "Save Jupyter widget state in notebooks"
setting is on (Settings → Jupyter Widgets; the README says so): the test turns it on the way a
user does (the settings file), runs the Harbor tutorial, moves the Explorer, saves, shuts the
kernel down, and reopens the notebook in a fresh page with a fresh kernel.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from e2e_support import OfflinePage
from test_harbor_in_lab import TIMEOUT, open_and_run

ROOT = Path(__file__).resolve().parents[2]


def test_reopened_notebook_shows_the_last_view(lab, browser, artifacts):
    from playwright.sync_api import expect
    base, token, root = lab
    setting = root.parent / "settings" / "@jupyter-widgets" / "jupyterlab-manager" / "plugin.jupyterlab-settings"
    setting.parent.mkdir(parents=True, exist_ok=True)
    setting.write_text(json.dumps({"saveState": True}))
    shutil.copy(ROOT / "ragwidgets" / "tutorials" / "01_harbor_museum.ipynb", root / "saved.ipynb")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    p = OfflinePage(context.new_page())
    page = p.page
    open_and_run(p, lab, "saved.ipynb", widgets=2)
    explorer = page.locator(".rw-widget").first
    explorer.locator('[data-trait="retrieval"] [data-option="No retrieval"]').click()
    expect(explorer.locator("[data-testid=state]")).to_contain_text("No retrieval · Fully supported · Matched",
                                                                     timeout=TIMEOUT)
    expect(page.locator('.rw-space [data-cell="No retrieval|Fully supported|Matched"]')).to_have_attribute(
        "aria-current", "true")
    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("!window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=TIMEOUT)
    saved = json.loads((root / "saved.ipynb").read_text())
    assert "application/vnd.jupyter.widget-state+json" in saved["metadata"].get("widgets", {})
    page.evaluate("window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    context.close()

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    p = OfflinePage(context.new_page())
    page = p.page
    page.goto(f"{base}/lab/tree/saved.ipynb?token={token}&reset", timeout=TIMEOUT)
    page.wait_for_function("document.querySelectorAll('.rw-root').length >= 2", timeout=TIMEOUT)
    explorer = page.locator(".rw-widget").first
    expect(explorer.locator("[data-testid=state]")).to_contain_text("No retrieval · Fully supported · Matched")
    expect(page.locator('.rw-space [data-cell="No retrieval|Fully supported|Matched"]')).to_have_attribute(
        "aria-current", "true")
    assert page.get_by_text("Error displaying widget").count() == 0
    explorer.scroll_into_view_if_needed()
    explorer.screenshot(path=str(artifacts / "saved_notebook_reopened.png"))
    assert not p.blocked and not p.dialogs and not p.errors, (p.blocked, p.dialogs, p.errors)
    context.close()
