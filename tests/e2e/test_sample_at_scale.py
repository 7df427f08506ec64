"""End to end at real size: a 60-passage x 80-claim sample and the Harbor Explorer in JupyterLab at
1280x800 with the file browser open, headless Chromium, offline.

Checks what once broke at this size: total height bounded, the selected claim's passages in view, no
horizontal overflow, a wrong verdict fully visible, focus kept and keys not leaking, Space on a
passage checkbox, the ground-truth answer staying open, hostile IDs. Click-to-DOM latency is
recorded in artifacts/ (timed in benchmarks/widget_browser.py, never asserted here).
"""

from __future__ import annotations

import json

import pytest

from e2e_support import big_sample_record, lab_theme, offline_page_sized, restyled_dark, settled
from test_harbor_in_lab import TIMEOUT, open_and_run

NOTEBOOK = {
    "cells": [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
         "source": "from ragwidgets.widgets import Explorer, SampleExplorer\n"
                   "big = SampleExplorer('big.json')\nbig"},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
         "source": "harbor = Explorer.harbor(predict=True)\nharbor"},
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}

# Click a row and time until the DOM shows it selected (the round trip through the kernel).
CLICK_TO_DOM = """async (key) => {
  const row = document.querySelector(`.rw-widget [data-key="${key}"]`);
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const check = () => row.getAttribute('aria-selected') === 'true';
    const obs = new MutationObserver(() => { if (check()) { obs.disconnect(); resolve(); } });
    obs.observe(row, { attributes: true });
  });
  row.click();
  await done;
  return performance.now() - t0;
}"""


@pytest.fixture
def small_page(browser):
    with offline_page_sized(browser, 1280, 800) as page:
        yield page


def inside(page, child: str, region: str) -> bool:
    """Whether element ``child`` lies within the visible box of its scrolling ``region``."""
    return page.evaluate("""([c, r]) => {
        const a = document.querySelector(c).getBoundingClientRect();
        const b = document.querySelector(c).closest(r).getBoundingClientRect();
        return a.top >= b.top - 1 && a.bottom <= b.bottom + 1; }""", [child, region])


