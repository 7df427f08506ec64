"""A DatasetExplorer's state as one static HTML page: summary, charts (inline SVG rendered by
vl-convert; the top-k what-if when the run has passage labels), slices, comparison, how far the
judge can be trusted (judge–reviewer agreement and corrected scores, for runs with reviews), the
failure modes the analyst's notes name (rates with intervals, a chart of modes × runs, example notes;
for runs with tagged notes), and the worst samples with their claims. The page follows the reader's
light or dark preference (``prefers-color-scheme``; in dark, the charts are inverted, hues kept).

Every text from the data is escaped, and IDs are isolated (``<bdi>``) with their bidi control
characters shown as the live widgets show them (``⟨U+202E⟩``, ``js/src/text.js``); the page has
no script and no external URL.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import numpy as np

from .._extras import vl_convert
from ..analysis.agreement import agreement
from ..analysis.corrected import corrected
from ..analysis.failure_modes import mode_table, percent
from ..engine.metrics import format_value, metric_label
from ..model import CONTRADICTED, ENTAILED, NOT_ENTAILED
from ..notes import as_notes
from ._view import LOWER_IS_BETTER, show_id
from .mode_charts import mode_chart

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
td.t,th.t{text-align:left}.undef{color:#777;font-style:italic}.charts{display:flex;flex-wrap:wrap;gap:16px}
.sample{border:1px solid #ddd;border-radius:6px;padding:8px 12px;margin:10px 0}
.yes{color:#1b7f3b}.no{color:#b3261e}.muted{color:#666}
:root{color-scheme:light dark}
@media (prefers-color-scheme:dark){body{color:#e6e6e6;background:#161616}h2,td,th,.sample{border-color:#484848}
.undef,.muted{color:#a8a8a8}.yes{color:#81c784}.no{color:#ef9a9a}
figure svg{filter:invert(1) hue-rotate(180deg)}}
"""


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _id(text) -> str:
    """An ID as HTML: escaped, isolated, its bidi controls shown."""
    return f"<bdi>{_e(show_id(text))}</bdi>"


def _fmt(v, percent: bool = False, signed: bool = False) -> str:
    """A value as :func:`format_value` shows it, Undefined greyed."""
    if v is None or v != v:
        return '<span class="undef">Undefined</span>'
    return format_value(v, percent=percent, signed=signed)


def _svg(chart) -> str:
    return vl_convert().vegalite_to_svg(chart.to_json())


def _label(value: int) -> str:
    return {ENTAILED: '<span class="yes">entailed</span>', NOT_ENTAILED: '<span class="no">not entailed</span>',
            CONTRADICTED: '<span class="no">⊗ contradicted</span>'}.get(
        int(value), '<span class="undef">unjudged</span>')


def _sample_html(explorer, row: int, metric: str) -> str:
    s = explorer.sample(row)
    f = explorer.frame
    head = f"{_id(f['run'].iat[row])} · " if len(explorer.runs) > 1 else ""
    out = [f'<div class="sample"><b>{head}{_id(s.query_id)}</b> — {_e(metric_label(metric))} '
           f'{_fmt(explorer.frame[metric].iat[row])}',
           f'<p><b>Question:</b> {_e(s.query) or "<span class=muted>(no question in this dataset)</span>"}</p>',
           f"<p><b>Answer:</b> {_e(s.response)}</p><table><tr><th class=t>response claim</th>"
           "<th class=t>vs ground truth</th><th class=t>entailed by passages</th></tr>"]
    for j, c in enumerate(s.response_claims):
        gt = _label(s.answer2response[j]) if s.answer2response is not None else "—"
        by = "—"
        if s.retrieved2response is not None:
            hits = [s.passages[k].doc_id for k in np.flatnonzero(s.retrieved2response[j] == ENTAILED)]
            by = ", ".join(map(_id, hits)) if hits else '<span class="no">none</span>'
        out.append(f"<tr><td class=t>{_e(c.text)}</td><td class=t>{gt}</td><td class=t>{by}</td></tr>")
    out.append("</table>")
    if not s.response_claims:
        out.append('<p class="undef">No response claims.</p>')
    if s.passages:
        out.append("<details><summary>Passages</summary><ol>" +
                   "".join(f"<li><b>{_id(p.doc_id)}</b>: {_e(p.text)}</li>" for p in s.passages) + "</ol></details>")
    out.append("</div>")
    return "".join(out)


