// The incremental renderer: an update changes only what changed; nodes, focus, open sections
// and keys stay where they belong. View states are Python's (fixtures/make_fixtures.py).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { share } from "./src/incremental.js";
import { mountSampleView } from "./src/sample_view.js";

const fixture = (name) => JSON.parse(readFileSync(join(process.cwd(), "fixtures", `${name}.json`), "utf8"));
const text = (node) => node.textContent.replace(/\s+/g, " ").trim();

function mount(view) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  const sent = [];
  const sv = mountSampleView(el, { view, send: (patch) => sent.push(patch) });
  return { el, sent, sv };
}

/** The rows (by data-key) whose subtree a callback's DOM mutations touched. */
async function touchedRows(el, act) {
  const touched = new Set();
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const row = node && node.closest("[data-key], [data-row]"); // a table row, a matrix row
      if (row) touched.add(row.dataset.key || row.dataset.row);
    }
  });
  observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
  act();
  await Promise.resolve();
  observer.disconnect();
  return touched;
}

/** A view with `n` passages and `m` response claims made from the 4 x 11 sample's rows. */
function enlarge(view, n, m) {
  const src = view.sources[0];
  const claim = view.claims[0];
  const sources = Array.from({ length: n }, (_, k) => ({ ...src, key: `source:P${k}`, doc_id: `P${k}`, rank: k + 1, text: `passage ${k}`, roles: [] }));
  const claims = Array.from({ length: m }, (_, j) => ({ ...claim, key: `claim:R${j + 1}`, id: `R${j + 1}`, text: `claim ${j + 1}`, roles: [] }));
  const cells = Int8Array.from({ length: m * n }, (_, i) => (i % 7 === 0 ? 1 : 0));
  const matrix = { columns: sources.map((s) => ({ doc_id: s.doc_id, active: true })), response: claims.map(({ key, id, text }) => ({ key, id, text })), gt: [], cells };
  return { ...view, sources, claims, gt_claims: [], matrix, controls: { ...view.controls, top_k: { value: n, max: n } } };
}

beforeEach(() => document.body.replaceChildren());

describe("structural sharing", () => {
  it("keeps every unchanged part's identity and replaces only what changed", () => {
    const a = fixture("ragchecker_sample");
    const b = fixture("ragchecker_selected");
    const shared = share(a, b);
    expect(shared).toEqual(b);
    const changed = shared.claims.filter((c, i) => c !== a.claims[i]).map((c) => c.key);
    expect(changed).toEqual(b.claims.filter((c, i) => JSON.stringify(c) !== JSON.stringify(a.claims[i])).map((c) => c.key));
    expect(shared.card_groups).toBe(a.card_groups);
    expect(share(new DataView(Int8Array.of(1, 0).buffer), Int8Array.of(1, 0))).toBeInstanceOf(DataView);
  });
});

describe("incremental updates", () => {
  it("a selection re-renders only the rows whose highlight changed; the other nodes survive", async () => {
    const before = fixture("ragchecker_sample");
    const after = fixture("ragchecker_selected");
    const { el, sv } = mount(before);
    const rowNodes = new Map([...el.querySelectorAll("[data-key]")].map((r) => [r, r.dataset.key]));
    const touched = await touchedRows(el, () => sv.update(after));
    const lit = new Set([...after.sources, ...after.claims, ...after.gt_claims]
      .filter((x) => x.roles.length).map((x) => x.key));
    expect(lit.has("claim:R1")).toBe(true);
    expect([...touched].filter((k) => !lit.has(k))).toEqual([]); // only lit rows (and R1's matrix rows) changed
    for (const [node, key] of rowNodes) expect(node.isConnected, key).toBe(true);
    expect(touched.size).toBeLessThan(rowNodes.size / 4);
  });

  it("focus stays on the focused row across an update", () => {
    const { el, sv } = mount(fixture("ragchecker_sample"));
    const row = el.querySelector('[data-key="claim:R2"]');
    row.focus();
    sv.update(fixture("ragchecker_selected"));
    expect(document.activeElement).toBe(row);
  });

  it("the ground-truth answer stays open across an update", () => {
    const { el, sv } = mount(fixture("ragchecker_sample"));
    const details = el.querySelector(".rw-gt-answer");
    details.open = true;
    sv.update(fixture("ragchecker_selected"));
    expect(el.querySelector(".rw-gt-answer")).toBe(details);
    expect(details.open).toBe(true);
  });

  it("switching a passage off re-renders no matrix cell (only its column header)", async () => {
    const view = enlarge(fixture("ragchecker_sample"), 60, 80);
    const { el, sv } = mount(view);
    el.querySelector('[data-testid="show-matrix"]').click(); // 4,800 cells: summarised first
    await Promise.resolve();
    const grid = el.querySelector(".rw-matrix");
    expect(grid.querySelectorAll("tbody td").length).toBe(4800);
    const columns = view.matrix.columns.map((c, k) => (k === 5 ? { ...c, active: false } : c));
    const next = { ...view, matrix: { ...view.matrix, columns, cells: Int8Array.from(view.matrix.cells) } };
    const touched = await touchedRows(grid, () => sv.update(next));
    expect(touched.size).toBe(0);
    expect(grid.querySelectorAll("col")[6].className).toBe("rw-off");
    expect(text(grid.querySelectorAll("thead th")[6])).toBe("6off");
  }, 30_000); // 4,800 cells in jsdom on a busy 2-core machine
});

