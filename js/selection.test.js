// The selection drawn in the browser (src/selection.js) lights what Python's `highlights` lights
// (fixtures/selections.json, written by fixtures/make_fixtures.py), and selecting in the widget
// redraws at once, sends only the `selected` trait, and follows a selection made in Python.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { highlights, withSelection } from "./src/selection.js";
import { fakeModel, viewTrait } from "./fake_model.js";
import widget from "./src/widget.js";

const fixture = (name) => JSON.parse(readFileSync(join(process.cwd(), "fixtures", `${name}.json`), "utf8"));
const SELECTIONS = fixture("selections");
const rolesOf = (view) => Object.fromEntries(["sources", "claims", "gt_claims"]
  .flatMap((part) => view[part]).filter((x) => x.roles.length).map((x) => [x.key, x.roles]));

describe("highlights", () => {
  for (const [name, byKey] of Object.entries(SELECTIONS)) {
    it(`lights what Python lights for every item of ${name}`, () => {
      const view = fixture(name);
      expect(Object.keys(byKey).length).toBeGreaterThan(5);
      for (const [key, lit] of Object.entries(byKey)) {
        expect(highlights(view, key), key).toEqual(lit);
        const drawn = withSelection(withSelection(view, ""), key);
        expect(drawn.selected).toBe(key);
        expect(rolesOf(drawn), key).toEqual(lit);
      }
    });
  }

  it("lights nothing for no selection and keeps the items whose roles stay", () => {
    const view = fixture("harbor_selected");
    expect(highlights(view, "")).toEqual({});
    expect(withSelection(view, view.selected)).toBe(view); // nothing to redraw
    const cleared = withSelection(view, "");
    expect(rolesOf(cleared)).toEqual({});
    const untouched = view.gt_claims.filter((g) => g.roles.length === 0);
    expect(untouched.length).toBeGreaterThan(0);
    for (const g of untouched) expect(cleared.gt_claims.find((x) => x.key === g.key)).toBe(g);
    expect(cleared.matrix).toBe(view.matrix);
    expect(withSelection(null, "claim:R1")).toBeNull();
  });
});

describe("selecting in the widget", () => {
  const mount = (view, selected) => {
    const el = document.createElement("div");
    document.body.appendChild(el);
    const model = fakeModel({ predictions: {}, _view: viewTrait(view), selected });
    const cleanup = widget.render({ model, el });
    return { el, model, cleanup };
  };
  const row = (el, key) => el.querySelector(`[data-key="${key}"]`);

  it("draws the selection at once, from the view it has, and sends only the trait", () => {
    const view = fixture("ragchecker_sample");
    const { el, model, cleanup } = mount(view, "");
    const [key, lit] = Object.entries(SELECTIONS.ragchecker_sample).find(([, l]) => Object.keys(l).length > 2);
    row(el, key).click();
    // drawn before any reply: no new _view came, none was asked for
    expect(row(el, key).getAttribute("aria-selected")).toBe("true");
    for (const [k, roles] of Object.entries(lit)) {
      for (const r of roles) expect(row(el, k).classList.contains(`rw-role-${r}`), `${k} ${r}`).toBe(true);
    }
    expect(model.sent).toEqual([{ selected: key }]);
    expect(model.messages).toEqual([]);
    cleanup();
  });

  it("follows a selection made in Python (change:selected) and a new view (change:_view)", () => {
    const view = fixture("harbor_selected");
    const { el, model, cleanup } = mount(view, view.selected);
    expect(row(el, "claim:R3").getAttribute("aria-selected")).toBe("true");
    model.state.selected = "source:D1";
    model.emit("change:selected");
    expect(row(el, "claim:R3").getAttribute("aria-selected")).toBe("false");
    expect(row(el, "source:D1").classList.contains("rw-role-selected")).toBe(true);
    expect(row(el, "claim:R1").classList.contains("rw-role-cites")).toBe(true);
    // a view Python rebuilt for another reason (it was built before the selection came): the trait wins
    model.state._view = viewTrait({ ...view, state: "rebuilt" });
    model.emit("change:_view");
    expect(row(el, "source:D1").getAttribute("aria-selected")).toBe("true");
    expect(row(el, "claim:R3").getAttribute("aria-selected")).toBe("false");
    cleanup();
    expect(Object.values(model.listeners).every((l) => l.length === 0)).toBe(true);
  });
});
