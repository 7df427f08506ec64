"""DatasetExplorer's workspace in JupyterLab, headless Chromium, offline (issue 19).

- At 1280 x 800 with the file browser open (and at 1600 x 1000), light and dark: on the samples
  with some faithfulness (at 0 no claim has a passage behind it), the three-click task (sort by
  faithfulness, click the worst row, click a failing claim) leaves the clicked row,
  the selected claim and every passage behind it within the viewport at once, and the page did
  not scroll (element boxes, not only screenshots); at 1600 x 1000 the workspace is no smaller.
- Defect 1 (Run All: display the explorer, set ``e.expression`` in the next cell), run 20 times:
  every time the table shows the filtered rows and the filter box the kernel's expression.
- A metric's first click sorts worst first (hallucination: highest first); columns chosen in the
  Columns tab reach the trait and the table; the filtered rows written as CSV from the Save ·
  export tab; a query_id copied (or selected for Ctrl+C).
- Defect 5: moving up with k, the selected row is never under the sticky header.
- Defect 9: seven runs' summary and comparison scroll inside their panel, every run reachable.
Screenshots in artifacts/.
"""

from __future__ import annotations

import re

import pytest

from e2e_support import lab_theme, offline_page_sized, settled
from test_dataset_in_lab import run_notebook
from test_harbor_in_lab import TIMEOUT

TASK_CELLS = [
    "import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
    "e = rw.DatasetExplorer(synthetic_run(2000, seed=3), chart_metric='faithfulness')\ne",
]

# Whole within the viewport's height, and starting within its width (a wide row's end may be
# scrolled sideways inside its table; its start, where the ID is, is what must be seen).
IN_VIEW = """(els) => els.map((e) => { const r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.left < innerWidth - 40; })"""


def click_at(page, locator) -> None:
    """Click where the element is on screen, as a person does (Playwright's own click scrolls
    the page to the element first, which is what these tests must see does not happen)."""
    box = locator.bounding_box()
    page.mouse.click(box["x"] + min(box["width"] / 2, 30), box["y"] + box["height"] / 2)


def sideways(table, column: str) -> None:
    """Scroll the table sideways until ``column``'s header is just right of the sticky columns."""
    table.locator(".rw-ds-scroll").evaluate(
        """(e, key) => { const stuck = [...e.querySelectorAll('.rw-ds-head > .rw-ds-stick')].pop();
                         const h = e.querySelector(`.rw-ds-head [data-col="${key}"]`);
                         e.scrollLeft = h.offsetLeft - (stuck.offsetLeft + stuck.offsetWidth + 8); }""", column)


@pytest.fixture(params=[(1280, 800), (1600, 1000)], ids=lambda s: f"{s[0]}x{s[1]}")
def sized(browser, request):
    with offline_page_sized(browser, *request.param) as page:
        yield page, request.param


