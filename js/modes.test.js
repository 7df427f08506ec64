// The failure-modes and mode-checks panels (src/dataset/modes.js, checks.js) in jsdom: the modes
// table (tagged / read, the rate with its interval, the share of the run or "no design"), the
// modes × runs grid, a mode's click keeping its samples, rename / merge / split and proposals as
// requests, a check's words and examples opening their row. Notes and tags are untrusted text: drawn
// as text. Parts are shaped as widgets/dataset/modes.py and checks.py write them
// (tests/widgets/test_dataset_modes.py checks those).
import { render } from "preact";
import { describe, expect, it, vi } from "vitest";
import { panel as checksPanel } from "./src/dataset/checks.js";
import { panel, pct, rateText } from "./src/dataset/modes.js";
import { html } from "./src/incremental.js";

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const HOSTILE = "<img src=x onerror=alert(1)>";
const cell = (tagged, read, rate, lo, hi, run = [null, null, null]) => ({ tagged, read, rate, lo, hi,
  population_rate: run[0], population_lo: run[1], population_hi: run[2], run_rate: run[0], run_lo: run[1], run_hi: run[2] });
const part = (over = {}) => ({
  runs: ["run"], several: false, stale: false, read: { run: 20 }, untagged: 8, basis: { run: "no design: rates among the samples read only" },
  files: ["notes.jsonl"], judge: false, proposal_run: "", proposed: "", proposals: [],
  modes: [{ mode: "date wrong", tagged: 7, runs: { run: cell(7, 20, 0.35, 0.1539, 0.5922) } },
    { mode: HOSTILE, tagged: 2, runs: { run: cell(2, 20, 0.1, 0.0123, 0.317, [0.12, 0.02, 0.3]) } }],
  ...over,
});

function mount(p, reply = {}, which = panel) {
  const asked = [];
  const sets = [];
  const request = (name, msg) => { asked.push({ type: name, ...msg }); return Promise.resolve(typeof reply === "function" ? reply(name) : reply); };
  const el = document.createElement("div");
  document.body.appendChild(el);
  const draw = (q) => render(html`<${which.Panel} part=${q} request=${request} set=${(x) => sets.push(x)} />`, el);
  draw(p);
  return { el, asked, sets, draw, cleanup: () => { render(null, el); el.remove(); } };
}

const rows = (el) => [...el.querySelectorAll("[data-testid=modes-table] tbody tr")];
const type = (input, value) => { input.value = value; input.dispatchEvent(new Event("input", { bubbles: true })); };
const key = (target, k) => target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));

