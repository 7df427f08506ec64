"""Evidence beside the claim, in a layout that reflows by width (issue 36 item 2): JupyterLab with the
file browser OPEN at 1280x800, 1024x768 and 760x800, headless Chromium, offline.

DatasetExplorer over RAGChecker's example, reviewing on: in the drill-down, select a claim no passage
entails (R2, "Nile stretches approximately 6,650 kilometers") with the keyboard. Element boxes: every
review button of the claims table and the selected claim's evidence lie inside the drill-down pane;
the review controls and the regions around them do not scroll sideways (scrollWidth <= clientWidth);
the claim's buttons, the evidence's head and its closest passage (its shared words marked) are in the
pane's visible part and the viewport at once. The same checks for SampleExplorer at 1280x800 (the
claims stay a table) and 760x800 (they collapse), and for an 80-claim sample in the drill-down.
Screenshots artifacts/evidence_{1280,1024,760}.png, evidence_sample_{1280,760}.png, evidence_big_1280.png.
"""

from __future__ import annotations

import pytest

import json
import re

from e2e_support import big_sample_record, offline_page_sized, settled
from test_dataset_in_lab import run_notebook
from test_harbor_in_lab import TIMEOUT

EXAMPLE = "from importlib import resources\nexample = str(resources.files('ragwidgets.data').joinpath('ragchecker_example.json'))"
DATASET_CELLS = [
    f"import ragwidgets as rw\n{EXAMPLE}",
    "d = rw.DatasetExplorer(example, reviews='evidence_reviews.jsonl', reviewer='e2e', selected=0)\nd",
]
SAMPLE_CELLS = [
    "import ragwidgets as rw",
    "x = rw.SampleExplorer.ragchecker_example(reviews='evidence_sample_reviews.jsonl', reviewer='e2e')\nx",
]
KEY = "claim:R2"  # no passage entails it; passages 000 and 001 name the Nile
# One sample at real size (e2e_support.big_sample_record: 80 claims in a bounded, scrolling table,
# 60 passages, hostile IDs); no passage entails its claim R5 (j = 4), many share its words.
BIG_CELLS = [
    "import json\nimport ragwidgets as rw",
    "d = rw.DatasetExplorer(json.load(open('big.json')), reviews='evidence_big_reviews.jsonl', reviewer='e2e', selected=0)\nd",
]
BIG_KEY = "claim:R5"

# The boxes (left, right, top, bottom) the checks read, from the view `root` holding the claims and
# the `pane` that must hold them: all review buttons, the selected claim's buttons, its evidence,
# the evidence's head and first closest passage, the pane's visible part; and [scrollWidth,
# clientWidth] of each review cell, the claims' table region and every scrolling box up to the pane.
BOXES = """([root, pane, key]) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; };
  const claims = root.querySelector('[data-testid=claims]');
  const row = claims.querySelector(`[data-key="${key}"]`);
  const ev = claims.querySelector(`[data-evidence="${key}"]`);
  const wide = [...claims.querySelectorAll('.rw-review-cell, .rw-table-wrap')];
  for (let e = claims.parentElement; e && e !== pane.parentElement; e = e.parentElement) wide.push(e);
  return {
    pane: box(pane), buttons: [...claims.querySelectorAll('.rw-review-button')].map(box),
    rowButtons: [...row.querySelectorAll('.rw-review-button')].map(box), evidence: box(ev),
    seen: [box(ev.querySelector('.rw-evidence-head')), box(ev.querySelector('[data-testid=closest] .rw-evidence-item'))],
    sideways: wide.map((e) => [e.className, e.scrollWidth, e.clientWidth]),
    viewport: innerHeight,
  };
}"""


def visible_part(pane) -> list[float]:
    """The part of ``pane`` (an element handle) not scrolled away: its box cut by every ancestor that
    clips, below the body (whose overflow is the viewport's), and by the viewport."""
    return pane.evaluate("""e => { let [l, r, t, b] = (({left, right, top, bottom}) => [left, right, top, bottom])(e.getBoundingClientRect());
      for (let a = e; a && a !== document.body; a = a.parentElement) { if (a !== e && getComputedStyle(a).overflow === 'visible') continue;
        const x = a.getBoundingClientRect(); l = Math.max(l, x.left); r = Math.min(r, x.right); t = Math.max(t, x.top); b = Math.min(b, x.bottom); }
      return [l, r, Math.max(t, 0), Math.min(b, innerHeight)]; }""")


def check_boxes(page, root, pane, seen_in, key: str, label: str) -> dict:
    """Assert the layout claims of this module for ``root``'s selected claim ``key`` inside ``pane``,
    the buttons and evidence to be seen inside ``seen_in`` (the pane's scrolling part)."""
    got = page.evaluate(BOXES, [root.element_handle(), pane.element_handle(), key])
    left, right = got["pane"][0] - 0.5, got["pane"][1] + 0.5
    outside = [b for b in got["buttons"] + [got["evidence"]] if b[0] < left or b[1] > right]
    assert got["buttons"] and not outside, f"{label}: outside the pane {got['pane']}: {outside}"
    scrolled = [s for s in got["sideways"] if s[1] > s[2]]
    assert not scrolled, f"{label}: these scroll sideways: {scrolled}"
    l, r, t, b = visible_part(seen_in.element_handle())
    unseen = [x for x in got["rowButtons"] + got["seen"] if x[2] < t - 0.5 or x[3] > b + 0.5 or x[0] < l - 0.5 or x[1] > r + 0.5]
    assert got["rowButtons"] and not unseen, f"{label}: not in the visible part {[l, r, t, b]}: {unseen}"
    return got