def open_task(page, lab, name, width, height):
    run_notebook(page, lab, name, TASK_CELLS)
    page.set_viewport_size({"width": width, "height": height})
    from playwright.sync_api import expect
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    expect(page.locator(".jp-FileBrowser").first).to_be_visible(timeout=TIMEOUT)
    explorer = page.locator(".rw-dataset").first
    expect(explorer.locator('[data-testid=table] [data-index="0"] .rw-num').first).not_to_have_text("…", timeout=3 * TIMEOUT)
    explorer.evaluate("e => e.closest('.jp-Cell').scrollIntoView({ block: 'start' })")  # the cell as it ran
    settled(explorer)
    return explorer


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_three_click_task_fits_the_screen(lab, sized, artifacts, theme):
    from playwright.sync_api import expect
    p, (width, height) = sized
    page = p.page
    explorer = open_task(page, lab, f"workspace_{theme}_{width}.ipynb", width, height)
    if theme == "dark":
        lab_theme(page, "dark", TIMEOUT)
        explorer.evaluate("e => e.closest('.jp-Cell').scrollIntoView({ block: 'start' })")
    size = f"{width}x{height}_{theme}"
    page.screenshot(path=str(artifacts / f"workspace_first_screen_{size}.png"))
    top = explorer.evaluate("e => e.getBoundingClientRect().top")
    work = explorer.locator("[data-testid=workspace]")
    box = work.bounding_box()
    drill_box = explorer.locator("[data-testid=drill]").bounding_box()
    table_box = explorer.locator("[data-testid=table]").bounding_box()
    assert drill_box["x"] > table_box["x"] + table_box["width"] - 1, "the drill-down beside the table"
    assert box["y"] + box["height"] <= height, "the workspace fits the viewport"

    # a sample some passage supports (faithfulness 0: no claim of it has a passage behind it)
    explorer.locator("[data-testid=expression]").fill("faithfulness > 0")
    explorer.locator("[data-testid=expression]").press("Enter")
    expect(explorer.locator("[data-testid=count]")).not_to_contain_text("2,000 of", timeout=TIMEOUT)
    # 1: sort by faithfulness, worst (lowest) first on the first click
    table = explorer.locator("[data-testid=table]")
    sideways(table, "faithfulness")
    click_at(page, table.locator('[data-col="faithfulness"]'))
    expect(table.locator('[data-col="faithfulness"]')).to_contain_text("▲", timeout=TIMEOUT)
    column = [c.get_attribute("data-col") for c in table.locator("[role=columnheader]").all()].index("faithfulness")
    cell = table.locator('[data-index="0"] > span').nth(column)
    expect(cell).not_to_have_text("…", timeout=TIMEOUT)
    worst = float(cell.inner_text())
    assert all(float(t) >= worst for t in [table.locator(f'[data-index="{i}"] > span').nth(column).inner_text()
                                           for i in range(1, 6)] if t not in ("Undef", "n/c", "…"))
    # 2: the worst row
    row = table.locator('[data-index="0"]')
    click_at(page, row.locator("span").first)
    expect(row).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    drill = explorer.locator("[data-testid=drill-main]")
    chips = drill.locator("[data-testid=failing] li button:not(.rw-more-count)")
    expect(chips.first).to_be_visible(timeout=TIMEOUT)
    # 3: a failing claim (the first one the list offers that some passage entails or contradicts)
    for name in [c.strip() for c in chips.all_inner_texts() if c.strip().startswith("R")]:
        chip = drill.locator("[data-testid=failing] li button", has_text=name).first
        chip.evaluate("e => e.scrollIntoView({ block: 'nearest' })")  # within the drill-down's own scroll
        click_at(page, chip)
        key = f"claim:{name}"
        expect(drill.locator(f"[data-key='{key}']")).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
        evidence = drill.locator(f"[data-evidence='{key}']")
        expect(evidence).to_be_visible(timeout=TIMEOUT)
        if evidence.locator(".rw-evidence-item").count():
            break
    settled(evidence)
    page.screenshot(path=str(artifacts / f"workspace_three_clicks_{size}.png"))
    items = evidence.locator(".rw-evidence-item")
    boxes = page.evaluate_handle(
        "([key]) => { const root = document.querySelector('.rw-dataset');"
        " return [root.querySelector('[data-testid=table] [aria-selected=true] > span'),"
        " root.querySelector(`[data-testid=drill-main] [data-key='${key}'] > td`),"
        " root.querySelector(`[data-evidence='${key}'] .rw-evidence-head`),"
        " ...root.querySelectorAll(`[data-evidence='${key}'] .rw-evidence-item`)]; }", [key])
    visible = page.evaluate(IN_VIEW, boxes)
    assert items.count() > 0 and len(visible) == 3 + items.count()
    assert all(visible), visible
    assert abs(explorer.evaluate("e => e.getBoundingClientRect().top") - top) < 1, "the page scrolled"


def test_more_fits_at_1600_than_at_1280(lab, browser):
    heights = {}
    for width, height in ((1280, 800), (1600, 1000)):
        with offline_page_sized(browser, width, height) as p:
            explorer = open_task(p.page, lab, f"workspace_size_{width}.ipynb", width, height)
            work = explorer.locator("[data-testid=workspace]").bounding_box()
            rows = explorer.locator("[data-testid=table] .rw-ds-scroll").evaluate("e => e.clientHeight")
            heights[width] = (work["width"], work["height"], rows)
    assert all(b >= a for a, b in zip(heights[1280], heights[1600])), heights


def test_sort_direction_and_column_choice(lab, browser, artifacts):
    from playwright.sync_api import expect
    with offline_page_sized(browser, 1280, 800) as p:
        sort_and_choose_columns(p.page, lab, artifacts, expect)


