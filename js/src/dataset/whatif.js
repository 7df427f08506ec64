// The DatasetExplorer's "What if" panel: the run-level what-ifs over the rows the filters keep,
// no judge call. Python computes them (a "whatif" request: widgets/dataset/whatif.py, over
// analysis.top_k_curve and analysis.drop_passages); here they are drawn: one small SVG per
// passage-dependent metric, its mean at k = 1 … the longest retrieval with the Undefined count
// under each k (a k where no sample is defined breaks the line: never drawn as 0), and a rule's
// before / after table. The panel asks again when the rows change (the filters, the run shown, a
// review; not a sort or a chart's choice) or a rule is applied; a reply to an older question is dropped.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../incremental.js";
import { meanText as fmt } from "./common.js";

const H = 104;
const PAD = { left: 38, right: 6, top: 8, bottom: 34 }; // the row labels (k, Undef) sit in the left margin
const STEP = 19; // horizontal room per k, at least
const MIN_W = 150;

const n = (x) => x.toLocaleString("en-US");

/** A frame_view table ({columns, rows}) as objects keyed by column. */
export function records(table) {
  if (!table) return [];
  return table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i]])));
}

/** The top-k curve's rows grouped per metric, in their first appearance's order:
 * [{key, label, points: [{k, mean, defined, undefined, not_computable}] by k}]. */
export function curveByMetric(table, labels = {}) {
  const by = new Map();
  for (const r of records(table)) {
    if (!by.has(r.metric)) by.set(r.metric, { key: r.metric, label: labels[r.metric] || r.metric, points: [] });
    by.get(r.metric).points.push({ k: r.k, mean: r.mean, defined: r.defined, undefined: r.undefined, not_computable: r.not_computable });
  }
  for (const m of by.values()) m.points.sort((a, b) => a.k - b.k);
  return [...by.values()];
}

/** An SVG path through the points that have a mean (x, y: scales); a point without one (no
 * defined sample at that k) lifts the pen, so the line breaks there instead of falling to 0. */
export function linePath(points, x, y) {
  let d = "";
  let pen = false;
  for (const p of points) {
    if (p.mean === null || p.mean === undefined) { pen = false; continue; }
    d += `${pen ? "L" : "M"}${x(p.k).toFixed(1)},${y(p.mean).toFixed(1)}`;
    pen = true;
  }
  return d;
}

/** A change as the table shows it: signed, three places; "" where either side is Undefined. */
export function signed(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "";
  const s = Number(v).toFixed(3);
  return v > 0 ? `+${s}` : v < 0 ? `−${s.slice(1)}` : s;
}

/** A count in a k's narrow column: as it is below 1,000, else in thousands ("12k", "1.5k"); the tooltip has it whole. */
export function shortCount(c) {
  if (c < 1000) return String(c);
  return c < 10000 ? `${(Math.floor(c / 100) / 10).toString()}k` : `${Math.floor(c / 1000)}k`;
}

