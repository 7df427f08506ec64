// Reviewing labels in the sample view, in jsdom, against a view state Python made
// (fixtures/ragchecker_reviewed.json: three reviews, one overruling the judge's answer2response
// label of R1, one a matrix cell, one confirming a cell; a random review queue of 2).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeModel, viewTrait } from "./fake_model.js";
import { keyAction, reviewKeys } from "./src/review.js";
import widget from "./src/widget.js";

const fixture = (name) => JSON.parse(readFileSync(join(process.cwd(), "fixtures", `${name}.json`), "utf8"));
const text = (node) => node.textContent.replace(/\s+/g, " ").trim();
const key = (node, k) => node.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));

function mount(name = "ragchecker_reviewed") {
  const el = document.createElement("div");
  document.body.appendChild(el);
  const model = fakeModel({ predictions: {}, _view: viewTrait(fixture(name)) });
  const cleanup = widget.render({ model, el });
  return { el, model, cleanup };
}

beforeEach(() => document.body.replaceChildren());

describe("review keys", () => {
  it("E / N / C label, A confirms, U is the claim's passage row set to Neutral", () => {
    const t = { kind: "answer2response", claim: 2, doc_id: null };
    expect(keyAction("e", t)).toEqual({ ...t, label: "Entailment" });
    expect(keyAction("N", t)).toEqual({ ...t, label: "Neutral" });
    expect(keyAction("c", t)).toEqual({ ...t, label: "Contradiction" });
    expect(keyAction("a", t)).toEqual({ ...t, label: null });
    expect(keyAction("u", t)).toEqual({ kind: "retrieved2response", claim: 2, doc_id: null, label: "Neutral" });
    expect(keyAction("u", { kind: "response2answer", claim: 0, doc_id: null }).kind).toBe("retrieved2answer");
    expect(keyAction("x", t)).toBeNull();
  });

  it("a held review key (auto-repeat) reviews nothing, and stays in the widget", () => {
    const sent = [];
    const ctx = { review: (a) => sent.push(a) };
    const t = { kind: "answer2response", claim: 0, doc_id: null };
    const held = new KeyboardEvent("keydown", { key: "e", repeat: true, cancelable: true });
    expect(reviewKeys(held, t, ctx, () => sent.push("why"))).toBe(true);
    expect(held.defaultPrevented).toBe(true);
    expect(reviewKeys(new KeyboardEvent("keydown", { key: "w", repeat: true }), t, ctx, () => sent.push("why"))).toBe(true);
    expect(sent).toEqual([]);
    expect(reviewKeys(new KeyboardEvent("keydown", { key: "e" }), t, ctx, null)).toBe(true);
    expect(sent).toEqual([{ ...t, label: "Entailment" }]);
  });

  it("on a focused claim row and ground-truth row, each key sends one review message", () => {
    const { el, model } = mount();
    const r2 = el.querySelector('[data-key="claim:R2"]');
    r2.focus();
    key(r2, "c");
    key(r2, "a");
    key(r2, "u");
    const g3 = el.querySelector('[data-key="gt:G3"]');
    key(g3, "e");
    expect(model.messages).toEqual([
      { type: "review", kind: "answer2response", claim: 1, doc_id: null, label: "Contradiction" },
      { type: "review", kind: "answer2response", claim: 1, doc_id: null, label: null },
      { type: "review", kind: "retrieved2response", claim: 1, doc_id: null, label: "Neutral" },
      { type: "review", kind: "response2answer", claim: 2, doc_id: null, label: "Entailment" },
    ]);
    expect(model.sent).toEqual([]); // a review is no trait change, and the key selected nothing
  });

  it("a matrix cell: click it, move with the arrows, label it; the bar shows the cell", async () => {
    const { el, model } = mount();
    const tick = () => new Promise((r) => setTimeout(r, 10));
    const row = el.querySelector('.rw-matrix tr[data-row="claim:R2"]');
    row.querySelector('td[data-col="2"]').click();
    await tick();
    expect(model.sent.at(-1)).toEqual({ selected: "claim:R2" });
    expect(text(el.querySelector('[data-testid="review-bar"]'))).toContain("R2 × 002");
    key(row, "ArrowRight");
    await tick();
    expect(row.querySelector('td[data-col="3"]').classList.contains("rw-cursor")).toBe(true);
    key(row, "n");
    expect(model.messages.at(-1)).toEqual({ type: "review", kind: "retrieved2response", claim: 1, doc_id: "003", label: "Neutral" });
    const gt = el.querySelector('.rw-matrix tr[data-row="gt:G1"]');
    gt.querySelector('td[data-col="0"]').click();
    await tick();
    key(gt, "e");
    expect(model.messages.at(-1)).toEqual({ type: "review", kind: "retrieved2answer", claim: 0, doc_id: "000", label: "Entailment" });
    el.querySelector('[data-testid="review-bar"] [data-review="unsupported"]').click();
    expect(model.messages.at(-1)).toEqual({ type: "review", kind: "retrieved2answer", claim: 0, doc_id: null, label: "Neutral" });
  });
});

