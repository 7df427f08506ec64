"""End to end: the failure-modes and mode-checks panels in JupyterLab, headless Chromium at
1280x800 with the file browser open, offline. A run with 20 notes read (two tags, 8 untagged
notes): the modes tab shows each mode's tagged / read; a mode's click filters the table to its
samples (the chip names them); a rename appends lines to the notes file; a proposal of the
untagged notes is accepted under an edited name; a check shows precision and recall.
Screenshots artifacts/modes_table.png, modes_proposals.png, modes_check.png."""

from __future__ import annotations

import json

from test_dataset_in_lab import count_of, run_notebook
from test_harbor_in_lab import TIMEOUT

from ragwidgets.notes import Note

N = 60
DATE, UNSUPPORTED = set("012345"), set("3456789")
UNTAGGED = ["the year is wrong", "wrong year given", "answer cites the wrong year",
            "retrieval missed the passage", "passage missing from retrieval", "no passage retrieved",
            "too long", "rambles"]
CELLS = ["import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
         f"d = rw.DatasetExplorer(synthetic_run({N}, seed=3), notes='modes_notes.jsonl')\nd"]


def write_notes(path) -> None:
    notes = [Note(str(i), f"note on sample {i}", tuple(t for t, on in (("date wrong", str(i) in DATE),
                                                                     ("unsupported", str(i) in UNSUPPORTED)) if on))
             for i in range(10)]
    notes += [Note("10", "", claim=0, tags=("date wrong",)), Note("11", "")]
    notes += [Note(str(12 + i), text) for i, text in enumerate(UNTAGGED)]
    path.write_text("".join(json.dumps(n.to_json()) + "\n" for n in notes))


def test_modes_panel(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    path = root / "modes_notes.jsonl"
    write_notes(path)
    run_notebook(page, lab, "modes_panel.ipynb", CELLS)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    widget = page.locator(".rw-dataset").first
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{N} of {N}", timeout=TIMEOUT)
    widget.locator('[data-tab="modes"]').click()
    table = widget.locator("[data-testid=modes-table]")
    date = table.locator('tr[data-mode="date wrong"]')
    expect(date.locator("[data-testid=mode-count]")).to_have_text("7 / 20", timeout=TIMEOUT)
    expect(table.locator('tr[data-mode="unsupported"] [data-testid=mode-count]')).to_have_text("7 / 20")
    expect(widget.locator("[data-testid=modes-line]")).to_contain_text("20 samples read · 2 modes · 8 untagged notes")
    widget.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "modes_table.png"))

    # a mode's click: the table shows exactly its samples, the chip clears them
    table.locator('tr[data-mode="unsupported"] [data-testid=mode-pick]').click()
    chip = widget.locator("[data-testid=clear-samples]")
    expect(chip).to_have_text("✕ mode: unsupported (7 samples)", timeout=TIMEOUT)
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"7 of {N}", timeout=TIMEOUT)
    assert count_of(widget) == len(UNSUPPORTED)
    chip.click()
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"{N} of {N}", timeout=TIMEOUT)

    # rename inline: new versions appended to the file
    before = len(path.read_text().splitlines())
    date.locator("[data-testid=mode-edit]").click()
    box = table.locator("[data-testid=mode-rename]")
    box.fill("wrong date")
    box.press("Enter")
    expect(table.locator('tr[data-mode="wrong date"] [data-testid=mode-count]')).to_have_text("7 / 20", timeout=TIMEOUT)
    expect(table.locator('tr[data-mode="date wrong"]')).to_have_count(0)
    assert len(path.read_text().splitlines()) == before + 7

    # a proposal of the untagged notes, accepted under an edited name
    widget.locator("[data-testid=propose]").click()
    proposal = widget.locator("[data-testid=proposal]").first
    expect(proposal).to_contain_text("year", timeout=TIMEOUT)
    proposal.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "modes_proposals.png"))
    proposal.locator("[data-testid=proposal-name]").fill("year wrong")
    proposal.locator("[data-testid=proposal-accept]").click()
    expect(table.locator('tr[data-mode="year wrong"] [data-testid=mode-count]')).to_have_text("3 / 20", timeout=TIMEOUT)

    # a check: precision and recall with their intervals
    widget.locator('[data-tab="checks"]').click()
    checks = widget.locator("[data-testid=checks]")
    checks.locator("[data-testid=check-mode]").select_option("unsupported")
    checks.locator("[data-testid=check-expression]").fill("faithfulness < 0.8")
    checks.locator("[data-testid=check-run]").click()
    expect(checks.locator("[data-testid=check-words]")).to_contain_text("catches", timeout=TIMEOUT)
    expect(checks.locator("[data-testid=check-precision]")).to_contain_text("%")
    expect(checks.locator("[data-testid=check-recall]")).to_contain_text("%")
    checks.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "modes_check.png"))
    example = checks.locator("[data-testid=check-example]").first
    qid = example.inner_text()
    example.click()
    expect(widget.locator("[data-testid=drill]")).to_contain_text(qid, timeout=TIMEOUT)


GRID_CELLS = ["import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
              f"g = rw.DatasetExplorer({{'a': synthetic_run({N}, seed=3), 'b': synthetic_run({N}, seed=3)}},\n"
              "                        notes={'a': 'grid_a.jsonl', 'b': 'grid_b.jsonl'})\n"
              "g.start_reading(20)  # run a's reading queue: the design of a's rates over the run\ng"]


def test_modes_by_run_grid(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    write_notes(root / "grid_a.jsonl")
    (root / "grid_b.jsonl").write_text("".join(json.dumps(n.to_json()) + "\n" for n in (
        Note("0", "date", ("date wrong",)), Note("1", "fine"), Note("2", "", ("unsupported",)))))
    run_notebook(page, lab, "modes_grid.ipynb", GRID_CELLS)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    widget = page.locator(".rw-dataset").first
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"of {2 * N}", timeout=TIMEOUT)
    widget.locator('[data-tab="modes"]').click()
    date = widget.locator('[data-testid=modes-table] tr[data-mode="date wrong"] .rw-ds-modes-cell')
    expect(date).to_have_count(2, timeout=TIMEOUT)
    expect(date.nth(0)).to_contain_text("7/20")
    expect(date.nth(0)).to_contain_text("run ")  # a's reading queue: its share of the run
    expect(date.nth(1)).to_contain_text("1/3")
    expect(date.nth(1)).not_to_contain_text("run ")  # b has no design
    widget.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "modes_grid.png"))
    date.nth(1).locator("button").click()
    expect(widget.locator("[data-testid=clear-samples]")).to_have_text("✕ mode: date wrong in b (1 sample)",
                                                                       timeout=TIMEOUT)
    expect(widget.locator("[data-testid=count]")).to_contain_text(f"1 of {2 * N}", timeout=TIMEOUT)
