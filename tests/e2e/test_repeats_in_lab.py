"""End to end: a run judged three times in the DatasetExplorer in JupyterLab (headless Chromium,
offline): the "flaky labels" slice keeps the samples whose metrics change across the repeats, the
Summary tab shows each metric's interval with the judge's repeats beside today's, and a drilled
flaky sample lists the labels its repeats gave differently."""

from __future__ import annotations

import warnings

import ragwidgets as rw
from ragwidgets.analysis import flakiness, repeat_scores

from test_dataset_in_lab import count_of, run_notebook
from test_harbor_in_lab import TIMEOUT

MAKE = '''
import copy
import ragwidgets as rw

def repeated(n=60, every=5):
    """Generated records judged three times: repeat 1 turns every 5th sample's first claim's row."""
    out = []
    for k, record in enumerate(rw.datasets.synthetic_run(n, seed=2)):
        record["query_id"] = f"q{k}"
        grid = record.get("retrieved2response")
        copies = [copy.deepcopy(grid) for _ in range(3)]
        if grid and grid[0] and k % every == 0:
            copies[1][0] = ["Neutral" if "Entailment" in grid[0] else "Entailment"] * len(grid[0])
        record["label_repeats"] = {"retrieved2response": copies}
        out.append(record)
    return out
'''
CELLS = [MAKE, 'explorer = rw.DatasetExplorer(repeated(), slice="flaky labels")\nexplorer']


def test_flaky_slice_intervals_and_label_distributions(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    namespace = {}
    exec(MAKE, namespace)
    records = namespace["repeated"]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        flaky = flakiness(repeat_scores(records)).flaky
        assert 0 < flaky.sum() < len(flaky) and rw.DatasetExplorer(records).frame.shape[0] == len(records)
    page = offline_page.page
    run_notebook(page, lab, "repeats.ipynb", CELLS)
    explorer = page.locator(".rw-dataset").first
    expect(explorer.locator("[data-testid=count]")).to_contain_text(f"{int(flaky.sum())} of {len(records)}",
                                                                     timeout=3 * TIMEOUT)
    assert count_of(explorer) == int(flaky.sum())
    explorer.locator('[data-tab="summary"]').click()
    repeats = explorer.locator("[data-testid=repeats]")
    expect(repeats).to_contain_text("judged 3 times", timeout=TIMEOUT)
    expect(repeats).to_contain_text(f"{int(flaky.sum())} of {len(records)} samples flaky")
    assert repeats.locator("tbody tr").count() >= 5  # a row per metric: today's interval, the judge's beside
    table = explorer.locator("[data-testid=table]")
    expect(table.locator('[data-index="0"] .rw-num').first).not_to_have_text("…", timeout=TIMEOUT)
    table.locator('[data-index="0"]').click()
    labels = explorer.locator("[data-testid=drill-main] [data-testid=repeated-labels]")
    expect(labels).to_contain_text("across its 3 repeats", timeout=TIMEOUT)
    expect(labels.locator("li").first).to_contain_text("of 3")
    page.screenshot(path=str(artifacts / "repeats_summary_and_drill.png"))
