"""``ragwidgets export NOTEBOOK.ipynb out.html``: a notebook as one HTML page whose widgets show offline.

The notebook runs with its widget state stored (nbclient), then nbconvert's lab template writes
it with three changes: nothing is loaded from a CDN (no require.js, html-manager, MathJax or
Mermaid: formulas stay as TeX source; Altair charts become inline SVG, in Vega's dark theme on
a dark page); the
snapshot renderer (``static/snapshot.js``, inlined) draws each anywidget from its saved state
with the widget's own ES module and CSS, inert and marked "Snapshot · controls disabled"; and
each widget output keeps its static form (its text/html, else its text), shown where a widget
cannot be drawn. Widgets of one class carry the same ES module and CSS: each distinct text is
stored once in the page's widget state (``rw_shared``) and every widget's ``_esm`` / ``_css``
names it (``{"rw_shared": key}``). One file, no network: open it anywhere.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from datetime import datetime, timezone
from pathlib import Path

from ._extras import vl_convert
from .atomic import atomic_write
from .errors import RagWidgetsError

SNAPSHOT_JS = Path(__file__).resolve().parent / "static" / "snapshot.js"

TEMPLATE = r"""{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block extra_css -%}
<style>
.rw-snapshot-banner { position: sticky; top: 0; z-index: 10; margin: 0; padding: 6px 12px;
  background: #fff3e0; color: #1f1f1f; border-bottom: 2px solid #e65100; font: 13px system-ui, sans-serif; }
/* its own colours, not the theme's (JupyterLab Dark's warn-color3 is light orange, its text white) */
body[data-jp-theme-light="false"] .rw-snapshot-banner { background: #3b2410; color: #f3f3f3; border-color: #ffb74d; }
.rw-snapshot-badge, .rw-snapshot-note { margin: 2px 0; font: italic 12px system-ui, sans-serif;
  color: var(--jp-ui-font-color2, #555); }
.jp-OutputArea-output:has(> .rw-snapshot-view) { cursor: not-allowed; }  /* inert: no pointer events */
.rw-fallback { white-space: pre-wrap; }
/* inert: no scroll region inside a snapshot scrolls, so the claim x passage matrix is laid out
   whole (the page scrolls down to its last row, the output sideways to its last column) */
.rw-snapshot-view .rw-matrix-wrap { max-height: none; overflow: visible; }
</style>
{%- endblock extra_css -%}
{%- block body_header -%}
{{ super() }}
<p class="rw-snapshot-banner" role="note">Snapshot of {{ resources.rw_notebook | e }}, {{ resources.rw_when | e }}:
{% if "widgets" in nb.metadata -%}
the widgets show the state saved when the notebook ran, and their controls are disabled.
{%- else -%}
the notebook was saved without widget state, so its widgets show only their text form.
{%- endif %}
Run the notebook in Jupyter to use them.</p>
{%- endblock body_header -%}
{%- block data_widget_view scoped -%}
<div class="jupyter-widgets jp-OutputArea-output">
<script type="application/vnd.jupyter.widget-view+json">
{{ output.data['application/vnd.jupyter.widget-view+json'] | json_dumps | escape_html_script }}
</script>
{%- if 'text/html' in output.data %}
<div class="rw-fallback">{{ output.data['text/html'] }}</div>
{%- else %}
<pre class="rw-fallback">{{ output.data.get('text/plain', 'a widget') | e }}</pre>
{%- endif %}
</div>
{%- endblock data_widget_view -%}
{%- block footer_js -%}
{{ super() }}
<script type="module">{{ resources.rw_snapshot_js }}</script>
{%- endblock footer_js -%}
"""


SCRIPT_ESCAPES = {ord(c): f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"}


def script_json(text: str) -> str:
    """JSON text made inert in a ``<script>`` element in every HTML parser state: each ``<``, ``>``,
    ``&``, U+2028 and U+2029 as its ``\\u`` escape, so no ``<!--``, ``<script`` or ``</script`` from
    the data reaches the parser (nbconvert's own filter escapes only ``/``: a ``<!--<script>`` in
    a passage swallowed the rest of the page). Replaces nbconvert's ``escape_html_script``."""
    return text.translate(SCRIPT_ESCAPES)


ALTAIR_EMBED = re.compile(r'<div id="altair-viz-[0-9a-f]+"></div>.*?\}\)\(\{', re.S)


VEGALITE = re.compile(r"application/vnd\.vegalite\.v\d+\+json")
STATE_MIME = "application/vnd.jupyter.widget-state+json"
SHARED = ("_esm", "_css")


def _chart_spec(data: dict):
    """An output's Altair / Vega-Lite spec: its Vega-Lite mimetype's, or the first argument of
    the embed call in Altair's HTML; None for another output."""
    for mime, spec in data.items():
        if VEGALITE.fullmatch(mime):
            return spec
    page = data.get("text/html", "")
    page = page if isinstance(page, str) else "".join(page)
    match = ALTAIR_EMBED.search(page)
    return None if match is None else json.JSONDecoder().raw_decode(page, match.end() - 1)[0]


# A Vega SVG drawn in the default (light) theme: its root's class and its white background rect.
VEGA_LIGHT_SVG = re.compile(r'^\s*<svg [^>]*class="marks"[^>]*><rect width="[\d.]+" height="[\d.]+" fill="white"/>')
# The default theme's colours and Vega's ``dark`` theme's for them (vl-convert's output, compared):
# the background, text, axis domains and ticks, grid lines. Data colours are the same in both.
VEGA_DARK = {'fill="white"': 'fill="#333"', 'fill="#000"': 'fill="#fff"', 'stroke="#888"': 'stroke="#fff"',
             'stroke="#ddd"': 'stroke="#888"'}
VEGA_DARK_RE = re.compile("|".join(map(re.escape, VEGA_DARK)))

# Vega's dark theme leaves a text mark black (its default): white on a dark page. Given to
# vl-convert with theme "dark", and part of the kernel's theme below.
DARK_CONFIG = {"text": {"color": "#fff"}}
# Run first (then removed) when a dark export executes the notebook: Altair charts drawn in the
# kernel (``alt.renderers.enable("svg")``, saved as SVG with no spec left to redraw) use Vega's
# dark theme, text marks white. A notebook that enables a theme itself keeps its own.
ALTAIR_DARK_CELL = """try:
    import altair as _rw_alt
    _rw_alt.theme.register("ragwidgets_export_dark", enable=True)(lambda: {
        "usermeta": {"embedOptions": {"theme": "dark"}},
        "config": {"view": {"continuousWidth": 300, "continuousHeight": 300}, **%r}})
    del _rw_alt
except Exception:  # no Altair, or one without theme.register: its charts stay as drawn
    pass""" % (DARK_CONFIG,)


def darken_svg(svg: str) -> str:
    """A chart saved as Vega SVG in the default light theme (no spec left to draw it again) with
    Vega's ``dark`` theme colours: background, text, axes and grid; any other SVG unchanged."""
    if not isinstance(svg, str) or not VEGA_LIGHT_SVG.match(svg):
        return svg
    return VEGA_DARK_RE.sub(lambda m: VEGA_DARK[m.group(0)], svg)


def altair_to_svg(nb, theme: str = "light") -> None:
    """Replace each Altair chart output (a Vega-Lite mimetype, or HTML that loads Vega from a CDN)
    with the same chart as inline SVG, rendered here by vl-convert, in Vega's ``dark`` theme when
    ``theme`` is dark (a notebook with such a chart needs ``pip install "ragwidgets[export]"``).
    On a dark page a chart already saved as light Vega SVG (Altair's ``svg`` renderer) gets the
    dark theme's colours (:func:`darken_svg`), not a white box."""
    for number, cell in enumerate(nb.cells, 1):
        for output in cell.get("outputs", []):
            try:
                data = output.get("data", {})
                if theme == "dark" and "image/svg+xml" in data:
                    svg = data["image/svg+xml"]
                    data["image/svg+xml"] = darken_svg(svg if isinstance(svg, str) else "".join(svg))
                spec = _chart_spec(data)
                if spec is None:
                    continue
                svg = (vl_convert().vegalite_to_svg(spec, theme="dark", config=DARK_CONFIG) if theme == "dark"
                       else vl_convert().vegalite_to_svg(spec))
            except RagWidgetsError:  # the extra is missing: not this chart's fault
                raise
            except (ValueError, RuntimeError) as err:  # not JSON; a spec vl-convert rejects
                why = " ".join(str(err).splitlines()[:2])  # vl-convert appends a JS stack
                raise RagWidgetsError(f"cell {number}: an Altair chart could not be drawn offline ({why})") from None
            output["data"] = {"image/svg+xml": svg, "text/plain": output["data"].get("text/plain", "an Altair chart")}


def share_modules(nb) -> int:
    """Store each distinct ``_esm`` / ``_css`` text of the notebook's saved widget state once, in
    the state's ``rw_shared`` (key: its SHA-256, 16 hex digits), and make every model's field
    ``{"rw_shared": key}``. Returns the characters saved."""
    saved = nb.metadata.get("widgets", {}).get(STATE_MIME)
    if not saved:
        return 0
    shared, before = {}, 0
    for model in saved.get("state", {}).values():
        state = model.get("state", {})
        for name in SHARED:
            text = state.get(name)
            if isinstance(text, str) and text:
                key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
                shared[key] = text
                before += len(text)
                state[name] = {"rw_shared": key}
    saved["rw_shared"] = shared
    return before - sum(map(len, shared.values()))


def _drop_first_cell(nb) -> None:
    """Take the export's own first cell out of a run notebook, the other cells' execution counts
    (and their results') one less, as if it had never run."""
    del nb.cells[0]
    for cell in nb.cells:
        if cell.get("execution_count"):
            cell["execution_count"] -= 1
        for output in cell.get("outputs", []):
            if output.get("execution_count"):
                output["execution_count"] -= 1


def export_notebook(notebook: str | Path, output: str | Path, *, execute: bool = True, theme: str = "light",
                    timeout: int = 600, kernel_name: str = "python3") -> Path:
    """Write ``notebook`` as one offline HTML page at ``output``; returns the output path.

    ``execute=False`` uses the outputs and widget state already saved in the notebook.
    """
    try:
        import jinja2
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError
        from nbconvert import HTMLExporter
    except ImportError as err:
        raise RagWidgetsError(f"ragwidgets export needs nbconvert and nbclient ({err}): "
                              "pip install nbconvert nbclient (JupyterLab installs both)") from None

    notebook, output = Path(notebook), Path(output)
    if not notebook.is_file():
        raise RagWidgetsError(f"{notebook}: no such notebook")
    try:
        nb = nbformat.read(notebook, as_version=4)
    except Exception as err:  # nbformat raises several kinds for a file that is not a notebook
        raise RagWidgetsError(f"{notebook}: not a readable notebook ({err})") from None
    if execute:
        preamble = theme == "dark"
        if preamble:  # Altair's charts drawn in the kernel in the dark theme; the cell is taken out after
            nb.cells.insert(0, nbformat.v4.new_code_cell(ALTAIR_DARK_CELL))
        client = NotebookClient(nb, timeout=timeout, kernel_name=kernel_name, store_widget_state=True,
                                resources={"metadata": {"path": str(notebook.parent.resolve())}})
        try:
            client.execute()
        except CellExecutionError as err:
            raise RagWidgetsError(f"{notebook}: a cell failed while running, nothing written:\n{err}") from None
        if preamble:
            _drop_first_cell(nb)
    altair_to_svg(nb, theme)
    share_modules(nb)
    exporter = HTMLExporter(template_name="lab", theme=theme, filters={"escape_html_script": script_json},
                            extra_loaders=[jinja2.DictLoader({"rw_snapshot.html.j2": TEMPLATE})],
                            template_file="rw_snapshot.html.j2")
    resources = {"rw_notebook": notebook.name,
                 "rw_when": "run " + datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC") if execute
                 else "as saved",
                 "rw_snapshot_js": re.sub("</(script)", r"<\\/\\1", SNAPSHOT_JS.read_text(encoding="utf-8"), flags=re.I)}
    html, _ = exporter.from_notebook_node(nb, resources=resources)
    output.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(output, encoding="utf-8") as out:  # a page written whole or not at all
        out.write(html)
    return output


def cmd_export(args) -> int:
    theme = "dark" if args.dark else args.theme
    out = export_notebook(args.notebook, args.output, execute=not args.no_execute, theme=theme)
    print(f"wrote {out} ({out.stat().st_size // 1024} kB): open it in a browser, no network needed")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``export`` subcommand (imports nbconvert only when it runs)."""
    export = sub.add_parser("export", help="write a notebook as one HTML page whose widgets show offline")
    export.add_argument("notebook", help="the .ipynb to run and export")
    export.add_argument("output", help="the .html to write")
    export.add_argument("--theme", choices=("light", "dark"), default="light",
                        help="the page's colours (default: light)")
    export.add_argument("--dark", action="store_true", help="the same as --theme dark")
    export.add_argument("--no-execute", action="store_true",
                        help="do not run the notebook: use the outputs and widget state saved in it")
    export.set_defaults(func=cmd_export)
