// DatasetExplorer (anywidget ES module): a whole run, or several runs of the same queries.
// Python owns the frame and the view state (`_view`, JSON: summary, charts' aggregates, slices,
// comparison, n of N); every control here is a trait write. One workspace that fits the screen:
// the filters above; the table (virtualised with @tanstack/virtual-core, its rows asked of Python
// a window at a time, dataset_rows.js) beside the drill-down (the one-sample view, sample_view.js,
// on `_drill` / `_other`) in a box of a definite height, side by side where the output area is
// wide enough, stacked below that; the charts, summary, comparison, reviews, columns and the
// save / export actions one tab away, in a drawer above the two. Every request is answered, and a
// failed one's error shows in the alert with the view's own. Each view is one trait (view_trait.js).
import { render as mount } from "preact";
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "preact/hooks";
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from "@tanstack/virtual-core";
import { RowStore } from "./dataset_rows.js";
import { Distribution, GroupMeans, Scatter } from "./dataset_charts.js";
import { html } from "./incremental.js";
import { mountSampleView } from "./sample_view.js";
import { showId } from "./text.js";
import { viewOf } from "./view_trait.js";
import { WhatIf } from "./whatif.js";
export const ROW_H = 26;
const WIDTHS = { run: 100, query_id: 84, query: 150, count: 64, metric: 84, difference: 100 };
const HOST_CHROME = 140; // a notebook host's bars above and below its cells (JupyterLab's menu, tabs, toolbar, status bar)
const STICKY = ["run", "query_id", "query"]; // these stay in place while the table scrolls sideways

/** Each column's width in pixels (text columns by key, others by kind). */
export const columnWidth = (col) => (col.kind === "text" ? WIDTHS[col.key] || 120 : WIDTHS[col.kind] || 86);

/** The left offset of each sticky column (the leading run / query_id / query ones), null for the others. */
export function stickyLeft(cols, gap = 6) {
  let left = 0;
  let leading = true;
  return cols.map((col) => {
    leading = leading && STICKY.includes(col.key);
    if (!leading) return null;
    const at = left;
    left += columnWidth(col) + gap;
    return at;
  });
}

/** The sort a header click asks for: the same column again flips the order; a new metric column
 * sorts worst first (ascending when higher is better, descending when lower is better), a text
 * column A to Z, a count or a difference largest first. */
export function sortFor(col, controls) {
  if (controls.sort_by === col.key) return { sort_by: col.key, descending: !controls.descending };
  if (col.kind === "metric") return { sort_by: col.key, descending: !!col.lower_is_better };
  return { sort_by: col.key, descending: col.kind !== "text" };
}

/** The scrollTop that shows row `index` whole below the sticky header (rows are ROW_H tall and
 * start one header below the top), or null when it is shown already. */
export function scrollFor(index, scrollTop, clientHeight) {
  const top = ROW_H + index * ROW_H;
  if (top < scrollTop + ROW_H) return top - ROW_H;
  if (top + ROW_H > scrollTop + clientHeight) return top + ROW_H - clientHeight;
  return null;
}

const fmt = (v, digits = 3) => (v === null || v === undefined || Number.isNaN(v) ? "" : Number(v).toFixed(digits));

/** One metric cell: the value, "Undef" (Undefined: visibly unlike 0) or "n/c" (not computable). */
export function metricCell(value, status) {
  if (status === 1) return { text: "Undef", cls: "rw-ds-undef" };
  if (status === 2) return { text: "n/c", cls: "rw-ds-nc" };
  return { text: fmt(value), cls: "rw-num" };
}

/** Each trait's view state (viewOf), redrawn when one (or its base) changes. The listeners are added during
 * the first render, before anything is drawn, so no change that comes between the first render
 * and its effects is missed; one event name per `model.on` call (anywidget's contract; marimo's
 * model takes no space-separated list). */
