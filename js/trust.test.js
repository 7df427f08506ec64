// The trust panel (src/dataset/trust.js) in jsdom: per label kind the confusion matrix (count and
// row rate per cell, Undefined said, the 2-class toggle), kappa beside the base rate, the per-class
// table; a cell asks the kernel for its samples and sets the explorer's `samples` (and the run,
// for a run's cell); the toolbar's chip clears them. The kind's part is shaped as
// widgets/dataset/trust.py's _kind_view writes it (tests/widgets/test_dataset_trust.py checks that).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { render } from "preact";
import { describe, expect, it, vi } from "vitest";
import { PAUSE } from "./src/dataset/common.js";
import { panel } from "./src/dataset/trust.js";
import widget from "./src/dataset.js";
import { fakeModel, viewTrait } from "./fake_model.js";
import { html } from "./src/incremental.js";

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const perClass = (labels) => ({ columns: ["label", "reviewer n", "judge n", "precision", "recall", "F1", "reason"],
  rows: labels.map((l, i) => [l, i, 2, i ? "0.5" : null, "1", "0.667", i ? "" : "the judge never says Entailment"]) });
const figures = (over = {}) => ({ kappa: "0.31", kappa_interval: "0.02 to 0.6", agreement: "0.6", majority_label: "Neutral",
  base_rate: "0.533", reason: "", ...over });
const kind = (over = {}, classes = {}) => ({
  kind: "answer2response", run: "", n: 15,
  classes: { labels: ["Entailment", "Neutral", "Contradiction"], counts: [[4, 6, 0], [0, 0, 0], [1, 0, 4]],
    samples: [[3, 5, 0], [0, 0, 0], [1, 0, 2]], rates: [["0.4", "0.6", "0"], [null, null, null], ["0.2", "0", "0.8"]],
    per_class: perClass(["Entailment", "Neutral", "Contradiction"]), ...figures(classes) },
  binary: { labels: ["Entailment", "not entailed"], counts: [[4, 6], [1, 4]], samples: [[3, 5], [1, 2]],
    rates: [["0.4", "0.6"], ["0.2", "0.8"]], per_class: perClass(["Entailment", "not entailed"]),
    ...figures({ kappa: "0.12", kappa_interval: "-0.3 to 0.5", base_rate: "0.667", majority_label: "not entailed" }) },
  ...over,
});
const part = (kinds) => ({ runs: [], problems: [], trust: { n_reviews: 15, kinds,
  agreement: { columns: ["kind", "n", "kappa", "reason"], rows: [["answer2response", 15, "0.31", ""]] },
  corrected: { "": { columns: ["metric", "judge", "discordant", "reason"], rows: [["Precision", "0.5", 3, ""]] } } } });

function mount(p, reply = {}) {
  const asked = [];
  const sets = [];
  const request = (name, msg) => { asked.push({ name, ...msg }); return Promise.resolve(reply); };
  const el = document.createElement("div");
  document.body.appendChild(el);
  render(html`<${panel.Panel} part=${p} request=${request} set=${(x) => sets.push(x)} />`, el);
  return { el, asked, sets, cleanup: () => { render(null, el); el.remove(); } };
}

const cells = (el) => [...el.querySelectorAll("[data-testid=kind-answer2response] [data-testid=confusion-cell]")];

