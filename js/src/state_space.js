// The state-space heatmap (anywidget ES module): one metric over every state of a lesson world,
// one panel per citation rule, rows retrieval bundles, columns answer bundles. Every cell is a
// button that shows its value as text ("Undef" on a grey cell), so it reads without colour;
// the Explorer's state is outlined. Traits: `metric` (the picker), `current` ({retrieval, answer,
// citation}, or {} when the Explorer is in no cell): a click sets `current`, and Python moves
// the Explorer there. `_grid` (JSON, built once in Python) holds names, values and labels.
// The DOM is built once per grid; metric and current changes only restyle cells.

const h = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
};

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

/** One tab stop for the whole heatmap: cell ``i``. */
function rove(cells, i) {
  cells.forEach(({ button }, k) => button.setAttribute("tabindex", k === i ? "0" : "-1"));
}

/** A defined value's fill: the theme's accent mixed into its background, 12% at 0 to 90% at 1. */
export const fill = (value) => `color-mix(in srgb, var(--rw-accent) ${Math.round(12 + 78 * value)}%, var(--rw-bg))`;

function build(grid, model) {
  const root = h("div", { class: "rw-space", role: "group", "aria-label": grid.title });
  const picker = h("select", { "data-testid": "metric", "aria-label": "Metric" },
    ...grid.metrics.map((m) => h("option", { value: m.key, text: m.label })));
  const legend = h("span", { class: "rw-space-legend" },
    h("span", { class: "rw-space-swatch", style: `background:${fill(0)}`, text: "0" }),
    h("span", { class: "rw-space-swatch rw-space-high", style: `background:${fill(1)}`, text: "1" }),
    h("span", { class: "rw-space-swatch rw-space-undefined", text: "Undef" }), " Undefined · ",
    h("span", { class: "rw-space-swatch rw-space-outlined", text: "\u00a0" }), " the Explorer's state · click a cell to go there");
  const title = h("strong", { class: "rw-space-title" });
  const now = h("p", { class: "rw-space-now", "data-testid": "now", "aria-live": "polite" });
  root.append(h("div", { class: "rw-space-head" }, title, h("label", {}, "Metric ", picker), legend), now);
  const cells = [];
  const panels = h("div", { class: "rw-space-panels" });
  grid.rules.forEach((rule, c) => {
    const head = h("tr", {}, h("th", { class: "rw-space-corner", scope: "col", text: "retrieval ↓\u2003answer →" }),
      ...grid.answers.map((a) => h("th", { scope: "col", text: a })));
    const body = h("tbody");
    grid.retrievals.forEach((retrieval, r) => {
      const row = h("tr", {}, h("th", { scope: "row", text: retrieval }));
      grid.answers.forEach((answer, a) => {
        const button = h("button", { class: "rw-cell", type: "button", "data-cell": `${retrieval}|${answer}|${rule}` });
        button.addEventListener("click", () => {
          model.set("current", { retrieval, answer, citation: rule });
          model.save_changes();
        });
        cells[cellIndex(grid, c, r, a)] = { button, state: { retrieval, answer, citation: rule } };
        row.append(h("td", {}, button));
      });
      body.append(row);
    });
    panels.append(h("section", { class: "rw-space-panel" }, h("h4", { text: `Citation rule: ${rule}` }),
      h("table", {}, h("thead", {}, head), body)));
  });
  root.append(panels);
  // Keys the heatmap handles stay in it (JupyterLab would run its own shortcuts on them); the
  // cells are one tab stop, arrows move between them (across panels at the edges).
  root.addEventListener("keydown", (e) => {
    e.stopPropagation();
    const from = cells.findIndex((x) => x.button === e.target);
    const to = from < 0 ? -1 : step(grid, from, e.key);
    if (to < 0) return;
    e.preventDefault();
    rove(cells, to);
    cells[to].button.focus();
  });
  picker.addEventListener("change", () => {
    model.set("metric", picker.value);
    model.save_changes();
  });
  return { root, picker, title, now, cells };
}

function paint(grid, view, model) {
  const metric = model.get("metric");
  const label = grid.metrics.find((m) => m.key === metric)?.label ?? metric;
  view.picker.value = metric;
  view.title.textContent = `${label} over all ${view.cells.length} states`;
  const values = grid.values[metric] ?? [];
  const labels = grid.labels[metric] ?? [];
  view.cells.forEach(({ button, state }, i) => {
    const value = values[i];
    const defined = value !== null && value !== undefined;
    button.textContent = labels[i] ?? "";
    button.classList.toggle("rw-undefined", !defined);
    button.classList.toggle("rw-space-high", defined && value > 0.55);
    button.style.background = defined ? fill(value) : "";
    button.setAttribute("aria-label", `retrieval: ${state.retrieval}; answer: ${state.answer}; citation: ${state.citation}; ${label}: ${defined ? labels[i] : "Undefined"}`);
    button.title = button.getAttribute("aria-label");
  });
}

/** Outline the Explorer's cell and say, beside the heatmap, where the Explorer is and its scores
 * there (the Explorer itself may be scrolled out of view). */
function outline(grid, view, model) {
  const current = model.get("current") ?? {};
  let at = -1;
  view.cells.forEach(({ button, state }, i) => {
    const here = state.retrieval === current.retrieval && state.answer === current.answer && state.citation === current.citation;
    button.classList.toggle("rw-current", here);
    if (here) {
      button.setAttribute("aria-current", "true");
      at = i;
    } else button.removeAttribute("aria-current");
  });
  if (!view.root.contains(document.activeElement)) rove(view.cells, Math.max(at, 0));
  view.now.textContent = at < 0
    ? "Explorer: passages edited, in no cell of the sweep (click a cell to go back to a bundle)."
    : `Explorer: ${current.retrieval} · ${current.answer} · ${current.citation} — `
      + grid.metrics.map((m) => `${m.label} ${grid.labels[m.key][at]}`).join(" · ");
}

export default {
  render({ model, el }) {
    let grid, view;
    const draw = () => {
      grid = JSON.parse(model.get("_grid"));
      view = build(grid, model);
      el.replaceChildren(view.root);
      paint(grid, view, model);
      outline(grid, view, model);
    };
    const repaint = () => paint(grid, view, model);
    const reoutline = () => outline(grid, view, model);
    draw();
    model.on("change:_grid", draw);
    model.on("change:metric", repaint);
    model.on("change:current", reoutline);
    return () => {
      model.off("change:_grid", draw);
      model.off("change:metric", repaint);
      model.off("change:current", reoutline);
    };
  },
};