function useViews(model, names) {
  const events = ["", "_base"]; // a view sent as changes is read with its base (view_trait.js)
  const [, bump] = useReducer((x) => x + 1, 0);
  const on = useRef(false);
  if (!on.current) {
    on.current = true;
    for (const n of names) events.forEach((e) => model.on(`change:${n}${e}`, bump));
  }
  useEffect(() => () => names.forEach((n) => events.forEach((e) => model.off(`change:${n}${e}`, bump))), []);
  return Object.fromEntries(names.map((n) => [n, viewOf(model, n)]));
}

/** A text box over a trait: what the user types is theirs until it is applied (Enter, the Apply
 * button) or Escape; the kernel's value shows only while the user has not typed, so a change
 * from the kernel never overwrites what the user is typing. */
export function useDraft(value) {
  const [draft, setDraft] = useState(null);
  useEffect(() => { if (draft !== null && draft === value) setDraft(null); }, [value]);
  return [draft === null ? value : draft, setDraft, draft !== null && draft !== value];
}

function setTraits(model, patch) {
  for (const [k, v] of Object.entries(patch)) model.set(k, v);
  model.save_changes();
}

/** What the filters are, in words, for "No sample matches …". */
function filtersInWords(view, labelOf) {
  const c = view.controls;
  const parts = [];
  if (c.run) parts.push(`run ${c.run}`);
  if (c.text) parts.push(`“${c.text}”`);
  if (c.expression) parts.push(c.expression);
  for (const x of c.conditions || []) parts.push(x);
  if (c.slice) parts.push(`slice ${c.slice}`);
  const b = c.brush || {};
  if (b.metric) parts.push(`${labelOf[b.metric] || b.metric} ${b.undefined ? "Undefined" : `${b.lo}–${b.hi}`}`);
  return parts.join(" and ");
}

const CLEARED = { expression: "", text: "", conditions: [], slice: "", brush: {}, run: "" };

