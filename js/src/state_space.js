// The state-space heatmap (anywidget ES module): one metric over every state of a lesson world,
// one panel per citation rule, rows retrieval bundles, columns answer bundles. Every cell is a
// button that shows its value as text ("Undef" on a grey cell), so it reads without colour;
// the Explorer's state is outlined. Traits: `metric` (the picker), `current` ({retrieval, answer,
// citation}, or {} when the Explorer is in no cell): a click sets `current`, and Python moves
// the Explorer there. `_grid` (a view trait, built once in Python) holds names, values and labels.
// Drawn with Preact (keyed cells): metric and current changes restyle the same buttons.
import { render as mount } from "preact";
import { html } from "./incremental.js";
import { keepKeys } from "./keys.js";
import { viewOf } from "./view_trait.js";


/** Index of a state in the grid's flat value lists: rule-major, then retrieval, then answer. */
export const cellIndex = (grid, c, r, a) => (c * grid.retrievals.length + r) * grid.answers.length + a;

/** The cell an arrow key moves to from cell ``i`` (-1: not an arrow, or the grid's edge). Left
 * and right walk the answers, then on into the next panel; up and down walk the retrievals. */
export function step(grid, i, key) {
  const A = grid.answers.length;
  const R = grid.retrievals.length;
  const a = i % A;
  const r = Math.floor(i / A) % R;
  const c = Math.floor(i / (A * R));
  if (key === "ArrowRight") return a < A - 1 ? i + 1 : c < grid.rules.length - 1 ? cellIndex(grid, c + 1, r, 0) : -1;
  if (key === "ArrowLeft") return a > 0 ? i - 1 : c > 0 ? cellIndex(grid, c - 1, r, A - 1) : -1;
  if (key === "ArrowDown") return r < R - 1 ? i + A : -1;
  if (key === "ArrowUp") return r > 0 ? i - A : -1;
  return -1;
}

/** A defined value's fill: the theme's accent mixed into its background, 12% at 0 to 90% at 1. */
export const fill = (value) => `color-mix(in srgb, var(--rw-accent) ${Math.round(12 + 78 * value)}%, var(--rw-bg))`;

function Cell({ grid, i, state, metric, label, here, stop, go }) {
  const value = (grid.values[metric] ?? [])[i];
  const shown = (grid.labels[metric] ?? [])[i] ?? "";
  const defined = value !== null && value !== undefined;
  const words = `retrieval: ${state.retrieval}; answer: ${state.answer}; citation: ${state.citation}; ${label}: ${defined ? shown : "Undefined"}`;
  const cls = ["rw-cell", !defined && "rw-undefined", defined && value > 0.55 && "rw-space-high", here && "rw-current"];
  return html`<button class=${cls.filter(Boolean).join(" ")} type="button" data-cell=${`${state.retrieval}|${state.answer}|${state.citation}`}
    tabindex=${i === stop ? "0" : "-1"} aria-current=${here ? "true" : null} aria-label=${words} title=${words}
    style=${defined ? `background:${fill(value)}` : null} onClick=${() => go(state)}>${shown}</button>`;
}

/** Where the Explorer is and its scores there, said beside the heatmap (the Explorer itself may
 * be scrolled out of view). */
function now(grid, current, at) {
  return at < 0
    ? "Explorer: passages edited, in no cell of the sweep (click a cell to go back to a bundle)."
    : `Explorer: ${current.retrieval} · ${current.answer} · ${current.citation} — `
      + grid.metrics.map((m) => `${m.label} ${grid.labels[m.key][at]}`).join(" · ");
}

function Space({ grid, metric, current, stop, keys, set }) {
  const label = grid.metrics.find((m) => m.key === metric)?.label ?? metric;
  const states = [];
  grid.rules.forEach((citation) => grid.retrievals.forEach((retrieval) => grid.answers.forEach((answer) => states.push({ retrieval, answer, citation }))));
  const at = states.findIndex((x) => x.retrieval === current.retrieval && x.answer === current.answer && x.citation === current.citation);
  const go = (state) => set("current", state);
  return html`<div class="rw-space" role="group" aria-label=${grid.title} onKeyDown=${keys}>
    <div class="rw-space-head">
      <strong class="rw-space-title">${label} over all ${states.length} states</strong>
      <label>Metric <select data-testid="metric" aria-label="Metric" value=${metric} onChange=${(e) => set("metric", e.target.value)}>
        ${grid.metrics.map((m) => html`<option value=${m.key}>${m.label}</option>`)}</select></label>
      <span class="rw-space-legend">
        <span class="rw-space-swatch" style=${`background:${fill(0)}`}>0</span>
        <span class="rw-space-swatch rw-space-high" style=${`background:${fill(1)}`}>1</span>
        <span class="rw-space-swatch rw-space-undefined">Undef</span> Undefined ·${" "}
        <span class="rw-space-swatch rw-space-outlined">\u00a0</span> the Explorer's state · click a cell to go there</span>
    </div>
    <p class="rw-space-now" data-testid="now" aria-live="polite">${now(grid, current, at)}</p>
    <div class="rw-space-panels">
      ${grid.rules.map((rule, c) => html`<section class="rw-space-panel" key=${rule}>
        <h4>Citation rule: ${rule}</h4>
        <table>
          <thead><tr><th class="rw-space-corner" scope="col">retrieval ↓\u2003answer →</th>${grid.answers.map((a) => html`<th scope="col">${a}</th>`)}</tr></thead>
          <tbody>${grid.retrievals.map((retrieval, r) => html`<tr><th scope="row">${retrieval}</th>
            ${grid.answers.map((answer, a) => {
              const i = cellIndex(grid, c, r, a);
              return html`<td><${Cell} grid=${grid} i=${i} state=${states[i]} metric=${metric} label=${label}
                here=${i === at} stop=${stop(at)} go=${go} /></td>`;
            })}</tr>`)}</tbody>
        </table>
      </section>`)}
    </div>
  </div>`;
}

export default {
  render({ model, el }) {
    let grid = null;
    let stop = -1; // the cell that holds the tab stop while focus is inside; else the Explorer's
    const set = (name, value) => {
      model.set(name, value);
      model.save_changes();
      draw();
    };
    // The cells are one tab stop, arrows move between them (across panels at the edges); plain
    // keys stay in the heatmap, in every host (keys.js).
    const unkeep = keepKeys(el, { focusable: true });
    const keys = (e) => {
      const cells = [...el.querySelectorAll(".rw-cell")];
      const from = cells.indexOf(e.target);
      const to = from < 0 ? -1 : step(grid, from, e.key);
      if (to < 0) return;
      e.preventDefault();
      stop = to;
      draw();
      cells[to].focus();
    };
    const draw = () => {
      if (!el.contains(document.activeElement)) stop = -1; // focus left: the stop goes back to the Explorer's cell
      const inside = stop >= 0;
      mount(html`<${Space} grid=${grid} metric=${model.get("metric")} current=${model.get("current") ?? {}}
        stop=${(at) => (inside ? stop : Math.max(at, 0))} keys=${keys} set=${set} />`, el);
    };
    const regrid = () => {
      grid = viewOf(model, "_grid");
      draw();
    };
    regrid();
    model.on("change:_grid", regrid);
    model.on("change:metric", draw);
    model.on("change:current", draw);
    return () => {
      model.off("change:_grid", regrid);
      model.off("change:metric", draw);
      model.off("change:current", draw);
      mount(null, el);
      unkeep();
    };
  },
};
