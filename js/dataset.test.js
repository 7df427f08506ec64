// DatasetExplorer's front end in jsdom: binary row windows decoded, windows asked for once per
// order, stale replies dropped, a failed request's error shown, brushes mapped to bins, Undefined
// drawn unlike 0, text as text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { decodeRows, RowStore, WINDOW } from "./src/dataset/rows.js";
import { TIMEOUT_MS } from "./src/request.js";
import { brushedBins, groupCondition, scatterCondition } from "./src/dataset/charts.js";
import { copyText } from "./src/dataset/drill.js";
import { metricCell, ROW_H, scrollFor, sortFor, stickyLeft } from "./src/dataset/table.js";
import widget from "./src/dataset.js";
import { fakeModel, viewTrait } from "./fake_model.js";

/** A DataView over a copy of `typed`, at an odd offset, as ipywidgets hands buffers over. */
function view(typed) {
  const bytes = new Uint8Array(typed.byteLength + 3);
  bytes.set(new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength), 3);
  return new DataView(bytes.buffer, 3, typed.byteLength);
}

const header = (version, start) => ({
  type: "rows", version, start, positions: [7, 3], run: ["run", "run"], query_id: ["a", "b"],
  query: ["<img src=x onerror=alert(1)>", "q"], numeric: ["n_passages", "precision"], status: ["precision"],
});
const settled = () => new Promise((r) => setTimeout(r, 0)); // the replies' promise callbacks ran
const buffers = () => [view(new Float64Array([2, 0])), view(new Float64Array([0, NaN])), view(new Int8Array([0, 1]))];

describe("row windows", () => {
  it("decodes one buffer per column, whatever its alignment", () => {
    const rows = decodeRows(header(1, 0), buffers());
    expect(rows[0]).toMatchObject({ position: 7, query_id: "a", values: { n_passages: 2, precision: 0 }, status: { precision: 0 } });
    expect(Number.isNaN(rows[1].values.precision)).toBe(true);
    expect(rows[1].status.precision).toBe(1);
  });

  it("asks for each window once per order and drops replies to an old order", async () => {
    const model = fakeModel();
    let updates = 0;
    const store = new RowStore(model, () => { updates += 1; });
    store.reset(1);
    store.ensure(0, 30, 1000);
    store.ensure(5, 40, 1000);
    const [first] = model.messages;
    expect(model.messages).toEqual([{ type: "rows", start: 0, count: WINDOW, request: first.request }]);
    store.ensure(WINDOW - 1, WINDOW + 1, 1000);
    expect(model.messages.map((m) => m.start)).toEqual([0, WINDOW]);
    expect(model.messages[1].request).toBe(first.request + 1);
    store.reset(2);
    store.ensure(0, 30, 1000);
    expect(model.messages[2]).toEqual({ type: "rows", start: 0, count: WINDOW, request: first.request + 2 });
    model.emit("msg:custom", { ...header(1, 0), request: first.request }, buffers()); // the old order's
    await settled();
    expect(store.get(0)).toBeUndefined();
    model.emit("msg:custom", { ...header(2, 0), request: first.request + 2 }, buffers());
    await settled();
    expect(store.get(1).query_id).toBe("b");
    expect(updates).toBe(4); // after each reply, and after its rows were taken
    store.reset(3);
    expect(store.get(1)).toBeUndefined();
    store.destroy();
  });

  it("shows a refused window's error in its rows and does not ask for it again", async () => {
    const model = fakeModel();
    const store = new RowStore(model, () => {});
    store.reset(1);
    store.ensure(0, 30, 1000);
    model.emit("msg:custom", { type: "rows", request: model.messages[0].request, error: "ValueError: start must be a whole number ≥ 0, not -1" }, []);
    await settled();
    expect(store.requests.error).toBe("ValueError: start must be a whole number ≥ 0, not -1");
    expect(store.failedAt(5)).toBe("ValueError: start must be a whole number ≥ 0, not -1");
    expect(store.failedAt(WINDOW)).toBe("");
    expect(store.requests.waiting.size).toBe(0); // answered: nothing left waiting
    store.ensure(0, 30, 1000);
    expect(model.messages.length).toBe(1);
    store.reset(2);
    expect(store.failedAt(5)).toBe("");
    store.ensure(0, 30, 1000);
    model.emit("msg:custom", { ...header(2, 0), request: model.messages[1].request }, buffers());
    await settled();
    expect(store.requests.error).toBe("");
    expect(store.get(0).query_id).toBe("a");
    store.destroy();
  });

  it("asks again for a window that got no reply in time, and says so meanwhile", async () => {
    vi.useFakeTimers();
    const model = fakeModel();
    const store = new RowStore(model, () => {});
    store.reset(1);
    store.ensure(0, 30, 1000);
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
    expect(store.requests.error).toBe('no reply to "rows" from the kernel in 20 s');
    expect(store.requests.waiting.size).toBe(0);
    expect(store.failedAt(0)).toBe(""); // not refused: asked again at the next draw
    store.ensure(0, 30, 1000);
    expect(model.messages.length).toBe(2);
    model.emit("msg:custom", { ...header(1, 0), request: model.messages[0].request }, buffers()); // too late: dropped
    model.emit("msg:custom", { ...header(1, 0), request: model.messages[1].request }, buffers());
    await vi.advanceTimersByTimeAsync(0);
    expect(store.requests.error).toBe("");
    expect(store.get(0).query_id).toBe("a");
    store.destroy();
    vi.useRealTimers();
  });
});

