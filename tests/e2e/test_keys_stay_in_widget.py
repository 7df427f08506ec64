"""Keys pressed in a widget stay in the widget, in JupyterLab 4, Notebook 7 and marimo (issue 36,
item 6; js/src/keys.js). One notebook per host with a DatasetExplorer, a SampleExplorer and a
state space (one kernel start each); with focus in each region of each widget (a table row, a
drill-down claim row, a matrix cell, a control) every review and navigation key is pressed, and
after each one the notebook must be as it was: its cells, their types (Jupyter) or code (marimo),
the active cell, the mode and whether it has unsaved changes, read from the host's own model in
the page. The host's keys still reach it from a widget (Shift+Enter runs the cell, in Jupyter),
and a key pressed on the host's own cell (outside the widgets) does change the notebook: the check
sees a change when there is one."""

from __future__ import annotations

import json
import sys

import nbformat
import pytest
from e2e_support import free_port, kernel_answered, marimo_app, serve
from test_frontends_marimo_voila import TIMEOUT, environment
from test_harbor_in_lab import open_and_run

# The review keys (E N C A U W ] [), the navigation keys (j k ↓ ↑) and the notebook's own
# command-mode keys (M Y D D Z X V B: Markdown, code, delete, undo, cut, paste, insert below).
KEYS = ["e", "n", "c", "a", "u", "w", "]", "[", "j", "k", "ArrowDown", "ArrowUp",
        "m", "y", "d", "d", "z", "x", "v", "b"]
SETUP = ("import ragwidgets as rw\nfrom ragwidgets.datasets import synthetic_run\n"
         "explorer = rw.DatasetExplorer(synthetic_run(200, seed=3))\n"
         "sample = rw.SampleExplorer.ragchecker_example()\n"
         "space = rw.Explorer.harbor().state_space('citation_precision')")
CELLS = [SETUP, "explorer", "sample", "space"]
MARIMO_APP = marimo_app(SETUP, ["explorer", "sample", "space"])

# The notebook as the host's model has it, as JSON text (compared before and after each key).
JUPYTER_STATE = """() => { const w = window.jupyterapp.shell.currentWidget, nb = w.content, cells = nb.model.cells;
  return JSON.stringify({types: Array.from({length: cells.length}, (_, i) => cells.get(i).type),
    active: nb.activeCellIndex, mode: nb.mode, dirty: w.context.model.dirty,
    selected: nb.widgets.filter((c) => nb.isSelected(c)).length}); }"""
MARIMO_STATE = """() => { const cells = [...document.querySelectorAll('.marimo-cell[data-cell-id]')];
  const at = document.activeElement && document.activeElement.closest('[data-cell-id]');
  return JSON.stringify({cells: cells.map((c) => c.dataset.cellId),
    code: cells.map((c) => [...c.querySelectorAll('.cm-content')].map((e) => e.textContent).join('\\n')),
    focused: at ? at.dataset.cellId : null}); }"""
# Whether the element focused (through shadow roots: marimo draws widgets in one) is inside `w`.
FOCUS_IN = """(w) => { let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return w.contains(a); }"""


def regions(page):
    """(name, the widget's root, what to click to put focus in the region), in an order where each
    region is on screen by the time it is clicked (the table row opens the drill-down)."""
    dataset = page.locator(".rw-dataset").first
    sample = page.locator(".rw-widget:not(.rw-dataset)").filter(has=page.locator("[data-testid=controls]")).first
    space = page.locator(".rw-space").first
    return [
        ("DatasetExplorer table row", dataset, dataset.locator("[data-testid=table] [data-index='0']")),
        ("DatasetExplorer drill-down claim row", dataset, dataset.locator("[data-testid=drill-main] [data-testid=claims] tr.rw-row").first),
        ("DatasetExplorer control (a tab)", dataset, dataset.locator("[role=tab]").first),
        ("DatasetExplorer filter box (typing)", dataset, dataset.locator("[data-testid=search]")),
        ("SampleExplorer claim row", sample, sample.locator("[data-testid=claims] tr.rw-row").first),
        ("SampleExplorer matrix cell", sample, sample.locator(".rw-matrix td").first),
        ("SampleExplorer control (Reset)", sample, sample.locator("[data-testid=reset]")),
        ("state space cell", space, space.locator(".rw-cell").first),
        ("state space control (metric)", space, space.locator("select[data-testid=metric]")),
    ]


