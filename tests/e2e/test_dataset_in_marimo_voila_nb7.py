"""The DatasetExplorer (and the SampleExplorer beside it) in marimo, Voilà and Notebook 7, offline in
headless Chromium: sort, a failure slice and the drill-down each round-trip through the kernel. In
marimo this checks the front end listens one event name per ``model.on`` call (anywidget's
contract: marimo does not split a space-separated list as Backbone does)."""

from __future__ import annotations

import json
import sys

import nbformat
import pytest
from e2e_support import free_port, kernel_answered, marimo_app, own_trust_store, serve
from test_frontends_marimo_voila import TIMEOUT, VOILA_TEMPLATE_CDN, environment, pages  # noqa: F401 (a fixture)
from test_harbor_in_lab import open_and_run

SETUP = ("import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run\n"
         "explorer = rw.DatasetExplorer(synthetic_run(500, seed=3))\n"
         "sample = rw.SampleExplorer.ragchecker_example()")
MARIMO_APP = marimo_app(SETUP, ["explorer", "sample"])
CELLS = [SETUP, "explorer", "sample"]


def count_of(explorer) -> int:
    return int(explorer.locator("[data-testid=count] b").inner_text().replace(",", ""))


def check_dataset(page, artifacts, prefix: str) -> None:
    """Sort worst first, pick a failure slice, open a row's drill-down: each answered by Python."""
    from playwright.sync_api import expect
    explorer = page.locator(".rw-dataset").first
    expect(explorer.locator("[data-testid=count]")).to_contain_text("500 of 500", timeout=TIMEOUT)
    table = explorer.locator("[data-testid=table]")
    expect(table.locator('[data-index="0"] > span').first).not_to_have_text("…", timeout=TIMEOUT)

    header = table.locator('[role=columnheader][data-col="faithfulness"]')
    header.click()
    expect(header).to_contain_text("▲", timeout=TIMEOUT)  # faithfulness: higher is better, so lowest first
    column = [c.get_attribute("data-col") for c in table.locator("[role=columnheader]").all()].index("faithfulness")
    cell = lambda i: table.locator(f'[data-index="{i}"] > span').nth(column)
    expect(cell(0)).not_to_have_text("…", timeout=TIMEOUT)
    expect(cell(1)).not_to_have_text("…", timeout=TIMEOUT)
    first, second = float(cell(0).inner_text()), float(cell(1).inner_text())
    assert first <= second

    slice_button = explorer.locator("[data-testid=slices] button").first
    size = int(slice_button.locator(".rw-ds-count").inner_text().replace(",", ""))
    assert 0 < size < 500
    slice_button.click()
    expect(explorer.locator("[data-testid=count]")).to_contain_text(f"{size:,} of 500", timeout=TIMEOUT)

    table.locator('[data-index="0"]').click()
    drill = explorer.locator("[data-testid=drill]")
    expect(drill.locator("[data-testid=drill-main] h3")).to_be_visible(timeout=TIMEOUT)
    expect(drill).to_contain_text(f"row 1 of {size}", timeout=TIMEOUT)
    sample = page.locator(".rw-widget").filter(has_text="Which claims fail").last
    expect(sample).to_be_visible(timeout=TIMEOUT)
    explorer.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"{prefix}_dataset.png"))
    kernel_answered(page, 2)  # both views' pings answered (live.js): no snapshot note
    assert page.locator(".rw-live-note").count() == 0


def test_dataset_explorer_in_marimo(pages, tmp_path, artifacts):  # noqa: F811 (the fixture imported above)
    pytest.importorskip("marimo", reason="marimo is not installed (pip install -e '.[dev]')")
    (tmp_path / "config" / "marimo").mkdir(parents=True)
    (tmp_path / "config" / "marimo" / "marimo.toml").write_text('[display]\ntheme = "light"\n')
    (tmp_path / "app.py").write_text(MARIMO_APP)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serve([sys.executable, "-m", "marimo", "run", "app.py", "--headless", "--host", "127.0.0.1",
                "--port", str(port), "--no-token", "--no-sandbox", "--no-check"],
               url, tmp_path, environment(tmp_path), tmp_path / "marimo.log"):
        p = pages("light")
        p.page.goto(url, timeout=TIMEOUT)
        check_dataset(p.page, artifacts, "marimo")


def test_dataset_explorer_in_voila(pages, tmp_path, artifacts):  # noqa: F811
    pytest.importorskip("voila", reason="voila is not installed (pip install -e '.[dev]')")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    (tmp_path / "dataset.ipynb").write_text(json.dumps(nb))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serve([sys.executable, "-m", "voila", "dataset.ipynb", "--no-browser", f"--port={port}",
                "--Voila.ip=127.0.0.1", own_trust_store(tmp_path)],
               url, tmp_path, environment(tmp_path), tmp_path / "voila.log"):
        p = pages("light", VOILA_TEMPLATE_CDN)
        p.page.goto(url, timeout=TIMEOUT)
        check_dataset(p.page, artifacts, "voila")


def test_dataset_explorer_in_notebook7(notebook7, offline_page, artifacts):
    from test_harbor_in_notebook7 import _ours
    _, _, root = notebook7
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}), root / "dataset.ipynb")
    page = offline_page.page
    stacks: list[str] = []
    page.on("pageerror", lambda e: stacks.append(e.stack or f"{e.name}: {e.message}"))
    open_and_run(offline_page, notebook7, "dataset.ipynb", widgets=1, url="{base}/notebooks/{name}?token={token}")
    assert page.evaluate("window.jupyterapp.name") == "Jupyter Notebook"
    check_dataset(page, artifacts, "notebook7")
    assert not [s for s in stacks if _ours(s)]
