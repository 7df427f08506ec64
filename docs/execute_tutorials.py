"""Execute the tutorials shipped in the package (ragwidgets/tutorials/*.ipynb) into a folder
the docs site renders (mkdocs-jupyter with execute off): .ci/docs runs this before mkdocs.

Each notebook runs in a fresh temporary working directory (the tutorials write files where they
run), with its own empty judge cache there (a reader's first run: the machine's own cache would
answer tutorial 03's judgements and the page would contradict its text), a per-cell timeout; two at
a time. A notebook that fails stops the docs build."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "ragwidgets" / "tutorials"
TARGET = ROOT / "docs" / "tutorials"  # gitignored: the executed copies


def execute(src: str, out: str) -> tuple[str, float]:
    import nbformat
    from nbclient import NotebookClient

    start = time.perf_counter()
    nb = nbformat.read(src, as_version=4)
    with tempfile.TemporaryDirectory(prefix="ragwidgets-docs-") as cwd:
        NotebookClient(nb, timeout=300, kernel_name="python3", store_widget_state=False,
                       resources={"metadata": {"path": cwd}}).execute(
            env=dict(os.environ, RAGWIDGETS_CACHE_DIR=str(Path(cwd) / "judge-cache")))
    nbformat.write(nb, out)
    return Path(src).name, time.perf_counter() - start


def main() -> int:
    TARGET.mkdir(parents=True, exist_ok=True)
    notebooks = sorted(SOURCE.glob("*.ipynb"))
    for stale in TARGET.glob("*.ipynb"):
        if not (SOURCE / stale.name).exists():
            stale.unlink()
    with ProcessPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(execute, str(nb), str(TARGET / nb.name)) for nb in notebooks]
        for job in jobs:
            name, seconds = job.result()
            print(f"executed {name} in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
