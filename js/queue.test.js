// The keyboard review (issue 36 item 1), in jsdom, on a view Python made
// (fixtures/ragchecker_reviewed.json: SampleExplorer's, a random queue of 2): the next label to
// review takes focus when the view names a new one while the user works in the widget, never
// otherwise; after a queued sample's last label the queue moves on; the DatasetExplorer's keys.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fakeModel, viewTrait } from "./fake_model.js";
import { panel as drillPanel, navigate } from "./src/dataset/drill.js";
import { PAUSE } from "./src/dataset/common.js";
import { panel as queuePanel } from "./src/dataset/queue.js";
import { reviewMark } from "./src/dataset/table.js";
import { html } from "./src/incremental.js";
import { nextLabel } from "./src/review.js";
import { render } from "preact";
import widget from "./src/widget.js";

const fixture = (name) => JSON.parse(readFileSync(join(process.cwd(), "fixtures", `${name}.json`), "utf8"));
const key = (node, k) => node.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
const tick = () => new Promise((r) => setTimeout(r, 10));

function mount(view) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  const model = fakeModel({ predictions: {}, _view: viewTrait(view) });
  const cleanup = widget.render({ model, el });
  const show = (next) => { model.state._view = viewTrait(next); model.emit("change:_view"); };
  return { el, model, cleanup, show };
}

/** The fixture's view with review.next set to `next` (kind -> target or null). */
const withNext = (view, next) => ({ ...view, review: { ...view.review, next } });
const row = (kind, claim) => ({ kind, claim, doc_id: null });

beforeEach(() => document.body.replaceChildren());

describe("the next label to review", () => {
  it("is the first of view.review.next in the keyboard's order, of the queue's kinds", () => {
    const v = fixture("ragchecker_reviewed");
    expect(nextLabel(v)).toEqual(row("answer2response", 1));
    expect(nextLabel(v, ["retrieved2response"])).toEqual({ kind: "retrieved2response", claim: 0, doc_id: "001" });
    expect(nextLabel(withNext(v, { answer2response: null, response2answer: null }))).toBeNull();
    expect(nextLabel({ ...v, review: undefined })).toBeNull();
  });

  it("takes focus when a label is reviewed while the user works in the widget, and a key moves on", async () => {
    const v = fixture("ragchecker_reviewed");
    const { el, model, show } = mount(v);
    expect(document.activeElement).toBe(document.body); // opening the widget takes no focus
    el.querySelector('[data-testid="next-label"]').click(); // the first click
    expect(document.activeElement.dataset.key).toBe("claim:R2");
    key(document.activeElement, "e");
    expect(model.messages.at(-1)).toEqual({ type: "review", kind: "answer2response", claim: 1, doc_id: null, label: "Entailment" });
    show(withNext(v, { ...v.review.next, answer2response: row("answer2response", 4) })); // the kernel's answer
    expect(document.activeElement.dataset.key).toBe("claim:R5");
    show(withNext(v, { ...v.review.next, answer2response: null })); // the claims done: the ground truth's
    expect(document.activeElement.dataset.key).toBe("gt:G1");
    show(withNext(v, { answer2response: null, response2answer: null, retrieved2response: { kind: "retrieved2response", claim: 2, doc_id: "001" } }));
    await tick();
    const focused = document.activeElement;
    expect(focused.dataset.row).toBe("claim:R3"); // the matrix row, its cursor on the cell
    expect(focused.querySelector('td[data-col="1"]').classList.contains("rw-cursor")).toBe(true);
    key(focused, "n");
    expect(model.messages.at(-1)).toEqual({ type: "review", kind: "retrieved2response", claim: 2, doc_id: "001", label: "Neutral" });
  });

  it("takes no focus while the user is elsewhere (typing in a box, or outside the widget)", () => {
    const v = fixture("ragchecker_reviewed");
    const outside = document.createElement("input");
    document.body.appendChild(outside);
    const { show } = mount(v);
    outside.focus();
    show(withNext(v, { ...v.review.next, answer2response: row("answer2response", 4) }));
    expect(document.activeElement).toBe(outside);
  });

  it("after a queued sample's last label, the queue moves on (and not past its end)", () => {
    const v = fixture("ragchecker_reviewed");
    const { el, model, show } = mount(v);
    el.querySelector('[data-testid="next-label"]').click();
    show(withNext(v, { answer2response: null, response2answer: null, retrieved2response: null, retrieved2answer: null }));
    expect(model.messages.at(-1)).toEqual({ type: "queue", step: 1 });
    const n = model.messages.length;
    const last = { ...v, query_id: "1", review: { ...v.review, queue: { ...v.review.queue, position: 1, query_id: "1" }, next: { answer2response: row("answer2response", 0) } } };
    show(last);
    expect(document.activeElement.dataset.key).toBe("claim:R1"); // the next sample's first label
    show({ ...last, review: { ...last.review, next: { answer2response: null } } });
    expect(model.messages.length).toBe(n); // the queue's last sample: nowhere to go
    const other = { ...v, query_id: "7", review: { ...v.review, next: { answer2response: row("answer2response", 0) } } };
    show(other); // a sample opened outside the queue (its current item is "0")
    show({ ...other, review: { ...other.review, next: { answer2response: null } } });
    expect(model.messages.length).toBe(n); // reviewing it whole does not move the queue
  });
});

