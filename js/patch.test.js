// A view sent as changes: patch.js makes Python's view from its base and operations without
// touching the base, and viewOf reads a patch over the base it names.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModel, viewTrait } from "./fake_model.js";
import { patched } from "./src/patch.js";
import { viewOf } from "./src/view_trait.js";

const fixture = (name) => JSON.parse(readFileSync(join(process.cwd(), "fixtures", `${name}.json`), "utf8"));

function frozen(x) { // deep-frozen: a change to the base throws in strict mode (ES modules are strict)
  if (x && typeof x === "object") {
    Object.values(x).forEach(frozen);
    Object.freeze(x);
  }
  return x;
}

describe("patched", () => {
  it("makes each view Python made from its base and operations (fixtures/patches.json)", () => {
    for (const { base, ops, view } of fixture("patches")) {
      const before = JSON.stringify(base);
      expect(patched(frozen(base), ops)).toEqual(view);
      expect(JSON.stringify(base)).toBe(before);
    }
  });

  it("sets, deletes and splices; unchanged parts stay the base's own objects", () => {
    const base = frozen({ a: { b: 1, c: [1, 2, 3, 4] }, d: [{ on: true }, { on: false }], e: { f: 1 } });
    const out = patched(base, [[["a", "b"], 5], [["a", "c"], 1, 3, ["x"]], [["d", 1, "on"], true], [["e", "f"]]]);
    expect(out).toEqual({ a: { b: 5, c: [1, "x", 4] }, d: [{ on: true }, { on: true }], e: {} });
    expect(out.d[0]).toBe(base.d[0]);
    expect(patched(base, [])).toBe(base);
    expect(patched(base, [[[], "whole"]])).toBe("whole");
    expect(patched([1, 2, 3], [[[], 0, 1, []]])).toEqual([2, 3]);
  });

  it("keeps a key named __proto__ an own property, as JSON.parse does", () => {
    const out = patched({}, [[["__proto__"], { polluted: true }]]);
    expect(Object.keys(out)).toEqual(["__proto__"]);
    expect(out.polluted).toBeUndefined();
    expect({}.polluted).toBeUndefined();
  });
});

describe("viewOf", () => {
  const { base, ops, view } = fixture("patches")[0];
  const trait = (json, patch, number) => ({ json, cells: new DataView(new ArrayBuffer(0)), patch, base: number });

  it("reads a patch over the base it names, and the same values give the same object", () => {
    const model = fakeModel({ _view: trait(JSON.stringify(ops), true, 3), _view_base: trait(JSON.stringify(base), false, 3) });
    const got = viewOf(model, "_view");
    expect({ ...got, matrix: { ...got.matrix, cells: [...got.matrix.cells] } }).toEqual(
      { ...view, matrix: { ...view.matrix, cells: [] } });
    expect(viewOf(model, "_view")).toBe(got);
  });

  it("gives the view last read while a patch's base has not arrived (a host that applies one trait at a time)", () => {
    const model = fakeModel({ _view: viewTrait({ title: "first" }) });
    expect(viewOf(model, "_view").title).toBe("first");
    model.state._view = trait(JSON.stringify([[["title"], "second"]]), true, 8);
    model.state._view_base = trait(JSON.stringify({ title: "old base" }), false, 7);
    expect(viewOf(model, "_view").title).toBe("first");
    model.state._view_base = trait(JSON.stringify({ title: "new base" }), false, 8);
    expect(viewOf(model, "_view").title).toBe("second");
    model.state._view = viewTrait(null);
    expect(viewOf(model, "_view")).toBeNull();
  });
});

describe("the widget over patched views", () => {
  it("draws a patch when it arrives, and one whose base comes second once the base is there", async () => {
    const widget = (await import("./src/widget.js")).default;
    const [{ base, ops }] = fixture("patches"); // RAGChecker's example: passage 001 switched off
    const cells = Int8Array.from(fixture("ragchecker_sample").matrix.cells); // the same sample's matrix
    const trait = (json, patch, number) => ({ json, cells: new DataView(cells.buffer), patch, base: number });
    const model = fakeModel({ predictions: {}, _view_base: trait(JSON.stringify(base), false, 1),
      _view: trait("[]", true, 1) });
    const el = document.createElement("div");
    document.body.appendChild(el);
    const cleanup = widget.render({ model, el });
    const box = () => el.querySelector('[data-toggle="001"]');
    expect(box().checked).toBe(true);
    model.state._view = trait(JSON.stringify(ops), true, 1);
    model.emit("change:_view");
    expect(box().checked).toBe(false);
    model.state._view = trait("[]", true, 2); // a new base: its view first, the base after
    model.emit("change:_view");
    expect(box().checked).toBe(false); // still the last view: base 2 has not arrived
    model.state._view_base = trait(JSON.stringify(base), false, 2);
    model.emit("change:_view_base");
    expect(box().checked).toBe(true);
    cleanup();
  });
});
