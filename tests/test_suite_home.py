"""The suite keeps out of the developer's home (conftest's suite_home): the IPython kernels it
starts the way JupyterLab does (jupyter_client; the browser tests' servers, a kernel-interrupt test)
keep their history in the session's own folder, never in ``~/.ipython`` (nbclient's kernels keep
theirs in memory), and a judge cache left at its default is the session's, never the user's. Both
are one SQLite file per user: the suite's kernels wrote there beside the developer's own sessions
(and IPython moves a history file it cannot open, a lock held past SQLite's 5 s under load, out of
the way as if it were corrupt); a test that forgot its cache would read what earlier runs left."""

from __future__ import annotations

from pathlib import Path

import pytest

jupyter_client = pytest.importorskip("jupyter_client")


def test_a_kernel_keeps_its_history_in_the_sessions_ipython_folder(suite_home):
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
    assert hist.is_relative_to(suite_home), hist


def test_a_judge_cache_left_at_its_default_is_the_sessions_own(suite_home):
    from ragwidgets.judges import default_cache_path

    assert not default_cache_path().is_relative_to(Path.home() / ".cache")
    assert default_cache_path().is_relative_to(suite_home)
