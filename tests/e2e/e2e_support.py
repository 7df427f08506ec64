"""What the browser tests share besides fixtures (those are in conftest.py): the checkout's paths,
Chromium's flags, notebook servers on loopback, offline pages and a sample at real size. A module of
its own name, so that test modules import it whichever conftest pytest loaded last."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

from starts import started_once_more

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/lib/chromium/chromium") if Path(p).exists()), None)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVER_START_S = 180  # a Jupyter server started on a loaded 2-core machine can take a minute


def own_trust_store(home: Path) -> str:
    """The flag that keeps a notebook server's trust store (Jupyter's SQLite file of notebook
    signatures) in ``home``. By default every server of a user shares one file
    (~/.local/share/jupyter/nbsignatures.db) and writes to it when it saves a notebook and when it
    opens a signed one, and a write lock held there by another process (the other pytest worker's
    server, the developer's own Jupyter) for 5 s makes opening a notebook fail with "database is
    locked" (JupyterLab's File Load Error): reproduced by holding that lock, the cause found for the
    reopened-notebook test's chance failure (test_live_note_in_lab.py)."""
    return f"--NotebookNotary.db_file={trust_store(home)}"


def trust_store(home: Path) -> Path:
    """Where own_trust_store keeps the trust store of the server started in ``home``."""
    return home / "nbsignatures.db"


def jupyter_server(module: str, app_flags: list[str], home: Path):
    """Start ``python -m <module>`` (jupyterlab or notebook) on loopback, serving ``home/root``.

    Shared by both front ends: loopback, a random token, config/runtime/settings/workspaces dirs
    and the trust store (own_trust_store) in ``home``, --allow-root, this checkout on PYTHONPATH;
    ``app_flags`` are the front end's own (expose the app in the browser, no update checks). A server
    that does not answer is started once more, on another port (StartRetried). A context yielding
    (base_url, token, root).
    """
    return started_once_more(f"python -m {module}", lambda: _jupyter_server(module, app_flags, home))


@contextlib.contextmanager
def _jupyter_server(module: str, app_flags: list[str], home: Path):
    """One try of jupyter_server, on a free port."""
    root = home / "root"
    root.mkdir(exist_ok=True)
    env = dict(os.environ)
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                     ("JUPYTERLAB_SETTINGS_DIR", "settings"), ("JUPYTERLAB_WORKSPACES_DIR", "workspaces")):
        env[var] = str(home / sub)
    news = home / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True, exist_ok=True)
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    with _served([sys.executable, "-m", module, "--no-browser", "--ip=127.0.0.1", f"--port={port}",
                f"--IdentityProvider.token={token}", "--allow-root", f"--ServerApp.root_dir={root}",
                own_trust_store(home), *app_flags],
               f"{base}/api/status?token={token}", root, env, home / f"{module}.log"):
        yield base, token, root


def serve(command: list[str], url: str, cwd, env: dict, log_path):
    """Run a server (``python -m <module> ...``) on loopback until ``url`` answers; stop it by its
    PID afterwards. A server that exits or stays silent for SERVER_START_S is started once more
    (StartRetried), then fails with its log."""
    return started_once_more(f"python -m {command[2]}", lambda: _served(command, url, cwd, env, log_path))


@contextlib.contextmanager
def _served(command: list[str], url: str, cwd, env: dict, log_path):
    """One try of serve."""
    with open(log_path, "w") as log:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + SERVER_START_S
            while True:
                try:
                    urllib.request.urlopen(url, timeout=5)
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"python -m {command[2]} did not start:\n" + log_path.read_text())
                    time.sleep(0.3)
            yield
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


class OfflinePage:
    """A page that aborts, and records, every request to a host that is not loopback."""

    def __init__(self, page):
        self.page = page
        self.blocked: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        page.route("**/*", self._route)
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _route(self, route):
        url = route.request.url
        host = urlparse(url).hostname or ""
        if url.startswith(("data:", "blob:")) or host in LOOPBACK:
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()


@contextlib.contextmanager
def offline_page_sized(browser, width: int, height: int):
    """An OfflinePage in a fresh context of that viewport; no request left loopback, no dialog opened."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = OfflinePage(context.new_page())
    yield page
    context.close()
    assert not page.blocked, f"requests to non-loopback hosts: {page.blocked}"
    assert not page.dialogs, f"a dialog opened (script ran?): {page.dialogs}"


def settled(locator, frames: int = 3, timeout: float = 30_000) -> None:
    """Wait until ``locator``'s box has stayed the same for ``frames`` animation frames in a row:
    nothing (a scroll, a resize's layout, a theme's restyle, a re-render) is moving it any more."""
    locator.evaluate("e => { delete e.rwBox; e.rwSame = 0; }")
    locator.page.wait_for_function(
        "([e, n]) => { const box = JSON.stringify(e.getBoundingClientRect());"
        " e.rwSame = e.rwBox === box ? e.rwSame + 1 : 0; e.rwBox = box; return e.rwSame >= n; }",
        arg=[locator.element_handle(), frames], polling="raf", timeout=timeout)


def restyled_dark(locator, timeout: float = 30_000) -> None:
    """Wait until ``locator``'s background is dark (a dark theme's colours applied to it)."""
    locator.page.wait_for_function(
        "e => { const [r, g, b, a = 1] = getComputedStyle(e).backgroundColor.match(/[\\d.]+/g).map(Number);"
        " return a > 0 && r + g + b < 300; }", arg=locator.element_handle(), timeout=timeout)


def kernel_answered(page, views: int, timeout: float = 30_000) -> None:
    """Wait until at least ``views`` ragwidgets views are on the page (inside shadow roots too, as
    marimo draws them) and the kernel has answered every one's ping (js/src/live.js:
    ``data-rw-live="answered"`` on the view's element)."""
    page.wait_for_function(
        """n => { const roots = [];
                  const walk = (node) => { for (const e of node.querySelectorAll('*')) {
                      if (e.classList.contains('rw-live-root')) roots.push(e);
                      if (e.shadowRoot) walk(e.shadowRoot); } };
                  walk(document);
                  return roots.length >= n && roots.every(r => r.parentElement.dataset.rwLive === 'answered'); }""",
        arg=views, timeout=timeout)


