"""End to end: the checker calibration tab in JupyterLab, headless Chromium at 1280x800 with the
file browser open, offline. A run labelled by a local checker built by the tests (its support
falls with the passage's length, so long passages holding the keyword come out Neutral at ½),
half its samples reviewed with the truth; ``d.calibrate(checker, method="platt")`` in the kernel:
the tab shows the agreement before and after, the fitted threshold, the advice and the reliability
diagram; the method chosen in the tab refits in the kernel. Screenshots artifacts/calibration.png, calibration_diagram.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_dataset_in_lab import run_notebook
from test_harbor_in_lab import TIMEOUT

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

TESTS = Path(__file__).resolve().parents[1]
CELLS = [f"import sys, pathlib\nsys.path[:0] = [{str(TESTS)!r}]\n"
         "import ragwidgets as rw\nfrom local_models import calibration_run\n"
         "checker, _, filled, reviews = calibration_run(pathlib.Path('calibration_model'))",
         "d = rw.DatasetExplorer(filled, reviews=reviews)\nfit = d.calibrate(checker, method='platt')\nd"]


def test_calibration_tab(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    page = offline_page.page
    run_notebook(page, lab, "calibration.ipynb", CELLS)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    widget = page.locator(".rw-dataset").first
    expect(widget.locator("[data-testid=count]")).to_contain_text("24 of 24", timeout=TIMEOUT)
    widget.locator('[data-tab="calibration"]').click()
    tab = widget.locator("[data-testid=calibration]")
    expect(tab.locator("[data-testid=calibration-table]")).to_contain_text("on 24 reviewed checks (12 entailed)",
                                                                           timeout=TIMEOUT)
    expect(tab.locator("[data-testid=calibration-table]")).to_contain_text("after (platt, 5-fold cross-validated)")
    expect(tab.locator("[data-testid=calibration-advice]")).to_contain_text("checker.calibrated(explorer.calibration)")
    diagram = tab.locator("[data-testid=calibration-diagram]")
    expect(diagram.locator("[data-testid=calibration-point-after]").first).to_be_visible()
    assert diagram.locator("[data-testid=calibration-point-before]").count() >= 2
    box = diagram.bounding_box()
    assert box and box["width"] >= 200 and box["x"] + box["width"] <= 1280  # whole, beside the file browser
    tab.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "calibration.png"))
    diagram.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "calibration_diagram.png"))

    tab.locator("[data-testid=calibration-method]").select_option("threshold")
    tab.locator("[data-testid=calibration-fit]").click()
    expect(tab.locator("[data-testid=calibration-table]")).to_contain_text("after (threshold, ", timeout=TIMEOUT)
    expect(diagram.locator("[data-testid=calibration-point-after]")).to_have_count(0)
    expect(tab).to_contain_text("A threshold gives labels, not probabilities")
