"""The widgets in marimo (``mo.ui.anywidget``) and Voilà, offline in headless Chromium: they render,
a click round-trips through the kernel (a control, and a state-space cell that moves the Explorer
through Python), and they follow the host's dark theme."""

from __future__ import annotations

import json
import os
import sys

import pytest
from e2e_support import ROOT, OfflinePage, free_port, kernel_answered, marimo_app, own_trust_store, serve

TIMEOUT = 90_000
MARIMO_APP = marimo_app('import ragwidgets as rw\n\nexplorer = rw.Explorer.harbor()\n'
                        'space = explorer.state_space("citation_precision")', ["explorer", "space"])
# Voilà 0.5's own lab template links Font Awesome from jsdelivr (voila.js bundles the same CSS, so its
# icons show anyway): blocked like every other request, and tolerated only with these exact URLs.
VOILA_TEMPLATE_CDN = frozenset({f"https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@%5E5/css/{name}.min.css"
                                for name in ("all", "v4-shims")})
VOILA_CELLS = ["import ragwidgets as rw\nexplorer = rw.Explorer.harbor()\nexplorer",
               "explorer.state_space('citation_precision')"]


def environment(home) -> dict:
    env = dict(os.environ, XDG_CONFIG_HOME=str(home / "config"), JUPYTER_CONFIG_DIR=str(home / "jupyter"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def check_round_trips(page, artifacts, prefix: str) -> None:
    """A control click and a heatmap click, each answered by Python, then screenshots."""
    from playwright.sync_api import expect
    explorer = page.locator(".rw-widget").first
    state = explorer.locator("[data-testid=state]")
    expect(state).to_contain_text("Current sources · Fully supported · Matched", timeout=TIMEOUT)
    explorer.locator('[data-trait="retrieval"] [data-option="No retrieval"]').click()
    expect(state).to_contain_text("No retrieval · Fully supported · Matched", timeout=TIMEOUT)
    expect(explorer.locator('[data-metric="context_relevance"] [data-testid=value]')).to_have_text("Undefined")
    space = page.locator(".rw-space").first
    expect(space.locator('[data-cell="No retrieval|Fully supported|Matched"]')).to_have_attribute("aria-current", "true")
    space.locator('[data-cell="All sources|Garden answer|Misplaced"]').click()
    expect(state).to_contain_text("All sources · Garden answer · Misplaced", timeout=TIMEOUT)
    explorer.scroll_into_view_if_needed()  # marimo scrolls its own container: shoot the viewport
    page.screenshot(path=str(artifacts / f"{prefix}_explorer.png"))
    space.scroll_into_view_if_needed()
    space.screenshot(path=str(artifacts / f"{prefix}_state_space.png"))
    kernel_answered(page, 2)  # the explorer's and the state space's pings answered (live.js)
    assert page.locator(".rw-live-note").count() == 0


def background(locator) -> tuple[int, ...]:
    rgb = locator.evaluate("e => getComputedStyle(e).backgroundColor")
    return tuple(int(x) for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])


def dark(locator) -> bool:
    return sum(background(locator)) < 3 * 100


@pytest.fixture
def pages(browser):
    opened = []

    def new(scheme: str, tolerated: frozenset = frozenset()):
        context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
        p = OfflinePage(context.new_page())
        opened.append((p, tolerated))
        return p
    yield new
    for p, tolerated in opened:
        p.page.context.close()
        assert set(p.blocked) <= tolerated, f"requests to non-loopback hosts: {p.blocked}"
        assert not p.dialogs, p.dialogs


def test_marimo(pages, tmp_path, artifacts):
    pytest.importorskip("marimo", reason="marimo is not installed (pip install -e '.[dev]')")
    (tmp_path / "config" / "marimo").mkdir(parents=True)
    (tmp_path / "config" / "marimo" / "marimo.toml").write_text('[display]\ntheme = "system"\n')
    (tmp_path / "app.py").write_text(MARIMO_APP)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serve([sys.executable, "-m", "marimo", "run", "app.py", "--headless", "--host", "127.0.0.1",
                "--port", str(port), "--no-token", "--no-sandbox", "--no-check"],
               url, tmp_path, environment(tmp_path), tmp_path / "marimo.log"):
        p = pages("light")
        p.page.goto(url, timeout=TIMEOUT)
        check_round_trips(p.page, artifacts, "marimo")
        assert not dark(p.page.locator(".rw-widget").first)
        d = pages("dark")
        d.page.goto(url, timeout=TIMEOUT)
        d.page.locator(".rw-space").first.wait_for(timeout=TIMEOUT)
        assert dark(d.page.locator(".rw-widget").first) and dark(d.page.locator(".rw-space").first)
        d.page.locator(".rw-space").first.screenshot(path=str(artifacts / "marimo_dark_state_space.png"))
        d.page.locator(".rw-widget").first.scroll_into_view_if_needed()
        d.page.screenshot(path=str(artifacts / "marimo_dark_explorer.png"))


def test_voila(pages, tmp_path, artifacts):
    pytest.importorskip("voila", reason="voila is not installed (pip install -e '.[dev]')")
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
                    for s in VOILA_CELLS],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "harbor.ipynb").write_text(json.dumps(nb))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serve([sys.executable, "-m", "voila", "harbor.ipynb", "--no-browser", f"--port={port}",
                "--Voila.ip=127.0.0.1", "--VoilaConfiguration.allow_theme_override=YES", own_trust_store(tmp_path)],
               url, tmp_path, environment(tmp_path), tmp_path / "voila.log"):
        p = pages("light", VOILA_TEMPLATE_CDN)
        p.page.goto(url, timeout=TIMEOUT)
        check_round_trips(p.page, artifacts, "voila")
        assert not dark(p.page.locator(".rw-widget").first)
        d = pages("light", VOILA_TEMPLATE_CDN)
        d.page.goto(f"{url}/?theme=dark", timeout=TIMEOUT)
        d.page.locator(".rw-space").first.wait_for(timeout=TIMEOUT)
        assert dark(d.page.locator(".rw-widget").first) and dark(d.page.locator(".rw-space").first)
        d.page.locator(".rw-space").first.screenshot(path=str(artifacts / "voila_dark_state_space.png"))
