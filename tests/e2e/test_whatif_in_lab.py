"""End to end: the DatasetExplorer's "What if" tab in JupyterLab (headless Chromium, offline) draws
the top-k passages curve of the rows the filters keep, the same numbers as analysis.top_k_curve on
those samples (Undefined counts under each k), follows a filter typed in the page, and drops the
passages a doc_id rule matches with the before / after of analysis.drop_passages; a bad pattern
is said in the panel."""

from __future__ import annotations

import math

import ragwidgets as rw
from ragwidgets import analysis as A
from ragwidgets.datasets import synthetic_run

from test_dataset_in_lab import count_of, run_notebook
from test_harbor_in_lab import TIMEOUT

N, SEED, FIRST, SECOND, RULE = 3000, 4, "hallucination > 0.2", "hallucination > 0.5", "-[01]$"
CELLS = [
    "import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run",
    f"explorer = rw.DatasetExplorer(synthetic_run({N}, seed={SEED}), expression={FIRST!r})\nexplorer",
]


def expected(records, expression):
    """The top-k curve and the rule's table of the samples ``expression`` keeps, as a run of their own."""
    x = rw.DatasetExplorer(records, expression=expression)
    kept = set(x.filtered["query_id"])
    alone = rw.evaluate([r for r in records if r["query_id"] in kept])
    return len(kept), A.top_k_curve(alone), A.drop_passages(alone, doc_id=RULE)


def drawn_curve(panel) -> dict:
    """{(metric, k): (mean or None, undefined)} as the panel's SVG carries them."""
    return panel.locator("[data-testid=wi-curve]").evaluate_all("""figs => figs.flatMap(f =>
        [...f.querySelectorAll('g[data-k]')].map(g => [f.dataset.metric, +g.dataset.k,
          g.dataset.mean === '' ? null : +g.dataset.mean, +g.dataset.undefined]))""")


def assert_same_curve(drawn, curve) -> None:
    got = {(m, k): (mean, undef) for m, k, mean, undef in drawn}
    want = {(r.metric, int(r.k)): (None if math.isnan(r.mean) else r.mean, int(r.undefined))
            for r in curve.itertuples()}
    assert got.keys() == want.keys()
    for key, (mean, undef) in want.items():
        assert got[key][1] == undef, key
        assert (got[key][0] is None) if mean is None else math.isclose(got[key][0], mean, rel_tol=1e-12), key


def test_what_if_tab_draws_the_filtered_runs_curve_and_a_rule(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    records = synthetic_run(N, seed=SEED)
    page = offline_page.page
    run_notebook(page, lab, "whatif.ipynb", CELLS)
    explorer = page.locator(".rw-dataset").first
    n_first, curve, dropped = expected(records, FIRST)
    expect(explorer.locator("[data-testid=count]")).to_contain_text(f"{n_first:,} of {N:,}", timeout=3 * TIMEOUT)
    assert 0 < n_first < N
    explorer.locator('[data-tab="whatif"]').click()
    panel = explorer.locator("[data-testid=whatif]")
    expect(panel.locator("[data-testid=wi-over]")).to_contain_text(f"Over the {n_first:,} samples", timeout=TIMEOUT)
    expect(panel.locator("[data-testid=wi-curve]").first).to_be_visible()
    assert_same_curve(drawn_curve(panel), curve)
    assert curve["undefined"].sum() > 0  # some k have Undefined samples: counted under the k, drawn apart

    # a rule: the doc_ids ending -0 or -1 dropped; the table is drop_passages' on the same rows
    panel.locator("[data-testid=wi-doc-id]").fill(RULE)
    panel.locator("[data-testid=wi-apply]").click()
    table = panel.locator("[data-testid=wi-table]")
    expect(table).to_be_visible(timeout=TIMEOUT)
    expect(panel.locator("[data-testid=wi-dropped]")).to_contain_text(
        f"Without the {dropped.n_dropped:,} passages matching doc_id ~ /{RULE}/ "
        f"(in {dropped.samples_touched:,} of the {n_first:,} samples)")
    shown = {tr.get_attribute("data-metric"): [td.inner_text() for td in tr.locator("td").all()]
             for tr in table.locator("tbody tr").all()}
    fmt = lambda v: "Undefined" if v is None or math.isnan(v) else f"{v:.3f}"  # noqa: E731
    assert set(shown) == set(dropped.table["metric"])  # no row for a metric not computable here
    for r in dropped.table.itertuples():
        change = "" if math.isnan(r.change) else f"{r.change:+.3f}".replace("-", "−")
        assert shown[r.metric] == [fmt(r.before), fmt(r.after), change, str(r.undefined_before),
                                   str(r.undefined_after)], r.metric
    panel.scroll_into_view_if_needed()
    explorer.locator("[data-testid=drawer-whatif]").evaluate("el => { el.scrollTop = 0; }")
    page.screenshot(path=str(artifacts / "whatif_panel.png"))
    table.evaluate("el => el.scrollIntoView({block: 'end'})")
    page.screenshot(path=str(artifacts / "whatif_rule.png"))

    # a filter typed in the page: the panel asks again, for the new rows, with the rule in force
    n_second, curve2, dropped2 = expected(records, SECOND)
    box = explorer.locator("[data-testid=expression]")
    box.fill(SECOND)
    box.press("Enter")
    expect(explorer.locator("[data-testid=count]")).to_contain_text(f"{n_second:,} of {N:,}", timeout=TIMEOUT)
    assert count_of(explorer) == n_second < n_first
    expect(panel.locator("[data-testid=wi-over]")).to_contain_text(f"Over the {n_second:,} samples", timeout=TIMEOUT)
    assert_same_curve(drawn_curve(panel), curve2)
    expect(panel.locator("[data-testid=wi-dropped]")).to_contain_text(f"Without the {dropped2.n_dropped:,} passages")

    # a pattern that is not a regular expression: said in the panel, the last answer kept
    panel.locator("[data-testid=wi-doc-id]").fill("(")
    panel.locator("[data-testid=wi-doc-id]").press("Enter")
    expect(panel.locator("[data-testid=wi-error]")).to_contain_text(
        "the doc_id pattern '(' is not a valid regular expression", timeout=TIMEOUT)
    assert panel.locator("[data-testid=wi-curve]").count() == len(set(curve2["metric"]))
    panel.locator("[data-testid=wi-error]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "whatif_bad_pattern.png"))
    assert not offline_page.errors, offline_page.errors