def press_everywhere(page, state: str) -> list[str]:
    """Press KEYS with focus in each region; the changes of the notebook they made, in words."""
    from playwright.sync_api import expect
    changed = []
    for name, widget, target in regions(page):
        if name.startswith("SampleExplorer matrix"):
            show = widget.locator("[data-testid=show-matrix]")
            if show.count():
                show.click()
        expect(target).to_be_visible(timeout=TIMEOUT)
        target.click()
        before = page.evaluate(state)
        for key in KEYS:
            if not widget.count():  # a key reached the notebook, which cut or deleted the widget's cell
                return [*changed, f"{name}: the widget is gone before key {key!r}"]
            if not widget.evaluate(FOCUS_IN):  # the key's action redrew the focused element: back in
                target.click()
                before = page.evaluate(state)
            page.keyboard.press(key)
            after = page.evaluate(state)
            if after != before:
                changed.append(f"{name}, key {key!r}: {before} -> {after}")
                before = after
        if name.endswith("(typing)"):  # every letter went into the box (↑ moved the caret to its start)
            assert sorted(target.input_value()) == sorted(k for k in KEYS if len(k) == 1)
            target.fill("")
    return changed


def test_keys_stay_in_widgets_in_jupyterlab(lab, offline_page, artifacts):
    changed = _jupyter(lab, offline_page, "{base}/lab/tree/{name}?token={token}&reset")
    offline_page.page.screenshot(path=str(artifacts / "keys_lab.png"))
    assert not changed, "\n".join(changed)


def test_keys_stay_in_widgets_in_notebook7(notebook7, offline_page, artifacts):
    changed = _jupyter(notebook7, offline_page, "{base}/notebooks/{name}?token={token}")
    assert offline_page.page.evaluate("window.jupyterapp.name") == "Jupyter Notebook"
    offline_page.page.screenshot(path=str(artifacts / "keys_notebook7.png"))
    assert not changed, "\n".join(changed)


def _jupyter(server, p, url: str) -> list[str]:
    """Open the notebook, run it, save it (nothing unsaved), press the keys in every region; then
    A on the notebook's own cell, which inserts a cell: the state read does see a change."""
    _, _, root = server
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}), root / "keys.ipynb")
    page = p.page
    open_and_run(p, server, "keys.ipynb", widgets=1, url=url)
    _loaded(page)
    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=TIMEOUT)
    changed = press_everywhere(page, JUPYTER_STATE)
    # the host's own keys still reach it from inside a widget: Shift+Enter runs the cell and selects the next
    sample = page.locator(".rw-widget:not(.rw-dataset)").filter(has=page.locator("[data-testid=controls]")).first
    sample.locator("[data-testid=reset]").click()
    at = json.loads(page.evaluate(JUPYTER_STATE))["active"]
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(f"() => window.jupyterapp.shell.currentWidget.content.activeCellIndex === {at + 1}", timeout=TIMEOUT)
    before = json.loads(page.evaluate(JUPYTER_STATE))
    page.evaluate("""() => { const nb = window.jupyterapp.shell.currentWidget.content;
                             nb.activeCellIndex = 0; nb.mode = 'command'; nb.activeCell.node.focus(); }""")
    page.keyboard.press("a")
    page.wait_for_function(f"() => window.jupyterapp.shell.currentWidget.content.model.cells.length === {len(before['types']) + 1}",
                           timeout=TIMEOUT)
    return changed


def _loaded(page) -> None:
    """Every widget drawn and answered: the table's first rows, the sample, the heatmap."""
    from playwright.sync_api import expect
    kernel_answered(page, 3)
    table = page.locator(".rw-dataset [data-testid=table]").first
    expect(table.locator('[data-index="0"] > span').first).not_to_have_text("…", timeout=TIMEOUT)
    expect(page.locator(".rw-space .rw-cell").first).to_be_visible(timeout=TIMEOUT)


def test_keys_stay_in_widgets_in_marimo(offline_page, tmp_path, artifacts):
    pytest.importorskip("marimo", reason="marimo is not installed (pip install -e '.[dev]')")
    (tmp_path / "config" / "marimo").mkdir(parents=True)
    (tmp_path / "config" / "marimo" / "marimo.toml").write_text(
        '[display]\ntheme = "light"\n[runtime]\nauto_instantiate = true\n')
    (tmp_path / "app.py").write_text(MARIMO_APP)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serve([sys.executable, "-m", "marimo", "edit", "app.py", "--headless", "--host", "127.0.0.1",
                "--port", str(port), "--no-token", "--skip-update-check"],
               url, tmp_path, environment(tmp_path), tmp_path / "marimo.log"):
        page = offline_page.page
        page.goto(url, timeout=TIMEOUT)
        _loaded(page)
        changed = press_everywhere(page, MARIMO_STATE)
        page.screenshot(path=str(artifacts / "keys_marimo.png"))
        cells = len(json.loads(page.evaluate(MARIMO_STATE))["cells"])
        page.locator(".marimo-cell[data-cell-id]").first.focus()  # marimo's own cell: A adds a cell above it
        page.keyboard.press("a")
        page.wait_for_function(f"() => document.querySelectorAll('.marimo-cell[data-cell-id]').length === {cells + 1}",
                               timeout=TIMEOUT)
    assert not changed, "\n".join(changed)