def select_unsupported(page, view, key: str, word: str | None):
    """Select the claim ``key`` with the keyboard (focus its row, Enter) and wait for its evidence,
    drawn and scrolled to; ``word`` (if given) is marked in its closest passage, some word is."""
    from playwright.sync_api import expect
    row = view.locator(f'[data-testid=claims] [data-key="{key}"]')
    row.focus()
    row.press("Enter")
    expect(row).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    evidence = view.locator(f'[data-evidence="{key}"]')
    closest = evidence.locator("[data-testid=closest] .rw-evidence-item")
    expect(closest.first).to_be_visible(timeout=TIMEOUT)
    settled(evidence)
    assert "Closest retrieved passages" in evidence.locator("[data-testid=closest-head]").inner_text()
    marks = closest.first.locator("mark").all_inner_texts()
    assert marks and (word is None or word in marks), marks
    return evidence


def open_lab(page, lab, name: str, cells: list[str], width: int, height: int):
    from playwright.sync_api import expect
    run_notebook(page, lab, name, cells)
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    expect(page.locator(".jp-FileBrowser").first).to_be_visible(timeout=TIMEOUT)


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768), (760, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_evidence_beside_the_claim_in_the_drill_down(lab, browser, artifacts, size):
    from playwright.sync_api import expect
    width, height = size
    with offline_page_sized(browser, width, height) as p:
        page = p.page
        open_lab(page, lab, f"evidence_{width}.ipynb", DATASET_CELLS, width, height)
        widget = page.locator(".rw-dataset").first
        drill = widget.locator("[data-testid=drill]")
        main = drill.locator("[data-testid=drill-main]")
        expect(main.locator(f'[data-key="{KEY}"] .rw-review-button').first).to_be_visible(timeout=3 * TIMEOUT)
        widget.evaluate("e => e.closest('.jp-Cell').scrollIntoView({ block: 'start' })")
        settled(drill)
        select_unsupported(page, main, KEY, "Nile")
        page.screenshot(path=str(artifacts / f"evidence_{width}.png"))
        check_boxes(page, main, drill, drill.locator(".rw-ds-drill-views"), KEY, f"drill-down at {width}x{height}")
        assert not p.errors, p.errors


@pytest.mark.parametrize("width", [1280, 760])
def test_evidence_beside_the_claim_in_the_sample_explorer(lab, browser, artifacts, width):
    """At 1280 the claims stay a table (wide enough), at 760 they collapse."""
    from playwright.sync_api import expect
    with offline_page_sized(browser, width, 800) as p:
        page = p.page
        open_lab(page, lab, f"evidence_sample_{width}.ipynb", SAMPLE_CELLS, width, 800)
        view = page.locator(".rw-widget .rw-root").first
        expect(view.locator(f'[data-key="{KEY}"] .rw-review-button').first).to_be_visible(timeout=3 * TIMEOUT)
        select_unsupported(page, view, KEY, "Nile")
        page.screenshot(path=str(artifacts / f"evidence_sample_{width}.png"))
        check_boxes(page, view, view, view, KEY, f"SampleExplorer at {width}x800")
        head = view.locator("[data-testid=claims] thead").evaluate("e => e.getBoundingClientRect().height")
        assert (head > 10) == (width == 1280), f"the claims table's header at {width}: {head} px high"
        assert not p.errors, p.errors


def test_evidence_beside_a_claim_of_a_sample_at_real_size(lab, browser, artifacts):
    """80 claims (a bounded table region that scrolls, its header sticky) at 1280x800."""
    from playwright.sync_api import expect
    _, _, root = lab
    (root / "big.json").write_text(json.dumps([big_sample_record()]))
    with offline_page_sized(browser, 1280, 800) as p:
        page = p.page
        open_lab(page, lab, "evidence_big.ipynb", BIG_CELLS, 1280, 800)
        widget = page.locator(".rw-dataset").first
        drill = widget.locator("[data-testid=drill]")
        main = drill.locator("[data-testid=drill-main]")
        expect(main.locator(f'[data-key="{BIG_KEY}"] .rw-review-button').first).to_be_visible(timeout=3 * TIMEOUT)
        widget.evaluate("e => e.closest('.jp-Cell').scrollIntoView({ block: 'start' })")
        settled(drill)
        evidence = select_unsupported(page, main, BIG_KEY, None)
        expect(evidence.locator("[data-testid=closest-all]")).to_have_text(re.compile(r"^show all \d+$"))
        page.screenshot(path=str(artifacts / "evidence_big_1280.png"))
        check_boxes(page, main, drill, main.locator("[data-testid=claims] .rw-scroll"), BIG_KEY, "80 claims at 1280x800")
        assert not p.errors, p.errors
