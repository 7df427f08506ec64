"""End to end: the Harbor Museum notebook in Notebook 7 (the `notebook` package) in headless Chromium, offline.

The widgets must work in JupyterLab 4 and Notebook 7; test_harbor_in_lab.py covers JupyterLab in depth,
this checks the Notebook 7 page (/notebooks/<path>) renders the Explorer and round-trips a control.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from e2e_support import settled
from test_harbor_in_lab import TIMEOUT, open_and_run

ROOT = Path(__file__).resolve().parents[2]
# Notebook 7.6.5's own start-up raises this from its settings/shortcuts code (notebook_core bundle), on
# the tree page and with an empty notebook too, with or without ragwidgets: not ours, so tolerated
# only with that message from that bundle; any other page error fails the test.
NOTEBOOK7_STARTUP_ERROR = "Cannot read properties of undefined (reading 'schema')"


def _ours(stack: str) -> bool:
    frames = [line for line in stack.splitlines() if line.strip().startswith("at ")]
    return not (stack.startswith(f"TypeError: {NOTEBOOK7_STARTUP_ERROR}")
                and frames and "/static/notebook/notebook_core." in frames[0])


def test_harbor_museum_in_notebook7(notebook7, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = notebook7
    shutil.copy(ROOT / "ragwidgets" / "tutorials" / "01_harbor_museum.ipynb", root)
    p = offline_page
    page = p.page
    stacks: list[str] = []
    page.on("pageerror", lambda e: stacks.append(e.stack or f"{e.name}: {e.message}"))
    open_and_run(p, notebook7, "01_harbor_museum.ipynb", widgets=2,
                 url="{base}/notebooks/{name}?token={token}")
    # Notebook 7's own shell, not JupyterLab's
    assert page.evaluate("window.jupyterapp.name") == "Jupyter Notebook"
    explorer = page.locator(".rw-widget").first
    card = lambda metric: explorer.locator(f'[data-metric="{metric}"]')
    option = lambda trait, name: explorer.locator(f'[data-trait="{trait}"] [data-option="{name}"]')

    # run-all ends with explorer.reset(): the default state
    expect(card("context_relevance").locator("[data-testid=fraction]")).to_have_text("2/2 = 1", timeout=TIMEOUT)
    option("retrieval", "No retrieval").click()  # through the kernel and back
    expect(card("context_relevance").locator("[data-testid=value]")).to_have_text("Undefined")
    expect(card("context_relevance")).to_contain_text("no retrieved documents")
    expect(explorer.locator("[data-testid=state]")).to_contain_text("No retrieval · Fully supported · Matched")
    explorer.scroll_into_view_if_needed()
    settled(explorer)
    explorer.screenshot(path=str(artifacts / "notebook7_explorer.png"))
    assert len(stacks) == len(p.errors)
    assert not [s for s in stacks if _ours(s)], stacks