describe("cells and brushes", () => {
  it("draws Undefined and not computable unlike 0", () => {
    expect(metricCell(0, 0).text).toBe("0.000");
    expect(metricCell(NaN, 1)).toEqual({ text: "Undef", cls: "rw-ds-undef" });
    expect(metricCell(NaN, 2).text).toBe("n/c");
  });

  it("maps a brush back to the bins it covers", () => {
    const edges = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
    expect(brushedBins(edges, { lo: 0.7, hi: 1 })).toEqual([7, 9]);
    expect(brushedBins(edges, { lo: 0, hi: 0.1 })).toEqual([0, 0]);
    expect(brushedBins(edges, { undefined: true })).toBeNull();
  });
});

describe("the widget", () => {
  it("renders untrusted query text as text", async () => {
    for (const [prop, size] of [["clientHeight", 416], ["clientWidth", 800]]) {
      Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => size }); // jsdom has no layout
    }
    const v = {
      runs: ["run"], run: "", total: 2, count: 2, version: 1, error: "", metrics: [{ key: "precision", label: "Precision" }],
      columns: [{ key: "query_id", label: "query_id", kind: "text" }, { key: "query", label: "query", kind: "text" },
        { key: "precision", label: "Precision", kind: "metric" }],
      group_columns: [], controls: { text: "", expression: "", brush: {}, sort_by: "", descending: false, percent: false },
      summary: [], charts: {}, slices: [], compare: null, selected: { row: -1, index: -1, run: "", query_id: "" },
    };
    const model = fakeModel({ _view: viewTrait(v), _drill: viewTrait(null), _other: viewTrait(null), text: "", expression: "" });
    const el = document.createElement("div");
    document.body.appendChild(el);
    const cleanup = widget.render({ model, el });
    expect(el.querySelector("[data-testid=count]").textContent).toContain("2 of 2");
    const tick = () => new Promise((r) => setTimeout(r, 20));
    await tick(); // effects run after the first paint
    model.emit("msg:custom", { ...header(1, 0), request: model.messages[0].request }, buffers());
    await tick();
    expect(el.querySelectorAll("[role=row][data-index]").length).toBe(2);
    expect(el.querySelector("img")).toBeNull();
    expect(el.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(el.querySelector("[role=alert]")).toBeNull();
    el.querySelector(".rw-ds").dispatchEvent(new KeyboardEvent("keydown", { key: "j", bubbles: true }));
    const step = model.messages.find((m) => m.type === "step");
    expect(step).toMatchObject({ type: "step", delta: 1 });
    model.emit("msg:custom", { type: "reply", request: step.request, error: "delta must be a whole number, not null" }, []);
    await tick();
    expect(el.querySelector("[role=alert]").textContent).toBe("delta must be a whole number, not null");
    cleanup();
    delete HTMLElement.prototype.clientHeight;
    delete HTMLElement.prototype.clientWidth;
  });
});

