"""Enter in the note box → the next failing sample shown: the DatasetExplorer's reading queue in a
real browser (JupyterLab 4 + headless Chromium, offline, 1280x800) at a run of ``--n`` samples.

    python benchmarks/note_keys.py [--n 100000] [--notes 60] [--pace 0 900] [--nodelay]

The notebook scores a generated run (``rw.datasets.synthetic_run``), opens
``DatasetExplorer(scores, notes='bench_notes.jsonl')`` (each note appended to the file, with its
fsync) and starts a random reading queue of 200 among the samples ``faithfulness < 1``. One click
on the explorer, then key m (the note box focused); for each note a short text is typed (every
other one with a tag, in the tags field), then Enter. Timed in the page: from Enter's keydown (a
capture listener on the window, the first to hear it) to the first animation frame in which the
drill-down shows another sample (its state line): the note sent, Python's note (the NoteLog's
locked append and fsync, the mode columns of that sample, the queue moved on, the view and the
drill-down rebuilt and sent), drawn, and that frame's callback (it paints next). The typing is not
timed. The kernel's share is timed too: each front-end request's handling (``note``, ``rows``),
p50 / p95. ``--pace``: milliseconds between a note's result and the next typing, one run each.
``--nodelay``: TCP_NODELAY on Jupyter Server's kernel websockets (see review_keys.py).
``--no-modes-part``: the failure-modes panel's part of the view left out (a diagnosis: its mode
table is found again after every note). The first 3 notes are a warm-up, not counted. Prints
p50 / p95 / max per pace, and the load average.
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
sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from e2e_support import CHROMIUM, CHROMIUM_ARGS, OfflinePage, jupyter_server  # noqa: E402
from review_keys import KERNEL, NODELAY  # noqa: E402
from test_harbor_in_lab import open_and_run  # noqa: E402

WARM = 3

# Installed once: each Enter keydown starts a frame loop that stops at the first frame where the
# drill-down's state line names another sample; the time goes to window.__rwTimes.
WATCH = """() => {
  const state = () => {
    const s = document.querySelector('.rw-dataset [data-testid=drill-main] [data-testid=state]');
    return s ? s.textContent : null;
  };
  window.__rwTimes = [];
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.shiftKey) return;
    const t0 = performance.now();
    const before = state();
    const frame = () => {
      const now = state();
      if (now !== null && now !== before) window.__rwTimes.push(performance.now() - t0);
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, true);
}"""


NO_MODES = "ex._panels['modes'].part = lambda ctx, view: {'modes': None}"


def notebook(n: int, modes: bool = True) -> dict:
    cells = ["import warnings\nwarnings.simplefilter('ignore')\nimport ragwidgets as rw\n"
             f"from ragwidgets.datasets import synthetic_run\nscores = rw.evaluate(synthetic_run({n}, seed=1))",
             "ex = rw.DatasetExplorer(scores, notes='bench_notes.jsonl', author='bench')\n"
             "queue = ex.start_reading(200, where='faithfulness < 1', seed=0)\nex", KERNEL] + [NO_MODES] * (not modes)
    return {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c}
                      for c in cells],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def write(page, count: int, pace_ms: int, first: int) -> np.ndarray:
    """Write ``count`` notes, each Enter after the last one's next sample showed; the page's times (ms)."""
    start = page.evaluate("window.__rwTimes.length")
    for i in range(count):
        page.keyboard.type(f"note {first + i}: the answer cites the wrong passage")
        if i % 2 == 0:
            page.keyboard.press("Tab")  # the tags field
            page.keyboard.type("wrong passage")
        page.keyboard.press("Enter")
        page.wait_for_function(f"window.__rwTimes.length >= {start + i + 1}", timeout=60_000)
        if pace_ms:
            time.sleep(pace_ms / 1000)
    return np.array(page.evaluate(f"window.__rwTimes.slice({start})"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--notes", type=int, default=60)
    parser.add_argument("--pace", type=int, nargs="+", default=[0, 900])
    parser.add_argument("--nodelay", action="store_true", help="TCP_NODELAY on the server's kernel websockets")
    parser.add_argument("--no-modes-part", action="store_true", help="leave the failure-modes panel's part out")
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit("Chromium is not installed (apt-get install -y chromium)")
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs; TCP_NODELAY: {args.nodelay}; "
          f"failure-modes part: {not args.no_modes_part}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.nodelay:
            (Path(tmp) / "config").mkdir()
            (Path(tmp) / "config" / "jupyter_server_config.py").write_text(NODELAY)
        run(args, Path(tmp))
    print(f"load average after: {os.getloadavg()}")


def run(args, home: Path) -> None:
    """Serve JupyterLab from ``home``, open the notebook and write the notes (see the module docstring)."""
    from playwright.sync_api import sync_playwright
    with jupyter_server("jupyterlab", [
            "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
            "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            home) as server, sync_playwright() as pw:
        root = server[2]
        (root / "bench.ipynb").write_text(json.dumps(notebook(args.n, not args.no_modes_part)))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        offline = OfflinePage(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
        page = offline.page
        page.set_default_timeout(600_000)
        open_and_run(offline, server, "bench.ipynb", widgets=1)
        page.wait_for_selector(".rw-dataset [data-testid=note-text]", timeout=600_000)
        page.evaluate(WATCH)
        page.locator(".rw-dataset [data-testid=count]").click()
        page.keyboard.press("m")
        page.wait_for_function("() => document.activeElement && document.activeElement.dataset.testid === 'note-text'")
        write(page, WARM, 0, 0)
        written = WARM
        for pace in args.pace:
            ms = write(page, args.notes, pace, written)
            written += args.notes
            print(f"n={args.n:,}, {len(ms)} notes, pace {pace} ms: Enter → next sample shown: "
                  f"p50 {np.percentile(ms, 50):.0f} ms, p95 {np.percentile(ms, 95):.0f} ms, max {ms.max():.0f} ms")
        kernel = [json.loads(x) for x in (root / "kernel_ms.jsonl").read_text().splitlines()]
        for kind in dict.fromkeys(k for k, _ in kernel):
            ms = np.array([t for k, t in kernel if k == kind])
            print(f"in the kernel, {kind!r} requests ({len(ms)}): p50 {np.percentile(ms, 50):.0f} ms, "
                  f"p95 {np.percentile(ms, 95):.0f} ms, max {ms.max():.0f} ms")
        print(f"reading line at the end: {page.locator('.rw-dataset [data-testid=reading-line]').inner_text()}")
        lines = (root / "bench_notes.jsonl").read_text().splitlines()
        print(f"notes file: {len(lines)} lines (written {written})")
        browser.close()


if __name__ == "__main__":
    main()
