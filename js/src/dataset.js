// DatasetExplorer (anywidget ES module): a whole run, or several runs of the same queries.
// Python owns the frame and the view state (`_view`, JSON: summary, charts' aggregates, slices,
// comparison, n of N); every control here is a trait write. The table is virtualised
// (@tanstack/virtual-core) and asks Python for the rows it shows (dataset_rows.js); every request
// is answered, and a failed one's error shows in the alert with the view's own. The
// drill-down mounts the one-sample view (sample_view.js) on `_drill` / `_other`. Each view is
// one trait (view_trait.js: its JSON and its binary cells together).
import { render as mount } from "preact";
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "preact/hooks";
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from "@tanstack/virtual-core";
import { RowStore } from "./dataset_rows.js";
import { Distribution, GroupMeans, Scatter } from "./dataset_charts.js";
import { html } from "./incremental.js";
import { mountSampleView } from "./sample_view.js";
import { showId } from "./text.js";
import { viewOf } from "./view_trait.js";
const ROW_H = 26;
const WIDTHS = { run: 120, query_id: 110, query: 260, count: 70, metric: 86, difference: 110 };

/** Each column's width in pixels (text columns by key, others by kind). */
export const columnWidth = (col) => (col.kind === "text" ? WIDTHS[col.key] || 120 : WIDTHS[col.kind] || 86);

const fmt = (v, digits = 3) => (v === null || v === undefined || Number.isNaN(v) ? "" : Number(v).toFixed(digits));

/** One metric cell: the value, "Undef" (Undefined: visibly unlike 0) or "n/c" (not computable). */
export function metricCell(value, status) {
  if (status === 1) return { text: "Undef", cls: "rw-ds-undef" };
  if (status === 2) return { text: "n/c", cls: "rw-ds-nc" };
  return { text: fmt(value), cls: "rw-num" };
}

/** Each trait's view state (viewOf), redrawn when one changes: one event name per `model.on`
 * call (anywidget's contract; marimo's model takes no space-separated list). */
function useViews(model, names) {
  const [, bump] = useReducer((x) => x + 1, 0);
  useEffect(() => {
    for (const n of names) model.on(`change:${n}`, bump);
    return () => names.forEach((n) => model.off(`change:${n}`, bump));
  }, []);
  return Object.fromEntries(names.map((n) => [n, viewOf(model, n)]));
}

function setTraits(model, patch) {
  for (const [k, v] of Object.entries(patch)) model.set(k, v);
  model.save_changes();
}

function Table({ model, view, store }) {
  const scrollRef = useRef(null);
  const [, bump] = useReducer((x) => x + 1, 0);
  const virt = useRef(null);
  if (!virt.current) {
    virt.current = new Virtualizer({
      count: view.count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_H, overscan: 12,
      scrollMargin: ROW_H, // the sticky header row above the rows
      observeElementRect, observeElementOffset, scrollToFn: elementScroll, onChange: () => bump(),
    });
  }
  const v = virt.current;
  v.setOptions({ ...v.options, count: view.count });
  useLayoutEffect(() => v._didMount(), []);
  useLayoutEffect(() => { v._willUpdate(); });
  useEffect(() => { if (scrollRef.current) scrollRef.current.scrollTop = 0; }, [view.version]);
  useEffect(() => {
    const i = view.selected.index;
    if (i >= 0) v.scrollToIndex(i, { align: "auto" });
  }, [view.selected.row, view.version]);
  const items = v.getVirtualItems();
  if (items.length) store.ensure(items[0].index, items[items.length - 1].index, view.count);
  const cols = view.columns;
  const c = view.controls;
  const sortBy = (key) => setTraits(model, { sort_by: key, descending: c.sort_by === key ? !c.descending : key !== "query" && key !== "query_id" && key !== "run" });
  const template = cols.map((col) => `${columnWidth(col)}px`).join(" ");
  const width = cols.reduce((sum, col) => sum + columnWidth(col) + 6, 12);
  return html`<div class="rw-ds-table" role="grid" aria-rowcount=${view.count} data-testid="table">
    <div class="rw-ds-scroll" ref=${scrollRef}>
    <div class="rw-ds-row rw-ds-head" style=${`grid-template-columns:${template};width:${width}px`} role="row">
      ${cols.map((col) => html`<button role="columnheader" class=${`rw-ds-th${c.sort_by === col.key ? " rw-active" : ""}`}
          title=${`Sort by ${col.label}`} data-col=${col.key} onClick=${() => sortBy(col.key)}>
          ${col.label}${c.sort_by === col.key ? (c.descending ? " ▼" : " ▲") : ""}</button>`)}
    </div>
      <div style=${`height:${v.getTotalSize()}px;width:${width}px;position:relative`}>
        ${items.map((it) => {
          const row = store.get(it.index);
          const sel = row && row.position === view.selected.row;
          return html`<div key=${it.index} role="row" data-index=${it.index} aria-selected=${sel ? "true" : "false"}
              class=${`rw-ds-row${sel ? " rw-ds-selected" : ""}`}
              style=${`grid-template-columns:${template};position:absolute;top:0;left:0;width:${width}px;height:${ROW_H}px;transform:translateY(${it.start - ROW_H}px)`}
              onClick=${() => row && setTraits(model, { selected: row.position })}>
            ${cols.map((col) => {
              if (!row) return html`<span class="rw-ds-loading">…</span>`;
              if (col.kind === "text") {
                const text = col.key === "query" ? row.query : showId(row[col.key]); // run, query_id: IDs
                return html`<span class="rw-ds-text" title=${text}>${text}</span>`;
              }
              if (col.kind === "metric") {
                const m = metricCell(row.values[col.key], row.status[col.key]);
                return html`<span class=${m.cls}>${m.text}</span>`;
              }
              const value = row.values[col.key];
              return html`<span class="rw-num">${col.kind === "count" ? value : (Number.isNaN(value) ? "" : (value > 0 ? "+" : "") + fmt(value))}</span>`;
            })}
          </div>`;
        })}
      </div>
    </div>
  </div>`;
}