describe("the drill-down", () => {
  it("mounts the sample view from the one _drill trait (its JSON and cells) and redraws it on change:_drill", async () => {
    for (const [prop, size] of [["clientHeight", 416], ["clientWidth", 800]]) {
      Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => size });
    }
    const fixture = (name) => JSON.parse(readFileSync(join(process.cwd(), "fixtures", `${name}.json`), "utf8"));
    const v = {
      runs: ["run"], run: "", total: 2, count: 2, version: 1, error: "", metrics: [], columns: [],
      group_columns: [], controls: { text: "", expression: "", brush: {}, sort_by: "", descending: false, percent: false },
      summary: [], charts: {}, slices: [], compare: null, selected: { row: 0, index: 0, run: "run", query_id: "0" },
    };
    const sample = fixture("ragchecker_sample");
    const model = fakeModel({ _view: viewTrait(v), _drill: viewTrait(sample), _other: viewTrait(null), text: "", expression: "" });
    const el = document.createElement("div");
    document.body.appendChild(el);
    const cleanup = widget.render({ model, el });
    const tick = () => new Promise((r) => setTimeout(r, 20));
    await tick();
    const main = el.querySelector("[data-testid=drill-main]");
    expect(main.querySelectorAll(".rw-matrix tbody tr").length).toBe(33);
    expect([...main.querySelector(".rw-matrix tbody tr").children].map((c) => c.textContent)).toEqual(["R1", "·", "●", "·", "·"]);
    model.state._drill = viewTrait({ ...sample, state: "sample 0 · redrawn" });
    model.emit("change:_drill");
    for (let i = 0; i < 50 && !main.querySelector("[data-testid=state]").textContent.includes("redrawn"); i++) await tick();
    expect(main.querySelector("[data-testid=state]").textContent).toContain("redrawn");
    const asked = model.messages.length;
    main.querySelector('[data-key="claim:R1"]').click(); // a selection: drawn here at once, the kernel not asked
    expect(model.messages.length).toBe(asked);
    expect(main.querySelector('[data-key="claim:R1"]').getAttribute("aria-selected")).toBe("true");
    expect(main.querySelector(".rw-role-supports")).not.toBeNull();
    model.state._drill = viewTrait({ ...sample, state: "sample 0 · again" }); // the same sample again: still selected
    model.emit("change:_drill");
    for (let i = 0; i < 50 && !main.querySelector("[data-testid=state]").textContent.includes("again"); i++) await tick();
    expect(main.querySelector('[data-key="claim:R1"]').getAttribute("aria-selected")).toBe("true");
    const row = main.querySelector('[data-key="claim:R3"]');
    row.dispatchEvent(new KeyboardEvent("keydown", { key: "c", bubbles: true })); // a review, through the run's widget
    expect(model.messages.at(-1)).toMatchObject({ type: "review", which: "main", kind: "answer2response", claim: 2, label: "Contradiction" });
    // a drill-down request the kernel fails: its error in the detail pane (not a silent no-op)
    model.emit("msg:custom", { type: "reply", request: model.messages.at(-1).request, error: "KeyError: 'claim'" }, []);
    await tick();
    // the sample view stays mounted while the errors show (the banner above does not remount the pane)
    expect(el.querySelector("[data-testid=drill-main]")).toBe(main);
    expect(main.querySelectorAll(".rw-matrix tbody tr").length).toBe(33);
    expect(el.querySelector("[data-testid=drill-error]").textContent).toBe("review failed: KeyError: 'claim'");
    main.querySelector('[data-key="claim:R1"]').dispatchEvent(new KeyboardEvent("keydown", { key: "e", bubbles: true }));
    model.emit("msg:custom", { type: "reply", request: model.messages.at(-1).request }, []);
    await tick();
    expect(el.querySelector("[data-testid=drill-error]")).toBeNull(); // the next one worked
    cleanup();
    expect(Object.values(model.listeners).every((l) => l.length === 0)).toBe(true);
    delete HTMLElement.prototype.clientHeight;
    delete HTMLElement.prototype.clientWidth;
  });
});

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
const baseView = (over = {}) => ({
  runs: ["run"], run: "", total: 2, count: 2, version: 1, error: "", metrics: [{ key: "precision", label: "Precision" }],
  columns: [{ key: "query_id", label: "query_id", kind: "text" }, { key: "query", label: "query", kind: "text" },
    { key: "precision", label: "Precision", kind: "metric", lower_is_better: false }],
  all_columns: [{ key: "query_id", label: "query_id", kind: "text" }, { key: "query", label: "query", kind: "text" },
    { key: "precision", label: "Precision", kind: "metric", lower_is_better: false }],
  group_columns: [], controls: { text: "", expression: "", conditions: [], brush: {}, sort_by: "", descending: false, percent: false },
  summary: [], charts: {}, slices: [], compare: null, refused: {}, selected: { row: -1, index: -1, run: "", query_id: "" }, ...over,
});

