"""End to end: notebooks/06_review_a_run.ipynb in JupyterLab, headless Chromium at 1280x800 with
the file browser open, offline. Run All; the DatasetExplorer says the queue is done ("30 of 30")
and names its reviews file; the trust panel shows only the label kind the run has
(retrieved2response: no ground truth here), and its cell "judge Entailment, reviewer Neutral"
filters the table to exactly the queued answers where the judge found a hallucinated answer
supported (worked out here from the data, the judge and the seeded queue). Screenshots
artifacts/notebook_06_*.png."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
from test_dataset_in_lab import count_of
from e2e_support import settled
from test_harbor_in_lab import TIMEOUT, open_and_run

import ragwidgets as rw
from ragwidgets.analysis import review_queue
from ragwidgets.judges import LexicalJudge
from ragwidgets.model import LABEL_CODES

ROOT = Path(__file__).resolve().parents[2]
N = 1000


def missed_hallucinations() -> set[str]:
    """The queued answers (30, seed 0) that are hallucinated but the judge found supported."""
    records = rw.datasets.halueval_qa(n=N, seed=0)
    truth = {r["query_id"]: r["hallucinated"] for r in records}
    scorer = rw.RagChecker(target_column=None, context_column="retrieved_context", scores_to_compute=["faithfulness"])
    scores = rw.evaluate(scorer.score(records, LexicalJudge()).records)
    queued = review_queue(scores, 30, seed=0).query_ids
    return {q for q in queued if truth[q] and (np.asarray(scores.samples[scores.sample_index(q)].retrieved2response)
                                               == LABEL_CODES["Entailment"]).any()}


def test_notebook_06_reviews_a_run_in_jupyterlab(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    want = missed_hallucinations()
    assert want
    shutil.copy(ROOT / "ragwidgets" / "tutorials" / "06_review_a_run.ipynb", root)
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 800})
    open_and_run(offline_page, lab, "06_review_a_run.ipynb", widgets=1)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    widget = page.locator(".rw-dataset").first
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{N:,} of {N:,}", timeout=TIMEOUT)
    queue = widget.locator("[data-testid=queue]")
    expect(queue.locator("[data-testid=queue-progress]")).to_contain_text("30 of 30", timeout=TIMEOUT)
    expect(queue.locator("[data-testid=queue-file]")).to_contain_text("reviews.jsonl")
    expect(queue.locator("[data-testid=queue-interval]")).to_contain_text("more for ±0.05", timeout=TIMEOUT)
    widget.scroll_into_view_if_needed()
    settled(widget)
    page.screenshot(path=str(artifacts / "notebook_06_queue.png"))

    widget.locator("[data-testid=trust] summary").click()
    kind = widget.locator("[data-testid=kind-retrieved2response]")
    expect(kind.locator("[data-testid=confusion]")).to_be_visible(timeout=TIMEOUT)
    for absent in ("answer2response", "response2answer", "retrieved2answer"):
        expect(widget.locator(f"[data-testid=kind-{absent}]")).to_have_count(0)
    cell = kind.locator('[data-testid=confusion-cell][data-judge="Entailment"][data-reviewer="Neutral"]')
    cell.click()
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{len(want)} of {N:,}", timeout=TIMEOUT)
    assert count_of(widget) == len(want)
    rows = widget.locator("[data-testid=table] [role=row][data-index]")
    expect(rows).to_have_count(len(want), timeout=TIMEOUT)
    expect(rows.first.locator(".rw-ds-text").first).not_to_have_text("…", timeout=TIMEOUT)
    assert {rows.nth(i).locator(".rw-ds-text").first.get_attribute("title") for i in range(len(want))} == want
    kind.locator("[data-testid=confusion]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "notebook_06_trust.png"))
    assert not offline_page.blocked and not offline_page.errors, (offline_page.blocked, offline_page.errors)