describe("judge and reviewer side by side", () => {
  it("the judge's label struck through, the reviewer's beside it, in words and symbols", () => {
    const { el } = mount();
    const cell = el.querySelector('[data-key="claim:R1"] .rw-review-cell');
    expect(text(cell.querySelector("s"))).toBe("· Neutral");
    expect(text(cell.querySelector(".rw-overruled"))).toBe("· Neutral → ● Entailment (reviewer)");
    expect(text(el.querySelector('[data-key="claim:R2"] .rw-label'))).toBe("● Entailment (judge)");
    const m = el.querySelector('.rw-matrix tr[data-row="claim:R2"] td[data-col="1"]');
    expect(text(m)).toBe("·⊗"); // judge · struck, reviewer ⊗
    expect(text(m.querySelector("s"))).toBe("·");
    expect(m.title).toBe("001 contradicts R2 (reviewer; the judge said: does not mention)");
    const confirmed = el.querySelector('.rw-matrix tr[data-row="claim:R1"] td[data-col="0"]');
    expect(text(confirmed)).toBe("·✓");
    expect(confirmed.title).toContain("confirmed");
  });

  it("what changed beside the cards, and each changed card's value under the judge's labels", () => {
    const { el } = mount();
    expect(text(el.querySelector('[data-testid="review-changes"]'))).toBe(
      "Reviewed: Precision 0.727 → 0.818, F1 0.593 → 0.621, Noise sensitivity (relevant) 0.182 → 0.091 after 3 reviews");
    const precision = el.querySelector('[data-metric="precision"]');
    expect(text(precision.querySelector('[data-testid="value"]'))).toBe("0.818");
    expect(text(precision.querySelector('[data-testid="judge-value"]'))).toBe("judge's labels: 0.727");
    expect(el.querySelector('[data-metric="recall"] [data-testid="judge-value"]')).toBeNull();
  });

  it("without reviews in the view (an Explorer's lesson), no review controls", () => {
    const { el } = mount("harbor_default");
    expect(el.querySelector(".rw-review-cell, [data-testid=review], [data-testid=review-bar]")).toBeNull();
  });
});

describe("queue and trace", () => {
  it("shows the queue's progress; ] and the button step along it", () => {
    const { el, model } = mount();
    expect(text(el.querySelector('[data-testid="queue"]'))).toContain("0 of 2 reviewed");
    key(el.querySelector('[data-key="claim:R3"]'), "]");
    el.querySelector('[data-testid="queue-next"]').click();
    expect(model.messages).toEqual([{ type: "queue", step: 1 }, { type: "queue", step: 1 }]);
  });

  it("W on a claim row asks for the trace and shows prompt and reply as text", async () => {
    const { el, model } = mount();
    key(el.querySelector('[data-key="claim:R1"]'), "w");
    const ask = model.messages.at(-1);
    expect(ask).toMatchObject({ type: "trace", kind: "answer2response", claim: 0, doc_id: null });
    model.emit("msg:custom", { type: "trace", request: ask.request, reason: null, trace: {
      kind: "answer2response", claim: 0, doc_id: null, label: "Neutral", model: "m", prompt_version: "v1", time: null,
      messages: [{ role: "user", content: "Is <img src=x onerror=alert(1)> entailed?" }], reply: "<b>Neutral</b>", note: null } });
    await new Promise((r) => setTimeout(r, 10));
    const panel = el.querySelector('[data-testid="trace"]');
    expect(panel.querySelector("img, b")).toBeNull();
    expect(text(panel)).toContain("Is <img src=x onerror=alert(1)> entailed?");
    expect(text(panel.querySelector('[data-testid="trace-reply"]'))).toBe("<b>Neutral</b>");
    key(el.querySelector('[data-key="claim:R2"]'), "w");
    const again = model.messages.at(-1);
    model.emit("msg:custom", { type: "trace", request: again.request, trace: null, reason: "no trace kept: no judge was given" });
    await new Promise((r) => setTimeout(r, 10));
    expect(text(el.querySelector('[data-testid="no-trace"]'))).toBe("No trace kept: no trace kept: no judge was given");
  });
});