function mountWith(state) {
  for (const [prop, size] of [["clientHeight", 416], ["clientWidth", 800]]) {
    Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => size }); // jsdom has no layout
  }
  const model = fakeModel({ _drill: viewTrait(null), _other: viewTrait(null), _rows: {}, text: "", expression: "", ...state });
  const el = document.createElement("div");
  document.body.appendChild(el);
  const cleanup = widget.render({ model, el });
  return { model, el, cleanup: () => { cleanup(); delete HTMLElement.prototype.clientHeight; delete HTMLElement.prototype.clientWidth; } };
}

const rowsAsked = (model) => model.messages.filter((m) => m.type === "rows");
const cellTexts = (el, i) => [...el.querySelectorAll(`[data-index="${i}"] > span`)].map((s) => s.textContent);

describe("a failed row window", () => {
  it("shows the kernel's error in its rows and in the alert instead of waiting", async () => {
    const { model, el, cleanup } = mountWith({ _view: viewTrait(baseView()) });
    await tick();
    const [asked] = rowsAsked(model);
    expect(el.querySelectorAll("[data-index] .rw-ds-loading").length).toBeGreaterThan(0); // waiting: "…"
    model.emit("msg:custom", { type: "rows", request: asked.request, error: "RuntimeError: disk gone" }, []);
    await tick();
    const errors = [...el.querySelectorAll("[data-testid=row-error]")];
    expect(errors.length).toBe(2); // each row of the refused window says why it is empty
    expect(errors[0].textContent).toBe("Rows not loaded: RuntimeError: disk gone");
    expect(el.querySelector("[data-index] .rw-ds-loading")).toBeNull();
    expect(el.querySelector("[data-testid=error]").textContent).toBe("RuntimeError: disk gone");
    expect(rowsAsked(model).length).toBe(1); // refused: not asked again for this order
    cleanup();
    expect(Object.values(model.listeners).every((l) => l.length === 0)).toBe(true);
  });
});

describe("defect 1: a trait change just after the first render (Run All: display, then set e.expression)", () => {
  it("is not missed: the view of the new order shows and its rows come, whatever the order of the events", async () => {
    for (let trial = 0; trial < 20; trial++) {
      const { model, el, cleanup } = mountWith({ _view: viewTrait(baseView({ version: 1 })) });
      // the kernel's next view (the expression of the next cell) arrives before the first render's effects ran
      model.state.expression = "precision < 1";
      model.state._view = viewTrait(baseView({ version: 2, controls: { ...baseView().controls, expression: "precision < 1" } }));
      model.emit("change:_view");
      model.emit("change:expression");
      await tick(trial % 3 === 0 ? 0 : 5);
      // before any reply: the view shown is the kernel's (the code before this fix kept the first
      // view, its filter box empty, until some other event redrew it)
      expect(el.querySelector("[data-testid=expression]").value).toBe("precision < 1");
      // every row request is answered with the order the kernel has now (version 2)
      for (const m of rowsAsked(model)) model.emit("msg:custom", { ...header(2, m.start), request: m.request }, buffers());
      await tick();
      for (const m of rowsAsked(model).filter((m) => !m.answered)) {
        m.answered = true;
        model.emit("msg:custom", { ...header(2, m.start), request: m.request }, buffers());
      }
      await tick();
      expect(cellTexts(el, 0)).toEqual(["a", "<img src=x onerror=alert(1)>", "0.000"]);
      expect(cellTexts(el, 1)[2]).toBe("Undef");
      expect(el.querySelector("[data-testid=expression]").value).toBe("precision < 1");
      cleanup();
    }
  });

  it("keeps a reply for a newer order than the view shown and uses it when that view comes", async () => {
    const model = fakeModel();
    const store = new RowStore(model, () => {});
    store.reset(1);
    store.ensure(0, 10, 100);
    model.emit("msg:custom", { ...header(2, 0), request: model.messages[0].request }, buffers()); // the kernel is one order ahead
    await settled();
    expect(store.get(0)).toBeUndefined();
    store.ensure(0, 10, 100);
    expect(rowsAsked(model).length).toBe(1); // not asked again while that view is on its way
    store.reset(2);
    expect(store.get(0).query_id).toBe("a");
    store.ensure(0, 10, 100);
    expect(rowsAsked(model).length).toBe(1);
    store.destroy();
  });

  it("never overwrites what the user is typing with the kernel's value", async () => {
    const { model, el, cleanup } = mountWith({ _view: viewTrait(baseView()) });
    await tick();
    const box = el.querySelector("[data-testid=expression]");
    box.value = "precision <";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    await tick();
    model.state._view = viewTrait(baseView({ version: 2, controls: { ...baseView().controls, expression: "recall > 0" } }));
    model.emit("change:_view");
    await tick();
    expect(box.value).toBe("precision <");
    expect(box.classList.contains("rw-ds-edited")).toBe(true);
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await tick();
    expect(box.value).toBe("recall > 0"); // Escape: back to the filter in force
    cleanup();
  });
});

