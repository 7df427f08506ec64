// The export's snapshot renderer: shared module texts put back in each model's state.
import { describe, expect, it } from "vitest";
import { withShared } from "./src/snapshot.js";

describe("withShared", () => {
  it("replaces each {rw_shared: key} field with the page's text, leaving the rest", () => {
    const shared = { a1: "export default {}", c2: ".x{}" };
    const state = { _esm: { rw_shared: "a1" }, _css: { rw_shared: "c2" }, metric: "m", current: { rw: 1 } };
    expect(withShared(state, shared)).toEqual({ _esm: "export default {}", _css: ".x{}", metric: "m", current: { rw: 1 } });
    expect(state._esm).toEqual({ rw_shared: "a1" }); // the saved state is not changed
  });

  it("says which field names a text the page lacks", () => {
    expect(() => withShared({ _esm: { rw_shared: "zz" } }, {})).toThrow("_esm: shared text zz is not in the page");
  });

  it("passes a state without shared fields through (a page exported before sharing)", () => {
    expect(withShared({ _esm: "code" })).toEqual({ _esm: "code" });
  });
});
