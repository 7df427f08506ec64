"""Click to updated DOM in a real browser: JupyterLab 4 + headless Chromium, offline, 1280x800.

    python benchmarks/widget_browser.py [--clicks 60]

One notebook shows a 60-passage x 80-claim sample (40 ground-truth claims; the e2e tests'
``big_sample_record``) in a SampleExplorer and the Harbor Museum Explorer. For each case the page
clicks an element and waits, with a MutationObserver, until the DOM shows the result: the time
covers the message to the kernel, Python's update, the message back, parsing and rendering.
Cases: selecting a claim (the row turns selected), switching a passage off and on (its checkbox
follows), on Harbor selecting a claim and applying a preset, and in a DatasetExplorer over 10,000
generated samples clicking a row (until the row is selected and the drill-down shows its sample). A baseline: a bare anywidget
whose Python observer echoes a click counter back (the round trip's floor on the same machine,
with no view to build or draw). Prints p50 / p95 / max per case.

Then the front end alone: the bundle in a bare page with a stand-in model is handed, one after
another, view states Python built for a cycle of passage toggles on the same 60 x 80 sample, and
each update is timed from the `change:_view` event to the DOM laid out again (parse, diff,
render, forced layout). A selection is no such update any more: the front end draws it itself
(js/src/selection.js) and Python sends no view for it, so "select a claim" above is the click to
the DOM drawn in the browser, the kernel told after.
The servers and browser are the ones the e2e tests start (tests/e2e/conftest.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from e2e_support import CHROMIUM, CHROMIUM_ARGS, OfflinePage, big_sample_record, jupyter_server  # noqa: E402
from test_harbor_in_lab import open_and_run  # noqa: E402

ECHO = '''import anywidget, traitlets

class Echo(anywidget.AnyWidget):
    _esm = """export default { render({ model, el }) {
      el.classList.add("echo-widget");
      const b = document.createElement("button");
      b.dataset.pong = "0";
      b.onclick = () => { model.set("ping", model.get("ping") + 1); model.save_changes(); };
      model.on("change:pong", () => { b.dataset.pong = String(model.get("pong")); });
      el.appendChild(b);
    } }"""
    ping = traitlets.Int(0).tag(sync=True)
    pong = traitlets.Int(0).tag(sync=True)

    @traitlets.observe("ping")
    def _echo(self, change):
        self.pong = change["new"]

Echo()'''


NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
              for source in ("from ragwidgets.widgets import Explorer, SampleExplorer\n"
                             "big = SampleExplorer('big.json')\nbig", "Explorer.harbor()", ECHO,
                             "from ragwidgets.datasets import synthetic_run\nfrom ragwidgets.widgets import DatasetExplorer\n"
                             "DatasetExplorer(synthetic_run(10_000))")],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}

# Click `selector` inside widget `w` and time until `done(element)` holds (checked on each mutation).
CLICK = """async ([w, selector, done]) => {
  const root = document.querySelectorAll('.rw-widget, .echo-widget')[w];
  const el = root.querySelector(selector);
  const check = new Function('el', 'root', `return ${done};`);
  const t0 = performance.now();
  const finished = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (check(root.querySelector(selector), root)) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(root, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  el.click();
  return await finished;
}"""


def cases(clicks: int):
    """(name, widget, [(selector, done)]) for each case, cycling through its clicks."""
    record = big_sample_record()
    claims = [f"claim:R{j}" for j in (70, 3, 41, 12, 66, 25, 51, 8, 33, 60)]
    doc = record["retrieved_context"][10]["doc_id"]
    select = [(f'[data-key="{k}"]', "el.getAttribute('aria-selected') === 'true'") for k in claims]
    toggle = [(f'[data-toggle="{doc}"]', f"el.checked === {state}") for state in ("false", "true")]
    harbor_claims = [(f'[data-key="claim:R{j}"]', "el.getAttribute('aria-selected') === 'true'") for j in (1, 2, 3)]
    presets = [(f'[data-preset="{p}"]', "el.getAttribute('aria-pressed') === 'true'")
               for p in ("No retrieval", "Mixed citations", "Outdated answer", "Default")]
    rows = [(f'[role=row][data-index="{i}"]', "el.getAttribute('aria-selected') === 'true' && "
             "root.querySelector('[data-testid=drill-main] .rw-root') !== null") for i in (3, 0, 7, 1, 5, 2, 8, 4)]
    return record, [
        ("60 x 80 sample: select a claim", 0, select),
        ("60 x 80 sample: switch a passage off / on", 0, toggle),
        ("Harbor Museum: select a claim", 1, harbor_claims),
        ("Harbor Museum: apply a preset", 1, presets),
        ("DatasetExplorer, 10,000 samples: click a row (selected, drill-down opened)", 3, rows),
        ("Baseline: a bare anywidget echoing a counter", 2, [("button", "Number(el.dataset.pong) % 2 === 1"),
                                                           ("button", "Number(el.dataset.pong) % 2 === 0")]),
    ]


RENDER = """async ([bundle, css, views]) => {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.appendChild(style);
  const mod = await import(URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' })));
  const state = {};
  const listeners = {};
  const model = {
    get: (k) => state[k], set: () => {}, save_changes: () => {}, send: () => {},
    on: (e, cb) => (listeners[e] ||= []).push(cb), off: () => {}, // one event name per call
  };
  const cells = (b64) => new DataView(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer);
  state._view = { json: views[0][0], cells: cells(views[0][1]) };
  const el = document.createElement('div');
  document.body.appendChild(el);
  mod.default.render({ model, el });
  const out = [];
  for (let i = 1; i < views.length; i++) {
    state._view = { json: views[i][0], cells: cells(views[i][1]) };
    const t0 = performance.now();
    listeners['change:_view'].forEach((cb) => cb());
    void el.offsetHeight;
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 0));
  }
  return out;
}"""


def render_views(record: dict, n: int) -> list[tuple[str, str]]:
    """``n`` successive (view JSON, cells base64) of the sample under passage toggles."""
    import base64

    import ragwidgets as rw
    from ragwidgets.widgets import SampleExplorer
    e = SampleExplorer(rw.parse_sample(record))
    ids = [p["doc_id"] for p in record["retrieved_context"]]
    out = []
    for i in range(n):
        e.retrieved = ids if len(e.retrieved) < len(ids) else [d for d in ids if d != ids[i % len(ids)]]
        out.append((e._view.json, base64.b64encode(e._view.cells).decode()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60)
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit("Chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright
    record, plan = cases(args.clicks)
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp, jupyter_server("jupyterlab", [
            "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
            "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            Path(tmp)) as server, sync_playwright() as pw:
        root = server[2]
        (root / "big.json").write_text(json.dumps([record]))
        (root / "bench.ipynb").write_text(json.dumps(NOTEBOOK))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = OfflinePage(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
        open_and_run(page, server, "bench.ipynb", widgets=2)
        page.page.wait_for_selector(".echo-widget button")
        page.page.wait_for_function("""() => { const r = document.querySelector('.rw-dataset [role=row][data-index="8"]');
                                               return r && !r.textContent.includes('…'); }""", timeout=120_000)
        rows = []
        for name, widget, clicks in plan:
            page.page.locator(".rw-widget, .echo-widget").nth(widget).locator(clicks[0][0]).scroll_into_view_if_needed()
            for selector, done in clicks[:2]:  # warm
                page.page.evaluate(CLICK, [widget, selector, done])
            ms = np.array([page.page.evaluate(CLICK, [widget, *clicks[i % len(clicks)]]) for i in range(args.clicks)])
            rows.append((name, ms))
        bare = OfflinePage(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
        static = ROOT / "ragwidgets" / "static"
        ms = bare.page.evaluate(RENDER, [(static / "widget.js").read_text(), (static / "widget.css").read_text(),
                                         render_views(record, args.clicks + 1)])
        rows.append(("Front end alone, 60 x 80 sample: one new view (passage toggle)", np.array(ms)))
        browser.close()
        assert not page.blocked and not page.errors and not bare.errors, (page.blocked, page.errors, bare.errors)
    print(f"load average after: {os.getloadavg()}\n")
    print("| case | clicks | p50 | p95 | max |")
    print("|---|---|---|---|---|")
    for name, ms in rows:
        print(f"| {name} | {len(ms)} | {np.percentile(ms, 50):.1f} ms | {np.percentile(ms, 95):.1f} ms | {ms.max():.1f} ms |")


if __name__ == "__main__":
    main()