describe("the table", () => {
  it("sorts a metric worst first on its first click, by the view's lower_is_better", () => {
    const c = { sort_by: "", descending: false };
    expect(sortFor({ key: "precision", kind: "metric", lower_is_better: false }, c)).toEqual({ sort_by: "precision", descending: false });
    expect(sortFor({ key: "hallucination", kind: "metric", lower_is_better: true }, c)).toEqual({ sort_by: "hallucination", descending: true });
    expect(sortFor({ key: "hallucination", kind: "metric", lower_is_better: true }, { sort_by: "hallucination", descending: true }))
      .toEqual({ sort_by: "hallucination", descending: false });
    expect(sortFor({ key: "query", kind: "text" }, c)).toEqual({ sort_by: "query", descending: false });
    expect(sortFor({ key: "n_passages", kind: "count" }, c)).toEqual({ sort_by: "n_passages", descending: true });
  });

  it("sends the worst-first sort from a header click", async () => {
    const v = baseView();
    v.columns[2] = { key: "hallucination", label: "Hallucination", kind: "metric", lower_is_better: true };
    const { model, el, cleanup } = mountWith({ _view: viewTrait(v) });
    el.querySelector('[data-col="hallucination"]').click();
    expect(model.sent.at(-1)).toEqual({ sort_by: "hallucination", descending: true });
    cleanup();
  });

  it("keeps the leading run / query_id / query columns in place (each at its own offset)", () => {
    const cols = [{ key: "run", kind: "text" }, { key: "query_id", kind: "text" }, { key: "query", kind: "text" },
      { key: "precision", kind: "metric" }, { key: "query", kind: "text" }];
    expect(stickyLeft(cols)).toEqual([0, 106, 196, null, null]); // widths 100, 84, 150 and a 6 px gap
    expect(stickyLeft([{ key: "precision", kind: "metric" }, { key: "query_id", kind: "text" }])).toEqual([null, null]);
  });

  it("scrolls the selected row whole below the sticky header, up or down", () => {
    const H = ROW_H;
    // rows start one header below the top; 10 rows visible under the header in 11 * H
    expect(scrollFor(5, 0, 11 * H)).toBeNull();
    expect(scrollFor(4, 10 * H, 11 * H)).toBe(4 * H); // moving up: its top just below the header
    expect(scrollFor(20, 0, 11 * H)).toBe(22 * H - 11 * H); // moving down: its bottom at the bottom
    expect(scrollFor(10, 0, 11 * H)).toBe(H);
  });

  it("shows the rows saved in the state before (and without) a kernel, and says what they are", async () => {
    vi.useFakeTimers();
    try {
    const seed = { version: 1, start: 0, positions: [7, 3], run: ["run", "run"], query_id: ["a", "b"], query: ["q1", "q2"],
      numeric: ["precision"], status: ["precision"], values: [[0.5, null]], codes: [[0, 1]] };
    const { el, cleanup } = mountWith({ _view: viewTrait(baseView({ count: 100000, total: 100000 })), _rows: seed });
    await vi.advanceTimersByTimeAsync(50);
    expect(cellTexts(el, 0)).toEqual(["a", "q1", "0.500"]);
    expect(cellTexts(el, 1)).toEqual(["b", "q2", "Undef"]);
    expect(cellTexts(el, 2)[0]).toBe("…");
    expect(el.querySelector("[data-testid=saved-rows]")).toBeNull(); // a kernel answers within a moment
    await vi.advanceTimersByTimeAsync(2000);
    expect(el.querySelector("[data-testid=saved-rows]").textContent.replace(/\s+/g, " "))
      .toContain("the first 2 of 100,000 rows; run the cell for the rest");
    cleanup();
    } finally {
      vi.useRealTimers();
    }
  });

  it("says which filters match nothing, with a way back", async () => {
    const v = baseView({ count: 0, controls: { ...baseView().controls, expression: "precision > 2", conditions: ["recall == 1"] } });
    const { model, el, cleanup } = mountWith({ _view: viewTrait(v) });
    expect(el.querySelector("[data-testid=empty]").textContent).toContain("No sample matches precision > 2 and recall == 1");
    el.querySelector("[data-testid=clear-all]").click();
    expect(model.sent.at(-1)).toMatchObject({ expression: "", conditions: [], brush: {}, slice: "", text: "" });
    cleanup();
  });

  it("chooses and reorders columns through the table_columns trait", () => {
    const { model, el, cleanup } = mountWith({ _view: viewTrait(baseView()) });
    el.querySelector('[data-tab="columns"]').click();
    return tick().then(() => {
      el.querySelector('[data-column="precision"] button[aria-label="Move Precision left"]').click();
      expect(model.sent.at(-1)).toEqual({ table_columns: ["query_id", "precision", "query"] });
      el.querySelector('[data-column="query"] input').click();
      expect(model.sent.at(-1)).toEqual({ table_columns: ["query_id", "precision"] });
      cleanup();
    });
  });
});