describe("the trust panel's confusion matrix", () => {
  it("draws each cell's count and row rate, Undefined said for a row the judge never uses", () => {
    const { el, cleanup } = mount(part([kind()]));
    const c = cells(el);
    expect(c.length).toBe(9);
    expect(c[1].textContent.replace(/\s+/g, " ").trim()).toBe("6 0.6");
    expect(c[1].getAttribute("aria-label")).toBe("judge Entailment, reviewer Neutral: 6 labels in 5 samples");
    expect(c[3].textContent).toContain("Undefined");
    expect(c[3].disabled).toBe(true); // an empty cell has no samples to show
    const line = el.querySelector("[data-testid=kind-answer2response] [data-testid=kappa-line]").textContent;
    expect(line).toContain("kappa 0.31 (95% 0.02 to 0.6) · agreement 0.6 · base rate 0.533");
    expect(line).toContain("base rate 0.533 (the reviewers' majority label, Neutral");
    const rows = [...el.querySelectorAll("[data-testid=kind-answer2response] [data-testid=per-class] tbody tr")];
    expect(rows.length).toBe(3);
    expect(rows[0].textContent).toContain("Undefined");
    expect(rows[0].getAttribute("title")).toBe("the judge never says Entailment");
    expect(el.querySelector("[data-testid=corrected]").textContent).toContain("discordant");
    cleanup();
  });

  it("toggles to the 2-class view", async () => {
    const { el, cleanup } = mount(part([kind()]));
    el.querySelector("[data-testid=binary]").click();
    await tick();
    const c = cells(el);
    expect(c.map((x) => x.dataset.reviewer)).toEqual(["Entailment", "not entailed", "Entailment", "not entailed"]);
    const line = el.querySelector("[data-testid=kappa-line]").textContent;
    expect(line).toContain("kappa 0.12 (95% -0.3 to 0.5) · agreement 0.6 · base rate 0.667 (the reviewers' majority label, not entailed");
    cleanup();
  });

  it("draws only the kinds the kernel sent, Undefined kappa with its reason", () => {
    const { el, cleanup } = mount(part([kind({ kind: "retrieved2response" }, { kappa: null, kappa_interval: null, reason: "no reviewed pair" })]));
    expect(el.querySelector("[data-testid=kind-answer2response]")).toBeNull();
    const undef = el.querySelector("[data-testid=kind-retrieved2response] [data-testid=kappa-line] .rw-ds-undef");
    expect(undef.textContent).toBe("Undefined");
    expect(undef.getAttribute("title")).toBe("no reviewed pair");
    cleanup();
  });

  it("a cell asks for its samples and keeps them as the explorer's samples (and the run of a run's cell)", async () => {
    const reply = { label: "answer2response · judge Entailment, reviewer Neutral: 5 samples", query_ids: ["1", "4"], run: "" };
    const { el, asked, sets, cleanup } = mount(part([kind()]), reply);
    cells(el)[1].click();
    await tick();
    expect(asked).toEqual([{ name: "trust_cell", kind: "answer2response", run: "", judge: "Entailment", reviewer: "Neutral", binary: false }]);
    expect(sets).toEqual([{ samples: { label: reply.label, query_ids: ["1", "4"] } }]);
    cleanup();
    const two = mount(part([kind({ run: "b" })]), { ...reply, run: "b" });
    cells(two.el)[1].click();
    await tick();
    expect(two.asked[0].run).toBe("b");
    expect(two.sets).toEqual([{ samples: { label: reply.label, query_ids: ["1", "4"] }, run: "b" }]);
    two.cleanup();
  });

  it("may set only the samples and the run", () => {
    expect(panel.traits).toEqual(["samples", "run"]);
  });
});

describe("the samples chip", () => {
  it("shows the kept samples' label and clears them", () => {
    const f = JSON.parse(readFileSync(join(process.cwd(), "fixtures", "dataset_example.json"), "utf8"));
    f._view.controls.samples = { label: "answer2response · judge Entailment, reviewer Neutral: 6 samples", n: 6 };
    const model = fakeModel({ _view: viewTrait(f._view), _drill: viewTrait(f._drill), _other: viewTrait(f._other), _rows: f._rows });
    const el = document.createElement("div");
    document.body.appendChild(el);
    const cleanup = widget.render({ model, el });
    const chip = el.querySelector("[data-testid=clear-samples]");
    expect(chip.textContent).toBe("✕ answer2response · judge Entailment, reviewer Neutral: 6 samples");
    chip.click();
    expect(model.sent.at(-1)).toEqual({ samples: {} });
    cleanup();
    el.remove();
  });
});

describe("the trust panel after a review", () => {
  it("keeps its stale tables, says it is updating, and asks for them once after a pause", async () => {
    const stale = part([kind()]);
    stale.trust.stale = true;
    const { el, asked, cleanup } = mount(stale);
    expect(el.querySelector("[data-testid=trust-stale]").textContent).toContain("Updating");
    expect(cells(el).length).toBe(9); // the last tables stay on screen meanwhile
    await tick(PAUSE / 2);
    expect(asked).toEqual([]);
    await vi.waitFor(() => expect(asked).toEqual([{ name: "trust", open: true }]), { timeout: 2 * PAUSE });
    cleanup();
    const fresh = mount(part([kind()]));
    await tick(PAUSE + 300); // the effect runs after the paint, then would wait PAUSE
    expect(fresh.asked).toEqual([]);
    expect(fresh.el.querySelector("[data-testid=trust-stale]")).toBeNull();
    fresh.cleanup();
  });
});
