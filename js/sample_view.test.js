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

  it("a large matrix waits behind its button, but a snapshot (inert, no kernel) draws it open", async () => {
    const view = enlarge(fixture("ragchecker_sample"), 60, 80);
    const live = mount(view).el;
    expect(live.querySelector('[data-testid="show-matrix"]')).not.toBeNull();
    expect(live.querySelector(".rw-matrix")).toBeNull();
    const el = document.createElement("div");
    el.className = "rw-snapshot-view"; // as the export's snapshot renderer makes it, before render
    el.inert = true;
    document.body.appendChild(el);
    mountSampleView(el, { view, send: () => {} });
    await new Promise((resolve) => setTimeout(resolve, 20)); // the open matrix is drawn on the next render
    expect(el.querySelector('[data-testid="show-matrix"]')).toBeNull();
    expect(el.querySelectorAll(".rw-matrix tbody tr").length).toBeGreaterThanOrEqual(80);
    expect(el.querySelector(".rw-matrix tbody tr").querySelectorAll("td").length).toBe(60);
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

/** `view` with claim R5 entailed by `n` passages (P0, P3, ...) and contradicted by P1, selected. */
function supportedBy(view, n) {
  const docs = Array.from({ length: n }, (_, k) => `P${k * 3}`);
  const claims = view.claims.map((c) => (c.id === "R5"
    ? { ...c, supported_by: docs, contradicted_by: ["P1"], faithful: true, roles: ["selected"] } : c));
  const sources = view.sources.map((s) => ({ ...s, text: `the text of ${s.doc_id}`,
    roles: docs.includes(s.doc_id) ? ["supports"] : s.doc_id === "P1" ? ["contradicts"] : [] }));
  return { ...view, claims, sources, selected: "claim:R5" };
}

describe("the compact sample view", () => {
  it("the metrics are one strip: label, value, fraction; Undefined and not computable in words", () => {
    const view = fixture("ragchecker_sample");
    const { el } = mount(view);
    const cards = view.card_groups.flatMap((g) => g.cards);
    const items = [...el.querySelectorAll(".rw-strip-item")];
    expect(items.map((b) => b.dataset.metric)).toEqual(cards.map((c) => c.name));
    expect(el.querySelector("article.rw-card")).toBeNull(); // no full card until asked
    for (const c of cards) {
      const item = el.querySelector(`.rw-strip-item[data-metric="${c.name}"]`);
      expect(item.tagName).toBe("BUTTON");
      expect(text(item.querySelector(".rw-strip-label"))).toContain(c.label);
      expect(text(item.querySelector('[data-testid="value"]'))).toBe(c.shown);
      expect(text(item.querySelector('[data-testid="fraction"]'))).toBe(c.fraction);
      expect(item.classList.contains("rw-undefined")).toBe(c.value === null);
    }
    const undef = cards.find((c) => c.value === null);
    if (undef) expect(text(el.querySelector(`[data-metric="${undef.name}"] [data-testid="value"]`))).toBe("Undefined");
    const missing = el.querySelector('[data-testid="not-computable"]');
    expect(text(missing.querySelector("summary"))).toBe(
      `⊘ Not computable for this data (${view.not_computable.length}): ${view.not_computable.map((m) => m.label).join(", ")}`);
  });

  it("a strip item opens the full card (definition, fraction, counted items); a second click or Esc closes it", async () => {
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const view = fixture("ragchecker_sample");
    const { el } = mount(view);
    const c = view.card_groups.flatMap((g) => g.cards).find((x) => x.denominator_items.length);
    const item = el.querySelector(`.rw-strip-item[data-metric="${c.name}"]`);
    item.click();
    await tick();
    const detail = el.querySelector('[data-testid="card-detail"]');
    expect(item.getAttribute("aria-expanded")).toBe("true");
    expect(text(detail.querySelector(".rw-card-def"))).toBe(c.definition);
    expect(text(detail.querySelector(".rw-card-fraction"))).toBe(c.fraction);
    expect(text(detail.querySelector('[data-testid="items"]'))).toContain(`out of: ${c.denominator_items.join(", ")}`);
    item.click();
    await tick();
    expect(el.querySelector('[data-testid="card-detail"]')).toBeNull();
    item.click();
    await tick();
    el.querySelector('[data-testid="card-detail"] .rw-card').dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await tick();
    expect(el.querySelector('[data-testid="card-detail"]')).toBeNull();
    expect(document.activeElement).toBe(item); // focus back on the strip item
  });

  it("a reviewed value reads judge's → reviewer's in the strip", () => {
    const view = fixture("ragchecker_reviewed");
    const el = document.createElement("div");
    document.body.appendChild(el);
    mountSampleView(el, { view, send: () => {}, review: () => {} });
    const c = view.card_groups.flatMap((g) => g.cards).find((x) => x.judge_shown);
    const item = el.querySelector(`.rw-strip-item[data-metric="${c.name}"]`);
    expect(text(item.querySelector(".rw-strip-value"))).toBe(`judge's labels: ${c.judge_shown} → ${c.shown}`);
    expect(item.querySelector("s").textContent).toContain(c.judge_shown);
  });

  it("predicting keeps the full cards with their prediction boxes", () => {
    const view = { ...fixture("ragchecker_sample"), predict: true };
    const { el } = mount(view);
    expect(el.querySelector(".rw-strip")).toBeNull();
    expect(el.querySelectorAll("article.rw-card .rw-predict-input").length).toBe(view.card_groups.flatMap((g) => g.cards).length);
  });

  it("which claims fail comes before the claims; a selected claim shows all 10 supporting passages' texts right under it", () => {
    const view = supportedBy(enlarge(fixture("ragchecker_sample"), 60, 80), 10);
    const { el } = mount(view);
    const order = [...el.querySelectorAll("[data-testid]")].map((n) => n.dataset.testid).filter((t) => ["cards", "failing", "claims", "sources"].includes(t));
    expect(order).toEqual(["cards", "failing", "claims", "sources"]);
    const row = el.querySelector('[data-key="claim:R5"]');
    const evidence = row.nextElementSibling;
    expect(evidence.dataset.evidence).toBe("claim:R5");
    const items = [...evidence.querySelectorAll(".rw-evidence-item")];
    expect(items.map((li) => li.dataset.doc)).toEqual([...view.claims[4].supported_by, "P1"]);
    for (const li of items.slice(0, 10)) {
      expect(text(li.querySelector(".rw-ev-how"))).toBe("● entails");
      expect(text(li.querySelector('[data-testid="evidence-text"]'))).toBe(`the text of ${li.dataset.doc}`);
    }
    expect(text(items[10].querySelector(".rw-ev-how"))).toBe("⊗ contradicts");
    expect(text(evidence.querySelector(".rw-evidence-head"))).toBe("Passages behind R5 (10 entail it, 1 contradicts it)");
    expect(el.querySelectorAll(".rw-evidence-row").length).toBe(1); // only under the selected claim
  });

  it("every ID is a link (a button) that selects it, without toggling the row it sits in", () => {
    const view = supportedBy(enlarge(fixture("ragchecker_sample"), 6, 8), 2);
    const claims = view.claims.map((c) => (c.id === "R2" ? { ...c, supported_by: ["P3"], contradicted_by: ["P1"], faithful: true } : c));
    const { el, sent } = mount({ ...view, claims, sources: view.sources.map((s, k) => ({ ...s, entails_response: k === 3 ? ["R5", "R2"] : [] })) });
    const link = (scope, target) => el.querySelector(`${scope} button.rw-idlink[data-select="${target}"]`);
    const cases = [
      ['[data-key="claim:R2"]', "source:P3"], // Supported by
      ['[data-key="claim:R2"]', "source:P1"], // contradicted by
      ['[data-evidence="claim:R5"]', "source:P0"], // the passages under the claim
      ['[data-key="source:P3"]', "claim:R2"], // Entails claims
    ];
    for (const [scope, target] of cases) {
      const a = link(scope, target);
      expect(a, `${scope} ${target}`).not.toBeNull();
      expect(a.tabIndex).toBe(0);
      a.click();
      expect(sent.at(-1)).toEqual({ selected: target });
    }
    expect(sent.length).toBe(cases.length); // the rows around the links were not clicked
    // the selected claim's own cell gives the counts: its passages are listed under it
    expect(text(el.querySelector('[data-key="claim:R5"] .rw-below'))).toBe("2 passages; ⊗ 1 contradicts (listed below ↓)");
    el.querySelector('[data-testid="show-matrix"]')?.click();
    const head = el.querySelector('.rw-matrix thead button.rw-idlink[data-select="source:P2"]');
    expect(text(head)).toBe("3"); // the rank, the doc_id as its title
    head.click();
    expect(sent.at(-1)).toEqual({ selected: "source:P2" });
    el.querySelector('.rw-matrix tbody button.rw-idlink[data-select="claim:R2"]').click();
    expect(sent.at(-1)).toEqual({ selected: "claim:R2" });
  });

  it("without passage labels no claim is unfaithful or filed under hallucination / self-knowledge", () => {
    const base = fixture("ragchecker_sample");
    const claims = base.claims.map((c) => ({ ...c, faithful: null, supported_by: [], contradicted_by: [] }));
    const { el } = mount({ ...base, claims, selected: "claim:R1" });
    const failing = el.querySelector('[data-testid="failing"]');
    for (const kind of ["hallucinated", "misled", "unsupported", "unfaithful"]) expect(failing.querySelector(`[data-kind="${kind}"]`)).toBeNull();
    const incorrect = claims.filter((c) => c.correct === false).map((c) => c.id);
    expect([...failing.querySelectorAll('[data-kind="incorrect"] button')].map(text)).toEqual(incorrect);
    const table = el.querySelector('[data-testid="claims"]');
    expect(table.textContent).not.toContain("Unfaithful");
    expect(table.textContent).not.toContain("✓ Faithful");
    expect(text(table.querySelector('[data-key="claim:R1"]'))).toContain("⊘ no passage labels");
    expect(text(el.querySelector('[data-evidence="claim:R1"] .rw-evidence-head'))).toBe("Passages behind R1: none known (the data has no passage labels)");
  });
});

describe("the compact sample view's keys", () => {
  it("arrow keys move from a selected claim to the next claim, past its passages", () => {
    const view = supportedBy(enlarge(fixture("ragchecker_sample"), 6, 8), 2);
    const { el } = mount(view);
    const row = el.querySelector('[data-key="claim:R5"]');
    row.focus();
    row.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true }));
    expect(document.activeElement.dataset.key).toBe("claim:R6");
    document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true }));
    expect(document.activeElement.dataset.key).toBe("claim:R5");
  });
});