describe("filters from the charts and refused expressions", () => {
  it("builds a removable condition from a group bar or a scatter cell / box", () => {
    expect(groupCondition("n_passages", "3")).toBe("n_passages == 3");
    expect(groupCondition("source", "wiki")).toBe('source == "wiki"');
    expect(scatterCondition("precision", "recall", 20, [3, 19], [3, 19]))
      .toBe("precision >= 0.15 and precision < 0.2 and recall >= 0.95 and recall <= 1");
    expect(scatterCondition("precision", "recall", 10, [4, 2], [1, 0]))
      .toBe("precision >= 0.1 and precision < 0.5 and recall >= 0 and recall < 0.3");
  });

  it("adds a group bar's condition beside the expression; a second click or the chip's ✕ removes it", async () => {
    const v = baseView({ charts: { groups: { by: "n_passages", metric: "precision", rows: [{ group: 2, mean: 0.5, defined: 3, size: 3 }] } },
      group_columns: ["n_passages"], controls: { ...baseView().controls, expression: "recall < 1", group_by: "n_passages", chart_metric: "precision" } });
    const { model, el, cleanup } = mountWith({ _view: viewTrait(v) });
    el.querySelector('[data-tab="charts"]').click();
    await tick();
    el.querySelector('[data-group="2"]').dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(model.sent.at(-1)).toEqual({ conditions: ["n_passages == 2"] });
    model.state._view = viewTrait({ ...v, controls: { ...v.controls, conditions: ["n_passages == 2"] } });
    model.emit("change:_view");
    await tick();
    expect(el.querySelector("[data-testid=condition]").textContent).toContain("n_passages == 2");
    expect(el.querySelector("[data-testid=expression]").value).toBe("recall < 1");
    el.querySelector('[data-group="2"]').dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(model.sent.at(-1)).toEqual({ conditions: [] });
    el.querySelector("[data-testid=condition]").click();
    expect(model.sent.at(-1)).toEqual({ conditions: [] });
    cleanup();
  });

  it("says a refused expression was not applied and which rows the table still shows", async () => {
    const controls = { ...baseView().controls, expression: "recall < 1" };
    const { el, cleanup } = mountWith({ _view: viewTrait(baseView({ controls })) });
    const box = el.querySelector("[data-testid=expression]");
    box.value = "precision <";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    await tick();
    expect(el.querySelector("[data-testid=not-applied]")).toBeNull(); // typing is not refusing
    cleanup();
    const refused = { expression: "precision <", error: "not a valid expression" };
    const again = mountWith({ _view: viewTrait(baseView({ controls, refused, error: "not a valid expression" })) });
    const box2 = again.el.querySelector("[data-testid=expression]");
    box2.value = "precision <";
    box2.dispatchEvent(new Event("input", { bubbles: true }));
    await tick();
    const note = again.el.querySelector("[data-testid=not-applied]").textContent.replace(/\s+/g, " ");
    expect(note).toContain("was not applied (not a valid expression)");
    expect(note).toContain("still shows the 2 samples of the filter in force, recall < 1");
    again.cleanup();
  });
});

