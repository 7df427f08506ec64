"""End to end: the DatasetExplorer on a Dask-scored run in JupyterLab, headless Chromium, offline:
a 2-worker LocalCluster inside the kernel (its start waited for both workers and tried once more
when they did not arrive: a machine hiccup) scores 4,000 generated samples in 4 JSONL.gz files; the
page says the table holds the first rows by a metric, a header click re-sorts on the cluster, and
a row's drill-down fetches that one sample."""

from __future__ import annotations

from test_dataset_in_lab import count_of, run_notebook
from test_harbor_in_lab import TIMEOUT

CELLS = [
    "import gzip, json\nimport distributed\nimport ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run\n"
    "records = synthetic_run(4000)\n"
    "for k in range(4):\n"
    "    with gzip.open(f'part-{k}.jsonl.gz', 'wt') as out:\n"
    "        out.writelines(json.dumps(r) + '\\n' for r in records[k * 1000:(k + 1) * 1000])\n"
    "def start_cluster():  # both workers arrived, or the start tried once more with the reason printed\n"
    "    for attempt in (1, 2):\n"
    "        cluster = client = None\n"
    "        try:\n"
    "            cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)\n"
    "            client = distributed.Client(cluster)\n"
    "            client.wait_for_workers(2, timeout=120)\n"
    "            return client\n"
    "        except Exception as error:\n"
    "            print(f'cluster start {attempt} failed ({type(error).__name__}: {error})')\n"
    "            for part in (client, cluster):\n"
    "                if part is not None:\n"
    "                    part.close()\n"
    "            if attempt == 2:\n"
    "                raise\n"
    "client = start_cluster()",
    "scores = rw.evaluate('part-*.jsonl.gz', engine='dask')\n"
    "rw.DatasetExplorer(scores, chart_metric='hallucination', rows=200)",
]


def test_dask_scored_run_in_lab(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    page = offline_page.page
    run_notebook(page, lab, "dask_explorer.ipynb", CELLS)
    explorer = page.locator(".rw-dataset").first
    expect(explorer.locator("[data-testid=count]")).to_contain_text("4,000 of 4,000 samples · 200 in the table",
                                                                    timeout=6 * TIMEOUT)
    notice = explorer.locator("[data-testid=cluster-notice]")
    expect(notice).to_contain_text("the 200 samples with the lowest Precision of 4,000 matching")
    expect(notice).to_contain_text("full-text search")
    expect(explorer.locator("[data-testid=search]")).to_have_count(0)
    explorer.locator('[data-tab="summary"]').click()  # the summary is one tab away
    expect(explorer.locator("[data-testid=summary] caption")).to_contain_text("computed on the cluster")
    explorer.locator('[data-tab="charts"]').click()
    table = explorer.locator("[data-testid=table]")
    expect(table.locator('[data-index="0"] .rw-num').first).not_to_have_text("…", timeout=TIMEOUT)

    # sort by recall: worst (lowest) first, then highest first: the cluster's top rows come back
    table.locator('[data-col="recall"]').click()
    expect(table.locator('[data-col="recall"]')).to_contain_text("▲", timeout=TIMEOUT)
    expect(notice).to_contain_text("lowest Recall", timeout=TIMEOUT)
    table.locator('[data-col="recall"]').click()
    expect(table.locator('[data-col="recall"]')).to_contain_text("▼", timeout=TIMEOUT)
    expect(notice).to_contain_text("highest Recall", timeout=TIMEOUT)
    column = [c.get_attribute("data-col") for c in table.locator("[role=columnheader]").all()].index("recall")
    expect(table.locator('[data-index="0"] > span').nth(column)).to_have_text("1.000", timeout=TIMEOUT)
    explorer.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(artifacts / "dask_explorer.png"))

    # brush the distribution's Undefined bar: the summary and the count follow, the table keeps its rows' metric
    explorer.locator('[data-testid=distribution] [data-bar="undefined"]').click()
    expect(explorer.locator("[data-testid=clear-brush]")).to_contain_text("Undefined", timeout=TIMEOUT)
    undefined = count_of(explorer)
    assert 0 < undefined < 4000

    # the drill-down fetches the one sample
    first = table.locator('[data-index="0"]')
    expect(first.locator("span").first).not_to_have_text("…", timeout=TIMEOUT)  # the brushed rows have come
    query_id = first.locator("span").first.inner_text()
    first.click()
    drill = explorer.locator("[data-testid=drill]")
    expect(drill).to_contain_text(f"{query_id} · row 1 of", timeout=TIMEOUT)
    expect(drill.locator("[data-testid=drill-main] .rw-root")).to_be_visible(timeout=TIMEOUT)
    expect(drill.locator("[data-testid=drill-main] h3")).to_contain_text(query_id)
    drill.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(artifacts / "dask_explorer_drill.png"))