function Summary({ view }) {
  const runs = [...new Set(view.summary.map((r) => r.run))];
  const pct = view.controls.percent;
  const cell = (r) => {
    if (!r) return html`<td />`;
    const mean = r.mean === null ? html`<span class="rw-ds-undef">Undefined</span>` : fmt(r.mean, pct ? 1 : 3);
    const ci = r.ci_low === null ? "" : ` [${fmt(r.ci_low, pct ? 1 : 3)}–${fmt(r.ci_high, pct ? 1 : 3)}]`;
    return html`<td class="rw-num" title=${`${r.defined} defined, ${r.undefined} Undefined, ${r.not_computable} not computable`}>
      ${mean}<span class="rw-ds-ci">${ci}</span>${r.undefined ? html`<span class="rw-ds-count"> · ${r.undefined} Undef</span>` : ""}</td>`;
  };
  const caption = view.cluster
    ? `Summary over the ${view.cluster.matching.toLocaleString("en-US")} matching samples, computed on the cluster: mean over defined samples, Undefined count (no bootstrap interval on a Dask-scored run)`
    : `Summary over the ${view.count} samples shown: mean over defined samples, 95% bootstrap interval, Undefined count`;
  return html`<table class="rw-table rw-ds-summary" data-testid="summary">
    <caption>${caption}</caption>
    <thead><tr><th>metric</th>${runs.map((r) => html`<th>${r}</th>`)}</tr></thead>
    <tbody>${view.metrics.map((m) => html`<tr><th>${m.label}</th>
      ${runs.map((run) => cell(view.summary.find((r) => r.run === run && r.metric === m.key)))}</tr>`)}</tbody>
  </table>`;
}

