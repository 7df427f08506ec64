// DatasetExplorer (anywidget ES module): a whole run, or several runs of the same queries.
// Python owns the frame and the view state (`_view`, JSON: summary, charts' aggregates, slices,
// comparison, n of N); every control here is a trait write. One workspace that fits the screen:
// the filters above; the table (virtualised, its rows asked of Python a window at a time,
// dataset/table.js and dataset/rows.js) beside the drill-down (the one-sample view of `_drill` /
// `_other`) in a box of a definite height, side by side where the output area is wide enough,
// stacked below that; the charts, summary, comparison, what-ifs, columns and the save / export
// actions one tab away, in a drawer above the two. Every request is answered, and a failed one's
// error shows in the alert with the view's own. Each view is one trait (view_trait.js).
//
// This file is the core: the traits, the filters' toolbar, the table, the step and the layout.
// Every feature is a panel (dataset/<name>.js), listed once in PANELS. A panel module exports
//   panel = { key, title, place, shows(view), part(view, views), traits, Panel }
// place: "above" (over the tabs), "tab" (a tab of the drawer: title is the tab's), "master" (over
// the table) or "detail" (the drill-down's place); shows(view): whether the view has it;
// part(view, views): the part of the view it draws (views: every view trait, by name); traits:
// the traits it may set. Panel is drawn as <Panel part request set />: `request(name, msg)` asks
// the kernel (a promise of the reply, rejected with the kernel's error, which the alert shows
// too), `set(patch)` writes the panel's own traits. A panel never reaches into another.
// Adding a panel: one module here, one line in PANELS (and its Python module, README).
import { render as mount } from "preact";
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "preact/hooks";
import { panel as adjudicate } from "./dataset/adjudicate.js";
import { panel as calibration } from "./dataset/calibration.js";
import { panel as charts } from "./dataset/charts.js";
import { panel as checks } from "./dataset/checks.js";
import { labelsOf, TraitSelect, toggled } from "./dataset/common.js";
import { panel as compare } from "./dataset/compare.js";
import { panel as columns } from "./dataset/columns.js";
import { panel as drill, navigate } from "./dataset/drill.js";
import { panel as exportPanel } from "./dataset/export.js";
import { panel as modes } from "./dataset/modes.js";
import { panel as notes } from "./dataset/notes.js";
import { panel as queue } from "./dataset/queue.js";
import { RowStore } from "./dataset/rows.js";
import { panel as slices } from "./dataset/slices.js";
import { panel as summary } from "./dataset/summary.js";
import { Table } from "./dataset/table.js";
import { panel as trust } from "./dataset/trust.js";
import { panel as whatif } from "./dataset/whatif.js";
import { html } from "./incremental.js";
import { keepKeys } from "./keys.js";
import { viewOf } from "./view_trait.js";

/** The panels, in the order they are drawn in their place (the tabs' order). */
export const PANELS = [trust, charts, summary, compare, whatif, columns, exportPanel, slices, drill, queue, adjudicate, modes, checks, notes, calibration];

const HOST_CHROME = 140; // a notebook host's bars above and below its cells (JupyterLab's menu, tabs, toolbar, status bar)

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