def _interval(lo, hi) -> str:
    return "—" if lo is None else f"{_fmt(lo)} – {_fmt(hi)}"


def _trust_html(runs: dict) -> str:
    """Agreement and corrected scores of the runs whose scores carry reviews ("" when none does)."""
    reviewed = {name: s for name, s in runs.items() if s.judge_scores is not None and s.reviews is not None
                and len(s.reviews)}
    if not reviewed:
        return ""
    several = len(runs) > 1
    out = ["<h2>How far can the judge be trusted?</h2><p>Judge against reviewer over the reviewed labels "
           "(kappa's interval: a bootstrap over samples). Beside it the base rate: what a judge that always "
           "gives the reviewer's majority label would score.</p><table><tr>"
           + ("<th class=t>run</th>" if several else "") +
           "<th class=t>labels</th><th>n</th><th>samples</th><th>agreement</th><th>Cohen's kappa</th>"
           "<th>95% interval</th><th>majority label share</th><th>majority judge macro-F1</th><th>macro-F1</th>"
           "<th>2-class kappa</th></tr>"]
    table = agreement(reviewed, by="run").table
    for r in table.to_dict("records"):
        head = f"<td class=t>{_id(r['run'])}</td>" if several else ""
        base = _fmt(r["base_rate"]) + ("" if r["majority_label"] is None else f" ({_e(r['majority_label'])})")
        out.append(f"<tr>{head}<td class=t>{_e(r['kind'])}</td><td>{r['n']}</td><td>{r['n_samples']}</td>"
                   f"<td>{_fmt(r['agreement'])}</td><td>{_fmt(r['kappa'])}</td>"
                   f"<td>{_interval(r['kappa_low'], r['kappa_high'])}</td><td>{base}</td>"
                   f"<td>{_fmt(r['majority_macro_f1'])}</td><td>{_fmt(r['macro_f1'])}</td>"
                   f"<td>{_fmt(r['binary_kappa'])}</td></tr>")
    out.append("</table><p>Each metric's mean three ways, with 95% intervals: the judge's labels only (its interval "
               "ignores the judge's errors), the reviewed samples only, and corrected (prediction-powered: the "
               "judge's mean over all samples rectified by the judge–reviewer differences on the reviewed ones). "
               "Valid when the reviewed samples are a simple random sample (the random review queue). "
               "The mean estimated is that of these questions; <i>discordant</i>: reviewed samples where the "
               "judge's value differs (few of them: the interval rests on a Wilson floor, not on them).</p>"
               "<table><tr>" + ("<th class=t>run</th>" if several else "") +
               "<th class=t>metric</th><th>judge only</th><th>95% interval</th><th>reviewed only</th>"
               "<th>95% interval</th><th>corrected</th><th>95% interval</th><th>reviewed samples</th>"
               "<th>discordant</th>"
               "<th>samples</th><th class=t>why Undefined</th></tr>")
    for name, scores in reviewed.items():
        for metric, r in corrected(scores).iterrows():
            head = f"<td class=t>{_id(name)}</td>" if several else ""
            out.append(f"<tr>{head}<td class=t>{_e(metric_label(metric))}</td>"
                       + "".join(f"<td>{_fmt(r[f'{e}_mean'])}</td><td>{_interval(r[f'{e}_low'], r[f'{e}_high'])}</td>"
                                 for e in ("judge", "reviewed", "corrected"))
                       + f"<td>{r['n_reviewed']}</td><td>{r['n_discordant']}</td><td>{r['n_samples']}</td><td class=t>{_e(r['reason'])}</td></tr>")
    out.append("</table>")
    return "".join(out)


EXAMPLE_NOTES = 3  # notes shown per failure mode
NOTE_SHOWN = 300  # characters of a note's text shown


def _notes_by_run(runs: dict, notes) -> dict:
    """Each run's notes: ``notes`` {run: Notes-like} or one Notes-like for every run; None: the
    notes each run's scores carry."""
    if isinstance(notes, Mapping):
        return {run: as_notes(notes[run] if notes.get(run) is not None else ()) for run in runs}
    return {run: as_notes(notes if notes is not None else (s.notes or ())) for run, s in runs.items()}


