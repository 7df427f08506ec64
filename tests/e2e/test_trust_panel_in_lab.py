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
    shown = {rows.nth(i).locator(".rw-ds-text").first.get_attribute("title") for i in range(len(want))}  # the id (a reviewed mark may precede it)
    assert shown == want
    widget.scroll_into_view_if_needed()
    kind.locator("[data-testid=confusion]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "trust_panel.png"))
    page.set_viewport_size({"width": 760, "height": 800})  # a narrow pane: the matrix scrolls inside the panel
    confusion = kind.locator("[data-testid=confusion]")
    confusion.scroll_into_view_if_needed()
    panel = widget.locator("[data-testid=run-reviews]").bounding_box()
    wrap = confusion.locator("xpath=..").bounding_box()
    assert wrap["x"] >= panel["x"] - 1 and wrap["x"] + wrap["width"] <= panel["x"] + panel["width"] + 1
    page.screenshot(path=str(artifacts / "trust_panel_760.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    chip.click()
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{N} of {N}", timeout=TIMEOUT)
    expect(chip).to_have_count(0)


TEAM_CELLS = ["import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
              f"t = rw.DatasetExplorer(synthetic_run({N}, seed={SEED}), reviews='team_reviews.jsonl', reviewer='cy')\nt"]


def write_team_reviews(path) -> list[tuple]:
    """ann and bo review the same 20 answer2response labels, bo agreeing two times in three; the
    labels they disagree on, in the order first reviewed."""
    records = synthetic_run(N, seed=SEED)
    rng = np.random.default_rng(1)
    cells = [(r["query_id"], c) for r in records for c in range(len(r["answer2response"]))][:20]
    ann = [LABELS[rng.integers(3)] for _ in cells]
    bo = [a if rng.random() < 2 / 3 else LABELS[rng.integers(3)] for a in ann]
    lines = [Review(q, "answer2response", c, label, reviewer=name).to_json()
             for name, labels in (("ann", ann), ("bo", bo)) for (q, c), label in zip(cells, labels)]
    path.write_text("".join(json.dumps(d) + "\n" for d in lines))
    return [(q, c) for (q, c), a, b in zip(cells, ann, bo) if a != b]


def test_adjudicating_a_disagreement_from_the_keyboard(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    differ = write_team_reviews(root / "team_reviews.jsonl")
    assert len(differ) >= 2
    run_notebook(page, lab, "team_panel.ipynb", TEAM_CELLS)
    widget = page.locator(".rw-dataset").first
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{N} of {N}", timeout=TIMEOUT)
    widget.locator("[data-testid=trust] summary").click()
    expect(widget.locator("[data-testid=reviewer-agreement]")).to_contain_text("ann, bo", timeout=TIMEOUT)
    expect(widget.locator("[data-testid=use]")).to_be_visible()
    widget.locator('[data-tab="adjudicate"]').click()
    rows = widget.locator("[data-testid=disagreement]")
    expect(rows).to_have_count(len(differ), timeout=TIMEOUT)
    rows.first.focus()
    rows.first.press("n")
    expect(rows.first.locator("[data-testid=decision]")).to_have_text("Neutral", timeout=TIMEOUT)
    expect(rows.nth(1)).to_be_focused()
    last = json.loads((root / "team_reviews.jsonl").read_text().splitlines()[-1])
    assert (last["query_id"], last["claim"], last["label"], last["adjudicated"], last["reviewer"]) == (
        differ[0][0], differ[0][1], "Neutral", True, "cy")
    rows.nth(1).click()  # opens the sample in the drill-down
    expect(widget.locator("[data-testid=drill-main] .rw-root")).to_be_visible(timeout=TIMEOUT)
    widget.locator("[data-testid=drawer-adjudicate]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "adjudicate_panel.png"))
    widget.locator("[data-testid=team]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "trust_team.png"))