/** A setter of `traits` alone: a panel that writes another trait is a bug, said at once. */
export function traitSetter(model, key, traits) {
  return (patch) => {
    const other = Object.keys(patch).filter((k) => !traits.includes(k));
    if (other.length) throw new Error(`the ${key} panel may not set ${other.join(", ")}`);
    setTraits(model, patch);
  };
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

function App({ model, store }) {
  const views = useViews(model, ["_view", "_drill", "_other", "_rows", "_row_changes"]);
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
    // clicked cell's top into view when it is taller than the screen then does not move the page.
    // Set only when it changes (the same value would have the page's style found again).
    const cell = root.current.closest(".jp-Cell, .cell") || root.current;
    const above = work.current.getBoundingClientRect().top - cell.getBoundingClientRect().top;
    const height = `max(420px, calc(100vh - ${Math.round(above + HOST_CHROME)}px))`;
    if (root.current.style.getPropertyValue("--rw-ds-work-h") !== height) root.current.style.setProperty("--rw-ds-work-h", height);
  });
  if (!view) return html`<div class="rw-hint">Loading…</div>`;
  store.reset(view.version, model.get("_rows"), model.get("_row_changes"));
  const labelOf = labelsOf(view.metrics);
  const set = (patch) => setTraits(model, patch);
  const request = (name, msg = {}) => store.requests.ask({ type: name, ...msg }); // rejects when it fails
  const step = (delta) => store.requests.send({ type: "step", delta }); // null when it fails: the error shows in the alert
  const error = [view.error, store.requests.error].filter(Boolean).join("; ");
  const onKey = (e) => navigate(e, step, view.queue ? (by) => store.requests.send({ type: "queue", step: by }) : null);
  const b = c.brush || {};
  const conditions = c.conditions || [];
  const toggleCondition = (x) => set({ conditions: toggled(conditions, x) });
  const refused = view.refused && view.refused.expression;
  const shown = (place) => PANELS.filter((p) => p.place === place && p.shows(view));
  const draw = (p) => html`<${p.Panel} key=${p.key} part=${p.part(view, views)} request=${request}
    set=${traitSetter(model, p.key, p.traits)} />`;
  const tabs = shown("tab");
  const open = tabs.find((p) => p.key === tab);
  return html`<div class="rw-ds" tabindex="0" onKeyDown=${onKey} ref=${root}>
    <div class="rw-ds-toolbar">
      ${view.runs.length > 1 ? html`<label>run <${TraitSelect} trait="run" value=${c.run} options=${["", ...view.runs]}
        labels=${["all runs", ...view.runs]} set=${set} /></label>` : ""}
      ${view.cluster ? "" : html`<input type="text" placeholder="search query / response / id" value=${text} data-testid="search"
        class=${textEdited ? "rw-ds-edited" : ""} onInput=${(e) => setText(e.target.value)}
        onKeyDown=${(e) => { if (e.key === "Enter") set({ text }); if (e.key === "Escape") setText(null); }}
        onBlur=${() => text !== c.text && set({ text })} />`}
      <input type="text" class=${`rw-ds-expr${exprEdited ? " rw-ds-edited" : ""}`} placeholder="filter: hallucination > 0 and claim_recall < 1" value=${expr}
        data-testid="expression" title=${exprEdited ? "Not applied yet: Enter applies, Escape goes back to the filter in force" : "filter expression"}
        onInput=${(e) => setExpr(e.target.value)}
        onKeyDown=${(e) => { if (e.key === "Enter") set({ expression: expr }); if (e.key === "Escape") setExpr(null); }} />
      <button onClick=${() => set({ expression: expr, text })}>Apply</button>
      ${b.metric ? html`<button class="rw-ds-chip" data-testid="clear-brush" onClick=${() => set({ brush: {} })}>
        ✕ ${labelOf[b.metric] || b.metric} ${b.undefined ? "Undefined" : `${b.lo}–${b.hi}`}</button>` : ""}
      ${conditions.map((x) => html`<button class="rw-ds-chip" data-testid="condition" title="Remove this condition"
        onClick=${() => toggleCondition(x)}>✕ ${x}</button>`)}
      ${c.samples && c.samples.label ? html`<button class="rw-ds-chip" data-testid="clear-samples" title="Show every sample again"
        onClick=${() => set({ samples: {} })}>✕ ${c.samples.label}</button>` : ""}
      <label><input type="checkbox" checked=${c.percent} onChange=${(e) => set({ percent: e.target.checked })} /> ×100</label>
      <span class="rw-ds-count-all" data-testid="count"><b>${(view.cluster ? view.cluster.matching : view.count).toLocaleString("en-US")}</b> of ${view.total.toLocaleString("en-US")} samples${view.cluster ? ` · ${view.count.toLocaleString("en-US")} in the table` : ""}</span>
    </div>
    ${view.cluster ? html`<${ClusterNotice} view=${view} labelOf=${labelOf} />` : ""}
    ${error ? html`<div class="rw-ds-error" role="alert" data-testid="error">${error}</div>` : ""}
    ${refused && expr === refused ? html`<div class="rw-ds-notice" role="note" data-testid="not-applied">
      This filter was not applied (${view.refused.error}): the table still shows the ${view.count.toLocaleString("en-US")} samples of
      ${c.expression ? html` the filter in force, <code>${c.expression}</code>` : " no filter expression"}.
      <button onClick=${() => setExpr(null)}>Back to the filter in force</button></div>` : ""}
    ${shown("above").map(draw)}
    <div class="rw-ds-tabs" role="tablist">
      ${tabs.map((p) => html`<button role="tab" aria-selected=${open === p ? "true" : "false"} data-tab=${p.key}
        onClick=${() => setTab(open === p ? "" : p.key)}>${p.title}${open === p ? " ▴" : " ▾"}</button>`)}
    </div>
    ${open ? html`<div class="rw-ds-drawer" role="tabpanel" data-testid=${`drawer-${open.key}`} key="drawer">${draw(open)}</div>` : ""}
    <div class="rw-ds-work" data-testid="workspace" ref=${work} key="work">
      <div class="rw-ds-master">
        ${shown("master").map(draw)}
        <${Table} view=${view} store=${store} labelOf=${labelOf} set=${set} />
      </div>
      ${shown("detail").map(draw)}
    </div>
  </div>`;
}

function render({ model, el }) {
  el.classList.add("rw-widget", "rw-dataset");
  const unkeep = keepKeys(el, { focusable: true }); // keys pressed in it stay in it (keys.js)
  const store = new RowStore(model, () => {});
  mount(html`<${App} model=${model} store=${store} />`, el);
  return () => {
    mount(null, el);
    store.destroy();
    unkeep();
  };
}

export default { render };
