// The DatasetExplorer's "What if" tab in jsdom, over a stand-in model (anywidget's contract):
// it asks the kernel ("whatif" request) when opened and when the rows change, draws one curve per
// metric with the Undefined counts under each k (a k with no defined sample breaks the line,
// never a 0), sends a rule, shows its before / after table, and shows a refused rule's error. The
// view is one the Python widget made; the kernel's replies are written here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import widget from "./src/dataset.js";
import { curveByMetric, linePath, records, rowsKey, shortCount, signed } from "./src/dataset/whatif.js";
import { fakeModel, viewTrait } from "./fake_model.js";

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
const until = async (done) => { for (let i = 0; i < 250 && !done(); i++) await tick(); }; // Preact's effects run after a paint
/** The view of a run the Python widget made (js/fixtures/dataset_repeats.json: 12 samples, what-ifs offered), `over` changed. */
const REPEATS = JSON.parse(readFileSync(join(process.cwd(), "fixtures", "dataset_repeats.json"), "utf8"))._view;
const baseView = (over = {}) => ({ ...REPEATS, ...over });
const CURVE = {
  columns: ["k", "metric", "mean", "defined", "undefined", "not_computable"],
  rows: [[1, "context_precision", 1.0, 1, 2, 0], [1, "claim_recall", 0.25, 3, 0, 0],
    [2, "context_precision", null, 0, 3, 0], [2, "claim_recall", 0.5, 3, 0, 0],
    [3, "context_precision", 0.5, 2, 1, 0], [3, "claim_recall", 0.5, 3, 0, 0]],
};
const DROPPED = {
  columns: ["metric", "before", "after", "change", "undefined_before", "undefined_after"],
  rows: [["claim_recall", 0.5, 0.25, -0.25, 0, 0], ["context_precision", 1.0, null, null, 1, 3]],
};
const reply = (request, over = {}) => ({
  type: "reply", request, version: 1, run: "run", samples: 3, labels: { claim_recall: "Claim recall", context_precision: "Context precision" },
  top_k: CURVE, dropped: null, n_dropped: 0, samples_touched: 0, ...over,
});

function mount(view = baseView()) {
  for (const [prop, size] of [["clientHeight", 416], ["clientWidth", 800]]) {
    Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => size }); // jsdom has no layout
  }
  const model = fakeModel({ _view: viewTrait(view), _drill: viewTrait(null), _other: viewTrait(null), _rows: {}, text: "", expression: "" });
  const el = document.createElement("div");
  document.body.appendChild(el);
  const cleanup = widget.render({ model, el });
  return { model, el, cleanup };
}
const asks = (model) => model.messages.filter((m) => m.type === "whatif");

describe("drawing", () => {
  it("groups the curve per metric, by k", () => {
    const m = curveByMetric(CURVE, { claim_recall: "Claim recall" });
    expect(m.map((x) => x.key)).toEqual(["context_precision", "claim_recall"]);
    expect(m[1].label).toBe("Claim recall");
    expect(m[0].points.map((p) => [p.k, p.mean, p.undefined])).toEqual([[1, 1, 2], [2, null, 3], [3, 0.5, 1]]);
    expect(records(null)).toEqual([]);
  });

  it("lifts the pen where no sample is defined: the line breaks, it never falls to 0", () => {
    const pts = [{ k: 1, mean: 0.5 }, { k: 2, mean: null }, { k: 3, mean: 0 }, { k: 4, mean: 1 }];
    expect(linePath(pts, (k) => k * 10, (v) => 100 - v * 100)).toBe("M10.0,50.0M30.0,100.0L40.0,0.0");
    expect(linePath([{ k: 1, mean: null }], (k) => k, (v) => v)).toBe("");
  });

  it("shortens a k's Undefined count to fit its column", () => {
    expect([0, 999, 1000, 1560, 9999, 10500, 999999].map(shortCount)).toEqual(["0", "999", "1k", "1.5k", "9.9k", "10k", "999k"]);
  });

  it("asks again for new rows or labels, not for a new sort or chart", () => {
    const v = baseView();
    const same = (over) => rowsKey(baseView(over)) === rowsKey(v);
    expect(same({ version: 7, controls: { ...v.controls, sort_by: "precision", descending: true, chart_metric: "recall" } })).toBe(true);
    expect(same({ controls: { ...v.controls, expression: "precision > 0" } })).toBe(false);
    expect(same({ controls: { ...v.controls, brush: { metric: "precision", lo: 0, hi: 0.5 } } })).toBe(false);
    expect(same({ count: 2 })).toBe(false);
    expect(same({ reviews: { runs: [{ run: "run", reviews: 1 }] } })).toBe(false);
  });

  it("signs a change, blank where a side is Undefined", () => {
    expect(signed(-0.25)).toBe("−0.250");
    expect(signed(0.1)).toBe("+0.100");
    expect(signed(0)).toBe("0.000");
    expect(signed(null)).toBe("");
  });
});