describe("real size", () => {
  it("60 passages x 80 claims: one top-k control, tables in bounded regions, matrix on demand", () => {
    const view = enlarge(fixture("ragchecker_sample"), 60, 80);
    const { el, sent } = mount(view);
    expect(el.querySelectorAll("[data-preset]").length).toBeLessThan(5);
    expect(el.querySelectorAll(".rw-scroll").length).toBe(2); // passages and claims
    expect(el.querySelector(".rw-matrix")).toBeNull();
    expect(text(el.querySelector('[data-testid="matrix"]'))).toContain("80 response + 0 ground-truth claims × 60 passages");
    const k = el.querySelector('[data-testid="top-k"]');
    k.value = "5";
    k.dispatchEvent(new Event("change"));
    expect(sent.at(-1)).toEqual({ retrieved: ["P0", "P1", "P2", "P3", "P4"] });
  });

  it("which claims fail, and why: each failure kind with its claims, which select on click", () => {
    const { el, sent } = mount(fixture("ragchecker_sample"));
    const panel = el.querySelector('[data-testid="failing"]');
    const view = fixture("ragchecker_sample");
    const hallucinated = view.claims.filter((c) => c.correct === false && !c.faithful).map((c) => c.id);
    const item = panel.querySelector('[data-kind="hallucinated"]');
    expect(text(item)).toContain(`${hallucinated.length} Incorrect, and no retrieved passage entails it`);
    expect([...item.querySelectorAll("button")].map(text)).toEqual(hallucinated);
    item.querySelector("button").click();
    expect(sent.at(-1)).toEqual({ selected: `claim:${hallucinated[0]}` });
    expect(panel.querySelector('[data-kind="missed"]')).not.toBeNull();
  });
});

describe("keyboard", () => {
  it("Space on a passage checkbox toggles the passage, not the row selection", () => {
    const { el, sent } = mount(fixture("ragchecker_sample"));
    const box = el.querySelector('[data-toggle="001"]');
    box.dispatchEvent(new KeyboardEvent("keydown", { key: " ", bubbles: true }));
    box.click(); // the browser's default action of Space on a checkbox
    expect(sent).toEqual([{ retrieved: ["000"].concat(["003"]) }]);
  });

  it("plain keys stay in the widget; shortcuts with a modifier, Escape and Shift+Enter pass", () => {
    const { el } = mount(fixture("ragchecker_sample"));
    const seen = [];
    const listen = (e) => seen.push(e.key);
    document.addEventListener("keydown", listen);
    const row = el.querySelector('[data-key="claim:R1"]');
    for (const init of [{ key: "d" }, { key: "d" }, { key: "ArrowDown" }, { key: "D", shiftKey: true },
      { key: "s", ctrlKey: true }, { key: "Escape" }, { key: "Enter", shiftKey: true }]) {
      row.dispatchEvent(new KeyboardEvent("keydown", { ...init, bubbles: true }));
    }
    document.removeEventListener("keydown", listen);
    expect(seen).toEqual(["s", "Escape", "Enter"]);
    expect(document.activeElement).toBe(el.querySelector('[data-key="claim:R2"]')); // ArrowDown moved
  });
});

describe("hostile text", () => {
  it("bidi controls in IDs are shown, not obeyed; long IDs are cut with the whole ID as a tooltip", () => {
    const { el } = mount(fixture("hostile"));
    const evil = el.querySelector('[data-key="source:\u202eexe.live"] .rw-idtext');
    expect(evil.tagName).toBe("BDI");
    expect(evil.textContent).toBe("⟨U+202E⟩exe.live");
    const long = el.querySelector(`[data-key="source:${"d".repeat(600)}"] .rw-idtext`);
    expect(long.textContent.length).toBeLessThan(30);
    expect(long.getAttribute("title")).toBe("d".repeat(600));
  });

  it("a very long text shows its start and a button that shows it whole", async () => {
    const { el, sent } = mount(fixture("hostile"));
    const q = el.querySelector(".rw-question");
    expect(text(q)).toBe(`Question: Q ${"x".repeat(298)}…Show all 602 characters`);
    q.querySelector("button.rw-whole").click();
    await new Promise((r) => setTimeout(r, 0));
    expect(text(q)).toBe(`Question: Q ${"x".repeat(600)}Show less`);
    const passage = el.querySelector('[data-key="source:\u202eexe.live"] .rw-text');
    passage.querySelector("button.rw-whole").click(); // inside a row: shows the text, selects nothing
    expect(sent).toEqual([]);
  });
});