def _note_html(note, run: str | None) -> str:
    head = f"{_id(run)} · " if run is not None else ""
    claim = "" if note.claim is None else f" · claim {note.claim + 1}"  # from 1, as the drill-down
    text = note.note.strip()
    text = text if len(text) <= NOTE_SHOWN else text[:NOTE_SHOWN - 1] + "…"
    return f"<li>{head}{_id(note.query_id)}{claim}: {_e(text) if text else '<span class=muted>(no text)</span>'}</li>"


def _rate_interval(lo, hi) -> str:
    return "—" if lo is None or lo != lo else _e(f"{percent(lo)} – {percent(hi)}")


def _modes_html(explorer, notes=None, design=None) -> str:
    """The failure modes the notes name (:func:`~ragwidgets.analysis.failure_modes.mode_table`):
    counts, rates and intervals, the share of the run when ``design`` says how the samples read
    were drawn, the modes × runs chart and example notes ("" when no note carries a tag)."""
    runs = getattr(explorer.model, "scores", None) or {}
    if notes is None:
        notes = getattr(explorer.model, "notes", None)  # the explorer's notes in force, when it keeps them
    by_run = _notes_by_run(runs, notes)
    if not any(n.tags for n in by_run.values()):
        return ""
    if isinstance(design, Mapping):
        design = {run: design.get(run) for run in runs}  # a run with no design: rates among the samples read
    elif design is not None and len(runs) == 1:
        design = dict.fromkeys(runs, design)  # the one run's
    table = mode_table(runs, by_run, design=design)
    several, estimated = len(runs) > 1, bool(table["population"].notna().any())
    read = {run: int(frame["read"].iloc[0]) for run, frame in table.groupby("run", sort=False)}
    out = ["<h2>Failure modes</h2><p>The tags of the analyst's notes. A sample is read when it has a note; "
           "each mode's rate is over the samples read, with its 95% interval (Clopper–Pearson)"
           + (", and its estimated share of the whole run from how the samples read were drawn" if estimated else
              "; the samples read were not declared a random sample, so no share of the whole run is estimated")
           + ". Samples read: " + ", ".join(f"{_id(run)} {n:,}" if several else f"{n:,}" for run, n in read.items())
           + ".</p><table><tr>" + ("<th class=t>run</th>" if several else "")
           + "<th class=t>failure mode</th><th>tagged</th><th>read</th><th>rate</th><th>95% interval</th>"
           + ("<th>share of the run</th><th>95% interval</th>" if estimated else "") + "</tr>"]
    for r in table.to_dict("records"):
        head = f"<td class=t>{_id(r['run'])}</td>" if several else ""
        row = (f"<tr>{head}<td class=t>{_e(r['mode'])}</td><td>{r['tagged']:,}</td><td>{r['read']:,}</td>"
               f"<td>{_e(percent(r['rate']))}</td><td>{_rate_interval(r['lo'], r['hi'])}</td>")
        if estimated:
            row += f"<td>{_e(percent(r['run_rate']))}</td><td>{_rate_interval(r['run_lo'], r['run_hi'])}</td>"
        out.append(row + "</tr>")
    out.append("</table>")
    if estimated:
        out += [f"<p class=muted>{_id(run) + ': ' if several else ''}{_e(basis)}</p>"
                for run, basis in dict(zip(table["run"], table["basis"])).items()]
    out.append(f"<div class='charts'><figure data-chart='modes'>{_svg(mode_chart(table))}</figure></div>"
               "<h3>Example notes</h3>")
    for mode in dict.fromkeys(table["mode"]):
        shown = [(run, n) for run, notes in by_run.items() for n in notes if mode in n.tags][:EXAMPLE_NOTES]
        out.append(f"<div class='sample' data-mode='{_e(mode)}'><b>{_e(mode)}</b><ul>"
                   + "".join(_note_html(n, run if several else None) for run, n in shown) + "</ul></div>")
    return "".join(out)


