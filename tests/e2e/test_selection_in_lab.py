"""End to end: selecting is drawn in the browser. A 60-passage x 80-claim SampleExplorer in
JupyterLab (headless Chromium, offline): a click on a claim lights its passages at once; the
kernel hears of it (``explorer.selected``, echoed by a Python observer) but sends no view back
(the comm messages from the kernel are counted: none carries ``_view``); ``explorer.select()``
from Python is drawn too. A passage toggle, which does need the engine, still brings a new view."""

from __future__ import annotations

import json

import nbformat

from e2e_support import big_sample_record
from test_harbor_in_lab import TIMEOUT, open_and_run

CELLS = [
    "from ragwidgets.widgets import SampleExplorer\nbig = SampleExplorer('big.json')\nbig",
    "import ipywidgets\necho = ipywidgets.HTML()\n"
    "big.observe(lambda ch: setattr(echo, 'value', f\"<span data-testid='echo'>{ch['new']}</span>\"), names='selected')\n"
    "echo",
]

# Every comm message from the kernel to this page, by what it updates (its state's trait names).
SPY = """() => {
  window.__fromKernel = [];
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  kernel.iopubMessage.connect((_, msg) => {
    if (msg.header.msg_type !== 'comm_msg') return;
    const data = msg.content.data || {};
    window.__fromKernel.push({ method: data.method, keys: Object.keys(data.state || {}), type: (data.content || {}).type });
  });
}"""


def test_a_click_selects_in_the_browser_and_the_kernel_sends_no_view(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    record = big_sample_record()
    (root / "big.json").write_text(json.dumps([record]))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(nb, root / "selection.ipynb")
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 800})
    open_and_run(offline_page, lab, "selection.ipynb", widgets=1)
    widget = page.locator(".rw-widget").first
    page.evaluate(SPY)

    row = widget.locator('[data-key="claim:R12"]')
    row.scroll_into_view_if_needed()
    row.click()
    expect(row).to_have_attribute("aria-selected", "true")
    supports = sorted({(11 * 13 + 20) % 60, (11 * 7 + 45) % 60})  # big_sample_record's passages of R12 (j = 11)
    for k in supports:
        doc = record["retrieved_context"][k]["doc_id"]
        expect(widget.locator(f'.rw-role-supports[data-key="source:{doc}"]')).to_have_count(1)
    expect(page.locator("[data-testid=echo]")).to_have_text("claim:R12", timeout=TIMEOUT)  # Python knows
    page.screenshot(path=str(artifacts / "selection_in_browser.png"))
    for key in ("claim:R3", "gt:G5", f"source:{record['retrieved_context'][20]['doc_id']}"):
        widget.locator(f'[data-key="{key}"]').first.click()
        expect(page.locator("[data-testid=echo]")).to_have_text(key, timeout=TIMEOUT)
    from_kernel = page.evaluate("window.__fromKernel")
    assert from_kernel and not [m for m in from_kernel if "_view" in m["keys"]], from_kernel

    # a selection made in Python: the trait comes, the browser draws it; still no view
    page.evaluate("window.jupyterapp.shell.currentWidget.content.activeCellIndex = 1")
    code = page.locator(".jp-Cell").nth(1).locator(".cm-content")
    code.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("big.select('claim:R40')")
    page.keyboard.press("Shift+Enter")
    expect(widget.locator('[data-key="claim:R40"]')).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    from_kernel = page.evaluate("window.__fromKernel")
    assert not [m for m in from_kernel if "_view" in m["keys"]], from_kernel

    # a passage toggle needs the engine: that one does bring a new view
    doc = record["retrieved_context"][10]["doc_id"]
    box = widget.locator(f'[data-toggle="{doc}"]')
    box.scroll_into_view_if_needed()
    box.click()
    expect(box).not_to_be_checked(timeout=TIMEOUT)
    page.wait_for_function("window.__fromKernel.some((m) => m.keys.includes('_view'))", timeout=TIMEOUT)
    assert not offline_page.errors, offline_page.errors
