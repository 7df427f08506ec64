"""End to end: the Harbor Museum notebook in JupyterLab in headless Chromium, offline."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from e2e_support import lab_theme, restyled_dark, settled

ROOT = Path(__file__).resolve().parents[2]
XSS = "<img src=x onerror=alert(1)>"
TIMEOUT = 60_000


def open_and_run(p, server, name: str, widgets: int, url: str = "{base}/lab/tree/{name}?token={token}&reset") -> None:
    """Open a notebook, wait for an idle kernel, run all cells, wait for ``widgets`` explorers.

    ``url`` is the front end's notebook page: JupyterLab's by default; Notebook 7 passes
    ``{base}/notebooks/{name}?token={token}`` (both expose ``window.jupyterapp``).
    """
    base, token, _ = server
    page = p.page
    page.goto(url.format(base=base, name=name, token=token), timeout=TIMEOUT)
    page.wait_for_function(
        """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                   const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                   return k && k.status === 'idle'; }""", timeout=TIMEOUT)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(f"document.querySelectorAll('.rw-root').length >= {widgets}", timeout=TIMEOUT)
    page.wait_for_function(
        """() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'
                 && ![...document.querySelectorAll('.jp-InputArea-prompt')].some(e => e.textContent.includes('*'))""",
        timeout=TIMEOUT)


def test_harbor_museum_in_jupyterlab(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    shutil.copy(ROOT / "ragwidgets" / "tutorials" / "01_harbor_museum.ipynb", root)
    p = offline_page
    page = p.page
    open_and_run(p, lab, "01_harbor_museum.ipynb", widgets=2)
    explorer = page.locator(".rw-widget").first
    card = lambda metric: explorer.locator(f'[data-metric="{metric}"]')  # noqa: E731
    option = lambda trait, name: explorer.locator(f'[data-trait="{trait}"] [data-option="{name}"]')  # noqa: E731

    # run-all ends with explorer.reset(): the default state, every citation-family score 1
    expect(card("context_relevance").locator("[data-testid=fraction]")).to_have_text("2/2 = 1", timeout=TIMEOUT)
    explorer.scroll_into_view_if_needed()
    explorer.screenshot(path=str(artifacts / "explorer_default.png"))

    option("retrieval", "No retrieval").click()
    expect(card("context_relevance").locator("[data-testid=value]")).to_have_text("Undefined")
    expect(card("context_relevance")).to_contain_text("no retrieved documents")
    expect(explorer.locator("[data-testid=state]")).to_contain_text("No retrieval · Fully supported · Matched")

    option("answer", "Empty answer").click()
    expect(card("faithfulness").locator("[data-testid=value]")).to_have_text("Undefined")
    expect(card("completeness").locator("[data-testid=value]")).to_have_text("0")
    explorer.screenshot(path=str(artifacts / "explorer_undefined.png"))

    option("retrieval", "Current sources").click()
    option("answer", "Fully supported").click()
    expect(card("citation_precision").locator("[data-testid=value]")).to_have_text("1")
    option("citation", "None").click()
    expect(card("citation_precision").locator("[data-testid=value]")).to_have_text("Undefined")
    expect(card("citation_precision")).to_contain_text("no citations")
    expect(card("citation_support").locator("[data-testid=fraction]")).to_have_text("0/3 = 0")

    # shared selection: a claim lights its passages, a passage its claims
    explorer.locator('[data-key="claim:R3"]').click()
    expect(explorer.locator('[data-key="source:D2"] .rw-link')).to_have_text("supports it")
    expect(explorer.locator('[data-key="claim:R3"]')).to_have_attribute("aria-selected", "true")
    explorer.locator('[data-key="source:D1"]').click()
    expect(explorer.locator('[data-key="claim:R1"] .rw-link')).to_contain_text("entailed by it")

    # a passage toggle and a preset
    explorer.locator('[data-preset="Mixed citations"]').click()
    expect(card("citation_precision").locator("[data-testid=fraction]")).to_have_text("2/3 = 0.667")
    explorer.locator('[data-toggle="D2"]').click()
    expect(card("faithfulness").locator("[data-testid=fraction]")).to_have_text("2/3 = 0.667")
    expect(explorer.locator(".rw-edited")).to_have_text("Passages edited: −D2")
    explorer.locator('[data-key="claim:R3"]').click()
    explorer.screenshot(path=str(artifacts / "explorer_selection.png"))
    explorer.locator("[data-testid=reset]").click()
    expect(card("citation_precision").locator("[data-testid=fraction]")).to_have_text("3/3 = 1")

    # the state-space heatmap: one anywidget, cells are buttons labelled with their state
    space = page.locator(".rw-space").first
    cell = lambda r, a, c: space.locator(f'[data-cell="{r}|{a}|{c}"]')  # noqa: E731
    expect(cell("Current sources", "Fully supported", "Matched")).to_have_attribute("aria-current", "true")
    space.scroll_into_view_if_needed()
    space.screenshot(path=str(artifacts / "state_space.png"))
    assert float(space.locator("tbody th").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 11
    cell("All sources", "Garden answer", "Misplaced").click()
    expect(explorer.locator("[data-testid=state]")).to_contain_text("All sources · Garden answer · Misplaced")
    expect(card("citation_support").locator("[data-testid=fraction]")).to_have_text("1/1 = 1")  # D3 retrieved
    expect(cell("All sources", "Garden answer", "Misplaced")).to_have_attribute("aria-current", "true")
    expect(space.locator("[data-testid=now]")).to_have_text(
        "Explorer: All sources · Garden answer · Misplaced — Context relevance 0.75 · Faithfulness 1 · "
        "Citation support 1 · Citation precision 1 · Completeness 0")
    expect(cell("No retrieval", "Empty answer", "None")).to_have_text("Undef")
    cell("No retrieval", "Empty answer", "None").click()
    expect(explorer.locator("[data-testid=state]")).to_contain_text("No retrieval · Empty answer · None")
    space.locator("[data-testid=metric]").select_option("completeness")
    expect(cell("No retrieval", "Empty answer", "None")).to_have_text("0")
    explorer.locator("[data-testid=reset]").click()
    expect(cell("Current sources", "Fully supported", "Matched")).to_have_attribute("aria-current", "true")

    # predict-then-reveal in the quiz explorer
    quiz = page.locator(".rw-widget").nth(1)
    quiz.scroll_into_view_if_needed()
    expect(quiz.locator('[data-metric="faithfulness"] [data-testid=value]')).to_have_text("1")
    expect(quiz.locator('[data-metric="context_relevance"] [data-testid=value]')).to_have_text("?")
    box = quiz.locator('[data-metric="context_relevance"] input')
    box.fill("1")
    box.press("Enter")
    expect(quiz.locator('[data-metric="context_relevance"] .rw-verdict')).to_have_text("✓ You predicted 1: right")
    quiz.screenshot(path=str(artifacts / "quiz_predict.png"))

    # dark theme: same widget, JupyterLab's variables
    lab_theme(page, "dark", TIMEOUT)
    explorer.locator('[data-key="claim:R2"]').click()
    expect(explorer.locator('[data-key="source:D1"] .rw-link')).to_contain_text("supports it")
    explorer.scroll_into_view_if_needed()
    restyled_dark(explorer)
    settled(explorer)
    explorer.screenshot(path=str(artifacts / "explorer_dark.png"))
    space.scroll_into_view_if_needed()
    space.screenshot(path=str(artifacts / "state_space_dark.png"))
    assert space.evaluate("e => getComputedStyle(e).backgroundColor") != "rgb(255, 255, 255)"
    lab_theme(page, "light", TIMEOUT)
    assert not p.errors, p.errors


def test_untrusted_text_renders_as_text(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    scenario = {
        "title": "Untrusted text", "question": XSS,
        "sources": [{"doc_id": "D1", "text": XSS, "facts": ["a"], "relevant": True},
                    {"doc_id": "D2", "text": "<script>window.pwned = 1</script>", "facts": ["b"],
                     "relevant": False}],
        "facts": {"a": {"text": XSS, "cite": "D1"}, "b": {"text": "<b>bold?</b>", "cite": "D2"}},
        "reference_facts": ["a"], "retrieval_bundles": {"All": ["D1", "D2"]},
        "answer_bundles": {"Both": ["a", "b"]}, "citation_rules": {"Matched": {"rule": "matched"}},
    }
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": f"import json\nimport ragwidgets as rw\nrw.Explorer(json.loads({json.dumps(scenario)!r}))"}
    nb = {"cells": [cell], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (root / "xss.ipynb").write_text(json.dumps(nb))
    p = offline_page
    open_and_run(p, lab, "xss.ipynb", widgets=1)
    widget = p.page.locator(".rw-widget").first
    expect(widget.locator('[data-key="source:D1"] .rw-text')).to_have_text(XSS)
    expect(widget.locator('[data-key="claim:R1"] .rw-text')).to_have_text(XSS)
    expect(widget.locator(".rw-question")).to_contain_text(XSS)
    assert widget.locator("img").count() == 0 and widget.locator("script").count() == 0
    assert p.page.evaluate("window.pwned === undefined")
    widget.screenshot(path=str(artifacts / "xss_as_text.png"))
    assert not p.dialogs


def test_ragchecker_sample_in_jupyterlab(lab, offline_page, artifacts):
    from playwright.sync_api import expect
    _, _, root = lab
    shutil.copy(ROOT / "ragwidgets" / "tutorials" / "02_ragchecker_sample.ipynb", root)
    p = offline_page
    page = p.page
    open_and_run(p, lab, "02_ragchecker_sample.ipynb", widgets=1)
    explorer = page.locator(".rw-widget").first
    card = lambda metric: explorer.locator(f'[data-metric="{metric}"]')  # noqa: E731
    # the notebook ends on sample 1 with claim R1 selected
    expect(explorer.locator('[data-key="claim:R1"]')).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    # the picker: a search answered by Python, a result picked; previous / next
    explorer.locator("[data-testid=search]").fill("longest hallucination>0")
    expect(explorer.locator("[data-testid=matches]")).to_have_text("1 matching sample")
    explorer.locator(".rw-picker-row").first.click()
    expect(explorer.locator("[data-testid=current]")).to_have_text("1 of 2: 0")
    expect(card("precision").locator("[data-testid=fraction]")).to_have_text("8/11 = 0.727")
    explorer.locator("[data-testid=next]").click()
    expect(explorer.locator("[data-testid=current]")).to_have_text("2 of 2: 1")
    explorer.locator("[data-testid=prev]").click()
    expect(card("precision").locator("[data-testid=fraction]")).to_have_text("8/11 = 0.727")
    explorer.locator('[data-toggle="000"]').click()
    expect(explorer.locator(".rw-matrix thead th").nth(1)).to_have_text("1off")
    expect(explorer.locator(".rw-matrix thead th").nth(1)).to_have_attribute("title", "000 (rank 1): switched off")
    expect(card("context_precision").locator("[data-testid=fraction]")).to_have_text("2/3 = 0.667")
    explorer.locator('[data-key="source:001"]').click()
    expect(explorer.locator('[data-key="claim:R1"] .rw-link')).to_have_text("entailed by it")
    explorer.scroll_into_view_if_needed()
    explorer.screenshot(path=str(artifacts / "sample_explorer.png"))
    explorer.locator('[data-preset="No passages"]').click()
    expect(card("context_precision").locator("[data-testid=value]")).to_have_text("Undefined")
    assert not p.errors, p.errors