def report_html(explorer, *, worst: int = 20, notes=None, design=None) -> str:
    """The page (see the module docstring). ``notes``: the failure notes (Notes-like, or {run:
    Notes-like}; None: the explorer's, else those its scores carry); ``design``: how the samples
    read were drawn (a ReadingQueue, or {run: ReadingQueue};
    :func:`~ragwidgets.analysis.failure_modes.declared_design`), for each mode's share of the run."""
    v = explorer.view_state
    pct = explorer.percent
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>ragwidgets run report</title>"
             f"<style>{STYLE}</style></head><body><h1>Run report</h1>",
             f"<p>{v['count']} of {v['total']} samples shown"
             + (f" (filter: {_e(explorer.expression)})" if explorer.expression else "")
             + (f" (slice: {_e(explorer.slice)})" if explorer.slice else "") + ".</p>",
             "<h2>Summary</h2><table><tr><th class=t>run</th><th class=t>metric</th><th>mean</th>"
             "<th>95% interval</th><th>defined</th><th>Undefined</th><th>not computable</th></tr>"]
    for r in v["summary"]:
        ci = "—" if r["ci_low"] is None else f"{_fmt(r['ci_low'], pct)} – {_fmt(r['ci_high'], pct)}"
        parts.append(f"<tr><td class=t>{_id(r['run'])}</td><td class=t>{_e(metric_label(r['metric']))}</td>"
                     f"<td>{_fmt(r['mean'], pct)}</td><td>{ci}</td><td>{r['defined']}</td>"
                     f"<td>{r['undefined']}</td><td>{r['not_computable']}</td></tr>")
    parts.append("</table><h2>Charts</h2><div class='charts'>")
    for kind in ("distribution", "scatter", "groups"):
        if kind in v["charts"]:
            parts.append(f"<figure data-chart='{kind}'>{_svg(explorer.chart(kind))}</figure>")
    if len(explorer.top_k()):
        parts.append(f"<figure data-chart='top_k'>{_svg(explorer.chart('top_k'))}</figure>")
    parts.append("</div><h2>Failure slices</h2><table><tr><th class=t>slice</th><th class=t>expression</th>"
                 "<th>samples</th></tr>")
    for s in v["slices"]:
        parts.append(f"<tr><td class=t>{_e(s['name'])}</td><td class=t><code>{_e(s['expression'])}</code></td>"
                     f"<td>{s['size']}</td></tr>")
    parts.append("</table>")
    if v["compare"]:
        c = v["compare"]
        parts.append(f"<h2>Compared with {_id(c['baseline'])}</h2><p>{c['shared']} shared queries; left out: "
                     + _e(", ".join(f"{k} {n}" for k, n in c["left_out"].items())) + "</p>"
                     + "".join(f"<p class=no>{n} shared query_id(s) of {_id(k)} ask a different question than "
                               f"in {_id(c['baseline'])} (still paired by query_id)</p>"
                               for k, n in c.get("query_mismatch", {}).items() if n)
                     + "".join(f"<p class=no>{_id(k)}: {_e(note)}; part of its difference may be the judge's</p>"
                               for k, note in c.get("judge_notes", {}).items() if note)
                     + "".join(f"<p>{_id(k)}: {_e(said)}</p>" for k, said in c.get("said", {}).items())
                     + "<table><tr>"
                     "<th class=t>run</th><th class=t>metric</th><th>baseline</th><th>run</th><th>difference</th>"
                     "<th>paired 95% interval</th><th class=t>includes 0</th></tr>")
        for r in c["rows"]:
            ci = "—" if r["ci_low"] is None else f"{_fmt(r['ci_low'], signed=True)} – {_fmt(r['ci_high'], signed=True)}"
            parts.append(f"<tr><td class=t>{_id(r['run'])}</td><td class=t>{_e(metric_label(r['metric']))}</td>"
                         f"<td>{_fmt(r['baseline_mean'])}</td><td>{_fmt(r['mean'])}</td>"
                         f"<td>{_fmt(r['difference'], signed=True)}</td><td>{ci}</td>"
                         f"<td class=t>{'yes' if r['includes_zero'] else 'no'}</td></tr>")
        parts.append("</table>")
    parts.append(_trust_html(getattr(explorer.model, "scores", None) or {}))
    parts.append(_modes_html(explorer, notes, design))
    metric = explorer.chart_metric
    rows = explorer.order
    values = explorer.frame[metric].to_numpy(dtype=float)[rows]
    ranked = rows[np.argsort(-values if metric in LOWER_IS_BETTER else values, kind="stable")]
    ranked = ranked[~np.isnan(explorer.frame[metric].to_numpy(dtype=float)[ranked])][:worst]
    parts.append(f"<h2>The {len(ranked)} worst samples by {_e(metric_label(metric))}</h2>")
    parts += [_sample_html(explorer, int(r), metric) for r in ranked]
    parts.append("</body></html>")
    return "\n".join(parts)
