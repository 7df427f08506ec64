"""End to end: what changed, claim by claim, in the DatasetExplorer's comparison tab, in JupyterLab
(headless Chromium at 1280x800, the file browser open, offline). Three RefChecker systems (human
labels, noisy_context): the tab asks the kernel for gpt4's claim changes against alpaca_7B on
faithfulness and lists the queries claim_changes lists, in its order, each with its changes; the
run picker asks again for claude2; a change opens its query of that run in the drill-down.
Screenshot artifacts/claim_changes.png."""

from __future__ import annotations

from test_dataset_in_lab import run_notebook
from test_harbor_in_lab import TIMEOUT

import ragwidgets as rw
from ragwidgets.analysis.changes import claim_changes
from ragwidgets.datasets.refchecker import refchecker_human

SYSTEMS = ("alpaca_7B", "gpt4", "claude2")
CELLS = ["import ragwidgets as rw\nfrom ragwidgets.datasets.refchecker import refchecker_human",
         "systems = refchecker_human('noisy_context')\n"
         f"d = rw.DatasetExplorer({{s: rw.evaluate(systems[s]) for s in {SYSTEMS!r}}}, compare_metric='faithfulness')\nd"]


def expected(run: str):
    systems = refchecker_human("noisy_context")
    return claim_changes(rw.evaluate(systems[SYSTEMS[0]]), rw.evaluate(systems[run]), metric="faithfulness")


def test_claim_changes_in_the_comparison_tab(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    page = offline_page.page
    run_notebook(page, lab, "claim_changes.ipynb", CELLS)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    widget = page.locator(".rw-dataset").first
    expect(widget.locator("[data-testid=count]")).to_contain_text("300 of 300", timeout=TIMEOUT)
    widget.locator('[data-tab="compare"]').click()
    changes = widget.locator("[data-testid=claim-changes]")
    queries = changes.locator("[data-testid=changes-query]")
    want = expected("gpt4")
    ids = list(dict.fromkeys(want["query_id"]))
    expect(queries).to_have_count(len(ids), timeout=TIMEOUT)
    assert [q.locator("td").first.inner_text().strip() for q in queries.all()] == ids
    said = changes.locator("[data-testid=changes-said]")
    expect(said).to_have_count(len(want))  # each query's changes: fewer than the view's cap here
    assert [s.inner_text() for s in said.all()] == want["change"].tolist()
    assert any("by passage" in s for s in want["change"])
    changes.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "claim_changes.png"))

    # another run: asked again, its own queries
    changes.locator("[data-testid=changes-run]").select_option("claude2")
    other = list(dict.fromkeys(expected("claude2")["query_id"]))
    assert other != ids
    expect(queries.first.locator("td").first).to_have_text(other[0], timeout=TIMEOUT)
    expect(queries).to_have_count(len(other))

    # a change opens its query of claude2 in the drill-down
    queries.nth(1).locator("button").click()
    drill = widget.locator("[data-testid=drill]")
    expect(drill).to_contain_text(other[1], timeout=TIMEOUT)
    expect(drill).to_contain_text("claude2")
    page.screenshot(path=str(artifacts / "claim_changes_drill.png"))