function Table({ model, view, store, labelOf }) {
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
    const el = scrollRef.current;
    const i = view.selected.index;
    if (!el || i < 0) return;
    const top = scrollFor(i, el.scrollTop, el.clientHeight);
    if (top !== null) el.scrollTop = top; // whole, below the sticky header (k / ↑ or set from Python)
  }, [view.selected.row, view.version]);
  const items = v.getVirtualItems();
  if (items.length) store.ensure(items[0].index, items[items.length - 1].index, view.count);
  const cols = view.columns;
  const c = view.controls;
  const left = stickyLeft(cols);
  const template = cols.map((col) => `${columnWidth(col)}px`).join(" ");
  const width = cols.reduce((sum, col) => sum + columnWidth(col) + 6, 12);
  const stick = (k, extra = "") => (left[k] === null ? extra : `${extra} rw-ds-stick`);
  const at = (k) => (left[k] === null ? null : `left:${left[k]}px`);
  const [late, setLate] = useState(false); // a kernel answers within a moment: say nothing before
  useEffect(() => { const t = setTimeout(() => setLate(true), 1500); return () => clearTimeout(t); }, []);
  const waiting = late && store.seeded > 0 && !store.answered;
  return html`<div class="rw-ds-table" role="grid" aria-rowcount=${view.count} data-testid="table">
    <div class="rw-ds-scroll" ref=${scrollRef}>
    <div class="rw-ds-row rw-ds-head" style=${`grid-template-columns:${template};width:${width}px`} role="row">
      ${cols.map((col, k) => html`<button role="columnheader" class=${stick(k, `rw-ds-th${c.sort_by === col.key ? " rw-active" : ""}`)}
          style=${at(k)} title=${`Sort by ${col.label}${col.kind === "metric" ? (col.lower_is_better ? " (lower is better: worst first = highest)" : " (higher is better: worst first = lowest)") : ""}`}
          data-col=${col.key} onClick=${() => setTraits(model, sortFor(col, c))}>
          ${col.label}${c.sort_by === col.key ? (c.descending ? " ▼" : " ▲") : ""}</button>`)}
    </div>
      <div style=${`height:${v.getTotalSize()}px;width:${width}px;position:relative`}>
        ${items.map((it) => {
          const row = store.get(it.index);
          const failed = row ? "" : store.failedAt(it.index);
          const sel = row && row.position === view.selected.row;
          return html`<div key=${it.index} role="row" data-index=${it.index} aria-selected=${sel ? "true" : "false"}
              class=${`rw-ds-row${sel ? " rw-ds-selected" : ""}`}
              style=${`grid-template-columns:${template};position:absolute;top:0;left:0;width:${width}px;height:${ROW_H}px;transform:translateY(${it.start - ROW_H}px)`}
              onClick=${() => row && setTraits(model, { selected: row.position })}>
            ${cols.map((col, k) => {
              if (!row) return failed ? (k === 0 ? html`<span class="rw-ds-row-error" data-testid="row-error"
                title=${failed}>Rows not loaded: ${failed}</span>` : "")
                : html`<span class=${stick(k, "rw-ds-loading")} style=${at(k)}>…</span>`;
              if (col.kind === "text") {
                if (col.key === "query" && !row.query) // a dataset without questions (RefChecker's): say so, never blank
                  return html`<span class=${stick(k, "rw-ds-text rw-hint")} style=${at(k)} title="this sample has no question">no question</span>`;
                const text = col.key === "query" ? row.query : showId(row[col.key]); // run, query_id: IDs
                return html`<span class=${stick(k, "rw-ds-text")} style=${at(k)} title=${text}>${text}</span>`;
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
      ${view.count === 0 ? html`<div class="rw-ds-empty" role="status" data-testid="empty">
        No sample matches ${filtersInWords(view, labelOf) || "the filters"}.
        <button data-testid="clear-all" onClick=${() => setTraits(model, CLEARED)}>Clear the filters</button></div>` : ""}
    </div>
    ${waiting ? html`<div class="rw-ds-saved" role="note" data-testid="saved-rows">${
      `Saved with the notebook: the first ${store.seeded.toLocaleString("en-US")} of ${view.count.toLocaleString("en-US")} rows; run the cell for the rest.`}</div>` : ""}
  </div>`;
}

/** The table's columns: which show, in which order (the `table_columns` trait; empty: all). */
function Columns({ model, view }) {
  const all = view.all_columns;
  const shown = view.columns.map((col) => col.key);
  const save = (keys) => setTraits(model, { table_columns: keys });
  const move = (key, by) => {
    const keys = [...shown];
    const i = keys.indexOf(key);
    const j = i + by;
    if (j < 0 || j >= keys.length) return;
    [keys[i], keys[j]] = [keys[j], keys[i]];
    save(keys);
  };
  const toggle = (key, on) => save(on ? [...shown, key] : shown.filter((k) => k !== key));
  const order = [...view.columns, ...all.filter((col) => !shown.includes(col.key))];
  return html`<div class="rw-ds-panel" data-testid="columns">
    <p class="rw-hint">Choose the table's columns and their order (kept with the widget: <code>explorer.table_columns</code>).
      <button onClick=${() => save([])} data-testid="columns-reset">All, in the default order</button></p>
    <ol class="rw-ds-columns">${order.map((col) => {
      const on = shown.includes(col.key);
      return html`<li key=${col.key} data-column=${col.key}>
        <label><input type="checkbox" checked=${on} disabled=${on && shown.length === 1}
          onChange=${(e) => toggle(col.key, e.target.checked)} /> ${col.label}</label>
        ${on ? html`<button title="Move left" aria-label=${`Move ${col.label} left`} onClick=${() => move(col.key, -1)}>↑</button>
          <button title="Move right" aria-label=${`Move ${col.label} right`} onClick=${() => move(col.key, 1)}>↓</button>` : ""}
      </li>`;
    })}</ol>
  </div>`;
}

/** Acting on a finding: save / load the slices, write the filtered rows, to files in the kernel. */
function Actions({ view, ask }) {
  const [path, setPath] = useState("");
  const [said, setSaid] = useState("");
  const act = (msg, fallback) => {
    setSaid("…");
    ask({ ...msg, path: path.trim() || fallback }).then((reply) => setSaid(reply ? reply.said : ""));
  };
  const n = view.count.toLocaleString("en-US");
  return html`<div class="rw-ds-panel rw-ds-actions" data-testid="actions">
    <label>file (a new name in the explorer's folder) <input type="text" value=${path} data-testid="path"
      placeholder="slices.json · rows.csv · rows.parquet · claims.parquet" onInput=${(e) => setPath(e.target.value)} /></label>
    <div class="rw-ds-act-buttons">
      ${view.cluster ? "" : html`<button data-testid="save-slices" onClick=${() => act({ type: "save_slices" }, "slices.json")}>Save the slices</button>
      <button data-testid="load-slices" onClick=${() => act({ type: "load_slices" }, "slices.json")}>Load slices</button>`}
      <button data-testid="export-csv" onClick=${() => act({ type: "export", format: "csv" }, "rows.csv")}>Write the ${n} rows as CSV</button>
      <button data-testid="export-parquet" onClick=${() => act({ type: "export", format: "parquet" }, "rows.parquet")}>… as Parquet</button>
      ${view.cluster ? "" : html`<button data-testid="export-claims" title="one row per claim: every label, the passages behind it, hallucinated / noise-led (.csv, .parquet or .jsonl by the file's suffix)"
        onClick=${() => act({ type: "export_claims" }, "claims.parquet")}>… their claims</button>`}
    </div>
    ${said ? html`<p class="rw-hint" role="status" data-testid="act-said">${said}</p>` : ""}
  </div>`;
}

/** A run judged several times: how many labels flip, and each metric's interval with the judge's
 * repeats resampled beside today's (over all the run's samples, not the filter). */
function Repeats({ view }) {
  const runs = Object.entries(view.repeats || {});
  if (!runs.length) return "";
  const range = (lo, hi) => (lo === null || lo === undefined ? "Undefined" : `${fmt(lo, 3)}–${fmt(hi, 3)}`);
  const label = Object.fromEntries(view.metrics.map((m) => [m.key, m.label]));
  return html`<div class="rw-ds-wide" data-testid="repeats">${runs.map(([run, r]) => html`<table class="rw-table">
    <caption>${`${run}: judged ${r.n_repeats} times (labels by ${r.policy}); ${r.flaky.toLocaleString("en-US")} of `
      + `${r.samples.toLocaleString("en-US")} samples flaky (a metric changes across repeats; slice "flaky labels"); `
      + `labels that flip: ${r.labels.map((l) => `${l.kind} ${fmt(100 * l.share, 1)}% of ${l.labels.toLocaleString("en-US")}`
        + (l.pair_share === null || l.pair_share === undefined ? "" : ` (${fmt(100 * l.pair_share, 1)}% per pair of repeats)`)).join(", ") || "none"}`}</caption>
    <thead><tr><th>metric</th><th>mean</th><th>95% interval (questions)</th><th>one judge run: mean of the repeats (95% interval, questions and judge)</th><th>mean per repeat</th></tr></thead>
    <tbody>${r.metrics.map((m) => html`<tr><th>${label[m.metric] || m.metric}</th>
      <td class="rw-num">${m.mean === null ? html`<span class="rw-ds-undef">Undefined</span>` : fmt(m.mean, 3)}</td>
      <td class="rw-num">${range(m.ci_low, m.ci_high)}</td>
      <td class="rw-num">${m.judge_mean === null || m.judge_ci_low === null ? "Undefined" : `${fmt(m.judge_mean, 3)} (${range(m.judge_ci_low, m.judge_ci_high)})`}</td>
      <td class="rw-num">${range(m.repeat_min, m.repeat_max)}</td></tr>`)}</tbody></table>`)}</div>`;
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
    : `Summary over the ${view.count} samples shown: mean over defined samples, 95% interval (exact for rare outcomes), Undefined count`;
  return html`<div class="rw-ds-wide"><table class="rw-table rw-ds-summary" data-testid="summary">
    <caption>${caption}</caption>
    <thead><tr><th>metric</th>${runs.map((r) => html`<th>${r}</th>`)}</tr></thead>
    <tbody>${view.metrics.map((m) => html`<tr><th>${m.label}</th>
      ${runs.map((run) => cell(view.summary.find((r) => r.run === run && r.metric === m.key)))}</tr>`)}</tbody>
  </table></div>`;
}

function Compare({ model, view }) {
  const cmp = view.compare;
  const c = view.controls;
  const rows = cmp.rows.filter((r) => r.metric === c.compare_metric);
  return html`<div class="rw-ds-panel" data-testid="compare">
    <h4>Compared with ${cmp.baseline} on ${cmp.shared} shared queries
      <span class="rw-hint">(left out: ${Object.entries(cmp.left_out).map(([k, n]) => `${k} ${n}`).join(", ")})</span></h4>
    ${Object.entries(cmp.query_mismatch || {}).filter(([, n]) => n).map(([run, n]) => html`<p class="rw-ds-notice" role="note" data-testid="query-mismatch">
      ⚠ ${run}: ${n} shared query_id${n === 1 ? "" : "s"} ask${n === 1 ? "s" : ""} another question than in ${cmp.baseline} (still paired by query_id)</p>`)}
    ${Object.entries(cmp.judge_notes || {}).filter(([, note]) => note).map(([run, note]) => html`<p class="rw-ds-notice" role="note" data-testid="judge-note">
      ⚠ ${run}: ${note}; part of its difference may be the judge's</p>`)}
    ${Object.keys(cmp.said || {}).length ? html`<p class="rw-hint" role="status">${Object.entries(cmp.said).map(([run, said], k) =>
      html`${k ? " · " : ""}<span data-testid="compare-said">${run}: ${said}</span>`)}</p>` : ""}
    <label>metric <select value=${c.compare_metric} onChange=${(e) => setTraits(model, { compare_metric: e.target.value })}>
      ${(view.chartable || view.metrics).map((m) => html`<option value=${m.key}>${m.label}</option>`)}</select></label>
    <button onClick=${() => setTraits(model, { sort_by: "difference", descending: true })}>Queries by difference</button>
    <div class="rw-ds-wide"><table class="rw-table"><thead><tr><th>run</th><th>baseline</th><th>run</th><th>difference</th><th>paired 95% interval</th><th>paired</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr><td>${r.run}</td><td class="rw-num">${fmt(r.baseline_mean)}</td><td class="rw-num">${fmt(r.mean)}</td>
        <td class="rw-num">${r.difference === null ? "" : (r.difference > 0 ? "+" : "") + fmt(r.difference)}
          ${r.judge_note ? html` <span class="rw-ds-badge" title=${r.judge_note} data-testid="judged-differently">judged differently</span>` : ""}</td>
        <td class="rw-num">${r.ci_low === null ? "" : `${fmt(r.ci_low)} – ${fmt(r.ci_high)}`}
          ${r.includes_zero ? html` <span class="rw-ds-badge">includes 0</span>` : ""}</td><td class="rw-num">${r.paired}</td></tr>`)}</tbody></table></div>
  </div>`;
}

function Slices({ model, view, ask }) {
  const active = view.controls.slice;
  const save = () => {
    const name = (globalThis.prompt && globalThis.prompt("Name this slice")) || "";
    if (name.trim() && view.controls.expression.trim()) ask({ type: "add_slice", name, expression: view.controls.expression });
  };
  return html`<div class="rw-ds-slices" data-testid="slices"><span class="rw-hint">Failure slices</span>
    ${view.slices.map((s) => html`<button title=${`${s.description}\n${s.expression}`}
        class=${active === s.name ? "rw-active" : ""} onClick=${() => setTraits(model, { slice: active === s.name ? "" : s.name })}>
        ${s.name} <span class="rw-ds-count">${s.size}</span></button>`)}
      <button disabled=${!view.controls.expression.trim()} onClick=${save} title="Save the filter expression as a named slice">+ slice from filter</button>
    </div>`;
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

/** Put `text` on the clipboard (the asynchronous clipboard API); where it is refused or missing,
 * select the text in `input` so that Ctrl+C copies it. A promise of what happened. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return "copied";
  } catch {
    if (input) {
      input.value = text;
      input.hidden = false;
      input.focus();
      input.select();
    }
    return "selected: press Ctrl+C (⌘C) to copy";
  }
}

function Drill({ views, view, ask, request }) {
  const main = useRef(null);
  const other = useRef(null);
  const mounted = useRef({});
  const [failed, setFailed] = useState(""); // why the drill-down's last request failed
  const drillAsk = (msg) => request(msg).then((reply) => { setFailed(""); return reply; },
    (err) => { setFailed(`${msg.type === "drill" ? "the drill-down" : msg.type} failed: ${err.message}`); return null; });
  const sync = (which, ref, next) => {
    const m = mounted.current[which];
    if (!next) {
      if (m) { m.destroy(); delete mounted.current[which]; }
      return;
    }
    if (m) m.update(next);
    else if (ref.current) {
      mounted.current[which] = mountSampleView(ref.current, {
        view: next, send: (patch) => drillAsk({ type: "drill", which, patch }),
        review: (action) => drillAsk({ type: "review", which, ...action }),
        trace: (target) => request({ type: "trace", which, ...target })
          .catch((err) => ({ trace: null, reason: `the trace request failed: ${err.message}` })),
      });
    }
  };
  useEffect(() => {
    sync("main", main, views._drill);
    sync("other", other, views._other);
  });
  useEffect(() => () => Object.values(mounted.current).forEach((m) => m.destroy()), []);
  const sel = view.selected;
  const copyBox = useRef(null);
  const [copied, setCopied] = useState("");
  useEffect(() => { setCopied(""); setFailed(""); }, [sel.row]);
  return html`<div class="rw-ds-drill" data-testid="drill">
    <div class="rw-ds-drill-bar">
      <button onClick=${() => ask({ type: "step", delta: -1 })} title="Previous row (↑ or k)">◀</button>
      <button onClick=${() => ask({ type: "step", delta: 1 })} title="Next row (↓ or j)">▶</button>
      <span class="rw-hint">${sel.row < 0 ? "Select a row (or press ↓) to open the sample."
        : `${sel.run ? showId(sel.run) + " · " : ""}${showId(sel.query_id)} · row ${sel.index + 1} of ${view.count}${sel.index < 0 ? " (not among the rows shown)" : ""}`}</span>
      ${sel.row >= 0 ? html`<button data-testid="copy-id" title="Copy this sample's query_id"
          onClick=${() => copyText(sel.query_id, copyBox.current).then(setCopied)}>Copy query_id</button>
        <input ref=${copyBox} class="rw-ds-copy" readonly hidden data-testid="copy-box" aria-label="query_id" />
        ${copied ? html`<span class="rw-hint" role="status">${copied}</span>` : ""}` : ""}
    </div>
    ${failed ? html`<div class="rw-ds-error" role="alert" data-testid="drill-error">${failed}</div>` : ""}
    <div class="rw-ds-drill-views" key="views">
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

/** The drawer's tabs: [key, title], those the view has data for (the reviews' lines and the trust
 * panel stay above them, the trust panel one click away). */
function tabsOf(view) {
  return [["charts", "Charts"], ["summary", "Summary"], ...(view.compare ? [["compare", "Comparison"]] : []),
    ...(view.whatif ? [["whatif", "What if"]] : []), ["columns", "Columns"], ["act", "Save · export"]];
}

function App({ model, store }) {
  const views = useViews(model, ["_view", "_drill", "_other", "_rows"]);
  const [, bump] = useReducer((x) => x + 1, 0);
  store.onRows = bump; // set while rendering: rows that arrive before the first effect still redraw
  const view = views._view;
  const c = view ? view.controls : {};
  const [text, setText, textEdited] = useDraft(view ? c.text : "");
  const [expr, setExpr, exprEdited] = useDraft(view ? c.expression : "");
  const [tab, setTab] = useState("");
  const root = useRef(null);
  const work = useRef(null);
  useLayoutEffect(() => { // the workspace takes the screen's height below what is above it in its cell
    if (!root.current || !work.current) return;
    // in a notebook the whole cell (its code above the widget too) fits: a host that scrolls a
    // clicked cell's top into view when it is taller than the screen then does not move the page
    const cell = root.current.closest(".jp-Cell, .cell") || root.current;
    const above = work.current.getBoundingClientRect().top - cell.getBoundingClientRect().top;
    root.current.style.setProperty("--rw-ds-work-h", `max(420px, calc(100vh - ${Math.round(above + HOST_CHROME)}px))`);
  });
  if (!view) return html`<div class="rw-hint">Loading…</div>`;
  store.reset(view.version, model.get("_rows"));
  const labelOf = Object.fromEntries(view.metrics.map((m) => [m.key, m.label]));
  const request = (msg) => store.requests.ask(msg); // rejects when it fails
  const ask = (msg) => store.requests.send(msg); // null when it fails: the error shows in the alert
  const error = [view.error, store.requests.error].filter(Boolean).join("; ");
  const select = (trait, options, labels = options) => html`<select value=${c[trait]} data-testid=${trait}
      onChange=${(e) => setTraits(model, { [trait]: e.target.value })}>
    ${options.map((o, i) => html`<option value=${o}>${labels[i]}</option>`)}</select>`;
  const chartable = view.chartable || view.metrics; // the metrics, then other tools' columns
  const metricKeys = chartable.map((m) => m.key);
  const metricLabels = chartable.map((m) => m.label);
  const onKey = (e) => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowDown" || e.key === "j") { e.preventDefault(); ask({ type: "step", delta: 1 }); }
    if (e.key === "ArrowUp" || e.key === "k") { e.preventDefault(); ask({ type: "step", delta: -1 }); }
  };
  const b = c.brush || {};
  const conditions = c.conditions || [];
  const toggleCondition = (x) => setTraits(model, {
    conditions: conditions.includes(x) ? conditions.filter((y) => y !== x) : [...conditions, x] });
  const refused = view.refused && view.refused.expression;
  const tabs = tabsOf(view);
  const open = tabs.some(([k]) => k === tab) ? tab : "";
  const charts = html`<div class="rw-ds-charts">
      ${view.charts.distribution ? html`<div class="rw-ds-panel"><h4>Distribution ${select("chart_metric", metricKeys, metricLabels)}
          <span class="rw-hint">drag across bins to filter</span></h4>
        <${Distribution} chart=${view.charts.distribution} label=${labelOf[c.chart_metric]} brush=${b}
          onBrush=${(brush) => setTraits(model, { brush })} /></div>` : ""}
      ${view.charts.scatter ? html`<div class="rw-ds-panel"><h4>Scatter ${select("scatter_x", metricKeys, metricLabels)} × ${select("scatter_y", metricKeys, metricLabels)}
          <span class="rw-hint">click a cell or drag a box to filter</span></h4>
        <${Scatter} chart=${view.charts.scatter} x=${c.scatter_x} y=${c.scatter_y} xLabel=${labelOf[c.scatter_x]}
          yLabel=${labelOf[c.scatter_y]} picked=${conditions} onPick=${toggleCondition} /></div>` : ""}
      ${view.charts.groups ? html`<div class="rw-ds-panel"><h4>Mean by ${select("group_by", view.group_columns)}
          <span class="rw-hint">click a bar to filter, again to undo</span></h4>
        <${GroupMeans} chart=${view.charts.groups} label=${labelOf[c.chart_metric]}
          picked=${(g) => (c.group_by === "run" ? c.run === g : conditions.includes(groupCondition(c.group_by, g)))}
          onPick=${(g) => (c.group_by === "run" ? setTraits(model, { run: c.run === g ? "" : g })
            : toggleCondition(groupCondition(c.group_by, g)))} /></div>` : ""}
    </div>`;
  const drawer = {
    charts: () => charts,
    summary: () => html`<${Summary} view=${view} /><${Repeats} view=${view} />`,
    compare: () => html`<${Compare} model=${model} view=${view} />`,
    columns: () => html`<${Columns} model=${model} view=${view} />`,
    act: () => html`<${Actions} view=${view} ask=${ask} />`,
    whatif: () => html`<${WhatIf} view=${view} request=${request} />`,
  };
  return html`<div class="rw-ds" tabindex="0" onKeyDown=${onKey} ref=${root}>
    <div class="rw-ds-toolbar">
      ${view.runs.length > 1 ? html`<label>run ${select("run", ["", ...view.runs], ["all runs", ...view.runs])}</label>` : ""}
      ${view.cluster ? "" : html`<input type="text" placeholder="search query / response / id" value=${text} data-testid="search"
        class=${textEdited ? "rw-ds-edited" : ""} onInput=${(e) => setText(e.target.value)}
        onKeyDown=${(e) => { if (e.key === "Enter") setTraits(model, { text }); if (e.key === "Escape") setText(null); }}
        onBlur=${() => text !== c.text && setTraits(model, { text })} />`}
      <input type="text" class=${`rw-ds-expr${exprEdited ? " rw-ds-edited" : ""}`} placeholder="filter: hallucination > 0 and claim_recall < 1" value=${expr}
        data-testid="expression" title=${exprEdited ? "Not applied yet: Enter applies, Escape goes back to the filter in force" : "filter expression"}
        onInput=${(e) => setExpr(e.target.value)}
        onKeyDown=${(e) => { if (e.key === "Enter") setTraits(model, { expression: expr }); if (e.key === "Escape") setExpr(null); }} />
      <button onClick=${() => setTraits(model, { expression: expr, text })}>Apply</button>
      ${b.metric ? html`<button class="rw-ds-chip" data-testid="clear-brush" onClick=${() => setTraits(model, { brush: {} })}>
        ✕ ${labelOf[b.metric] || b.metric} ${b.undefined ? "Undefined" : `${b.lo}–${b.hi}`}</button>` : ""}
      ${conditions.map((x) => html`<button class="rw-ds-chip" data-testid="condition" title="Remove this condition"
        onClick=${() => toggleCondition(x)}>✕ ${x}</button>`)}
      <label><input type="checkbox" checked=${c.percent} onChange=${(e) => setTraits(model, { percent: e.target.checked })} /> ×100</label>
      <span class="rw-ds-count-all" data-testid="count"><b>${(view.cluster ? view.cluster.matching : view.count).toLocaleString("en-US")}</b> of ${view.total.toLocaleString("en-US")} samples${view.cluster ? ` · ${view.count.toLocaleString("en-US")} in the table` : ""}</span>
    </div>
    ${view.cluster ? html`<${ClusterNotice} view=${view} labelOf=${labelOf} />` : ""}
    ${error ? html`<div class="rw-ds-error" role="alert" data-testid="error">${error}</div>` : ""}
    ${refused && expr === refused ? html`<div class="rw-ds-notice" role="note" data-testid="not-applied">
      This filter was not applied (${view.refused.error}): the table still shows the ${view.count.toLocaleString("en-US")} samples of
      ${c.expression ? html` the filter in force, <code>${c.expression}</code>` : " no filter expression"}.
      <button onClick=${() => setExpr(null)}>Back to the filter in force</button></div>` : ""}
    ${view.reviews ? html`<${Reviews} r=${view.reviews} ask=${ask} />` : ""}
    <div class="rw-ds-tabs" role="tablist">
      ${tabs.map(([k, title]) => html`<button role="tab" aria-selected=${open === k ? "true" : "false"} data-tab=${k}
        onClick=${() => setTab(open === k ? "" : k)}>${title}${open === k ? " ▴" : " ▾"}</button>`)}
    </div>
    ${open ? html`<div class="rw-ds-drawer" role="tabpanel" data-testid=${`drawer-${open}`} key="drawer">${drawer[open]()}</div>` : ""}
    <div class="rw-ds-work" data-testid="workspace" ref=${work} key="work">
      <div class="rw-ds-master">
        ${view.cluster ? "" : html`<${Slices} model=${model} view=${view} ask=${ask} />`}
        <${Table} model=${model} view=${view} store=${store} labelOf=${labelOf} />
      </div>
      <${Drill} views=${views} view=${view} ask=${ask} request=${request} />
    </div>
  </div>`;
}

/** The condition a group bar's click adds: `column == value` (a number when the group is one). */
export function groupCondition(column, group) {
  return `${column} == ${JSON.stringify(Number.isNaN(Number(group)) ? group : Number(group))}`;
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
