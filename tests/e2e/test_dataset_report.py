"""The exported DatasetExplorer report opened from disk in headless Chromium with the network blocked:
its charts draw (inline SVG) with scripts off, and nothing is fetched."""

from __future__ import annotations

import ragwidgets as rw
from ragwidgets.datasets import refchecker_human


def test_report_opens_offline_with_its_charts(browser, artifacts, tmp_path):
    explorer = rw.DatasetExplorer(refchecker_human("zero_context"), chart_metric="precision",
                                  compare_metric="precision")
    path = explorer.to_html(tmp_path / "report.html")
    page = browser.new_context(viewport={"width": 1280, "height": 800}, java_script_enabled=False).new_page()
    blocked = []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:"))
               else (blocked.append(r.request.url), r.abort()))
    page.goto(path.as_uri())
    figures = page.locator("figure[data-chart]")
    assert figures.count() == 3
    for i in range(3):
        box = figures.nth(i).locator("svg").bounding_box()
        assert box and box["width"] > 100 and box["height"] > 50
    assert page.locator("figure[data-chart=distribution] svg path, figure[data-chart=distribution] svg rect").count() > 5
    assert page.locator("text=Compared with alpaca_7B").count() == 1
    assert page.locator(".sample").count() == 20
    page.screenshot(path=str(artifacts / "dataset_report.png"), full_page=False)
    assert not blocked, blocked