describe("the arrows at the edge of the claims", () => {
  it("stay on the first / last claim row (no other sample opens); j / k still reach the holder", () => {
    const view = supportedBy(enlarge(fixture("ragchecker_sample"), 6, 8), 2);
    const el = document.createElement("div");
    document.body.appendChild(el);
    const holder = [];
    mountSampleView(el, { view, send: () => {}, keys: (e) => holder.push(e.key) });
    const press = (k) => document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
    el.querySelector('[data-key="claim:R8"]').focus();
    press("ArrowDown");
    expect(document.activeElement.dataset.key).toBe("claim:R8");
    el.querySelector('[data-key="claim:R1"]').focus();
    press("ArrowUp");
    expect(document.activeElement.dataset.key).toBe("claim:R1");
    expect(holder).toEqual([]);
    press("j");
    press("k");
    expect(holder).toEqual(["j", "k"]);
  });
});

describe("long ID lists", () => {
  it("show three links, then '+ n more', which selects the claim (its passages then listed under it)", () => {
    const view = enlarge(fixture("ragchecker_sample"), 8, 4);
    const claims = view.claims.map((c) => (c.id === "R2" ? { ...c, supported_by: ["P0", "P1", "P2", "P3", "P4"], faithful: true } : c));
    const { el, sent } = mount({ ...view, claims });
    const cell = el.querySelector('[data-key="claim:R2"] .rw-list');
    expect([...cell.querySelectorAll("button.rw-idlink")].map(text)).toEqual(["P0", "P1", "P2", "+ 2 more"]);
    cell.querySelector(".rw-idlink-more").click();
    expect(sent).toEqual([{ selected: "claim:R2" }]);
  });
});