/** One metric's curve over k, with the Undefined count under each k. */
export function Curve({ metric }) {
  const pts = metric.points;
  const ks = pts.map((p) => p.k);
  const lo = Math.min(...ks);
  const hi = Math.max(...ks);
  const digits = Math.max(...pts.map((p) => shortCount(p.undefined).length));
  const W = Math.max(MIN_W, PAD.left + PAD.right + Math.max(STEP, 6 * digits + 6) * pts.length);
  const inner = W - PAD.left - PAD.right;
  const slot = inner / pts.length; // each k at the middle of its slot
  const x = (k) => PAD.left + slot / 2 + (hi === lo ? 0 : ((k - lo) / (hi - lo)) * (inner - slot));
  const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - Math.min(1, Math.max(0, v)));
  const base = H - PAD.bottom;
  const tip = (p) => `k = ${p.k}: ${p.mean === null ? "Undefined (no defined sample)" : `mean ${fmt(p.mean)} over ${p.defined} defined`}` +
    ` · ${p.undefined} Undefined${p.not_computable ? ` · ${p.not_computable} not computable` : ""}`;
  return html`<figure class="rw-wi-fig" data-testid="wi-curve" data-metric=${metric.key}>
    <figcaption>${metric.label}</figcaption>
    <svg class="rw-ds-chart" width=${W} height=${H} role="img"
        aria-label=${`${metric.label} if only the top k passages were kept, k = ${lo} to ${hi}`}>
      <rect class="rw-ds-frame" x=${PAD.left} y=${PAD.top} width=${W - PAD.left - PAD.right} height=${base - PAD.top} />
      <text x=${PAD.left - 4} y=${PAD.top + 8} class="rw-ds-axis" text-anchor="end">1</text>
      <text x=${PAD.left - 4} y=${base} class="rw-ds-axis" text-anchor="end">0</text>
      <path class="rw-wi-line" d=${linePath(pts, x, y)} />
      ${pts.map((p) => html`<g key=${p.k} data-k=${p.k} data-mean=${p.mean === null ? "" : p.mean} data-undefined=${p.undefined}>
        ${p.mean === null
          ? html`<text class="rw-wi-none" x=${x(p.k)} y=${PAD.top + 12} text-anchor="middle">U<title>${tip(p)}</title></text>`
          : html`<circle class="rw-wi-dot" cx=${x(p.k)} cy=${y(p.mean)} r="3"><title>${tip(p)}</title></circle>`}
        <text class="rw-ds-axis" x=${x(p.k)} y=${base + 12} text-anchor="middle">${p.k}</text>
        <text class=${`rw-wi-undef${p.undefined ? "" : " rw-wi-zero"}`} x=${x(p.k)} y=${base + 25} text-anchor="middle"
          data-testid="wi-undef">${shortCount(p.undefined)}<title>${tip(p)}</title></text>
      </g>`)}
      <text class="rw-ds-axis" x=${PAD.left - 4} y=${base + 12} text-anchor="end">k</text>
      <text class="rw-wi-undef" x=${PAD.left - 4} y=${base + 25} text-anchor="end">Undef</text>
    </svg>
  </figure>`;
}

/** The rule in force, in words: "doc_id ~ /-0$/ or text ~ /cookie/". */
export function ruleWords(rule) {
  return [rule.doc_id ? `doc_id ~ /${rule.doc_id}/` : "", rule.text ? `text ~ /${rule.text}/` : ""].filter(Boolean).join(" or ");
}