describe("the failure modes", () => {
  it("says a rate with its interval, and Undefined without one", () => {
    expect(rateText(0.35, 0.1539, 0.5922)).toBe("35% (15%–59%)");
    expect(rateText(null, null, null)).toBe("Undefined");
    expect(rateText(0.1429, 0.0036, 0.9964)).toBe("14% (<1%–>99%)"); // never a rounded 0% or 100% bound
    expect(rateText(0, 0, 0.0975)).toBe("0% (0%–10%)");
  });

  it("draws each mode's counts, rate and share of the run, a tag as text", () => {
    const { el, cleanup } = mount(part());
    const r = rows(el);
    expect(r.length).toBe(2);
    expect(r[0].querySelector("[data-testid=mode-count]").textContent.replace(/\s+/g, " ").trim()).toBe("7 / 20");
    expect(r[0].querySelector("[data-testid=mode-rate]").textContent).toBe("35% (15%–59%)");
    expect(r[0].querySelector("[data-testid=mode-share]").textContent).toBe("no design");
    expect(r[1].querySelector("[data-testid=mode-share]").textContent).toBe("12% (2%–30%)");
    expect(r[1].querySelector("[data-testid=mode-pick]").textContent).toBe(HOSTILE);
    expect(el.querySelector("img")).toBe(null);
    expect(el.querySelector("[data-testid=modes-line]").textContent).toContain("20 samples read · 2 modes · 8 untagged notes · edits saved to notes.jsonl");
    expect(el.querySelector("[data-testid=modes-basis]").textContent).toBe("no design: rates among the samples read only");
    cleanup();
  });

  it("keeps a mode's samples as the explorer's samples", async () => {
    const { el, asked, sets, cleanup } = mount(part(), { label: "mode: date wrong (7 samples)", query_ids: ["0", "1"], run: "" });
    rows(el)[0].querySelector("[data-testid=mode-pick]").click();
    await tick();
    expect(asked).toEqual([{ type: "modes_pick", mode: "date wrong", run: "" }]);
    expect(sets).toEqual([{ samples: { label: "mode: date wrong (7 samples)", query_ids: ["0", "1"] } }]);
    cleanup();
  });

  it("renames inline, merges the ticked modes and splits off ticked notes", async () => {
    const notes = { notes: [{ run: "run", query_id: "3", claim: null, note: HOSTILE, tags: ["date wrong"] },
      { run: "run", query_id: "10", claim: 0, note: "", tags: ["date wrong"] }], more: 0 };
    const { el, asked, cleanup } = mount(part(), (name) => (name === "modes_notes" ? notes : {}));
    rows(el)[0].querySelector("[data-testid=mode-edit]").click();
    await tick();
    const input = el.querySelector("[data-testid=mode-rename]");
    type(input, "wrong date");
    key(input, "Enter");
    await tick();
    expect(asked.pop()).toEqual({ type: "modes_rename", mode: "date wrong", new: "wrong date" });
    for (const r of rows(el)) r.querySelector("input[type=checkbox]").click();
    await tick();
    type(el.querySelector("[data-testid=merge-name]"), "facts");
    await tick();
    el.querySelector("[data-testid=merge]").click();
    expect(asked.pop()).toEqual({ type: "modes_merge", modes: ["date wrong", HOSTILE], new: "facts" });
    rows(el)[0].querySelector("[data-testid=mode-split-open]").click();
    await tick(30);
    const split = el.querySelector("[data-testid=mode-split]");
    expect(split.textContent).toContain(HOSTILE);
    expect(split.textContent).toContain("10 · claim 1");
    split.querySelectorAll("input[type=checkbox]")[1].click();
    type(split.querySelector("[data-testid=split-name]"), "date");
    await tick();
    [...split.querySelectorAll("button")].find((b) => b.textContent.startsWith("Split off")).click();
    expect(asked.pop()).toEqual({ type: "modes_split", mode: "date wrong", new: "date", keys: [["run", "10", 0]] });
    cleanup();
  });

  it("lists proposals to accept under an edited name or reject; the judge's button only with a judge", async () => {
    const proposals = [{ name: "wrong / year", n: 3, why: "3 notes share 'wrong', 'year'", source: "text", terms: ["wrong"],
      notes: [{ run: "run", query_id: "12", claim: null, note: "the year is wrong", tags: [] }] }];
    const { el, asked, draw, cleanup } = mount(part({ proposals, proposed: "1 proposal by text similarity over 8 untagged notes" }));
    expect(el.querySelector("[data-testid=propose-judge]")).toBe(null);
    const p = el.querySelector("[data-testid=proposal]");
    expect(p.textContent).toContain("the year is wrong");
    type(p.querySelector("[data-testid=proposal-name]"), "year wrong");
    await tick();
    p.querySelector("[data-testid=proposal-accept]").click();
    expect(asked.pop()).toEqual({ type: "modes_accept", index: 0, name: "year wrong" });
    p.querySelector("[data-testid=proposal-reject]").click();
    expect(asked.pop()).toEqual({ type: "modes_reject", index: 0 });
    draw(part({ judge: true }));
    el.querySelector("[data-testid=propose-judge]").click();
    expect(asked.pop()).toEqual({ type: "modes_propose", judge: true });
    cleanup();
  });

  it("draws a modes × runs grid with several runs, a cell picking that run's samples", async () => {
    const grid = part({ runs: ["a", "b"], several: true, read: { a: 20, b: 2 },
      modes: [{ mode: "date wrong", tagged: 8, runs: { a: cell(7, 20, 0.35, 0.15, 0.59), b: cell(1, 2, 0.5, 0.01, 0.99) } }] });
    const { el, asked, cleanup } = mount(grid, { label: "x", query_ids: ["0"], run: "b" });
    const cells = [...el.querySelectorAll(".rw-ds-modes-cell")];
    expect(cells.map((c) => c.textContent.trim())).toEqual(["7/20 · 35% (15%–59%)", "1/2 · 50% (1%–99%)"]);
    cells[1].querySelector("button").click();
    await tick();
    expect(asked).toEqual([{ type: "modes_pick", mode: "date wrong", run: "b" }]);
    cleanup();
  });

  it("asks for a stale table at once when the tab opens, after a pause while notes come in", async () => {
    const { el, asked, draw, cleanup } = mount(part({ stale: true, modes: [] }));
    expect(el.querySelector("[data-testid=modes-stale]").textContent).toBe("Counting…");
    await vi.waitFor(() => expect(asked).toEqual([{ type: "modes_table" }]), { timeout: 1000 }); // well before PAUSE
    draw(part({ stale: true })); // a note came: the old figures stay, marked
    expect(el.querySelector("[data-testid=modes-stale]").textContent).toBe("Updating after the latest notes…");
    expect(rows(el).length).toBe(2);
    await tick(50);
    expect(asked.length).toBe(1); // not before the pause
    cleanup();
  });
});