describe("acting on a finding", () => {
  it("copies the query_id, or selects it for Ctrl+C where the clipboard is refused", async () => {
    const input = document.createElement("input");
    input.hidden = true;
    document.body.appendChild(input);
    Object.defineProperty(globalThis.navigator, "clipboard", { configurable: true, value: { writeText: async () => { throw new Error("denied"); } } });
    expect(await copyText("q-17", input)).toContain("Ctrl+C");
    expect(input.hidden).toBe(false);
    expect(input.value.slice(input.selectionStart, input.selectionEnd)).toBe("q-17");
    let copied = "";
    Object.defineProperty(globalThis.navigator, "clipboard", { configurable: true, value: { writeText: async (t) => { copied = t; } } });
    expect(await copyText("q-18", input)).toBe("copied");
    expect(copied).toBe("q-18");
    delete globalThis.navigator.clipboard;
  });

  it("asks the kernel to write the rows / slices to the typed path (or the default) and shows its answer", async () => {
    const { model, el, cleanup } = mountWith({ _view: viewTrait(baseView()) });
    el.querySelector('[data-tab="act"]').click();
    await tick();
    el.querySelector("[data-testid=export-csv]").click();
    expect(model.messages.at(-1)).toMatchObject({ type: "export", format: "csv", path: "rows.csv" });
    const path = el.querySelector("[data-testid=path]");
    path.value = "out/worst.parquet";
    path.dispatchEvent(new Event("input", { bubbles: true }));
    await tick();
    el.querySelector("[data-testid=export-parquet]").click();
    const ask = model.messages.at(-1);
    expect(ask).toMatchObject({ type: "export", format: "parquet", path: "out/worst.parquet" });
    model.emit("msg:custom", { type: "reply", request: ask.request, said: "Wrote 2 rows to /k/out/worst.parquet" }, []);
    await tick();
    expect(el.querySelector("[data-testid=act-said]").textContent).toBe("Wrote 2 rows to /k/out/worst.parquet");
    el.querySelector("[data-testid=save-slices]").click();
    expect(model.messages.at(-1)).toMatchObject({ type: "save_slices", path: "out/worst.parquet" });
    el.querySelector("[data-testid=export-claims]").click();
    expect(model.messages.at(-1)).toMatchObject({ type: "export_claims", path: "out/worst.parquet" });
    cleanup();
  });
});