def test_big_sample_and_harbor_at_1280x800(lab, small_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    (root / "big.json").write_text(json.dumps([big_sample_record()]))
    (root / "scale.ipynb").write_text(json.dumps(NOTEBOOK))
    p = small_page
    page = p.page
    open_and_run(p, lab, "scale.ipynb", widgets=2)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    expect(page.locator(".jp-FileBrowser").first).to_be_visible(timeout=TIMEOUT)
    big = page.locator(".rw-widget").first
    harbor = page.locator(".rw-widget").nth(1)
    settled(big)  # the notebook laid out again beside the file browser

    big.screenshot(path=str(artifacts / "big_sample.png"))  # the first screen
    for part in ("failing", "cards", "claims"):
        big.locator(f"[data-testid={part}]").screenshot(path=str(artifacts / f"big_sample_{part}.png"))
    # bounded height: tables scroll in their own regions, the matrix waits to be opened
    height = big.evaluate("e => e.getBoundingClientRect().height")
    assert height < 3200, height
    assert big.locator("[data-preset]").count() <= 3 and big.locator("[data-testid=top-k]").count() == 1
    # no horizontal overflow: not the page, not the claims table (10,000-character tokens wrap or are cut)
    assert big.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert big.locator("[data-testid=claims] .rw-table-wrap").evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert harbor.locator("[data-testid=claims] .rw-table-wrap").evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    expect(big.locator('[data-key="source:\u202eexe.live"] td.rw-id > .rw-idtext')).to_have_text("⟨U+202E⟩exe.live")

    # selecting a claim brings its supporting passages into view
    latencies = [page.evaluate(CLICK_TO_DOM, "claim:R70")]
    expect(big.locator('[data-key="claim:R70"]')).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    supporting = big.locator('[data-testid=sources] .rw-role-supports')
    expect(supporting).to_have_count(2, timeout=TIMEOUT)
    first = supporting.first.get_attribute("data-key")
    assert inside(page, f'.rw-widget [data-key="{first}"]', ".rw-scroll")
    big.locator("[data-testid=sources]").screenshot(path=str(artifacts / "big_sample_linked.png"))
    for j in (3, 40, 12, 66, 25, 51, 7, 33, 60, 18):
        latencies.append(page.evaluate(CLICK_TO_DOM, f"claim:R{j}"))
    (artifacts / "click_to_dom_e2e.json").write_text(json.dumps({"60x80 claim clicks, ms": latencies}))

    # focus stays where it was, and plain keys never reach JupyterLab ("d d" deletes a cell)
    cells = page.evaluate("window.jupyterapp.shell.currentWidget.content.widgets.length")
    row = big.locator('[data-key="claim:R18"]')
    row.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(big.locator('[data-key="claim:R19"]')).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    assert page.evaluate("document.activeElement.dataset.key") == "claim:R19"
    page.keyboard.press("d")
    page.keyboard.press("d")
    page.keyboard.press("ArrowDown")  # later keys: once their effect shows, the two d's have been handled
    page.keyboard.press("Enter")
    expect(big.locator('[data-key="claim:R20"]')).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    assert page.evaluate("window.jupyterapp.shell.currentWidget.content.widgets.length") == cells

    # the ground-truth answer stays open across updates; Space on a checkbox toggles the passage
    big.locator(".rw-gt-answer summary").click()
    big.locator('[data-toggle="doc-001"]').focus()
    page.keyboard.press(" ")
    expect(big.locator("[data-testid=state]")).to_contain_text("1 passage(s) switched off", timeout=TIMEOUT)
    expect(big.locator('[data-key="source:doc-001"]')).to_have_attribute("aria-selected", "false")
    assert page.evaluate("document.activeElement.dataset.toggle") == "doc-001"
    assert big.locator(".rw-gt-answer").evaluate("e => e.open")

    # the matrix on demand: sticky headers inside its own region
    big.locator("[data-testid=show-matrix]").click()
    wrap = big.locator(".rw-matrix-wrap")
    wrap.evaluate("e => { e.scrollTop = 600; e.scrollLeft = 400; }")
    settled(big.locator(".rw-matrix thead th:nth-child(5)").first)
    settled(big.locator(".rw-matrix tbody tr:nth-child(30) th").first)
    assert page.evaluate("""() => {
        const w = document.querySelector('.rw-matrix-wrap').getBoundingClientRect();
        const head = document.querySelector('.rw-matrix thead th:nth-child(5)').getBoundingClientRect();
        const side = document.querySelector('.rw-matrix tbody tr:nth-child(30) th').getBoundingClientRect();
        return Math.abs(head.top - w.top) < 4 && Math.abs(side.left - w.left) < 4; }""")
    wrap.screenshot(path=str(artifacts / "big_sample_matrix.png"))
    page.evaluate(CLICK_TO_DOM, "claim:R5")  # the open matrix follows the selection too
    assert inside(page, '.rw-widget [data-row="claim:R5"]', ".rw-matrix-wrap")

    # a wrong prediction's verdict is fully visible
    harbor.scroll_into_view_if_needed()
    box = harbor.locator('[data-metric="context_relevance"] input')
    box.fill("Undefined")
    box.press("Enter")
    verdict = harbor.locator('[data-metric="context_relevance"] [data-testid=verdict]')
    expect(verdict).to_have_text("✗ You predicted Undefined; actual 1", timeout=TIMEOUT)
    assert verdict.evaluate("""e => { const c = e.closest('.rw-card').getBoundingClientRect(), v = e.getBoundingClientRect();
        return e.scrollWidth <= e.clientWidth + 1 && v.right <= c.right + 1; }""")
    harbor.locator('[data-metric="context_relevance"]').screenshot(path=str(artifacts / "harbor_wrong_verdict.png"))
    harbor.screenshot(path=str(artifacts / "harbor_1280.png"))

    # dark theme: the big sample's views follow JupyterLab's variables
    lab_theme(page, "dark", TIMEOUT)
    restyled_dark(big)
    for part in ("failing", "sources", "matrix"):
        big.locator(f"[data-testid={part}]").screenshot(path=str(artifacts / f"big_sample_dark_{part}.png"))
    assert big.evaluate("e => getComputedStyle(e).backgroundColor") != "rgb(255, 255, 255)"
    lab_theme(page, "light", TIMEOUT)
    assert not p.errors, p.errors