describe("a mode's check", () => {
  const signals = [{ name: "unsupported_claim", label: "Unsupported claim", description: "a response claim entailed by no retrieved passage" }];
  const check = { mode: "date wrong", run: "run", expression: "faithfulness < 0.8", signal: "", label: "",
    words: "catches 1 of 7 tagged (14%, 0%–58%) · right on 1 of 7 flagged", precision: 0.1429, precision_lo: 0.0036,
    precision_hi: 0.5787, recall: 0.1429, recall_lo: 0.0036, recall_hi: 0.5787, tp: 1, fp: 6, fn: 6, tn: 7, flagged: 17,
    run_size: 40, examples: { caught: ["3"], false_alarm: [HOSTILE], missed: [] } };

  it("asks for a signal's check and opens an example's row", async () => {
    const { el, asked, sets, draw, cleanup } = mount({ run: "", modes: ["date wrong"], signals, check: null }, { row: 7 }, checksPanel);
    el.querySelector("[data-testid=check-kind-signal]").click();
    await tick();
    el.querySelector("[data-testid=check-run]").click();
    expect(asked.pop()).toEqual({ type: "mode_check", mode: "date wrong", run: "", signal: "unsupported_claim" });
    draw({ run: "", modes: ["date wrong"], signals, check });
    await tick();
    expect(el.querySelector("[data-testid=check-words]").textContent).toBe(check.words);
    expect(el.querySelector("[data-testid=check-precision]").textContent).toBe("14% (<1%–58%)");
    const examples = [...el.querySelectorAll("[data-testid=check-example]")];
    expect(examples.map((b) => b.textContent)).toEqual(["3", HOSTILE]);
    expect(el.querySelector("img")).toBe(null);
    examples[0].click();
    await tick();
    expect(asked.pop()).toEqual({ type: "mode_row", query_id: "3", run: "run" });
    expect(sets).toEqual([{ selected: 7 }]);
    type(el.querySelector("[data-testid=slice-name]"), "low faithfulness");
    await tick();
    el.querySelector("[data-testid=slice-save]").click();
    expect(asked.pop()).toEqual({ type: "mode_slice", name: "low faithfulness" });
    cleanup();
  });

  it("says a check is stale once the notes changed, and checks again with the same rule", async () => {
    const { el, asked, draw, cleanup } = mount({ run: "", modes: ["date wrong"], signals, check, stale: false }, {}, checksPanel);
    expect(el.querySelector("[data-testid=check-stale]")).toBe(null);
    draw({ run: "", modes: ["date wrong"], signals, check, stale: true });
    await tick();
    expect(el.querySelector("[data-testid=check-stale]").textContent).toContain("The notes changed since this check");
    el.querySelector("[data-testid=check-again]").click();
    expect(asked.pop()).toEqual({ type: "mode_check", mode: "date wrong", run: "run", expression: "faithfulness < 0.8" });
    draw({ run: "", modes: ["wrong date"], signals, check, stale: true });  // renamed: nothing to check again
    await tick();
    expect(el.querySelector("[data-testid=check-stale]").textContent).toContain("no note carries date wrong now");
    expect(el.querySelector("[data-testid=check-again]")).toBe(null);
    cleanup();
  });
});

describe("pct", () => {
  it("writes a share as ragwidgets.analysis.failure_modes.percent does (tests/widgets/test_mode_report.py's cases)", () => {
    const cases = { 0: "0%", 0.004: "<1%", 0.05: "5%", 0.123: "12%", 0.994: "99%", 0.995: ">99%", 0.99996: ">99%", 1: "100%" };
    for (const [x, shown] of Object.entries(cases)) expect(pct(Number(x))).toBe(shown);
  });
});