def lab_theme(page, theme: str, timeout: float = 60_000) -> None:
    """Switch JupyterLab to its ``theme`` ("light" or "dark") and wait until it is in place: the
    body says so and the splash JupyterLab shows over the page meanwhile is gone."""
    page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', "
                  f"{{theme: 'JupyterLab {theme.title()}'}})")
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{str(theme == 'light').lower()}'"
                           " && !document.getElementById('jupyterlab-splash')", timeout=timeout)


def wait_or_show(page, expression: str, shot: Path, timeout: float) -> None:
    """``page.wait_for_function(expression)``; on a timeout, a screenshot at ``shot`` and an
    AssertionError that says what the page shows instead: JupyterLab's dialogs (a File Load Error)
    and the first 120 characters of each output (a widget's fallback text when it was not drawn)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        page.wait_for_function(expression, timeout=timeout)
    except PlaywrightTimeout:
        page.screenshot(path=str(shot))
        shown = page.evaluate("""() => ({
            dialogs: [...document.querySelectorAll('.jp-Dialog')].map(e => e.innerText.slice(0, 200)),
            outputs: [...document.querySelectorAll('.jp-OutputArea-output')].map(e => e.innerText.slice(0, 120))})""")
        raise AssertionError(f"waited {timeout / 1000:.0f} s for {expression}; the page shows {shown} "
                             f"(screenshot {shot})") from None


def big_sample_record(n_passages: int = 60, n_claims: int = 80, n_gt: int = 40) -> dict:
    """One RAGChecker sample at real size: ``n_passages`` passages of a few lines, ``n_claims``
    response claims, ``n_gt`` ground-truth claims; claim j is entailed by two passages spread over
    the ranking, some claims by none, some incorrect. Hostile IDs: a bidi override, a 10,000-
    character token (also in the question and the answer)."""
    long_token = "x" * 10_000
    doc_ids = [f"doc-{k:03d}" for k in range(n_passages)]
    doc_ids[3] = "\u202eexe.live"
    doc_ids[7] = "d" + long_token
    words = "harbor museum opens tuesday admission credits schedule garden bench flag tower".split()

    def text(seed: int, n: int) -> str:
        return " ".join(words[(seed * 7 + i * 3) % len(words)] for i in range(n)).capitalize() + "."

    def supports(j: int) -> set[int]:
        return set() if j % 9 == 4 else {(j * 13 + 20) % n_passages, (j * 7 + 45) % n_passages}

    def row(j: int) -> list[str]:
        on = supports(j)
        return ["Entailment" if k in on else ("Contradiction" if k == (j + 1) % n_passages else "Neutral")
                for k in range(n_passages)]

    return {
        "query_id": "big-sample", "query": f"When does the museum open? {long_token}",
        "gt_answer": "The museum opens on Tuesday at ten; admission is four credits.",
        "response": f"The museum opens on Tuesday. {long_token}",
        "retrieved_context": [{"doc_id": d, "text": text(k, 40)} for k, d in enumerate(doc_ids)],
        "response_claims": [text(j, 12) for j in range(n_claims)],
        "gt_answer_claims": [text(j + 100, 10) for j in range(n_gt)],
        "answer2response": ["Neutral" if j % 5 == 2 else "Entailment" for j in range(n_claims)],
        "response2answer": ["Neutral" if i % 4 == 1 else "Entailment" for i in range(n_gt)],
        "retrieved2response": [row(j) for j in range(n_claims)],
        "retrieved2answer": [row(j + 3) for j in range(n_gt)],
    }


def marimo_app(setup: str, widgets: list[str]) -> str:
    """A marimo notebook's source: one cell runs ``setup`` (Python defining ``widgets``), then one
    cell shows each widget with ``mo.ui.anywidget``."""
    body = "\n".join("    " + line if line else "" for line in setup.splitlines())
    shows = "".join(f"\n\n@app.cell\ndef _({', '.join(sorted([name, 'mo']))}):\n"
                    f"    mo.ui.anywidget({name})\n    return\n" for name in widgets)
    return (f"import marimo\n\napp = marimo.App()\n\n\n@app.cell\ndef _():\n    import marimo as mo\n"
            f"{body}\n    return {', '.join(sorted([*widgets, 'mo']))}\n{shows}\n\n"
            "if __name__ == \"__main__\":\n    app.run()\n")