describe("the DatasetExplorer's drill-down and its queue", () => {
  it("finishing the sample in the baseline view leaves the queue; in the main view it moves on", async () => {
    const v = fixture("ragchecker_reviewed");
    const view = { ...v, review: { ...v.review, queue: null } };
    const done = withNext(view, { answer2response: null, response2answer: null, retrieved2response: null, retrieved2answer: null });
    const queue = { query_id: v.query_id, position: 0, total: 2, kinds: null };
    const asked = [];
    const request = (name, msg = {}) => { asked.push({ name, ...msg }); return Promise.resolve({}); };
    const el = document.createElement("div");
    document.body.appendChild(el);
    const draw = (drill, other) => render(html`<${drillPanel.Panel} part=${{ drill, other, queue, count: 3,
      selected: { row: 0, run: "", query_id: v.query_id, index: 0 } }} request=${request} set=${() => {}} />`, el);
    const queued = () => asked.filter((a) => a.name === "queue");
    draw(view, view);
    await tick();
    el.querySelector('[data-testid="drill-other"] [data-testid="next-label"]').click();
    draw(view, done); // the baseline view's sample reviewed whole
    await tick();
    expect(queued()).toEqual([]);
    el.querySelector('[data-testid="drill-main"] [data-testid="next-label"]').click();
    draw(done, done);
    await tick();
    expect(queued()).toEqual([{ name: "queue", step: 1 }]);
    render(null, el);
  });
});

