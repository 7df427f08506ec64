"""End to end: DatasetExplorer over a generated 100,000-sample run in JupyterLab, headless Chromium,
offline: brush the distribution, the table and the drill-down follow, page through the rows."""

from __future__ import annotations

import re

import nbformat

from test_harbor_in_lab import TIMEOUT

CELLS = [
    "import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
    "explorer = rw.DatasetExplorer(synthetic_run(100_000), chart_metric='hallucination')\nexplorer",
]


def run_notebook(page, lab, name: str, cells: list[str]) -> None:
    """Write a notebook of ``cells`` into the lab's folder, open it at 1280x800 and run it all."""
    base, token, root = lab
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(nb, root / name)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{base}/lab/tree/{name}?token={token}&reset", timeout=TIMEOUT)
    page.wait_for_function(
        """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                   const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                   return k && k.status === 'idle'; }""", timeout=TIMEOUT)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")


def count_of(explorer) -> int:
    return int(explorer.locator("[data-testid=count] b").inner_text().replace(",", ""))


def test_dataset_explorer_at_100k(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    page = offline_page.page
    run_notebook(page, lab, "dataset_100k.ipynb", CELLS)
    explorer = page.locator(".rw-dataset").first
    expect(explorer.locator("[data-testid=count]")).to_contain_text("100,000 of 100,000", timeout=3 * TIMEOUT)
    table = explorer.locator("[data-testid=table]")
    expect(table.locator('[data-index="0"] .rw-num').first).not_to_have_text("…", timeout=TIMEOUT)
    explorer.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "dataset_100k.png"))

    # brush: drag across the top bins of the hallucination distribution (one tab away)
    explorer.locator('[data-tab="charts"]').click()
    hits = explorer.locator("[data-testid=distribution] [data-hit]")
    hits.nth(7).hover()
    page.mouse.down()
    hits.nth(9).hover()
    page.mouse.up()
    expect(explorer.locator("[data-testid=clear-brush]")).to_contain_text("0.7–1", timeout=TIMEOUT)
    brushed = count_of(explorer)
    assert 0 < brushed < 100_000
    # the table follows: every hallucination cell shown is now >= 0.7
    column = [c.get_attribute("data-col") for c in table.locator("[role=columnheader]").all()].index("hallucination")
    expect(table.locator('[data-index="0"] > span').nth(column)).not_to_have_text("…", timeout=TIMEOUT)
    values = [float(table.locator(f'[data-index="{i}"] > span').nth(column).inner_text()) for i in range(5)]
    assert all(v >= 0.7 for v in values), values

    # the drill-down follows the selection; the keyboard moves through the filtered rows
    table.locator('[data-index="0"]').click()
    drill = explorer.locator("[data-testid=drill]")
    expect(drill).to_contain_text(f"row 1 of {brushed:,}".replace(",", ""), timeout=TIMEOUT)
    expect(drill.locator("[data-testid=drill-main] .rw-root")).to_be_visible()
    first_title = drill.locator("[data-testid=drill-main] h3").inner_text()
    explorer.locator(".rw-ds").press("ArrowDown")
    expect(drill).to_contain_text("row 2 of", timeout=TIMEOUT)
    # the sample itself follows (it may arrive a moment after the "row 2 of" line)
    expect(drill.locator("[data-testid=drill-main] h3")).not_to_have_text(first_title, timeout=TIMEOUT)
    expect(table.locator('[data-index="1"]')).to_have_attribute("aria-selected", "true")
    page.screenshot(path=str(artifacts / "dataset_brushed_drill.png"))

    # clear the brush and page to the end of the 100,000 rows: the last window arrives
    explorer.locator("[data-testid=clear-brush]").click()
    expect(explorer.locator("[data-testid=count]")).to_contain_text("100,000 of 100,000", timeout=TIMEOUT)
    table.locator(".rw-ds-scroll").evaluate("el => { el.scrollTop = el.scrollHeight; }")
    last = table.locator('[data-index="99999"]')
    expect(last).to_be_visible(timeout=TIMEOUT)
    expect(last.locator("span").first).not_to_have_text("…", timeout=TIMEOUT)
    assert re.fullmatch(r"\d+", last.locator("span").first.inner_text())
    page.screenshot(path=str(artifacts / "dataset_end.png"))


def test_refchecker_systems_compared_with_side_by_side_drill_down(lab, offline_page, artifacts):
    """Seven systems' human-labelled answers: pick one, sort its queries by the difference from
    the baseline, open the top one: its answer beside the baseline's, claim by claim."""
    from playwright.sync_api import expect
    page = offline_page.page
    run_notebook(page, lab, "refchecker.ipynb", [
        "import ragwidgets as rw\nrw.DatasetExplorer(rw.datasets.refchecker_human('zero_context'), "
        "compare_metric='precision', chart_metric='precision')"])
    explorer = page.locator(".rw-dataset").first
    expect(explorer.locator("[data-testid=count]")).to_contain_text("700 of 700", timeout=TIMEOUT)
    explorer.locator('[data-tab="compare"]').click()  # the comparison is one tab away
    expect(explorer.locator("[data-testid=compare]")).to_contain_text("Compared with alpaca_7B on 100 shared queries")
    explorer.locator("[data-testid=run]").select_option("gpt4")
    expect(explorer.locator("[data-testid=count]")).to_contain_text("100 of 700", timeout=TIMEOUT)
    explorer.get_by_role("button", name="Queries by difference").click()
    table = explorer.locator("[data-testid=table]")
    expect(table.locator('[data-col="difference"]')).to_contain_text("▼", timeout=TIMEOUT)
    first = table.locator('[data-index="0"]')
    column = [c.get_attribute("data-col") for c in table.locator("[role=columnheader]").all()].index("difference")
    expect(first.locator("span").nth(column)).to_have_text(re.compile(r"^\+(0\.\d{3}|1\.000)$"), timeout=TIMEOUT)
    first.click()
    drill = explorer.locator("[data-testid=drill]")
    expect(drill.locator("[data-testid=drill-other]")).to_contain_text("alpaca_7B (baseline)", timeout=TIMEOUT)
    expect(drill.locator("[data-testid=drill-main]")).to_contain_text("gpt4")
    drill.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "dataset_refchecker_drill.png"))
    explorer.locator("[data-testid=compare]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "dataset_refchecker_compare.png"))
