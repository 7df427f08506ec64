"""Fixtures every test folder may use."""

from __future__ import annotations

import signal

import pytest


@pytest.fixture
def python_sigint():
    """Python's own SIGINT handler for a test that presses Ctrl+C (``signal.pthread_kill`` or
    ``_thread.interrupt_main``), the previous one put back after. A pytest started from a script's
    background job inherits SIGINT ignored, and the press then does nothing: such a test passed or
    failed by which test ran before it in the same worker (one that had left a handler in place)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.fixture(scope="session", autouse=True)
def suite_home(tmp_path_factory):
    """This session's own folder for what a process keeps per user, set for every kernel, server
    and CLI the tests start (the previous values put back after): IPython's (IPYTHONDIR: the
    kernels' history) and the default judge cache (RAGWIDGETS_CACHE_DIR). Each is one SQLite file
    per user: the suite wrote into the developer's own, and read back what earlier runs left."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("IPYTHONDIR", str(home / "ipython"))
        mp.setenv("RAGWIDGETS_CACHE_DIR", str(home / "judge-cache"))
        yield home
