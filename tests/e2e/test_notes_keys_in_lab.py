"""End to end (issue 37 item 1): failure notes written from the keyboard in the DatasetExplorer, in
JupyterLab with the file browser open, headless Chromium at 1280x800, offline.
``ex.start_reading(5, where=...)`` opens the first failing sample; one click on the explorer, then
only keys: m focuses the note box, a note and its tags are typed, Enter saves and the next sample
of the queue opens (the reading line moves on, the file gains the line); 5 notes in 5 Enters. A
claim's note from its row's "✎ note" (the box opens on the claim); going back to a sample shows its note again; a refused
note (a tag too long) stays in the box with the reason. Screenshots in artifacts/notes_*.png."""

from __future__ import annotations

import json

from test_dataset_in_lab import run_notebook
from test_harbor_in_lab import TIMEOUT


def record(i: int) -> dict:
    """A sample with two response claims and one passage; every third one's first claim unsupported."""
    label = "Neutral" if i % 3 else "Entailment"
    return {"query_id": f"q{i}", "query": f"Question {i}?", "gt_answer": f"Answer {i}.",
            "response": f"Reply {i}. More {i}.",
            "retrieved_context": [{"doc_id": f"d{i}", "text": f"Passage {i}."}],
            "response_claims": [["reply", "is", str(i)], ["more", "is", str(i)]],
            "gt_answer_claims": [["answer", "is", str(i)]],
            "answer2response": [label, "Entailment"], "response2answer": ["Neutral"],
            "retrieved2response": [[label], ["Entailment"]], "retrieved2answer": [["Neutral"]]}


CELLS = [
    "import ragwidgets as rw",
    f"records = {json.dumps([record(i) for i in range(12)])}\n"
    "ex = rw.DatasetExplorer(records, notes='notes.jsonl', author='e2e')\n"
    "queue = ex.start_reading(6, where='precision < 1', seed=1)\nex",
]


def shown_id(hint) -> str:
    """The drilled sample's query_id from the drill bar's "run · q3 · row 2 of 8"."""
    return next(p for p in hint.inner_text().split(" · ") if p.startswith("q"))


