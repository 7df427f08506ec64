"""The suite keeps out of the developer's home: the IPython kernels it starts the way JupyterLab
does (jupyter_client; the browser tests' servers, a kernel-interrupt test) keep their history in the
session's own IPython folder, never in ``~/.ipython`` (nbclient's kernels keep theirs in memory).
That history is one SQLite file per user: the suite's kernels wrote there beside the developer's own
sessions, and IPython moves a history file it cannot open (a lock held past SQLite's 5 s under load)
out of the way as if it were corrupt."""

from __future__ import annotations

from pathlib import Path

import pytest

jupyter_client = pytest.importorskip("jupyter_client")


def test_a_kernel_keeps_its_history_in_the_sessions_ipython_folder(own_ipython_dir):
    printed = []
    km, kc = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        reply = kc.execute_interactive("print(get_ipython().history_manager.hist_file)", timeout=60,
                                       output_hook=lambda m: printed.append(m["content"].get("text", "")))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "ok"
    hist = Path("".join(printed).strip())
    assert not hist.is_relative_to(Path.home() / ".ipython"), hist
    assert hist.is_relative_to(own_ipython_dir), hist
