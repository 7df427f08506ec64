"""JupyterLab 4 and Notebook 7 on 127.0.0.1 and headless Debian Chromium driven by Playwright, all offline.

Skips (with the reason) when Chromium or
Playwright is missing; `.ci/run` installs Chromium so CI runs these tests.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from e2e_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, jupyter_server, offline_page_sized
from starts import started_once_more

BROWSER_START_MS = 120_000  # Chromium's launch on a loaded 2-core machine (Playwright's default is 30 s)
HERE = Path(__file__).parent


def pytest_collection_modifyitems(items):
    """Every test here is marked ``browser`` (``-m "not browser"`` leaves them out) and, under
    pytest-xdist's ``--dist loadgroup``, falls in one of two groups by its file (the files sorted
    by name, taken in turn), each run whole by one worker with its own JupyterLab and Chromium: the
    two workers share the browser tests instead of one worker running them all while the other
    waits (the browser tests were the suite's critical path on two workers)."""
    files = sorted({item.path for item in items if HERE in item.path.parents})
    group = {path: f"browser-{i % 2}" for i, path in enumerate(files)}
    for item in items:
        if item.path in group:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group(group[item.path]))


@pytest.fixture(scope="session")
def chromium_path():
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install -y chromium; .ci/run does it)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')")
    return CHROMIUM


@pytest.fixture(scope="session")
def lab(chromium_path, tmp_path_factory):
    """A JupyterLab 4 server on loopback serving a scratch folder; yields (base_url, token, root)."""
    pytest.importorskip("jupyterlab", reason="jupyterlab is not installed (pip install -e '.[dev]')")
    with jupyter_server("jupyterlab", [
            "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
            "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            tmp_path_factory.mktemp("lab")) as server:
        yield server


@pytest.fixture(scope="session")
def notebook7(chromium_path, tmp_path_factory):
    """A Notebook 7 server on loopback serving a scratch folder; yields (base_url, token, root).

    Pages are /notebooks/<path>?token=...; window.jupyterapp exists thanks to expose_app_in_browser.
    """
    nb = pytest.importorskip("notebook", reason="notebook is not installed (pip install -e '.[dev]')")
    if int(nb.__version__.split(".")[0]) < 7:
        pytest.skip(f"notebook {nb.__version__} is not Notebook 7 (pip install 'notebook>=7')")
    with jupyter_server("notebook", ["--JupyterNotebookApp.expose_app_in_browser=True"],
                        tmp_path_factory.mktemp("notebook7")) as server:
        yield server


@pytest.fixture(scope="module")
def browser(chromium_path):
    """Module-scoped: Playwright's sync API keeps an asyncio loop running in this thread while it
    is open, which would break later tests that start their own loops (the judges'). A launch that
    fails is tried once more (StartRetried)."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw, started_once_more("Chromium", lambda: contextlib.closing(pw.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, timeout=BROWSER_START_MS))) as b:
        yield b


@pytest.fixture
def offline_page(browser):
    with offline_page_sized(browser, 1400, 2400) as page:
        yield page


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
