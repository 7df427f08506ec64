"""End to end: the DatasetExplorer's trust panel in JupyterLab, headless Chromium at 1280x800,
offline. A run with 40 reviewed answer2response labels: open "Can I trust the judge?", click the
confusion cell judge Entailment × reviewer Neutral; the table shows exactly the samples holding
such a label (counted here from the records and the reviews file), the chip names them, and its ✕
shows every sample again. Screenshot artifacts/trust_panel.png."""

from __future__ import annotations

import json

import numpy as np
from test_dataset_in_lab import count_of, run_notebook
from test_harbor_in_lab import TIMEOUT

from ragwidgets.datasets import synthetic_run
from ragwidgets.reviews import Review

N, SEED = 200, 7
LABELS = ("Entailment", "Neutral", "Contradiction")
CELLS = ["import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
         f"d = rw.DatasetExplorer(synthetic_run({N}, seed={SEED}), reviews='trust_reviews.jsonl', reviewer='e2e')\nd"]


def write_reviews(path) -> tuple[set[str], int]:
    """40 random answer2response labels of the run reviewed with random labels; the query_ids
    holding one the judge said Entailment and the reviewer Neutral, and how many such labels."""
    records = synthetic_run(N, seed=SEED)
    rng = np.random.default_rng(0)
    cells = [(r["query_id"], c, r["answer2response"][c]) for r in records for c in range(len(r["answer2response"]))]
    reviews = [(cells[i], LABELS[rng.integers(3)]) for i in rng.choice(len(cells), size=40, replace=False)]
    path.write_text("".join(json.dumps(Review(q, "answer2response", c, label).to_json()) + "\n"
                            for (q, c, _), label in reviews))
    pairs = [q for (q, _, judge), label in reviews if judge == "Entailment" and label == "Neutral"]
    return set(pairs), len(pairs)


def test_a_confusion_cell_filters_the_table(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    want, n_labels = write_reviews(root / "trust_reviews.jsonl")
    assert want
    run_notebook(page, lab, "trust_panel.ipynb", CELLS)
    widget = page.locator(".rw-dataset").first
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{N} of {N}", timeout=TIMEOUT)
    widget.locator("[data-testid=trust] summary").click()
    kind = widget.locator("[data-testid=kind-answer2response]")
    expect(kind.locator("[data-testid=confusion]")).to_be_visible(timeout=TIMEOUT)
    expect(widget.locator("[data-testid=kind-response2answer]")).to_be_visible()
    cell = kind.locator('[data-testid=confusion-cell][data-judge="Entailment"][data-reviewer="Neutral"]')
    expect(cell).to_have_attribute("aria-label", f"judge Entailment, reviewer Neutral: {n_labels} labels in {len(want)} samples")
    cell.click()
    chip = widget.locator("[data-testid=clear-samples]")
    expect(chip).to_have_text(f"✕ answer2response · judge Entailment, reviewer Neutral: {len(want)} samples",
                              timeout=TIMEOUT)
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{len(want)} of {N}", timeout=TIMEOUT)
    assert count_of(widget) == len(want)
    rows = widget.locator("[data-testid=table] [role=row][data-index]")
    expect(rows).to_have_count(len(want), timeout=TIMEOUT)
    expect(rows.first.locator(".rw-ds-text").first).not_to_have_text("…", timeout=TIMEOUT)
    shown = {rows.nth(i).locator(".rw-ds-text").first.inner_text() for i in range(len(want))}
    assert shown == want
    widget.scroll_into_view_if_needed()
    kind.locator("[data-testid=confusion]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "trust_panel.png"))
    chip.click()
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{N} of {N}", timeout=TIMEOUT)
    expect(chip).to_have_count(0)
