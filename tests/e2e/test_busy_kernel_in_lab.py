"""A busy kernel is not a missing one (issue 36, item 7; js/src/live.js). In JupyterLab (and Notebook 7), Run All of
a notebook whose widgets are followed by a cell that sleeps 8 s: while it sleeps each view says the
kernel is busy, never that it is a snapshot, and the DatasetExplorer never says its rows are the
ones saved with the notebook; when the kernel is free every view answers and the notes go. The
same notebook saved with its widget state and exported (``ragwidgets export``, drawn with no
kernel at all) still says it is a snapshot, with the saved rows named."""

from __future__ import annotations

import json

import nbformat

from e2e_support import kernel_answered
from live_js import NOTE
from ragwidgets.export import export_notebook
from test_frontends_static_html import open_offline
from test_harbor_in_lab import TIMEOUT

CELLS = ["import ragwidgets as rw\nrw.Explorer.harbor()",
         "rw.DatasetExplorer(rw.datasets.synthetic_run(200, seed=4))",
         "import time\ntime.sleep(8)"]
BUSY = "Busy: the kernel is running other cells; this view answers when it is free."
# Every state and note each view shows, as they come (a MutationObserver set up before Run All).
RECORD = """() => { window.rwLive = []; new MutationObserver((changes) => { for (const c of changes) {
    if (c.type === 'attributes') window.rwLive.push('state ' + c.target.dataset.rwLive);
    for (const n of c.addedNodes || []) if (n.classList && n.classList.contains('rw-live-note')) window.rwLive.push('note ' + n.textContent);
    if (c.type === 'childList' && c.target.classList && c.target.classList.contains('rw-live-note')) window.rwLive.push('note ' + c.target.textContent);
    for (const n of c.addedNodes || []) if (n.classList && n.classList.contains('rw-ds-saved') && n.checkVisibility()) window.rwLive.push('saved rows');
  } }).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-rw-live']}); }"""


def run_all_busy(server, page, url: str, shot) -> None:
    """Open busy.ipynb, Run All without waiting: both views say busy while the sleep runs (never
    snapshot, never the saved rows), then answer."""
    from playwright.sync_api import expect
    base, token, root = server
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, root / "busy.ipynb")
    page.goto(url.format(base=base, token=token), timeout=TIMEOUT)
    page.wait_for_function(
        """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                   const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                   return k && k.status === 'idle'; }""", timeout=TIMEOUT)
    page.evaluate(RECORD)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")  # not awaited

    notes = page.locator(".rw-live-note")
    expect(notes).to_have_count(2, timeout=TIMEOUT)  # drawn, and 3 s later still unanswered: the sleep runs
    assert notes.all_text_contents() == [BUSY, BUSY]
    expect(page.locator('[data-rw-live="busy"]')).to_have_count(2)
    assert page.locator(".rw-ds-saved:visible").count() == 0
    notes.nth(1).scroll_into_view_if_needed()  # the DatasetExplorer's note, above it in its output
    page.screenshot(path=str(shot))

    kernel_answered(page, 2, timeout=TIMEOUT)  # the sleep over: both pings answered
    expect(notes).to_have_count(0)
    seen = page.evaluate("window.rwLive")
    assert "state busy" in seen and f"note {BUSY}" in seen, seen
    assert not [s for s in seen if "snapshot" in s or NOTE in s or s == "saved rows"], seen
    table = page.locator(".rw-dataset [data-testid=table]")
    expect(table.locator('[data-index="0"] > span').first).not_to_have_text("…", timeout=TIMEOUT)


def test_a_busy_kernel_says_busy_then_answers_and_a_snapshot_still_says_snapshot(lab, offline_page, browser, artifacts, tmp_path):
    from playwright.sync_api import expect
    _, _, root = lab
    setting = root.parent / "settings" / "@jupyter-widgets" / "jupyterlab-manager" / "plugin.jupyterlab-settings"
    setting.parent.mkdir(parents=True, exist_ok=True)
    setting.write_text(json.dumps({"saveState": True}))
    page = offline_page.page
    run_all_busy(lab, page, "{base}/lab/tree/busy.ipynb?token={token}&reset", artifacts / "busy_kernel_lab.png")
    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("!window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=TIMEOUT)
    out = export_notebook(root / "busy.ipynb", tmp_path / "busy.html")
    snapshot = open_offline(browser, out)
    views = snapshot.locator(".rw-snapshot-view")
    expect(views).to_have_count(2)
    for k in range(2):
        expect(views.nth(k).locator("xpath=preceding-sibling::p[1]")).to_have_text("Snapshot · controls disabled")
    assert snapshot.locator(".rw-live-note").count() == 0  # the export says it is a snapshot itself
    expect(snapshot.locator(".rw-ds-saved")).to_be_visible()  # and which rows it holds
    expect(snapshot.locator(".rw-ds-saved")).to_contain_text("Saved with the notebook: the first")
    snapshot.screenshot(path=str(artifacts / "busy_kernel_export.png"))
    assert not snapshot.blocked and not snapshot.errors, (snapshot.blocked, snapshot.errors)
    snapshot.context.close()


def test_a_busy_kernel_says_busy_in_notebook7(notebook7, offline_page, artifacts):
    """Notebook 7's widget manager tells the kernel's status the same way."""
    run_all_busy(notebook7, offline_page.page, "{base}/notebooks/busy.ipynb?token={token}", artifacts / "busy_kernel_notebook7.png")