function Compare({ model, view }) {
  const cmp = view.compare;
  const c = view.controls;
  const rows = cmp.rows.filter((r) => r.metric === c.compare_metric);
  return html`<div class="rw-ds-panel" data-testid="compare">
    <h4>Compared with ${cmp.baseline} on ${cmp.shared} shared queries
      <span class="rw-hint">(left out: ${Object.entries(cmp.left_out).map(([k, n]) => `${k} ${n}`).join(", ")})</span></h4>
    <label>metric <select value=${c.compare_metric} onChange=${(e) => setTraits(model, { compare_metric: e.target.value })}>
      ${view.metrics.map((m) => html`<option value=${m.key}>${m.label}</option>`)}</select></label>
    <button onClick=${() => setTraits(model, { sort_by: "difference", descending: true })}>Queries by difference</button>
    <table class="rw-table"><thead><tr><th>run</th><th>baseline</th><th>run</th><th>difference</th><th>paired 95% interval</th><th>paired</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr><td>${r.run}</td><td class="rw-num">${fmt(r.baseline_mean)}</td><td class="rw-num">${fmt(r.mean)}</td>
        <td class="rw-num">${r.difference === null ? "" : (r.difference > 0 ? "+" : "") + fmt(r.difference)}</td>
        <td class="rw-num">${r.ci_low === null ? "" : `${fmt(r.ci_low)} – ${fmt(r.ci_high)}`}
          ${r.includes_zero ? html` <span class="rw-ds-badge">includes 0</span>` : ""}</td><td class="rw-num">${r.paired}</td></tr>`)}</tbody></table>
  </div>`;
}

function Slices({ model, view, ask }) {
  const active = view.controls.slice;
  const save = () => {
    const name = (globalThis.prompt && globalThis.prompt("Name this slice")) || "";
    if (name.trim() && view.controls.expression.trim()) ask({ type: "add_slice", name, expression: view.controls.expression });
  };
  return html`<div class="rw-ds-panel" data-testid="slices"><h4>Failure slices</h4>
    <div class="rw-ds-slices">${view.slices.map((s) => html`<button title=${`${s.description}\n${s.expression}`}
        class=${active === s.name ? "rw-active" : ""} onClick=${() => setTraits(model, { slice: active === s.name ? "" : s.name })}>
        ${s.name} <span class="rw-ds-count">${s.size}</span></button>`)}
      <button disabled=${!view.controls.expression.trim()} onClick=${save} title="Save the filter expression as a named slice">+ slice from filter</button>
    </div></div>`;
}

/** On a Dask-scored run: what the table holds (the first N by a metric, not every row) and what is not available. */
function ClusterNotice({ view, labelOf }) {
  const cl = view.cluster;
  const n = (x) => x.toLocaleString("en-US");
  const which = cl.descending ? "highest" : "lowest";
  return html`<div class="rw-ds-notice" role="note" data-testid="cluster-notice">
    <b>Dask-scored run, explored on the cluster.</b> The table shows the ${n(view.count)} samples with the ${which}
    ${" "}${labelOf[cl.sort_by] || cl.sort_by} of ${n(cl.matching)} matching (${n(cl.defined)} with it defined), not all rows;
    the summary and charts cover all ${n(cl.matching)}. Sort by another metric's header; filter with an expression or the
    distribution. Not available on a cluster run: ${cl.unavailable.join(", ")}.
  </div>`;
}

function Drill({ views, view, ask }) {
  const main = useRef(null);
  const other = useRef(null);
  const mounted = useRef({});
  const sync = (which, ref, next) => {
    const m = mounted.current[which];
    if (!next) {
      if (m) { m.destroy(); delete mounted.current[which]; }
      return;
    }
    if (m) m.update(next);
    else if (ref.current) {
      mounted.current[which] = mountSampleView(ref.current, {
        view: next, send: (patch) => ask({ type: "drill", which, patch }),
        review: (action) => ask({ type: "review", which, ...action }),
        trace: (target) => new Promise((resolve) => ask({ type: "trace", which, ...target }, resolve)),
      });
    }
  };
  useEffect(() => {
    sync("main", main, views._drill);
    sync("other", other, views._other);
  });
  useEffect(() => () => Object.values(mounted.current).forEach((m) => m.destroy()), []);
  const sel = view.selected;
  return html`<div class="rw-ds-drill" data-testid="drill">
    <div class="rw-ds-drill-bar">
      <button onClick=${() => ask({ type: "step", delta: -1 })} title="Previous row (↑ or k)">◀ previous</button>
      <button onClick=${() => ask({ type: "step", delta: 1 })} title="Next row (↓ or j)">next ▶</button>
      <span class="rw-hint">${sel.row < 0 ? "Select a row (or press ↓) to open the sample."
        : `${sel.run ? showId(sel.run) + " · " : ""}${showId(sel.query_id)} · row ${sel.index + 1} of ${view.count}${sel.index < 0 ? " (not among the rows shown)" : ""}`}</span>
    </div>
    <div class="rw-ds-drill-views">
      <div class="rw-ds-drill-view" ref=${main} data-testid="drill-main" />
      ${views._other ? html`<div class="rw-ds-drill-view" ref=${other} data-testid="drill-other" />` : ""}
    </div>
  </div>`;
}

/** Undefined said as such (with the row's reason in the tooltip), numbers to three places. */
function cellText(v) {
  if (v === null || v === undefined) return html`<span class="rw-ds-undef">Undefined</span>`;
  return typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : String(v);
}

function TrustTable({ t, caption, testid }) {
  const reason = t.columns.indexOf("reason");
  return html`<div class="rw-ds-trust-wrap"><table class="rw-table rw-ds-trust-table" data-testid=${testid}>
    <caption>${caption}</caption>
    <thead><tr>${t.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${t.rows.map((row) => html`<tr title=${reason >= 0 && row[reason] ? row[reason] : null}>${row.map((v, k) => html`<td class=${k === reason ? "rw-ds-reason" : "rw-num"}>${k === reason ? v || "" : cellText(v)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

/** Reviews of the run: what changed ("Faithfulness 0.600 → 0.650 after 3 reviews"), and the trust
 * panel (agreement, corrected scores), computed in Python while it is open. */
function Reviews({ r, ask }) {
  const trust = r.trust;
  return html`<div class="rw-ds-panel rw-ds-reviews" data-testid="run-reviews">
    ${r.runs.length ? r.runs.map((x) => html`<p data-testid="run-review-line"><b>${showId(x.run)}:</b> ${x.line} (${x.samples} sample${x.samples === 1 ? "" : "s"})</p>`)
      : html`<p class="rw-hint">No label reviewed yet: open a sample below and press E / N / C on a claim row or a matrix cell.</p>`}
    ${r.problems.length ? html`<details><summary>${r.problems.length} review(s) not applied</summary><ul>${r.problems.map((p) => html`<li>${p}</li>`)}</ul></details>` : ""}
    <details open=${!!trust} data-testid="trust" onToggle=${(e) => e.target.open !== !!trust && ask({ type: "trust", open: e.target.open })}>
      <summary>Can I trust the judge? Agreement with the reviewers and corrected scores</summary>
      ${trust ? html`<p class="rw-hint">Over ${trust.n_reviews} reviewed label(s). Undefined where a figure has no data (hover a row for why).</p>
        <${TrustTable} t=${trust.agreement} caption="Judge–reviewer agreement per label kind (kappa with its bootstrap interval, the majority-label base rate beside it)" testid="agreement" />
        ${Object.entries(trust.corrected).map(([run, t]) => html`<${TrustTable} key=${run} t=${t} testid="corrected"
          caption=${`Each metric's mean three ways, 95% intervals: judge only, reviewed only, prediction-powered (corrected)${run ? ` · ${run}` : ""}`} />`)}`
        : html`<p class="rw-hint">Open to compute.</p>`}
    </details>
  </div>`;
}

function App({ model, store }) {
  const views = useViews(model, ["_view", "_drill", "_other"]);
  const [, bump] = useReducer((x) => x + 1, 0);
  store.onRows = bump; // set while rendering: rows that arrive before the first effect still redraw
  const [text, setText] = useState(model.get("text"));
  const [expr, setExpr] = useState(model.get("expression"));
  const view = views._view;
  const c = view ? view.controls : {};
  useEffect(() => setExpr(c.expression), [c.expression]);
  useEffect(() => setText(c.text), [c.text]);
  if (!view) return html`<div class="rw-hint">Loading…</div>`;
  store.reset(view.version);
  const labelOf = Object.fromEntries(view.metrics.map((m) => [m.key, m.label]));
  const ask = (msg, done) => store.requests.send(msg, done);
  const error = [view.error, store.requests.error].filter(Boolean).join("; ");
  const select = (trait, options, labels = options) => html`<select value=${c[trait]} data-testid=${trait}
      onChange=${(e) => setTraits(model, { [trait]: e.target.value })}>
    ${options.map((o, i) => html`<option value=${o}>${labels[i]}</option>`)}</select>`;
  const metricKeys = view.metrics.map((m) => m.key);
  const metricLabels = view.metrics.map((m) => m.label);
  const onKey = (e) => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowDown" || e.key === "j") { e.preventDefault(); ask({ type: "step", delta: 1 }); }
    if (e.key === "ArrowUp" || e.key === "k") { e.preventDefault(); ask({ type: "step", delta: -1 }); }
  };
  const b = c.brush || {};
  return html`<div class="rw-ds" tabindex="0" onKeyDown=${onKey}>
    <div class="rw-ds-toolbar">
      ${view.runs.length > 1 ? html`<label>run ${select("run", ["", ...view.runs], ["all runs", ...view.runs])}</label>` : ""}
      ${view.cluster ? "" : html`<input type="text" placeholder="search query / response / id" value=${text} data-testid="search"
        onInput=${(e) => setText(e.target.value)} onKeyDown=${(e) => e.key === "Enter" && setTraits(model, { text })}
        onBlur=${() => text !== c.text && setTraits(model, { text })} />`}
      <input type="text" class="rw-ds-expr" placeholder="filter: hallucination > 0 and claim_recall < 1" value=${expr}
        data-testid="expression" onInput=${(e) => setExpr(e.target.value)}
        onKeyDown=${(e) => e.key === "Enter" && setTraits(model, { expression: expr })} />
      <button onClick=${() => setTraits(model, { expression: expr, text })}>Apply</button>
      ${b.metric ? html`<button data-testid="clear-brush" onClick=${() => setTraits(model, { brush: {} })}>
        ✕ ${labelOf[b.metric] || b.metric} ${b.undefined ? "Undefined" : `${b.lo}–${b.hi}`}</button>` : ""}
      <label><input type="checkbox" checked=${c.percent} onChange=${(e) => setTraits(model, { percent: e.target.checked })} /> ×100</label>
      <span class="rw-ds-count-all" data-testid="count"><b>${(view.cluster ? view.cluster.matching : view.count).toLocaleString("en-US")}</b> of ${view.total.toLocaleString("en-US")} samples${view.cluster ? ` · ${view.count.toLocaleString("en-US")} in the table` : ""}</span>
    </div>
    ${view.cluster ? html`<${ClusterNotice} view=${view} labelOf=${labelOf} />` : ""}
    ${error ? html`<div class="rw-ds-error" role="alert" data-testid="error">${error}</div>` : ""}
    <div class="rw-ds-charts">
      ${view.charts.distribution ? html`<div class="rw-ds-panel"><h4>Distribution ${select("chart_metric", metricKeys, metricLabels)}
          <span class="rw-hint">drag across bins to filter</span></h4>
        <${Distribution} chart=${view.charts.distribution} label=${labelOf[c.chart_metric]} brush=${b}
          onBrush=${(brush) => setTraits(model, { brush })} /></div>` : ""}
      ${view.charts.scatter ? html`<div class="rw-ds-panel"><h4>Scatter ${select("scatter_x", metricKeys, metricLabels)} × ${select("scatter_y", metricKeys, metricLabels)}</h4>
        <${Scatter} chart=${view.charts.scatter} xLabel=${labelOf[c.scatter_x]} yLabel=${labelOf[c.scatter_y]} /></div>` : ""}
      ${view.charts.groups ? html`<div class="rw-ds-panel"><h4>Mean by ${select("group_by", view.group_columns)}</h4>
        <${GroupMeans} chart=${view.charts.groups} label=${labelOf[c.chart_metric]}
          onPick=${(g) => (c.group_by === "run" ? setTraits(model, { run: c.run === g ? "" : g })
            : setTraits(model, { expression: `${c.group_by} == ${JSON.stringify(Number.isNaN(Number(g)) ? g : Number(g))}` }))} /></div>` : ""}
    </div>
    <${Table} model=${model} view=${view} store=${store} />
    <div class="rw-ds-main">
      <div class="rw-ds-left">${view.cluster ? "" : html`<${Slices} model=${model} view=${view} ask=${ask} />`}<${Summary} view=${view} /></div>
      ${view.compare ? html`<div class="rw-ds-right"><${Compare} model=${model} view=${view} /></div>` : ""}
    </div>
    ${view.reviews ? html`<${Reviews} r=${view.reviews} ask=${ask} />` : ""}
    <${Drill} views=${views} view=${view} ask=${ask} />
  </div>`;
}

function render({ model, el }) {
  el.classList.add("rw-widget", "rw-dataset");
  const store = new RowStore(model, () => {});
  mount(html`<${App} model=${model} store=${store} />`, el);
  return () => {
    mount(null, el);
    store.destroy();
  };
}

export default { render };