def sort_and_choose_columns(page, lab, artifacts, expect):
    explorer = open_task(page, lab, "workspace_columns.ipynb", 1280, 800)
    table = explorer.locator("[data-testid=table]")
    head = table.locator('[data-col="hallucination"]')
    sideways(table, "hallucination")
    click_at(page, head)
    expect(head).to_contain_text("▼", timeout=TIMEOUT)  # lower is better: the worst (highest) first
    # the two noise-sensitivity headers are told apart
    labels = [table.locator(f'[data-col="noise_sensitivity_in_{k}"]').inner_text() for k in ("relevant", "irrelevant")]
    assert labels[0] != labels[1] and all("Noise" in t for t in labels), labels
    # the query_id and query columns stay in place scrolling sideways
    scroll = table.locator(".rw-ds-scroll")
    before = table.locator('[data-index="0"] > span').nth(1).bounding_box()["x"]
    scroll.evaluate("e => { e.scrollLeft = 400; }")
    settled(table.locator('[data-index="0"] > span').nth(1))
    assert abs(table.locator('[data-index="0"] > span').nth(1).bounding_box()["x"] - before) < 1
    # choose columns: faithfulness moved first after query, context precision off
    explorer.locator('[data-tab="columns"]').click()
    cols = explorer.locator("[data-testid=columns]")
    cols.locator('[data-column="context_precision"] input').click()
    expect(table.locator('[data-col="context_precision"]')).to_have_count(0, timeout=TIMEOUT)
    for _ in range(20):
        keys = [c.get_attribute("data-col") for c in table.locator("[role=columnheader]").all()]
        if keys.index("faithfulness") == 2:
            break
        cols.locator('[data-column="faithfulness"] button[aria-label^="Move"]').first.click()
        expect(table.locator("[role=columnheader]").nth(keys.index("faithfulness") - 1)).to_have_attribute(
            "data-col", "faithfulness", timeout=TIMEOUT)  # one place to the left
    keys = [c.get_attribute("data-col") for c in table.locator("[role=columnheader]").all()]
    assert keys[:3] == ["query_id", "query", "faithfulness"] and "context_precision" not in keys
    page.screenshot(path=str(artifacts / "workspace_columns_1280x800.png"))
    # acting on a finding: the filtered rows written by the kernel to the path typed, its answer shown
    explorer.locator('[data-tab="act"]').click()
    explorer.locator("[data-testid=path]").fill("worst_rows.csv")
    explorer.locator("[data-testid=export-csv]").click()
    expect(explorer.locator("[data-testid=act-said]")).to_contain_text("Wrote 2,000 rows to ", timeout=TIMEOUT)
    written = lab[2] / "worst_rows.csv"
    assert written.read_text().splitlines()[0].startswith("run,query_id,query,")
    assert len(written.read_text().splitlines()) == 2001
    # the query_id copied (headless Chromium refuses the clipboard: the id is selected for Ctrl+C)
    click_at(page, table.locator('[data-index="0"] > span').first)
    explorer.locator("[data-testid=copy-id]").click()
    said = explorer.locator("[data-testid=drill] [role=status]")
    expect(said).to_have_text(re.compile("copied|Ctrl\\+C"), timeout=TIMEOUT)
    if "Ctrl" in said.inner_text():
        assert explorer.locator("[data-testid=copy-box]").evaluate(
            "e => e.value.slice(e.selectionStart, e.selectionEnd)") == table.locator('[data-index="0"] > span').first.inner_text()


RACE_CELLS = [
    "import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run\n"
    "e = rw.DatasetExplorer(synthetic_run(50, seed=1))\ne",
    "e.expression = 'faithfulness < 0.5'",
]


def test_run_all_twenty_times_never_sticks(lab, offline_page):
    """Defect 1: display, then set the expression in the next cell, Run All: 20 runs, none stuck."""
    import ragwidgets as rw
    from ragwidgets.datasets import synthetic_run
    expected = len(rw.DatasetExplorer(synthetic_run(50, seed=1), expression="faithfulness < 0.5").order)
    page = offline_page.page
    run_notebook(page, lab, "race.ipynb", RACE_CELLS)
    stuck = []
    for attempt in range(20):
        if attempt:
            page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(
            """() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'
                     && ![...document.querySelectorAll('.jp-InputArea-prompt')].some(e => e.textContent.includes('*'))""",
            timeout=TIMEOUT)
        try:
            page.wait_for_function(
                """(n) => { const x = document.querySelector('.rw-dataset');
                            const row = x && x.querySelector('[data-testid=table] [data-index="0"]');
                            return x && x.querySelector('[data-testid=count] b').textContent === String(n)
                              && x.querySelector('[data-testid=expression]').value === 'faithfulness < 0.5'
                              && row && !row.textContent.includes('…'); }""", arg=expected, timeout=10_000)
        except Exception:  # noqa: BLE001 - counted, and the test fails below naming the runs
            stuck.append(attempt)
    assert not stuck, f"stuck in runs {stuck} of 20"


