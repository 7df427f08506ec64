"""End to end: a request the kernel fails is answered with its error, and the widget says so.
A DatasetExplorer in JupyterLab (headless Chromium, offline) whose row-window handler raises (a
monkeypatch in the kernel cell): the rows past the first ones saved in the state say why they are
not there, and the alert names the exception, instead of "…" forever."""

from __future__ import annotations

from test_dataset_in_lab import run_notebook
from test_harbor_in_lab import TIMEOUT

CELLS = [
    "import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
    "explorer = rw.DatasetExplorer(synthetic_run(500, seed=2), chart_metric='hallucination')\n"
    "def broken(start, count):\n"
    "    raise RuntimeError('the row store is unavailable')\n"
    "explorer.window = broken  # every row window the front end asks for fails\n"
    "explorer",
    # a Python-side echo of what the kernel replied, for the test to read
    "import ipywidgets\necho = ipywidgets.HTML()\nsent = explorer.send\n"
    "def spy(content, buffers=None):\n"
    "    if 'error' in content:\n"
    "        echo.value = f\"<span data-testid='echo'>{content['type']} {content['error']}</span>\"\n"
    "    return sent(content, buffers)\n"
    "explorer.send = spy\necho",
]


def test_a_failed_row_window_shows_its_error_in_the_widget(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    page = offline_page.page
    run_notebook(page, lab, "requests_fail.ipynb", CELLS)
    explorer = page.locator(".rw-dataset").first
    expect(explorer.locator("[data-testid=count]")).to_contain_text("500 of 500", timeout=3 * TIMEOUT)
    table = explorer.locator("[data-testid=table]")
    # the first 50 rows came with the state; the rest of the first window was refused: said in its rows
    expect(table.locator('[data-index="0"] .rw-num').first).not_to_have_text("…", timeout=TIMEOUT)
    alert = explorer.locator("[data-testid=error]")
    expect(alert).to_have_text("RuntimeError: the row store is unavailable", timeout=TIMEOUT)
    table.locator(".rw-ds-scroll").evaluate("el => { el.scrollTop = 60 * 26; }")
    failed = table.locator("[data-testid=row-error]").first
    expect(failed).to_be_visible(timeout=TIMEOUT)
    expect(failed).to_have_text("Rows not loaded: RuntimeError: the row store is unavailable")
    assert table.locator(".rw-ds-loading").count() == 0  # nothing left waiting
    explorer.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "requests_failed_rows.png"))
    # scrolling further asks for the next window, also refused, also said
    table.locator(".rw-ds-scroll").evaluate("el => { el.scrollTop = el.scrollHeight; }")
    last = table.locator('[data-index="499"] [data-testid=row-error]')
    expect(last).to_be_visible(timeout=TIMEOUT)
    # the kernel sent one error reply per window asked (the comm callback did not raise)
    expect(page.locator("[data-testid=echo]")).to_have_text("rows RuntimeError: the row store is unavailable",
                                                            timeout=TIMEOUT)
    assert not offline_page.errors, offline_page.errors