describe("the DatasetExplorer's keys and queue line", () => {
  it("j / k / arrows step the rows, ] and [ the queue (only with one), never from a text box", () => {
    const step = vi.fn();
    const queue = vi.fn();
    const at = (target, k) => navigate({ key: k, target, preventDefault: () => {} }, step, queue);
    const div = document.createElement("div");
    const input = document.createElement("input");
    div.appendChild(input);
    expect([at(div, "j"), at(div, "ArrowUp"), at(div, "]"), at(div, "["), at(div, "x"), at(input, "j")])
      .toEqual([true, true, true, true, false, false]);
    expect(step.mock.calls).toEqual([[1], [-1]]);
    expect(queue.mock.calls).toEqual([[1], [-1]]);
    expect(navigate({ key: "]", target: div, preventDefault: () => {} }, step, null)).toBe(false);
  });

  it("an empty queue says nothing is left (no 'sample 1 of 0'); a double item says 'second review'", () => {
    const q = { strategy: "random", run: null, kinds: [], position: 0, total: 0, reviewed: 0, query_id: null, note: "",
      line: "nothing left to review", interval: "x", file: "Saved to reviews.jsonl", double: null };
    const el = document.createElement("div");
    document.body.appendChild(el);
    const draw = (over) => render(html`<${queuePanel.Panel} part=${queuePanel.part({ queue: { ...q, ...over } })}
      request=${() => Promise.resolve({})} set=${() => {}} />`, el);
    draw({});
    const shown = () => el.textContent.replace(/\s+/g, " ");
    expect(shown()).toContain("nothing left to review");
    expect(shown()).not.toContain("of 0");
    draw({ total: 3, line: "0 of 3 reviewed", query_id: "7", double: "second review" });
    expect(shown()).toContain("sample 1 of 3 (7) second review");
    render(null, el);
  });

  it("the progress line asks for the interval after a pause, and its buttons step the queue", async () => {
    const asked = [];
    const request = (name, msg = {}) => { asked.push({ name, ...msg }); return Promise.resolve({}); };
    const q = { strategy: "random", run: null, kinds: [], position: 0, total: 3, reviewed: 1, query_id: "7", note: "",
      line: "1 of 3 reviewed", interval: null, file: "Saved to reviews.jsonl" };
    const el = document.createElement("div");
    document.body.appendChild(el);
    render(html`<${queuePanel.Panel} part=${queuePanel.part({ queue: q })} request=${request} set=${() => {}} />`, el);
    expect(el.textContent.replace(/\s+/g, " ")).toContain("1 of 3 reviewed · interval … · Saved to reviews.jsonl");
    expect(asked).toEqual([]);
    await new Promise((r) => setTimeout(r, PAUSE + 300)); // the effect runs after the paint, then waits PAUSE
    expect(asked).toEqual([{ name: "queue_interval" }]);
    el.querySelector('[data-testid="queue-next"]').click();
    expect(asked.at(-1)).toEqual({ name: "queue", step: 1 });
    render(html`<${queuePanel.Panel} part=${queuePanel.part({ queue: { ...q, interval: "faithfulness ±0.06, 140 more for ±0.05" } })}
      request=${request} set=${() => {}} />`, el);
    await new Promise((r) => setTimeout(r, PAUSE + 300));
    expect(asked.filter((a) => a.name === "queue_interval").length).toBe(1);
    expect(el.textContent).toContain("faithfulness ±0.06, 140 more for ±0.05");
    expect(queuePanel.shows({ queue: null })).toBe(false);
  });
});

describe("the table's reviewed rows", () => {
  it("marks a row ✓ when every label is reviewed and ◐ when some are, in words too", () => {
    const el = document.createElement("div");
    const shown = (reviewed) => {
      render(html`<span>${reviewMark({ values: { reviewed } })}</span>`, el);
      const mark = el.querySelector(".rw-ds-reviewed");
      return mark ? [mark.textContent.trim(), mark.title] : null;
    };
    expect(shown(2)).toEqual(["✓", "every label of this sample reviewed"]);
    expect(shown(1)).toEqual(["◐", "some labels of this sample reviewed"]);
    expect(shown(0)).toBeNull();
    expect(shown(undefined)).toBeNull(); // rows saved before the column existed
  });
});

describe("reviews without ground truth (item 5)", () => {
  it("the claims' review column and W follow the labels the claims carry", async () => {
    const v = fixture("ragchecker_reviewed");
    const noGt = { ...v, review: { ...v.review, count: 0, traces: true, next: { retrieved2response: v.review.next.retrieved2response } },
      claims: v.claims.map((c) => ({ ...c, review: null })) };
    const { el, model } = mount(noGt);
    const heads = [...el.querySelectorAll('[data-testid="claims"] th')].map((th) => th.textContent);
    expect(heads).toContain("Review (its passages)");
    expect(heads).not.toContain("Review (against the ground truth)");
    expect(el.querySelector('[data-testid="review-changes"]').textContent).toContain("no ground-truth labels here");
    const c = noGt.claims.find((x) => x.supported_by.length);
    const i = noGt.claims.indexOf(c);
    const row = el.querySelector(`[data-testid="claims"] tr[data-key="${c.key}"]`);
    key(row, "w"); // W: the claim's label against the passage that supports it
    await tick();
    expect(model.messages.at(-1)).toMatchObject({ type: "trace", kind: "retrieved2response", claim: i, doc_id: c.supported_by[0] });
    const { el: withGt } = mount(v);
    expect([...withGt.querySelectorAll('[data-testid="claims"] th')].map((th) => th.textContent)).toContain("Review (against the ground truth)");
  });
});
