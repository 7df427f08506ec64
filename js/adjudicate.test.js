// The adjudication tab (src/dataset/adjudicate.js) in jsdom: the labels the reviewers disagree on
// as text, E / N / C on a row (or its buttons) ask the kernel to record the decision and move to
// the next row, a click or Enter opens the sample; and the trust panel's team part (the
// reviewers' agreement, the chooser of the labels in force). The parts are shaped as
// widgets/dataset/adjudicate.py and trust.py write them (tests/widgets/test_dataset_trust.py).
import { render } from "preact";
import { describe, expect, it } from "vitest";
import { labelName, panel } from "./src/dataset/adjudicate.js";
import { panel as trust } from "./src/dataset/trust.js";
import { html } from "./src/incremental.js";

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const row = (over = {}) => ({ run: "", query_id: "7", kind: "answer2response", claim: 2, doc_id: null,
  claim_text: "<img src=x onerror=alert(1)>", row: 7, labels: { ann: "Entailment", bo: "Neutral" }, adjudicated: null, ...over });
const part = (rows) => ({ reviewers: ["ann", "bo"], rows, total: rows.length, decided: rows.filter((d) => d.adjudicated).length,
  query_ids: [...new Set(rows.map((d) => d.query_id))] });

function mount(Panel, p, reply = { said: "Decided Neutral for answer2response claim 3 of sample 7" }) {
  const asked = [];
  const sets = [];
  const request = (name, msg) => { asked.push({ name, ...msg }); return Promise.resolve(reply); };
  const el = document.createElement("div");
  document.body.appendChild(el);
  render(html`<${Panel} part=${p} request=${request} set=${(x) => sets.push(x)} />`, el);
  return { el, asked, sets, cleanup: () => { render(null, el); el.remove(); } };
}

describe("the adjudication tab", () => {
  it("lists each disagreement: sample, label, claim as text, each reviewer's label, the decision", () => {
    const { el, cleanup } = mount(panel.Panel, part([row(), row({ query_id: "9", kind: "retrieved2answer", claim: 0, doc_id: "d-1", adjudicated: "Contradiction" })]));
    const rows = [...el.querySelectorAll("[data-testid=disagreement]")];
    expect(rows.length).toBe(2);
    const cells = [...rows[0].querySelectorAll("td")].map((td) => td.textContent.trim());
    expect(cells.slice(0, 6)).toEqual(["7", "R3", "<img src=x onerror=alert(1)>", "Entailment", "Neutral", "not yet"]);
    expect(el.querySelector("img")).toBeNull(); // untrusted text stays text
    expect(rows[1].querySelector("[data-testid=decision]").textContent).toBe("Contradiction");
    expect(rows[1].querySelector("[data-testid=decide-C]").getAttribute("aria-pressed")).toBe("true");
    expect(labelName({ kind: "retrieved2answer", claim: 0, doc_id: "d-1" })).toBe("G1 × d-1");
    expect(el.querySelector(".rw-hint").textContent).toContain("2 labels the reviewers disagree on, 1 decided");
    cleanup();
  });

  it("N on a row records the decision and moves to the next row; a button does the same", async () => {
    const { el, asked, cleanup } = mount(panel.Panel, part([row(), row({ query_id: "9" })]));
    const [first, second] = el.querySelectorAll("[data-testid=disagreement]");
    first.focus();
    first.dispatchEvent(new KeyboardEvent("keydown", { key: "n", bubbles: true, cancelable: true }));
    await tick();
    expect(asked).toEqual([{ name: "adjudicate", run: "", query_id: "7", kind: "answer2response", claim: 2, doc_id: null, label: "Neutral" }]);
    expect(document.activeElement).toBe(second);
    expect(el.querySelector("[data-testid=adjudicate-said]").textContent).toBe("Decided Neutral for answer2response claim 3 of sample 7");
    second.querySelector("[data-testid=decide-E]").click();
    await tick();
    expect(asked[1]).toMatchObject({ query_id: "9", label: "Entailment" });
    cleanup();
  });

  it("a held decision key (auto-repeat) decides nothing and does not reach the notebook", async () => {
    const { el, asked, cleanup } = mount(panel.Panel, part([row(), row({ query_id: "9" })]));
    let reached = 0;
    el.addEventListener("keydown", () => { reached += 1; });
    const first = el.querySelector("[data-testid=disagreement]");
    const held = new KeyboardEvent("keydown", { key: "e", repeat: true, bubbles: true, cancelable: true });
    first.dispatchEvent(held);
    await tick();
    expect(asked).toEqual([]);
    expect(held.defaultPrevented).toBe(true);
    expect(reached).toBe(0);
    cleanup();
  });

  it("a decision key does not reach the notebook; ctrl+C stays the browser's", () => {
    const { el, asked, cleanup } = mount(panel.Panel, part([row()]));
    const tr = el.querySelector("[data-testid=disagreement]");
    let reached = 0;
    el.addEventListener("keydown", () => { reached += 1; });
    const c = new KeyboardEvent("keydown", { key: "c", bubbles: true, cancelable: true });
    tr.dispatchEvent(c);
    expect(c.defaultPrevented).toBe(true);
    expect(reached).toBe(0);
    tr.dispatchEvent(new KeyboardEvent("keydown", { key: "c", ctrlKey: true, bubbles: true, cancelable: true }));
    expect(asked.length).toBe(1);
    cleanup();
  });

  it("a click or Enter on a row opens its sample in the drill-down", () => {
    const { el, sets, cleanup } = mount(panel.Panel, part([row()]));
    const tr = el.querySelector("[data-testid=disagreement]");
    tr.querySelector("td").click();
    tr.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    expect(sets).toEqual([{ selected: 7 }, { selected: 7 }]);
    expect(panel.traits).toEqual(["selected", "samples"]);
    expect(panel.shows({ adjudicate: null })).toBe(false);
    cleanup();
  });
});