def read_lines(root) -> list[dict]:
    path = root / "notes.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def test_five_notes_in_five_enters_a_claim_note_and_a_note_shown_again(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    run_notebook(page, lab, "notes_keys.ipynb", CELLS)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    expect(page.locator(".jp-FileBrowser").first).to_be_visible(timeout=TIMEOUT)
    widget = page.locator(".rw-dataset").first
    line = widget.locator("[data-testid=reading-line]")
    expect(line).to_have_text("Reading 1 of 6 failing (where precision < 1, random) · 0 read · 0 tagged",
                              timeout=TIMEOUT)
    expect(widget.locator("[data-testid=reading-file]")).to_have_text("Saved to notes.jsonl")
    box = widget.locator("[data-testid=note-text]")
    tags = widget.locator("[data-testid=note-tags]")
    hint = widget.locator(".rw-ds-drill-bar .rw-hint")
    expect(box).to_be_visible(timeout=TIMEOUT)
    widget.scroll_into_view_if_needed()

    widget.locator("[data-testid=count]").click()  # the one click: the explorer has the keys
    page.keyboard.press("m")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "note-text"
    opened = []
    for k in range(5):
        expect(hint).to_contain_text("q", timeout=TIMEOUT)
        opened.append(shown_id(hint))
        page.keyboard.type(f"note {k}: the reply is off" + (" (dd mm aa bb x z)" if k == 4 else ""))
        if k % 2 == 0:
            page.keyboard.press("Tab")  # the tags field (Tab is the host's: focus moves on)
            page.keyboard.type("wrong number, off topic" if k == 0 else "wrong number")
        if k == 0:
            page.screenshot(path=str(artifacts / "notes_typing_1280x800.png"))
        page.keyboard.press("Enter")
        expect(line).to_contain_text(f"Reading {min(k + 2, 6)} of 6", timeout=TIMEOUT)
        expect(line).to_contain_text(f"{k + 1} read", timeout=TIMEOUT)
        assert page.evaluate("() => document.activeElement.dataset.testid") == "note-text"  # ready for the next
    lines = read_lines(root)
    assert [x["query_id"] for x in lines] == opened
    assert [x["note"] for x in lines] == [f"note {k}: the reply is off" for k in range(4)] + [
        "note 4: the reply is off (dd mm aa bb x z)"]
    cells = "() => window.jupyterapp.shell.currentWidget.content.widgets.map((c) => c.model.type).join()"
    assert page.evaluate(cells) == "code,code"  # JupyterLab's command keys typed in the box did nothing there
    assert [x["tags"] for x in lines[:3]] == [["wrong number", "off topic"], [], ["wrong number"]]
    assert {x["author"] for x in lines} == {"e2e"}
    expect(line).to_contain_text("3 tagged")
    page.screenshot(path=str(artifacts / "notes_after_five_1280x800.png"))

    # a claim's note: claim 2's row control opens the box on it, focused; then Enter
    shown = shown_id(hint)
    widget.locator("[data-testid=drill-main] [data-testid=claim-note]").nth(1).click()
    expect(widget.locator("[data-testid=note-on]")).to_have_value("1", timeout=TIMEOUT)
    assert page.evaluate("() => document.activeElement.dataset.testid") == "note-text"
    page.keyboard.type("this claim is invented")
    page.keyboard.press("Enter")
    expect(line).to_contain_text("6 read", timeout=TIMEOUT)
    last = read_lines(root)[-1]
    assert last["query_id"] == shown and last["claim"] == 1 and last["note"] == "this claim is invented"
    assert last["claim_text"]

    # back to the first sample: its note and tags are shown again
    back = widget.locator("button[title='Previous to read']")
    for k in range(5):
        back.click()
        expect(line).to_contain_text(f"Reading {5 - k} of 6", timeout=TIMEOUT)
    expect(box).to_have_value("note 0: the reply is off", timeout=TIMEOUT)
    expect(tags).to_have_value("wrong number, off topic")
    expect(widget.locator("[data-testid=note-tag-chip]")).to_have_count(2)
    page.screenshot(path=str(artifacts / "notes_reopened_1280x800.png"))

    # a refused note stays in the box, with the reason; nothing written
    before = len(read_lines(root))
    tags.click()
    page.keyboard.press("End")
    page.keyboard.type(", " + "x" * 81)
    box.click()
    page.keyboard.press("End")
    page.keyboard.type(" (edited)")
    page.keyboard.press("Enter")
    expect(widget.locator("[data-testid=note-error]")).to_contain_text("tag", timeout=TIMEOUT)
    expect(box).to_have_value("note 0: the reply is off (edited)")
    expect(line).to_contain_text("Reading 1 of 6")
    assert len(read_lines(root)) == before
    page.screenshot(path=str(artifacts / "notes_refused_1280x800.png"))


SAMPLE_CELLS = [
    "import ragwidgets as rw",
    f"records = {json.dumps([record(i) for i in range(3)])}\n"
    "sx = rw.SampleExplorer(records, notes='sample_notes.jsonl', reviewer='e2e')\nsx",
]


def test_the_sample_explorers_note_box_from_the_keyboard(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    page = offline_page.page
    run_notebook(page, lab, "sample_notes.ipynb", SAMPLE_CELLS)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    widget = page.locator(".rw-widget").first
    box = widget.locator("[data-testid=note-text]")
    expect(box).to_be_visible(timeout=TIMEOUT)
    expect(widget.locator("[data-testid=state]")).to_contain_text("q0", timeout=TIMEOUT)
    widget.locator("[data-testid=summary]").click()  # the one click
    page.keyboard.press("m")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "note-text"
    page.keyboard.type("answers a different question")
    page.keyboard.press("Tab")
    page.keyboard.type("off topic")
    page.keyboard.press("Enter")
    expect(widget.locator("[data-testid=state]")).to_contain_text("q1", timeout=TIMEOUT)
    lines = [json.loads(x) for x in (root / "sample_notes.jsonl").read_text().splitlines()]
    assert [(x["query_id"], x["note"], x["tags"], x["author"]) for x in lines] == [
        ("q0", "answers a different question", ["off topic"], "e2e")]
    expect(widget.locator("[data-testid=note-tag-chip]")).to_have_text(["off topic"])
    widget.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "notes_sample_explorer_1280x800.png"))
