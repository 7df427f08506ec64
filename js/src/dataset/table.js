// The DatasetExplorer's table, part of its core: the rows of the filtered order, virtualised
// with @tanstack/virtual-core and asked of the kernel a window at a time (rows.js); a header
// click sorts, a row click selects (the `selected` trait), and when nothing matches it says
// which filters, with a way back.
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "preact/hooks";
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from "@tanstack/virtual-core";
import { html } from "../incremental.js";
import { showId } from "../text.js";
import { fmt } from "./common.js";

export const ROW_H = 26;
const WIDTHS = { run: 100, query_id: 84, query: 150, count: 64, metric: 84, difference: 100 };
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

/** One metric cell: the value, "Undef" (Undefined: visibly unlike 0) or "n/c" (not computable). */
export function metricCell(value, status) {
  if (status === 1) return { text: "Undef", cls: "rw-ds-undef" };
  if (status === 2) return { text: "n/c", cls: "rw-ds-nc" };
  return { text: fmt(value), cls: "rw-num" };
}

/** A row's review marker, by the window's "reviewed" column (rows.py): "✓" every label of its
 * sample reviewed, "◐" some, none else; with its words as the title (not only a symbol). */
export function reviewMark(row) {
  const r = row.values.reviewed;
  if (r === 2) return html`<span class="rw-ds-reviewed" title="every label of this sample reviewed" data-reviewed="all">✓ </span>`;
  if (r === 1) return html`<span class="rw-ds-reviewed rw-ds-partly" title="some labels of this sample reviewed" data-reviewed="some">◐ </span>`;
  return null;
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

export function Table({ view, store, labelOf, set }) {
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
  // A new filter or sort shows the top; a review (a new version of the same order) leaves the table
  // where it is, and reads no layout (each forced one cost a layout of the whole page).
  useEffect(() => { if (scrollRef.current) scrollRef.current.scrollTop = 0; }, [JSON.stringify(view.controls)]);
  useEffect(() => {
    const el = scrollRef.current;
    const i = view.selected.index;
    if (!el || i < 0) return;
    const top = scrollFor(i, el.scrollTop, el.clientHeight);
    if (top !== null) el.scrollTop = top; // whole, below the sticky header (k / ↑ or set from Python)
  }, [view.selected.row, view.selected.index, JSON.stringify(view.controls)]);
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
          data-col=${col.key} onClick=${() => set(sortFor(col, c))}>
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
              onClick=${() => row && set({ selected: row.position })}>
            ${cols.map((col, k) => {
              if (!row) return failed ? (k === 0 ? html`<span class="rw-ds-row-error" data-testid="row-error"
                title=${failed}>Rows not loaded: ${failed}</span>` : "")
                : html`<span class=${stick(k, "rw-ds-loading")} style=${at(k)}>…</span>`;
              if (col.kind === "text") {
                if (col.key === "query" && !row.query) // a dataset without questions (RefChecker's): say so, never blank
                  return html`<span class=${stick(k, "rw-ds-text rw-hint")} style=${at(k)} title="this sample has no question">no question</span>`;
                const text = col.key === "query" ? row.query : showId(row[col.key]); // run, query_id: IDs
                return html`<span class=${stick(k, "rw-ds-text")} style=${at(k)} title=${text}>${k === 0 ? reviewMark(row) : null}${text}</span>`;
              }
              if (col.kind === "metric") {
                const m = metricCell(row.values[col.key], row.status[col.key]);
                return html`<span class=${m.cls}>${m.text}</span>`;
              }
              const value = row.values[col.key];
              if (col.kind === "mode") return html`<span class="rw-num">${Number.isNaN(value) ? "" : value}</span>`; // 1 tagged, 0 read, blank not read
              return html`<span class="rw-num">${col.kind === "count" ? value : (Number.isNaN(value) ? "" : (value > 0 ? "+" : "") + fmt(value))}</span>`;
            })}
          </div>`;
        })}
      </div>
      ${view.count === 0 ? html`<div class="rw-ds-empty" role="status" data-testid="empty">
        No sample matches ${filtersInWords(view, labelOf) || "the filters"}.
        <button data-testid="clear-all" onClick=${() => set(CLEARED)}>Clear the filters</button></div>` : ""}
    </div>
    ${waiting ? html`<div class="rw-ds-saved" role="note" data-testid="saved-rows">${
      `Saved with the notebook: the first ${store.seeded.toLocaleString("en-US")} of ${view.count.toLocaleString("en-US")} rows; run the cell for the rest.`}</div>` : ""}
  </div>`;
}