describe("the adjudication tab's samples", () => {
  it("keeps the disagreements' samples in the table", () => {
    const { el, sets, cleanup } = mount(panel.Panel, part([row(), row({ claim: 4 }), row({ query_id: "9" })]));
    const button = el.querySelector("[data-testid=adjudicate-samples]");
    expect(button.textContent).toBe("Show their 2 samples in the table");
    button.click();
    expect(sets).toEqual([{ samples: { label: "2 samples the reviewers disagree on", query_ids: ["7", "9"] } }]);
    cleanup();
  });
});

describe("the trust panel as a team", () => {
  const table = (rows) => ({ columns: ["kind", "reviewers", "labels", "Cohen's kappa", "Krippendorff's alpha", "reason"], rows });
  const trustPart = (team) => ({ runs: [], problems: [], trust: { n_reviews: 60, kinds: [], team,
    agreement: { columns: ["kind", "reason"], rows: [] }, corrected: {} } });

  it("shows the reviewers' agreement and asks for the chosen labels in force", async () => {
    const team = { use: "adjudicated", reviewers: ["ann", "bo"], runs: { "": {
      table: table([["answer2response", "ann, bo", 30, "0.52", "0.5", ""]]),
      pairs: table([["answer2response", "ann · bo", 30, "0.52", null, ""]]) } } };
    const { el, asked, cleanup } = mount(trust.Panel, trustPart(team));
    const agreement = el.querySelector("[data-testid=reviewer-agreement]");
    expect(agreement.textContent).toContain("Cohen's kappa for two reviewers, Krippendorff's alpha for more");
    expect([...agreement.querySelectorAll("tbody td")].map((td) => td.textContent)).toEqual(["answer2response", "ann, bo", "30", "0.52", "0.5", ""]);
    expect(el.querySelector("[data-testid=reviewer-pairs]")).toBeNull(); // one pair: the table says it
    const use = el.querySelector("[data-testid=use]");
    expect([...use.options].map((o) => o.value)).toEqual(["adjudicated", "ann", "bo"]);
    use.value = "bo";
    use.dispatchEvent(new Event("change", { bubbles: true }));
    await tick();
    expect(asked).toEqual([{ name: "trust_use", use: "bo" }]);
    expect(el.querySelector("[data-testid=trust] .rw-hint").textContent).toContain("labels in force: adjudicated, else the latest review");
    cleanup();
  });

  it("has no team part with one reviewer", () => {
    const { el, cleanup } = mount(trust.Panel, trustPart(null));
    expect(el.querySelector("[data-testid=team]")).toBeNull();
    cleanup();
  });
});