describe("data from elsewhere, said", () => {
  it("shows an empty question as 'no question', never a blank cell", async () => {
    const { model, el, cleanup } = mountWith({ _view: viewTrait(baseView()) });
    await tick();
    for (const m of rowsAsked(model)) model.emit("msg:custom", { ...header(1, m.start), query: ["", "q"], request: m.request }, buffers());
    await tick();
    expect(cellTexts(el, 0)[1]).toBe("no question");
    expect(cellTexts(el, 1)[1]).toBe("q");
    cleanup();
  });

  it("says in the comparison how many shared query_ids ask another question", async () => {
    const compare = { baseline: "a", shared: 2, left_out: {}, rows: [], query_mismatch: { b: 3, c: 0 } };
    const { el, cleanup } = mountWith({ _view: viewTrait(baseView({ runs: ["a", "b", "c"], compare })) });
    await tick();
    el.querySelector('[data-tab="compare"]').click();
    await tick();
    const notes = [...el.querySelectorAll("[data-testid=query-mismatch]")].map((n) => n.textContent.trim());
    expect(notes).toEqual(["⚠ b: 3 shared query_ids ask another question than in a (still paired by query_id)"]);
    cleanup();
  });

  it("says how many metrics differ after the adjustment", async () => {
    const compare = { baseline: "a", shared: 2, left_out: {}, rows: [], said: { b: "2 of 11 metrics differ after Holm" } };
    const { el, cleanup } = mountWith({ _view: viewTrait(baseView({ runs: ["a", "b"], compare })) });
    await tick();
    el.querySelector('[data-tab="compare"]').click();
    await tick();
    const said = [...el.querySelectorAll("[data-testid=compare-said]")].map((n) => n.textContent.trim());
    expect(said).toEqual(["b: 2 of 11 metrics differ after Holm"]);
    cleanup();
  });

  it("says beside the difference when a run was judged differently, and nothing where it was not", async () => {
    const note = "judged differently: judge 'lexical', 1 repeat per label; a: judge 'gpt-4o', 1 repeat per label";
    const row = (run, judge_note) => ({ run, metric: "precision", baseline_mean: 0.5, mean: 0.4, difference: -0.1,
      ci_low: -0.2, ci_high: 0, includes_zero: true, paired: 2, judge_note });
    const compare = { baseline: "a", shared: 2, left_out: {}, query_mismatch: {}, judge_notes: { b: note, c: "" },
      rows: [row("b", note), row("c", "")] };
    const controls = { ...baseView().controls, compare_metric: "precision" };
    const { el, cleanup } = mountWith({ _view: viewTrait(baseView({ runs: ["a", "b", "c"], compare, controls })) });
    await tick();
    el.querySelector('[data-tab="compare"]').click();
    await tick();
    const notes = [...el.querySelectorAll("[data-testid=judge-note]")].map((n) => n.textContent.trim());
    expect(notes).toEqual([`⚠ b: ${note}; part of its difference may be the judge's`]);
    const badges = [...el.querySelectorAll("[data-testid=judged-differently]")];
    expect(badges.map((b) => b.closest("tr").firstElementChild.textContent)).toEqual(["b"]);
    expect(badges[0].getAttribute("title")).toBe(note);
    cleanup();
  });
});

describe("a run judged several times", () => {
  it("shows the labels that flip and each metric's interval with the judge's repeats beside today's", async () => {
    const repeats = { run: { n_repeats: 3, policy: "majority", flaky: 12, samples: 40,
      labels: [{ kind: "retrieved2response", flipped: 8, labels: 400, share: 0.02, pair_share: 0.01 }],
      metrics: [{ metric: "faithfulness", mean: 0.5, ci_low: 0.4, ci_high: 0.6, judge_mean: 0.505, judge_ci_low: 0.38, judge_ci_high: 0.63, repeat_min: 0.48, repeat_max: 0.52 },
        { metric: "recall", mean: null, ci_low: null, ci_high: null, judge_mean: null, judge_ci_low: null, judge_ci_high: null, repeat_min: null, repeat_max: null }] } };
    const { el, cleanup } = mountWith({ _view: viewTrait(baseView({ repeats })) });
    await tick();
    el.querySelector('[data-tab="summary"]').click();
    await tick();
    const table = el.querySelector("[data-testid=repeats]");
    expect(table.querySelector("caption").textContent).toContain("run: judged 3 times (labels by majority); 12 of 40 samples flaky");
    expect(table.querySelector("caption").textContent).toContain("retrieved2response 2.0% of 400 (1.0% per pair of repeats)");
    // the judge's interval sits beside the mean it is about (one run's, not the majority's)
    expect([...table.querySelectorAll("thead th")].map((th) => th.textContent)[3]).toContain("one judge run");
    const rows = [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(rows[0]).toEqual(["faithfulness", "0.500", "0.400–0.600", "0.505 (0.380–0.630)", "0.480–0.520"]);
    expect(rows[1][1]).toBe("Undefined"); // never a 0
    expect(rows[1][3]).toBe("Undefined");
    cleanup();
  });
});
