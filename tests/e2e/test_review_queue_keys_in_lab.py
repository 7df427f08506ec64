"""End to end (issue 36 item 1): a review queue in the DatasetExplorer, reviewed from the
keyboard in JupyterLab, headless Chromium at 1280x800, offline. ``ex.start_review(3)`` over a run
of small samples (4 labels each: the claim against the ground truth, the ground-truth claim
against the response, and each against the one passage); one click ("Next label to review"), then
only label keys: each key reviews the focused label and focus goes to the next; after a sample's
last label the next queued sample opens with its first label focused. 10 labels take 10 key
presses (≤ 20 asked), no Tab, no click after the first; the reviews file holds 10 lines; the
table marks the reviewed rows (✓ every label, ◐ some); ] and [ step the queue, j / k the table's
rows from inside the drill-down. Screenshot in artifacts/."""

from __future__ import annotations

import json

from test_dataset_in_lab import run_notebook
from test_harbor_in_lab import TIMEOUT


def record(i: int) -> dict:
    """A sample with one response claim, one ground-truth claim and one passage: 4 labels."""
    return {"query_id": f"q{i}", "query": f"Question {i}?", "gt_answer": f"Answer {i}.", "response": f"Reply {i}.",
            "retrieved_context": [{"doc_id": f"d{i}", "text": f"Passage {i}."}],
            "response_claims": [["reply", "is", str(i)]], "gt_answer_claims": [["answer", "is", str(i)]],
            "answer2response": ["Entailment"], "response2answer": ["Neutral"],
            "retrieved2response": [["Entailment"]], "retrieved2answer": [["Neutral"]]}


CELLS = [
    "import ragwidgets as rw",
    f"records = {json.dumps([record(i) for i in range(6)])}\n"
    "ex = rw.DatasetExplorer(records, reviews='queue_reviews.jsonl', reviewer='e2e')\n"
    "queue = ex.start_review(3, seed=1)\nex",
]


def test_ten_labels_of_a_queue_of_three_samples_in_ten_key_presses(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    run_notebook(page, lab, "review_queue.ipynb", CELLS)
    widget = page.locator(".rw-dataset").first
    line = widget.locator("[data-testid=queue]")
    expect(line.locator("[data-testid=queue-progress]")).to_have_text("0 of 3 reviewed", timeout=TIMEOUT)
    expect(line.locator("[data-testid=queue-file]")).to_have_text("Saved to queue_reviews.jsonl")
    drill = widget.locator("[data-testid=drill-main]")
    expect(drill.locator(".rw-root")).to_be_visible(timeout=TIMEOUT)
    expect(line).to_contain_text("sample 1 of 3")
    first = line.inner_text().split("(")[-1].split(")")[0]  # the queued sample's query_id
    expect(drill.locator("[data-testid=state]")).to_contain_text(first)

    drill.locator("[data-testid=next-label]").click()  # the one click
    presses = 0
    expected = ["claim:R1", "gt:G1", "claim:R1", "gt:G1"]  # claim row, ground-truth row, then their matrix rows
    for k in range(10):
        sample, at = divmod(k, 4)
        focused = page.evaluate("() => { const a = document.activeElement;"
                                " return a ? (a.dataset.key || a.dataset.row || a.tagName) : null; }")
        assert focused == expected[at], (k, focused)
        if at >= 2:  # a matrix row: its cursor is on the one passage
            assert page.evaluate("() => !!document.activeElement.querySelector('td.rw-cursor')")
        page.keyboard.press("e")
        presses += 1
        if at == 3:  # the sample's last label: the next queued sample opens, its first label focused
            expect(line).to_contain_text(f"sample {sample + 2} of 3", timeout=TIMEOUT)
            expect(line.locator("[data-testid=queue-progress]")).to_have_text(f"{sample + 1} of 3 reviewed")
        expect(widget.locator("[data-testid=review-changes]").first).to_contain_text(
            f"after {k % 4 + 1} review" if at < 3 else "Review the judge", timeout=TIMEOUT)
    assert presses == 10 <= 20
    lines = [json.loads(x) for x in (root / "queue_reviews.jsonl").read_text().splitlines()]
    assert len(lines) == 10 and {x["reviewer"] for x in lines} == {"e2e"}
    assert [x["kind"] for x in lines[:4]] == ["answer2response", "response2answer", "retrieved2response",
                                              "retrieved2answer"]
    expect(line.locator("[data-testid=queue-interval]")).not_to_have_text("interval …", timeout=TIMEOUT)
    table = widget.locator("[data-testid=table]")  # the table marks the reviewed rows: 2 whole, 1 partly
    expect(table.locator("[data-reviewed=all]")).to_have_count(2, timeout=TIMEOUT)
    expect(table.locator("[data-reviewed=some]")).to_have_count(1)
    widget.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "review_queue_keys_1280x800.png"))

    # ] and [ along the queue; j / k step the table's rows while focus is in the drill-down
    page.keyboard.press("[")
    expect(line).to_contain_text("sample 2 of 3", timeout=TIMEOUT)
    page.keyboard.press("]")
    expect(line).to_contain_text("sample 3 of 3", timeout=TIMEOUT)
    hint = widget.locator(".rw-ds-drill-bar .rw-hint")
    before = hint.inner_text()
    assert page.evaluate("() => !!document.activeElement.closest('[data-testid=drill-main]')")
    page.keyboard.press("j")
    expect(hint).not_to_have_text(before, timeout=TIMEOUT)