describe("the tab", () => {
  it("is offered only where the run can do what-ifs", () => {
    const a = mount(baseView({ whatif: false }));
    expect(a.el.querySelector('[data-tab="whatif"]')).toBeNull();
    a.cleanup();
    const b = mount();
    expect(b.el.querySelector('[data-tab="whatif"]').textContent).toContain("What if");
    b.cleanup();
  });

  it("asks when opened, draws each metric's curve with the Undefined counts, and asks again for new rows", async () => {
    const { model, el, cleanup } = mount();
    expect(asks(model)).toEqual([]); // nothing computed until the tab opens
    el.querySelector('[data-tab="whatif"]').click();
    await until(() => asks(model).length);
    const [first] = asks(model);
    expect(first).toMatchObject({ type: "whatif", doc_id: "", text: "" });
    model.emit("msg:custom", reply(first.request), []);
    await tick();
    expect(el.querySelector("[data-testid=wi-over]").textContent).toContain("Over the 3 samples the filters keep");
    const curves = el.querySelectorAll("[data-testid=wi-curve]");
    expect([...curves].map((c) => c.dataset.metric)).toEqual(["context_precision", "claim_recall"]);
    const cp = curves[0];
    expect(cp.querySelector("figcaption").textContent).toBe("Context precision");
    expect([...cp.querySelectorAll("[data-testid=wi-undef]")].map((t) => t.firstChild.textContent)).toEqual(["2", "3", "1"]);
    expect(cp.querySelectorAll("circle").length).toBe(2); // k = 2 has no defined sample: no dot ...
    expect(cp.querySelector('[data-k="2"] .rw-wi-none').textContent).toContain("U"); // ... it says Undefined
    expect(cp.querySelector('[data-k="2"] title').textContent).toContain("Undefined (no defined sample) · 3 Undefined");
    expect(cp.querySelector("path").getAttribute("d").match(/M/g).length).toBe(2); // the line breaks there
    expect(el.querySelector("[data-testid=wi-table]")).toBeNull(); // no rule yet
    model.state._view = viewTrait(baseView({ version: 2, count: 1, controls: { ...baseView().controls, expression: "precision > 0" } })); // the filters changed
    model.emit("change:_view");
    await until(() => asks(model).length > 1);
    expect(asks(model).length).toBe(2);
    model.emit("msg:custom", reply(asks(model)[1].request, { samples: 1, top_k: { columns: CURVE.columns, rows: [] } }), []);
    await tick();
    expect(el.querySelector("[data-testid=wi-no-curve]").textContent).toContain("no top-k curve");
    model.state._view = viewTrait(baseView({ version: 3, count: 1, controls: { ...baseView().controls, expression: "precision > 0", sort_by: "precision" } }));
    model.emit("change:_view"); // only the sort changed: the rows are the same, nothing asked
    await tick(100);
    expect(asks(model).length).toBe(2);
    cleanup();
  });

  it("sends a rule, shows its before / after, and a refused rule's error without losing the curve", async () => {
    const { model, el, cleanup } = mount();
    el.querySelector('[data-tab="whatif"]').click();
    await until(() => asks(model).length);
    model.emit("msg:custom", reply(asks(model)[0].request), []);
    await tick();
    const type = (testid, value) => {
      const input = el.querySelector(`[data-testid=${testid}]`);
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    type("wi-doc-id", "(");
    await tick();
    el.querySelector("[data-testid=wi-apply]").click();
    const bad = asks(model).at(-1);
    expect(bad).toMatchObject({ doc_id: "(", text: "" });
    model.emit("msg:custom", { type: "reply", request: bad.request,
      error: "ValueError: the doc_id pattern '(' is not a valid regular expression (missing ): ()" }, []);
    await tick();

    expect(el.querySelector("[data-testid=wi-error]").textContent).toContain("the doc_id pattern '(' is not a valid regular expression");
    expect(el.querySelectorAll("[data-testid=wi-curve]").length).toBe(2); // the last answer stays drawn
    type("wi-doc-id", "-1$");
    type("wi-text", "cookie");
    await tick();
    el.querySelector("[data-testid=wi-doc-id]").dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    const good = asks(model).at(-1);
    expect(good).toMatchObject({ doc_id: "-1$", text: "cookie" });
    model.emit("msg:custom", reply(good.request, { dropped: DROPPED, n_dropped: 4, samples_touched: 2 }), []);
    await tick();
    expect(el.querySelector("[data-testid=wi-error]")).toBeNull();
    expect(el.querySelector("[data-testid=wi-dropped]").textContent).toContain("Without the 4 passages matching doc_id ~ /-1$/ or text ~ /cookie/ (in 2 of the 3 samples)");
    const rows = [...el.querySelectorAll("[data-testid=wi-table] tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(rows).toEqual([["Claim recall", "0.500", "0.250", "−0.250", "0", "0"],
      ["Context precision", "1.000", "Undefined", "", "1", "3"]]);
    const before = asks(model).length;
    model.state._view = viewTrait(baseView({ version: 3, count: 2 })); // new rows: asked again with the rule in force
    model.emit("change:_view");
    await until(() => asks(model).length > before);
    expect(asks(model).at(-1)).toMatchObject({ doc_id: "-1$", text: "cookie" });
    el.querySelector("[data-testid=wi-clear]").click();
    expect(asks(model).at(-1)).toMatchObject({ doc_id: "", text: "" });
    cleanup();
  });

  it("drops a reply to an older question", async () => {
    const { model, el, cleanup } = mount();
    el.querySelector('[data-tab="whatif"]').click();
    await until(() => asks(model).length);
    model.state._view = viewTrait(baseView({ version: 2, controls: { ...baseView().controls, text: "harbor" } }));
    model.emit("change:_view");
    await until(() => asks(model).length > 1);
    const [old, fresh] = asks(model);
    model.emit("msg:custom", reply(fresh.request, { samples: 2 }), []);
    model.emit("msg:custom", reply(old.request, { samples: 9 }), []);
    await tick();
    expect(el.querySelector("[data-testid=wi-over]").textContent).toContain("Over the 2 samples");
    cleanup();
  });
});
