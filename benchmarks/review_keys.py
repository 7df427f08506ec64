"""Key press → next label focused, screen updated: the DatasetExplorer's review queue in a real
browser (JupyterLab 4 + headless Chromium, offline, 1280x800) at a run of ``--n`` samples.

    python benchmarks/review_keys.py [--n 100000] [--labels 60] [--pace 0 900 2000]

The notebook scores a generated run (``rw.datasets.synthetic_run``), opens
``DatasetExplorer(scores, reviews='bench_reviews.jsonl')`` (each review appended to the file, with
its fsync) and starts a random queue of 200. One click on "Next label to review", then ``E`` is
pressed (Playwright's keyboard: a real key event) ``--labels`` times, each after the last one's
result showed. Timed in the page: from the keydown (a capture listener on the window, the first to
hear it) to the first animation frame in which focus is on a different label (a claim row, or a
matrix row with its cursor on another cell, or the next queued sample's first label): the review
sent, Python's review (the sample scored again, the run's tables patched, the view and the
drill-down rebuilt), the view back, drawn, focus moved, and that frame's callback (it paints next).
A sample's last label includes a second round trip: the queue moving on, the next sample opening.
``--nodelay``: TCP_NODELAY on Jupyter Server's kernel websockets (a server config; Tornado leaves
Nagle on, which holds each reply ~40 ms on loopback: "The round-trip floor" in README.md). The
kernel's share is timed too: each front-end request's handling (``review``, ``queue``,
``rows``, ``queue_interval``: the answer, the views rebuilt and sent), p50 / p95 per kind.
``--pace``: milliseconds to wait between a label's result and the next key, one run each: 0 is a
reviewer faster than any, 900 one who reads each label a little; neither pauses long enough for
the queue line's interval (asked for after 1.5 s without a new view: ~0.1 s of kernel time at
100k); 2000 lets it be computed between keys, as it is for a reviewer who reads (a key pressed
while it computes waits for it). The first 3 labels are a warm-up, not counted. Prints p50 / p95
/ max per pace.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "tests")]  # the e2e helpers and what they import

from e2e_support import CHROMIUM, CHROMIUM_ARGS, OfflinePage, jupyter_server  # noqa: E402
from test_harbor_in_lab import open_and_run  # noqa: E402

WARM = 3

# Installed once: each keydown starts a frame loop that stops at the first frame where focus is on
# another label of the drill-down; the time goes to window.__rwTimes.
WATCH = """() => {
  const drill = () => document.querySelector('.rw-dataset [data-testid=drill-main]');
  const label = () => {
    const a = document.activeElement;
    if (!a || !drill() || !drill().contains(a) || !(a.dataset.key || a.dataset.row)) return null;
    const cursor = a.querySelector('td.rw-cursor');
    const sample = drill().querySelector('[data-testid=state]');
    return `${sample ? sample.textContent : ''}|${a.dataset.key || a.dataset.row}|${cursor ? cursor.dataset.col : ''}`;
  };
  window.__rwTimes = [];
  window.addEventListener('keydown', (e) => {
    const t0 = performance.now();
    const before = label();
    const frame = () => {
      const now = label();
      if (now !== null && now !== before) window.__rwTimes.push(performance.now() - t0);
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, true);
}"""


# The kernel's share: each front-end request's handling (the answer, the views rebuilt and sent)
# timed in the kernel, one line of kernel_ms.jsonl each.
KERNEL = """import json, time
_handle = ex._handle_custom_msg
def _timed(content, buffers):
    t = time.perf_counter()
    _handle(content, buffers)
    ms = (time.perf_counter() - t) * 1e3
    with open('kernel_ms.jsonl', 'a') as f:
        f.write(json.dumps([content.get('type'), ms]) + '\\n')
ex._handle_custom_msg = _timed"""


# --nodelay: the user's remedy for the server's 40 ms Nagle stall (see "The round-trip floor").
NODELAY = """from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
_open = KernelWebsocketHandler.open
async def open(self, kernel_id):
    self.set_nodelay(True)
    return await _open(self, kernel_id)
KernelWebsocketHandler.open = open
"""


def notebook(n: int) -> dict:
    cells = ["import warnings\nwarnings.simplefilter('ignore')\nimport ragwidgets as rw\n"
             f"from ragwidgets.datasets import synthetic_run\nscores = rw.evaluate(synthetic_run({n}, seed=1))",
             "ex = rw.DatasetExplorer(scores, reviews='bench_reviews.jsonl', reviewer='bench')\n"
             "queue = ex.start_review(200, seed=0)\nex", KERNEL]
    return {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c}
                      for c in cells],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def press(page, count: int, pace_ms: int) -> np.ndarray:
    """Press E ``count`` times, each after the last one's next label showed; the page's times (ms)."""
    start = page.evaluate("window.__rwTimes.length")
    for i in range(count):
        page.keyboard.press("e")
        page.wait_for_function(f"window.__rwTimes.length >= {start + i + 1}", timeout=60_000)
        if pace_ms:
            time.sleep(pace_ms / 1000)
    return np.array(page.evaluate(f"window.__rwTimes.slice({start})"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--labels", type=int, default=60)
    parser.add_argument("--pace", type=int, nargs="+", default=[0, 900, 2000])
    parser.add_argument("--nodelay", action="store_true", help="TCP_NODELAY on the server's kernel websockets")
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit("Chromium is not installed (apt-get install -y chromium)")
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs; TCP_NODELAY: {args.nodelay}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.nodelay:
            (Path(tmp) / "config").mkdir()
            (Path(tmp) / "config" / "jupyter_server_config.py").write_text(NODELAY)
        run(args, Path(tmp))
    print(f"load average after: {os.getloadavg()}")


def run(args, home: Path) -> None:
    """Serve JupyterLab from ``home``, open the notebook and press the keys (see the module docstring)."""
    from playwright.sync_api import sync_playwright
    with jupyter_server("jupyterlab", [
            "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
            "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            home) as server, sync_playwright() as pw:
        root = server[2]
        (root / "bench.ipynb").write_text(json.dumps(notebook(args.n)))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        offline = OfflinePage(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
        page = offline.page
        page.set_default_timeout(600_000)
        open_and_run(offline, server, "bench.ipynb", widgets=1)
        page.wait_for_selector(".rw-dataset [data-testid=next-label]", timeout=600_000)
        page.evaluate(WATCH)
        page.locator(".rw-dataset [data-testid=next-label]").click()
        page.wait_for_function("() => document.activeElement && (document.activeElement.dataset.key"
                               " || document.activeElement.dataset.row)")
        press(page, WARM, 0)
        for pace in args.pace:
            ms = press(page, args.labels, pace)
            print(f"n={args.n:,}, {len(ms)} labels, pace {pace} ms: key → next label focused, screen updated: "
                  f"p50 {np.percentile(ms, 50):.0f} ms, p95 {np.percentile(ms, 95):.0f} ms, max {ms.max():.0f} ms")
        kernel = [json.loads(x) for x in (root / "kernel_ms.jsonl").read_text().splitlines()]
        for kind in dict.fromkeys(k for k, _ in kernel):
            ms = np.array([t for k, t in kernel if k == kind])
            print(f"in the kernel, {kind!r} requests ({len(ms)}): p50 {np.percentile(ms, 50):.0f} ms, "
                  f"p95 {np.percentile(ms, 95):.0f} ms, max {ms.max():.0f} ms")
        progress = page.locator(".rw-dataset [data-testid=queue]").inner_text()
        print(f"queue line at the end: {progress}")
        lines = (root / "bench_reviews.jsonl").read_text().splitlines()
        print(f"reviews file: {len(lines)} lines")
        browser.close()


if __name__ == "__main__":
    main()
