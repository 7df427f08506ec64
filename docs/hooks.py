"""MkDocs hooks of the docs site (mkdocs.yml, ``hooks:``).

The metrics page's table is generated from ``ragwidgets.engine.metrics.METRICS`` at build time,
so the definitions and Undefined rules the site shows are the ones the engine computes."""

from __future__ import annotations

import re

MARKER = "<!-- generated: metrics table -->"
FAMILIES = {"ragchecker": "RAGChecker", "citation": "citation", "both": "both"}


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def metrics_table() -> str:
    from ragwidgets.engine.metrics import METRICS

    rows = ["| metric | value (numerator / denominator) | Undefined when | family / group | needs |",
            "|---|---|---|---|---|"]
    for m in METRICS.values():
        rows.append("| " + " | ".join(_cell(c) for c in (
            f"`{m.name}`<br>{m.label}" + ("<br>*lower is better*" if m.lower_is_better else ""),
            m.definition,
            m.undefined,
            f"{FAMILIES.get(m.family, m.family)} / {m.group}",
            "<br>".join(f"`{n}`" for n in m.needs),
        )) + " |")
    zeros = [m for m in METRICS.values() if m.zero_unless]
    notes = ["", "With `undefined=\"zero\"` (`--undefined zero`, ragchecker 0.1.9's numbers) every "
             "Undefined value is 0, and these metrics are also 0 when the sample has no items of "
             "these kinds: " + "; ".join(f"`{m.name}`: no {', '.join(m.zero_unless)}" for m in zeros) + "."]
    return "\n".join(rows + notes)


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, metrics_table())
    return markdown


_CDN_SCRIPT = re.compile(r"<script\b[^>]*>(?:(?!</script>).)*?https://cdnjs\.cloudflare\.com(?:(?!</script>).)*</script>", re.S)


def on_post_page(output: str, page, config) -> str:
    """Nothing is fetched at view time: nbconvert's template brings a loader of Mermaid from a
    CDN (used only by Mermaid cells, which the tutorials have none of) and an empty MathJax script
    tag; both are dropped from the tutorial pages."""
    if page.file.src_uri.endswith(".ipynb"):
        output = _CDN_SCRIPT.sub("", output).replace('<script src=""> </script>', "")
    return output


_ROLE = re.compile(r":(?:func|meth|class|mod|attr|data|obj|exc|const):(?=<code>)")


def on_page_content(html: str, page, config, files) -> str:
    """The docstrings' Sphinx roles (:func:`x`) read as plain code in the API reference."""
    if page.file.src_uri.startswith("api/"):
        html = _ROLE.sub("", html)
    return html
