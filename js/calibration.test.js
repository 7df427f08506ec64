// The checker calibration tab (src/dataset/calibration.js) in jsdom: the agreement before / after /
// change with their intervals, the threshold, the advice, the reliability diagram's points (one per
// bin and side) and their bins' tables, the method's refit and Fit again as requests, Undefined
// said as such. The part is shaped as widgets/dataset/calibration.py writes it
// (tests/widgets/test_dataset_calibration.py checks that); the checker's repr names a folder the
// user chose, so it is drawn as text.
import { render } from "preact";
import { describe, expect, it } from "vitest";
import { panel } from "./src/dataset/calibration.js";
import { html } from "./src/incremental.js";

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const HOSTILE = "LocalChecker('/models/<img src=x onerror=alert(1)>', binary)";
const bins = (rows) => ({ columns: ["bin_low", "bin_high", "n", "predicted", "observed", "observed_low", "observed_high"], rows, ece: "0.28", brier: "0.23" });
const part = (over = {}) => ({
  method: "isotonic", methods: ["threshold", "platt", "isotonic"], run: "", checker: HOSTILE, n: 24, entailed: 12, folds: 5,
  threshold: "0.371", reason: "", checks_left_out: 0,
  before: { value: "0.542", low: "0.328", high: "0.744" }, after: { value: "0.958", low: "0.672", high: "1.000" },
  change: { value: "0.417", low: "0.081", high: "0.630" },
  diagrams: { before: bins([[0.2, 0.3, 12, 0.27, 0, 0, 0.26], [0.4, 0.5, 6, 0.45, 1, 0.54, 1]]),
    after: bins([[0, 0.1, 12, 0, 0, 0, 0.26], [0.9, 1, 12, 1, 1, 0.74, 1]]) },
  advice: "The fitted threshold agrees with the reviewer more often than the checker's own rule: label the run again with checker.calibrated(explorer.calibration) (threshold 0.371).",
  stale: false, ...over,
});

function mount(p) {
  const asked = [];
  const request = (name, msg) => { asked.push({ type: name, ...msg }); return Promise.resolve({}); };
  const el = document.createElement("div");
  document.body.appendChild(el);
  render(html`<${panel.Panel} part=${p} request=${request} set=${() => null} />`, el);
  return { el, asked, cleanup: () => { render(null, el); el.remove(); } };
}

const text = (el, id) => el.querySelector(`[data-testid=${id}]`).textContent.replace(/\s+/g, " ").trim();

describe("the checker calibration tab", () => {
  it("shows the agreement before and after with intervals, the threshold and the advice", () => {
    const { el, cleanup } = mount(part());
    expect(text(el, "calibration-before")).toBe("0.542 (0.328 to 0.744)");
    expect(text(el, "calibration-after")).toBe("0.958 (0.672 to 1.000)");
    expect(text(el, "calibration-change")).toBe("0.417 (0.081 to 0.630)");
    expect(text(el, "calibration-threshold")).toBe("0.371");
    expect(text(el, "calibration-table")).toContain("on 24 reviewed checks (12 entailed)");
    expect(text(el, "calibration-table")).toContain("after (isotonic, 5-fold cross-validated)");
    expect(text(el, "calibration-advice")).toContain("checker.calibrated(explorer.calibration)");
    expect(text(el, "calibration-checker")).toBe(HOSTILE);
    expect(el.querySelector("img")).toBe(null);
    cleanup();
  });

  it("draws one point per bin and side, its whisker the interval, and the bins as tables", () => {
    const { el, cleanup } = mount(part());
    const svg = el.querySelector("[data-testid=calibration-diagram]");
    expect(svg.querySelectorAll("[data-testid=calibration-point-before]").length).toBe(2);
    expect(svg.querySelectorAll("[data-testid=calibration-point-after]").length).toBe(2);
    const [first] = svg.querySelectorAll("[data-testid=calibration-point-before]");
    const line = first.querySelector("line");
    expect(Number(line.getAttribute("y1"))).toBeGreaterThan(Number(line.getAttribute("y2"))); // low drawn below high
    expect(first.querySelector("title").textContent).toBe("before: 12 checks, predicted 0.270, observed 0.000 (0.000 to 0.260)");
    const rows = [...el.querySelectorAll("[data-testid=calibration-bins-after] tbody tr")].map((r) => [...r.cells].map((c) => c.textContent).join(" "));
    expect(rows).toEqual(["0.0–0.1 12 0.000 0.000 0.000 to 0.260", "0.9–1.0 12 1.000 1.000 0.740 to 1.000"]);
    cleanup();
  });

  it("refits by the chosen method, and a stale fit is fitted again by its own", async () => {
    const { el, asked, cleanup } = mount(part({ stale: true, method: "platt" }));
    const select = el.querySelector("[data-testid=calibration-method]");
    select.value = "threshold";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    await tick();
    el.querySelector("[data-testid=calibration-fit]").click();
    el.querySelector("[data-testid=calibration-again]").click();
    await tick();
    expect(asked).toEqual([{ type: "calibrate", method: "threshold" }, { type: "calibrate", method: "platt" }]);
    expect(text(el, "calibration-stale")).toContain("Reviews changed since this fit");
    cleanup();
  });

  it("says Undefined, and that a threshold has no after diagram", () => {
    const undefinedShare = { value: null, low: null, high: null };
    const { el, cleanup } = mount(part({ threshold: null, reason: "4 reviewed check(s), fewer than 10", after: undefinedShare,
      change: undefinedShare, diagrams: { before: bins([[0.2, 0.3, 4, 0.27, 0.5, 0.07, 0.93]]) }, folds: 0,
      advice: "Undefined: 4 reviewed check(s), fewer than 10. Review more checks (both labels) and fit again." }));
    expect(text(el, "calibration-after")).toBe("Undefined");
    expect(text(el, "calibration-threshold")).toBe("Undefined");
    expect(text(el, "calibration-advice")).toMatch(/^Undefined: 4 reviewed/);
    expect(el.querySelectorAll("[data-testid=calibration-point-after]").length).toBe(0);
    cleanup();
    const { el: t, cleanup: done } = mount(part({ method: "threshold", diagrams: { before: part().diagrams.before } }));
    expect(t.textContent).toContain("A threshold gives labels, not probabilities: no after diagram.");
    done();
  });
});
