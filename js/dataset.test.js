// DatasetExplorer's front end in jsdom: binary row windows decoded, windows asked for once per
// order, stale replies dropped, a failed request's error shown, brushes mapped to bins, Undefined
// drawn unlike 0, text as text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeRows, RowStore, WINDOW } from "./src/dataset_rows.js";
import { brushedBins } from "./src/dataset_charts.js";
import widget, { metricCell } from "./src/dataset.js";
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
const buffers = () => [view(new Float64Array([2, 0])), view(new Float64Array([0, NaN])), view(new Int8Array([0, 1]))];

describe("row windows", () => {
  it("decodes one buffer per column, whatever its alignment", () => {
    const rows = decodeRows(header(1, 0), buffers());
    expect(rows[0]).toMatchObject({ position: 7, query_id: "a", values: { n_passages: 2, precision: 0 }, status: { precision: 0 } });
    expect(Number.isNaN(rows[1].values.precision)).toBe(true);
    expect(rows[1].status.precision).toBe(1);
  });

  it("asks for each window once per order and drops replies to an old order", () => {
    const model = fakeModel();
    let updates = 0;
    const store = new RowStore(model, () => { updates += 1; });
    store.reset(1);
    store.ensure(0, 30, 1000);
    store.ensure(5, 40, 1000);
    expect(model.messages).toEqual([{ type: "rows", start: 0, count: WINDOW, request: 1 }]);
    store.ensure(WINDOW - 1, WINDOW + 1, 1000);
    expect(model.messages.map((m) => m.start)).toEqual([0, WINDOW]);
    store.reset(2);
    store.ensure(0, 30, 1000);
    expect(model.messages[2]).toEqual({ type: "rows", start: 0, count: WINDOW, request: 3 });
    model.emit("msg:custom", { ...header(1, 0), request: 1 }, buffers()); // the old order's
    expect(store.get(0)).toBeUndefined();
    model.emit("msg:custom", { ...header(2, 0), request: 3 }, buffers());
    expect(store.get(1).query_id).toBe("b");
    expect(updates).toBe(2);
    store.reset(3);
    expect(store.get(1)).toBeUndefined();
    store.destroy();
  });

  it("shows a refused window's error and does not ask for it again", () => {
    const model = fakeModel();
    const store = new RowStore(model, () => {});
    store.reset(1);
    store.ensure(0, 30, 1000);
    model.emit("msg:custom", { type: "rows", request: 1, error: "start must be a whole number ≥ 0, not -1" }, []);
    expect(store.requests.error).toBe("start must be a whole number ≥ 0, not -1");
    expect(store.requests.waiting.size).toBe(0); // answered: nothing left waiting
    store.ensure(0, 30, 1000);
    expect(model.messages.length).toBe(1);
    store.reset(2);
    store.ensure(0, 30, 1000);
    model.emit("msg:custom", { ...header(2, 0), request: 2 }, buffers());
    expect(store.requests.error).toBe("");
    expect(store.get(0).query_id).toBe("a");
    store.destroy();
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
    main.querySelector('[data-key="claim:R2"]').click();
    expect(model.messages.at(-1)).toMatchObject({ type: "drill", which: "main", patch: { selected: "claim:R2" } });
    const row = main.querySelector('[data-key="claim:R3"]');
    row.dispatchEvent(new KeyboardEvent("keydown", { key: "c", bubbles: true })); // a review, through the run's widget
    expect(model.messages.at(-1)).toMatchObject({ type: "review", which: "main", kind: "answer2response", claim: 2, label: "Contradiction" });
    cleanup();
    expect(Object.values(model.listeners).every((l) => l.length === 0)).toBe(true);
    delete HTMLElement.prototype.clientHeight;
    delete HTMLElement.prototype.clientWidth;
  });
});
