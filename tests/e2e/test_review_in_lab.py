"""End to end: reviewing the judge's labels with the keyboard in JupyterLab, headless Chromium at
1280x800, offline. In SampleExplorer (RAGChecker's example) and in DatasetExplorer's drill-down:
focus a claim row or a matrix cell, press a label key; the metrics and the "after N reviews" line
change, the judge's label shows struck through beside the reviewer's, and the reviews file holds
the line. Screenshots in artifacts/."""

from __future__ import annotations

import json

from test_dataset_in_lab import run_notebook
from test_harbor_in_lab import TIMEOUT

SAMPLE_CELLS = [
    "import ragwidgets as rw\nfrom ragwidgets.judges import LexicalJudge\n"
    "x = rw.SampleExplorer.ragchecker_example(reviews='sample_reviews.jsonl', reviewer='e2e', judge=LexicalJudge())\nx",
]
DATASET_CELLS = [
    "import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
    "d = rw.DatasetExplorer(synthetic_run(300, seed=7), reviews='run_reviews.jsonl', reviewer='e2e', selected=0)\nd",
]


def reviews_in(root, name: str) -> list[dict]:
    path = root / name
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_review_with_the_keyboard_in_the_sample_explorer(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    run_notebook(page, lab, "review_sample.ipynb", SAMPLE_CELLS)
    view = page.locator(".rw-widget .rw-root").first
    expect(view.locator("[data-testid=review-changes]")).to_contain_text("Review the judge", timeout=TIMEOUT)
    precision = view.locator('[data-metric="precision"] [data-testid=value]')
    expect(precision).to_have_text("0.727")
    row = view.locator('[data-key="claim:R1"]')
    row.focus()
    row.press("e")  # R1 against the ground truth: the judge said Neutral
    expect(view.locator("[data-testid=review-changes]")).to_contain_text("after 1 review", timeout=TIMEOUT)
    expect(row.locator(".rw-overruled")).to_have_text("· Neutral → ● Entailment (reviewer)")
    expect(row.locator(".rw-overruled s")).to_have_text("· Neutral")
    # a matrix cell: click it, then C; the precision card moves and says what it was
    matrix_row = view.locator('.rw-matrix tr[data-row="claim:R2"]')
    matrix_row.locator('td[data-col="1"]').click()
    expect(view.locator("[data-testid=review-bar]")).to_contain_text("R2 × 001")
    matrix_row.press("c")
    expect(view.locator("[data-testid=review-changes]")).to_contain_text("after 2 reviews", timeout=TIMEOUT)
    expect(view.locator("[data-testid=review-changes]")).to_contain_text("Precision 0.727 → 0.818")
    expect(precision).to_have_text("0.818")
    expect(view.locator('[data-metric="precision"] [data-testid=judge-value]')).to_have_text("judge's labels: 0.727")
    expect(matrix_row.locator('td[data-col="1"] s')).to_have_text("·")
    lines = reviews_in(root, "sample_reviews.jsonl")
    assert [(r["kind"], r["claim"], r.get("doc_id"), r["label"], r["judge_label"], r["reviewer"]) for r in lines] == [
        ("answer2response", 0, None, "Entailment", "Neutral", "e2e"),
        ("retrieved2response", 1, "001", "Contradiction", "Neutral", "e2e")]
    view.locator("[data-testid=review]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "review_sample_1280x800.png"))
    matrix_row.press("w")  # why the judge said it: its trace, as text
    expect(view.locator("[data-testid=trace]")).to_contain_text("Why the judge said it", timeout=TIMEOUT)
    expect(view.locator("[data-testid=trace] pre").first).not_to_be_empty()
    view.locator("[data-testid=trace]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "review_trace_1280x800.png"))
    matrix_row.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "review_sample_matrix_1280x800.png"))


def test_review_with_the_keyboard_in_the_drill_down(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    run_notebook(page, lab, "review_dataset.ipynb", DATASET_CELLS)
    widget = page.locator(".rw-dataset").first
    drill = widget.locator("[data-testid=drill-main]")
    expect(drill.locator(".rw-root")).to_be_visible(timeout=TIMEOUT)
    expect(widget.locator("[data-testid=run-reviews]")).to_contain_text("No label reviewed yet")
    row = drill.locator('[data-key="claim:R1"]')
    row.focus()
    row.press("u")  # no passage supports R1: its whole row Neutral
    expect(drill.locator("[data-testid=review-changes]")).to_contain_text("review", timeout=TIMEOUT)
    expect(widget.locator("[data-testid=run-review-line]")).to_contain_text("after", timeout=TIMEOUT)
    n_passages = drill.locator(".rw-matrix thead th.rw-matrix-col").first.evaluate(
        "th => th.closest('table').querySelectorAll('thead th.rw-matrix-col').length")
    expect(widget.locator("[data-testid=run-review-line]")).to_contain_text(f"after {n_passages} reviews")
    expect(drill.locator('[data-key="claim:R1"]')).to_contain_text("✗ Unfaithful")
    lines = reviews_in(root, "run_reviews.jsonl")
    assert len(lines) == n_passages and {r["kind"] for r in lines} == {"retrieved2response"}
    assert {r["label"] for r in lines} == {"Neutral"} and {r["claim"] for r in lines} == {0}
    widget.locator("[data-testid=trust] summary").click()
    expect(widget.locator("[data-testid=agreement]")).to_be_visible(timeout=TIMEOUT)
    expect(widget.locator("[data-testid=corrected]")).to_contain_text("Undefined")
    widget.locator("[data-testid=run-reviews]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "review_dataset_trust_1280x800.png"))
    drill.locator('[data-key="claim:R1"]').scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "review_drill_1280x800.png"))
