// The state-space heatmap and the export's snapshot renderer, in jsdom, against stand-in models.
import { describe, expect, it } from "vitest";
import space, { cellIndex, step } from "./src/state_space.js";
import { snapshotModel, withBuffers } from "./src/snapshot.js";

const GRID = {
  title: "State space of <b>Test</b>",
  rules: ["Matched", "None"],
  retrievals: ["All", "<img src=x onerror=alert(1)>"],
  answers: ["Full", "Empty"],
  metrics: [{ key: "m", label: "M" }, { key: "n", label: "N" }],
  // rule-major, then retrieval, then answer
  values: { m: [1, null, 0.5, 0, null, null, null, null], n: [0, 0, 0, 0, 1, 1, 1, 1] },
  labels: { m: ["1", "Undef", "0.5", "0", "Undef", "Undef", "Undef", "Undef"], n: ["0", "0", "0", "0", "1", "1", "1", "1"] },
};

function fakeModel(state) {
  const listeners = {};
  const model = {
    state, sent: [],
    get: (k) => model.state[k],
    set: (k, v) => { model.state[k] = v; (listeners[`change:${k}`] || []).forEach((cb) => cb()); },
    save_changes: () => model.sent.push({ ...model.state }),
    on: (evt, cb) => (listeners[evt] ||= []).push(cb),
    off: (evt, cb) => (listeners[evt] = (listeners[evt] || []).filter((x) => x !== cb)),
    listeners,
  };
  return model;
}

function mount(current = { retrieval: "All", answer: "Full", citation: "Matched" }) {
  const model = fakeModel({ _grid: { json: JSON.stringify(GRID), cells: new DataView(new ArrayBuffer(0)) }, metric: "m", current });
  const el = document.createElement("div");
  const cleanup = space.render({ model, el });
  const cell = (r, a, c) => el.querySelector(`[data-cell="${r}|${a}|${c}"]`);
  return { model, el, cleanup, cell };
}

describe("state space", () => {
  it("indexes cells rule-major, then retrieval, then answer", () => {
    expect(cellIndex(GRID, 1, 0, 1)).toBe(5);
    expect(cellIndex(GRID, 0, 1, 0)).toBe(2);
  });

  it("draws every state as a labelled button, Undefined marked, the current state outlined", () => {
    const { el, cell } = mount();
    expect(el.querySelectorAll("button.rw-cell")).toHaveLength(8);
    expect(cell("All", "Full", "Matched").textContent).toBe("1");
    expect(cell("All", "Full", "Matched").getAttribute("aria-current")).toBe("true");
    expect(cell("All", "Empty", "Matched").classList.contains("rw-undefined")).toBe(true);
    expect(cell("All", "Empty", "Matched").getAttribute("aria-label")).toBe("retrieval: All; answer: Empty; citation: Matched; M: Undefined");
    expect(el.querySelectorAll("[aria-current]")).toHaveLength(1);
    expect(el.querySelector(".rw-space-title").textContent).toBe("M over all 8 states");
    expect(el.querySelector("[data-testid=now]").textContent).toBe("Explorer: All · Full · Matched — M 1 · N 0");
  });

  it("shows names as text, never as HTML", () => {
    const { el } = mount();
    expect(el.querySelector("img")).toBeNull();
    expect(el.querySelector("tbody tr:nth-child(2) th").textContent).toBe("<img src=x onerror=alert(1)>");
    expect(el.querySelector(".rw-space").getAttribute("aria-label")).toBe("State space of <b>Test</b>");
  });

  it("a click sets current; a metric change repaints the same buttons", () => {
    const { model, cell } = mount({});
    const button = cell("<img src=x onerror=alert(1)>", "Full", "None");
    button.click();
    expect(model.sent.at(-1).current).toEqual({ retrieval: "<img src=x onerror=alert(1)>", answer: "Full", citation: "None" });
    expect(button.getAttribute("aria-current")).toBe("true");
    model.set("metric", "n");
    expect(cell("<img src=x onerror=alert(1)>", "Full", "None")).toBe(button);
    expect(button.textContent).toBe("1");
    expect(button.classList.contains("rw-undefined")).toBe(false);
    expect(mount({}).el.querySelector("[data-testid=now]").textContent).toContain("passages edited, in no cell");
  });

  it("the picker sets metric; cleanup stops listening", () => {
    const { model, el, cleanup } = mount();
    const picker = el.querySelector("[data-testid=metric]");
    picker.value = "n";
    picker.dispatchEvent(new Event("change"));
    expect(model.sent.at(-1).metric).toBe("n");
    cleanup();
    expect(Object.values(model.listeners).every((l) => l.length === 0)).toBe(true);
  });
});

describe("state space keys", () => {
  it("arrows walk answers and retrievals, and on across panels at the edges", () => {
    expect(step(GRID, 0, "ArrowRight")).toBe(1);
    expect(step(GRID, 1, "ArrowRight")).toBe(cellIndex(GRID, 1, 0, 0));
    expect(step(GRID, cellIndex(GRID, 1, 0, 0), "ArrowLeft")).toBe(1);
    expect(step(GRID, 0, "ArrowLeft")).toBe(-1);
    expect(step(GRID, 0, "ArrowDown")).toBe(2);
    expect(step(GRID, 2, "ArrowDown")).toBe(-1);
    expect(step(GRID, 0, "Enter")).toBe(-1);
  });

  it("the cells are one tab stop, on the Explorer's cell; arrows move focus and the stop", () => {
    const { el, cell } = mount({ retrieval: "All", answer: "Empty", citation: "Matched" });
    document.body.append(el);
    expect([...el.querySelectorAll('.rw-cell[tabindex="0"]')]).toEqual([cell("All", "Empty", "Matched")]);
    const leaked = [];
    document.body.addEventListener("keydown", (e) => leaked.push(e.key));
    cell("All", "Empty", "Matched").focus();
    cell("All", "Empty", "Matched").dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    expect(document.activeElement).toBe(cell("All", "Full", "None"));
    expect(cell("All", "Full", "None").getAttribute("tabindex")).toBe("0");
    expect(leaked).toEqual([]);
    el.remove();
  });
});

describe("snapshot renderer", () => {
  it("puts saved base64 buffers back as DataViews at their paths", () => {
    const state = withBuffers({ a: 1, _view: { json: "{}" }, nested: { b: null } }, [
      { path: ["_view", "cells"], encoding: "base64", data: btoa(String.fromCharCode(1, 255, 3)) },
      { path: ["nested", "b"], encoding: "base64", data: btoa("\x07") },
    ]);
    expect(state.a).toBe(1);
    expect(state._view.json).toBe("{}");
    expect(new Int8Array(state._view.cells.buffer)).toEqual(Int8Array.from([1, -1, 3]));
    expect(state.nested.b.getUint8(0)).toBe(7);
  });

  it("a snapshot model reads the saved state and changes nothing", () => {
    const model = snapshotModel({ x: 1 });
    model.set("x", 2);
    model.save_changes();
    expect(model.get("x")).toBe(1);
  });
});