function DropTable({ result, rule }) {
  const rows = records(result.dropped);
  const labels = result.labels || {};
  const cell = (v) => (v === null || v === undefined ? html`<span class="rw-ds-undef">Undefined</span>` : fmt(v));
  return html`<div class="rw-ds-wide">
    <p class="rw-hint" data-testid="wi-dropped">${`Without the ${n(result.n_dropped)} passage${result.n_dropped === 1 ? "" : "s"} matching ` +
      `${ruleWords(rule)} (in ${n(result.samples_touched)} of the ${n(result.samples)} samples):`}</p>
    <table class="rw-table rw-wi-table" data-testid="wi-table">
      <thead><tr><th scope="col">metric</th><th scope="col">before</th><th scope="col">after</th><th scope="col">change</th>
        <th scope="col">Undefined before</th><th scope="col">Undefined after</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr key=${r.metric} data-metric=${r.metric}>
        <th scope="row">${labels[r.metric] || r.metric}</th><td class="rw-num">${cell(r.before)}</td><td class="rw-num">${cell(r.after)}</td>
        <td class="rw-num">${signed(r.change)}</td>
        <td class="rw-num">${r.undefined_before}</td><td class="rw-num">${r.undefined_after}</td></tr>`)}</tbody>
    </table></div>`;
}

/** What the what-ifs depend on, as one string: the controls that choose the rows (not the sort or
 * the charts' choices), how many rows there are, and the reviews (they change the labels). */
export function rowsKey(view) {
  const c = view.controls || {};
  const reviews = view.reviews ? view.reviews.runs.map((r) => [r.run, r.reviews]) : [];
  return JSON.stringify([c.run || "", c.text || "", c.expression || "", c.conditions || [], c.slice || "", c.brush || {},
    view.count, reviews]);
}

/** The tab: `part` is the view's rows part (rowsKey's), `request(name, msg)` the core's request
 * channel (a promise; rejects with the kernel's error). */
export function WhatIf({ part: view, request }) {
  const [rule, setRule] = useState({ doc_id: "", text: "" }); // the rule in force
  const [draft, setDraft] = useState({ doc_id: "", text: "" }); // what is typed
  const [result, setResult] = useState(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const latest = useRef(0);
  const ask = (wanted) => {
    latest.current += 1;
    const mine = latest.current;
    setBusy(true);
    return request("whatif", { doc_id: wanted.doc_id, text: wanted.text }).then((reply) => {
      if (mine !== latest.current) return;
      setResult(reply);
      setRule(wanted);
      setError("");
      setBusy(false);
    }, (err) => {
      if (mine !== latest.current) return;
      setError(`The what-if failed: ${err.message}`);
      setBusy(false);
    });
  };
  useEffect(() => { ask(rule); }, [rowsKey(view)]); // asked again only when the rows (or their labels) change
  const apply = () => ask({ doc_id: draft.doc_id, text: draft.text });
  const clear = () => { setDraft({ doc_id: "", text: "" }); ask({ doc_id: "", text: "" }); };
  const onKey = (e) => { if (e.key === "Enter") apply(); };
  const metrics = result ? curveByMetric(result.top_k, result.labels) : [];
  const edited = draft.doc_id !== rule.doc_id || draft.text !== rule.text;
  return html`<div class="rw-ds-panel rw-wi" data-testid="whatif" aria-busy=${busy ? "true" : "false"}>
    <p class="rw-hint" data-testid="wi-over">${result
      ? `Over the ${n(result.samples)} samples the filters keep${view.runs.length > 1 ? ` of run ${result.run}` : ""}: the labels already judged, rescored without some passages (no judge call).`
      : busy ? "Computing the what-ifs…" : ""}</p>
    ${result ? html`<h4>If the retriever kept only its top k passages
        <span class="rw-hint">each metric that reads passages; under each k, how many samples are Undefined there (never averaged as 0)</span></h4>
      ${metrics.length ? html`<div class="rw-wi-curves">${metrics.map((m) => html`<${Curve} key=${m.key} metric=${m} />`)}</div>`
        : html`<p class="rw-hint" data-testid="wi-no-curve">No retrieved passage among these samples: no top-k curve.</p>`}` : ""}
    <h4>If passages matching a rule were dropped</h4>
    <div class="rw-wi-rule">
      <label>doc_id matches <input type="text" data-testid="wi-doc-id" value=${draft.doc_id} placeholder="^wiki-|-0$" spellcheck="false"
        onInput=${(e) => { const doc_id = e.target.value; setDraft((d) => ({ ...d, doc_id })); }} onKeyDown=${onKey} /></label>
      <label>or text matches <input type="text" data-testid="wi-text" value=${draft.text} placeholder="(?i)cookie policy" spellcheck="false"
        onInput=${(e) => { const text = e.target.value; setDraft((d) => ({ ...d, text })); }} onKeyDown=${onKey} /></label>
      <button data-testid="wi-apply" class=${edited ? "rw-ds-edited" : ""} onClick=${apply}>Drop them</button>
      ${rule.doc_id || rule.text ? html`<button data-testid="wi-clear" onClick=${clear}>Keep every passage</button>` : ""}
      <span class="rw-hint">regular expressions (RE2: no lookaround or backreference), found anywhere in the field</span>
    </div>
    ${error ? html`<div class="rw-ds-error" role="alert" data-testid="wi-error">${error}</div>` : ""}
    ${result && result.dropped ? html`<${DropTable} result=${result} rule=${rule} />` : ""}
  </div>`;
}

export const panel = {
  key: "whatif", title: "What if", place: "tab", shows: (view) => !!view.whatif,
  part: (view) => ({ controls: view.controls, reviews: view.reviews, count: view.count, runs: view.runs }),
  traits: [],
  Panel: WhatIf,
};
