"""Notebook 04 (error analysis over RefChecker's runs and a 100,000-sample run) exported by
`ragwidgets export` and opened from disk offline (defect 3's export side): every DatasetExplorer
shows rows in its table (the first window saved in the widget state), none left "…"; each ES
module is stored once; the page's size is written to artifacts/."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ragwidgets.export import export_notebook
from test_frontends_static_html import open_offline

ROOT = Path(__file__).resolve().parents[2]


def test_notebook_04_exported_shows_rows_offline(browser, tmp_path, artifacts):
    from playwright.sync_api import expect
    out = export_notebook(ROOT / "ragwidgets" / "tutorials" / "04_error_analysis.ipynb", tmp_path / "04.html")
    page_text = out.read_text(encoding="utf-8")
    state = json.loads(re.search(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>',
                                 page_text, re.S).group(1))
    esms = [m["state"]["_esm"] for m in state["state"].values() if m["model_name"] == "AnyModel"]
    assert esms and all(set(e) == {"rw_shared"} for e in esms)
    assert len(state["rw_shared"]) == len({e["rw_shared"] for e in esms}) + len(
        {m["state"]["_css"]["rw_shared"] for m in state["state"].values() if m["model_name"] == "AnyModel"})
    page = open_offline(browser, out)
    tables = page.locator(".rw-snapshot-view .rw-dataset")
    assert tables.count() >= 2
    for k in range(tables.count()):
        table = tables.nth(k)
        table.scroll_into_view_if_needed()
        rows = table.locator(".rw-ds-row:not(.rw-ds-head)")
        expect(rows.first).to_be_visible()
        assert rows.count() >= 5, f"table {k}: {rows.count()} rows"
        assert table.locator(".rw-ds-loading").count() == 0, f"table {k} has rows left as '…'"
        ids = [rows.nth(j).locator(".rw-ds-text").first.inner_text() for j in range(5)]
        assert all(i.strip() for i in ids), ids  # the first text column (run or query_id) filled
        if k == 0:
            table.screenshot(path=str(artifacts / "export_04_table.png"))
    (artifacts / "export_04_size.txt").write_text(
        f"{out.stat().st_size} bytes; {len(state['rw_shared'])} shared texts for {len(esms)} anywidgets\n")
    assert not page.blocked and not page.errors, (page.blocked, page.errors)
    page.context.close()