describe("a sample without a question", () => {
  it("says so in the header instead of leaving it out", () => {
    const view = { ...fixture("ragchecker_sample"), question: "" };
    const el = document.createElement("div");
    mountSampleView(el, { view, send: () => {} });
    expect(el.querySelector(".rw-question").textContent).toBe("Question: none in this sample");
    const asked = document.createElement("div");
    mountSampleView(asked, { view: fixture("ragchecker_sample"), send: () => {} });
    expect(asked.querySelector(".rw-question").textContent).not.toContain("none in this sample");
  });
});

describe("a sample judged several times", () => {
  it("lists each label whose repeats disagree with its distribution, and says when they all agree", () => {
    const view = fixture("ragchecker_sample");
    const claim = view.claims[0];
    const doc = view.sources[0].doc_id;
    const { el } = mount({ ...view, repeats: { n: 3, labels: [
      { kind: "retrieved2response", side: "response", claim: 0, doc_id: doc, counts: { Entailment: 2, Neutral: 1 }, said: "2 of 3 Entailment, 1 Neutral" },
      { kind: "answer2response", side: "response", claim: 0, doc_id: null, counts: { Neutral: 2, Entailment: 1 }, said: "2 of 3 Neutral, 1 Entailment" }] } });
    const shown = el.querySelector("[data-testid=repeated-labels]");
    expect(text(shown.querySelector("summary"))).toBe("2 labels the judge gave differently across its 3 repeats");
    const items = [...shown.querySelectorAll("li")].map(text);
    expect(items[0]).toBe(`${claim.id} “${claim.text}” × ${doc}: 2 of 3 Entailment, 1 Neutral`);
    expect(items[1]).toBe(`${claim.id} “${claim.text}” against the reference answer: 2 of 3 Neutral, 1 Entailment`);
    const steady = mount({ ...view, repeats: { n: 3, labels: [] } });
    expect(text(steady.el.querySelector("[data-testid=repeated-labels]"))).toBe("The judge's 3 repeats agree on every label of this sample.");
    expect(mount(view).el.querySelector("[data-testid=repeated-labels]")).toBeNull();
  });
});