def test_seven_runs_summary_and_comparison_scroll_inside_their_panel(lab, browser, artifacts):
    """Defect 9: with seven runs at 1280 px (file browser open) the summary and the comparison
    each scroll inside their panel, and every run is reachable there."""
    from playwright.sync_api import expect
    with offline_page_sized(browser, 1280, 800) as p:
        page = p.page
        run_notebook(page, lab, "seven_runs.ipynb", [
            "import ragwidgets as rw\nrw.DatasetExplorer(rw.datasets.refchecker_human('zero_context'), "
            "compare_metric='precision', chart_metric='precision')"])
        page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
        explorer = page.locator(".rw-dataset").first
        expect(explorer.locator("[data-testid=count]")).to_contain_text("700 of 700", timeout=3 * TIMEOUT)
        runs = explorer.locator("[data-testid=run] option").all_inner_texts()[1:]
        assert len(runs) == 7
        for tab, testid, last in (("summary", "summary", f"th:text-is('{runs[-1]}')"),
                                  ("compare", "compare", f"td:text-is('{runs[-1]}')")):
            explorer.locator(f'[data-tab="{tab}"]').click()
            panel = explorer.locator(f"[data-testid=drawer-{tab}]")
            # the comparison's own table (a direct child's): the claim changes below it, drawn once
            # the kernel answers, hold a table too, and a loaded machine draws them before this runs
            table = panel.locator(f"[data-testid={testid}]" if tab == "summary"
                                  else "[data-testid=compare] > .rw-ds-wide > table")
            expect(table).to_be_visible(timeout=TIMEOUT)
            wrap = table.locator("xpath=ancestor::div[contains(@class,'rw-ds-wide')][1]")
            wrap.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
            cell = table.locator(last).first
            cell.evaluate("e => e.scrollIntoView({ block: 'nearest', inline: 'nearest' })")
            inner, outer = cell.bounding_box(), panel.bounding_box()
            assert outer["x"] - 1 <= inner["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1, (tab, inner, outer)
            assert outer["y"] - 1 <= inner["y"] and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1, (tab, inner, outer)
            page.screenshot(path=str(artifacts / f"workspace_seven_runs_{tab}_1280x800.png"))


def test_the_selected_row_never_hides_under_the_sticky_header(lab, browser):
    """Defect 5: moving up with k / ↑ past the rows shown, the selected row is scrolled whole
    below the sticky header (not under it)."""
    from playwright.sync_api import expect
    with offline_page_sized(browser, 1280, 800) as p:
        page = p.page
        explorer = open_task(page, lab, "workspace_keys.ipynb", 1280, 800)
        table = explorer.locator("[data-testid=table]")
        scroll = table.locator(".rw-ds-scroll")
        click_at(page, table.locator('[data-index="0"] > span').first)
        expect(table.locator('[data-index="0"]')).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
        for k in range(1, 26):  # down with j: the table follows the selection
            explorer.locator(".rw-ds").press("j")
            expect(table.locator(f'[data-index="{k}"]')).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
        start = 25
        scroll.evaluate("e => { e.scrollTop += 600; }")  # the selection out of sight, above the rows shown
        page.wait_for_function("""([e, i]) => { const row = e.querySelector(`[data-index="${i}"]`);
            return !row || row.getBoundingClientRect().bottom <= e.getBoundingClientRect().top; }""",
                               arg=[scroll.element_handle(), start], timeout=TIMEOUT)
        for k in range(1, 4):
            explorer.locator(".rw-ds").press("k")
            row = table.locator(f'[data-index="{start - k}"]')
            expect(row).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
            settled(row)  # the table done scrolling to it
            head = table.locator(".rw-ds-head").bounding_box()
            box = row.bounding_box()
            frame = scroll.bounding_box()
            assert box["y"] >= head["y"] + head["height"] - 1, (k, box, head)
            assert box["y"] + box["height"] <= frame["y"] + frame["height"] + 1, (k, box, frame)
