// Rendering and escaping, in jsdom, against a stand-in model and view states made by Python
// (fixtures/make_fixtures.py).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeModel, viewTrait } from "./fake_model.js";
import widget from "./src/widget.js";

const HERE = process.cwd(); // js/: `npm test` runs here
const fixture = (name) => JSON.parse(readFileSync(join(HERE, "fixtures", `${name}.json`), "utf8"));

function mount(view, extra = {}) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  const model = fakeModel({ predictions: {}, _view: viewTrait(view), ...extra });
  const cleanup = widget.render({ model, el });
  return { el, model, cleanup };
}

const card = (el, metric) => el.querySelector(`[data-metric="${metric}"]`);
const text = (node) => node.textContent.replace(/\s+/g, " ").trim();

beforeEach(() => {
  document.body.replaceChildren();
});
afterEach(() => vi.restoreAllMocks());

describe("score cards", () => {
  it("shows value, fraction, definition, grouped", () => {
    const { el } = mount(fixture("harbor_default"));
    const groups = [...el.querySelectorAll(".rw-card-group h4")].map(text);
    expect(groups).toEqual(["Citation family", "RAGChecker · overall", "RAGChecker · retriever", "RAGChecker · generator"]);
    const c = card(el, "context_relevance");
    expect(text(c.querySelector(".rw-card-label"))).toBe("Context relevance");
    expect(text(c.querySelector(".rw-card-value"))).toBe("1");
    expect(text(c.querySelector(".rw-card-fraction"))).toBe("2/2 = 1");
    expect(text(c.querySelector(".rw-card-def"))).toBe("question-relevant retrieved passages / retrieved passages");
    expect(text(card(el, "hallucination"))).toContain("↓");
    expect(card(el, "citation_precision").getAttribute("title")).toBe("counted: R1→D1, R2→D1, R3→D2 — out of: R1→D1, R2→D1, R3→D2");
  });

  it("shows Undefined with its reason, and marks the card without relying on colour", () => {
    const { el } = mount(fixture("harbor_undefined"));
    const c = card(el, "context_relevance");
    expect(c.classList.contains("rw-undefined")).toBe(true);
    expect(text(c.querySelector(".rw-card-value"))).toBe("Undefined");
    expect(text(c.querySelector(".rw-card-fraction"))).toBe("0/0 = Undefined");
    expect(text(c.querySelector(".rw-card-reason"))).toBe("no retrieved documents");
    expect(text(c).match(/Undefined/g).length).toBe(2); // the value, and 0/0 = Undefined: not three times
    expect(text(card(el, "faithfulness").querySelector(".rw-card-value"))).toBe("Undefined");
    expect(text(card(el, "completeness").querySelector(".rw-card-value"))).toBe("0");
    expect(text(card(el, "citation_precision").querySelector(".rw-card-value"))).toBe("Undefined");
  });

  it("hides values until a prediction is entered, then shows both", () => {
    const { el, model } = mount(fixture("harbor_predict"), { predictions: { context_relevance: "1", faithfulness: "0.5" } });
    expect(text(card(el, "citation_support").querySelector(".rw-card-value"))).toBe("?");
    expect(card(el, "citation_support").textContent).not.toContain("3/3");
    expect(text(card(el, "context_relevance").querySelector(".rw-verdict"))).toBe("✓ You predicted 1: right");
    expect(text(card(el, "faithfulness").querySelector(".rw-verdict"))).toBe("✗ You predicted 0.5; actual 1");
    const input = card(el, "citation_support").querySelector("input");
    input.value = "2/3";
    input.dispatchEvent(new Event("change"));
    expect(model.sent.at(-1)).toEqual({ predictions: { context_relevance: "1", faithfulness: "0.5", citation_support: "2/3" } });
  });
});

describe("controls write traits", () => {
  it("bundle buttons, presets, reset, predict", () => {
    const { el, model } = mount(fixture("harbor_default"));
    const option = el.querySelector('[data-trait="retrieval"] [data-option="No retrieval"]');
    expect(option.getAttribute("role")).toBe("radio");
    option.click();
    expect(model.sent.at(-1)).toEqual({ retrieval: "No retrieval" });
    el.querySelector('[data-trait="citation"] [data-option="None"]').click();
    expect(model.sent.at(-1)).toEqual({ citation: "None" });
    el.querySelector('[data-preset="Outdated answer"]').click();
    expect(model.sent.at(-1)).toEqual({
      retrieval: "Outdated schedule and admission", answer: "Outdated answer", citation: "Matched", retrieved: ["D4", "D2"],
    });
    el.querySelector('[data-testid="reset"]').click();
    expect(model.sent.at(-1)).toMatchObject({ retrieval: "Current sources", retrieved: ["D1", "D2"], selected: "" });
    const predict = el.querySelector('[data-testid="predict"]');
    predict.checked = true;
    predict.dispatchEvent(new Event("change"));
    expect(model.sent.at(-1)).toEqual({ predict: true });
    const active = el.querySelector('[data-trait="answer"] .rw-active');
    expect(active.getAttribute("aria-checked")).toBe("true");
    expect(text(active)).toBe("Fully supported");
  });

  it("passage toggles send the new retrieved set without selecting the row", () => {
    const { el, model } = mount(fixture("harbor_default"));
    const d2 = el.querySelector('[data-toggle="D2"]');
    d2.click(); // unticks and fires change
    expect(model.sent.at(-1)).toEqual({ retrieved: ["D1"] });
    expect(model.sent.some((m) => "selected" in m)).toBe(false);
    const d3 = el.querySelector('[data-toggle="D3"]');
    d3.click();
    expect(model.sent.at(-1)).toEqual({ retrieved: ["D1", "D2", "D3"] });
  });

  it("the sample explorer's undefined switch and presets", () => {
    const { el, model } = mount(fixture("ragchecker_sample"));
    el.querySelector('[data-trait="undefined"] [data-option="zero"]').click();
    expect(model.sent.at(-1)).toEqual({ undefined: "zero" });
    el.querySelector('[data-testid="next"]').click();
    expect(model.sent.at(-1)).toEqual({ sample_index: 1 });
    expect(el.querySelector('[data-testid="prev"]').disabled).toBe(true);
    expect(text(el.querySelector('[data-testid="current"]'))).toBe("1 of 2: 0");
    const k = el.querySelector('[data-testid="top-k"]');
    expect(k.value).toBe(""); // 000, 001, 003 in play: not the first k
    k.value = "2";
    k.dispatchEvent(new Event("change"));
    expect(model.sent.at(-1)).toEqual({ retrieved: ["000", "001"] });
  });

  it("a sample's passage switched on is sent in rank order, as Python keeps it (no list sent back)", () => {
    const { el, model } = mount(fixture("ragchecker_sample")); // 000, 001, 003 in play
    el.querySelector('[data-toggle="002"]').click();
    expect(model.sent.at(-1)).toEqual({ retrieved: ["000", "001", "002", "003"] });
  });
});

describe("many options", () => {
  it("become a labelled <select> that writes the chosen value", () => {
    const view = fixture("harbor_default");
    const bundles = view.controls.selects[0];
    bundles.options = Array.from({ length: 12 }, (_, i) => `bundle ${i}`);
    bundles.value = "bundle 3";
    const { el, model } = mount(view);
    const select = el.querySelector('select[data-trait="retrieval"]');
    expect(select.value).toBe("3");
    expect(select.getAttribute("aria-labelledby")).toBe("rw-label-retrieval");
    select.value = "7";
    select.dispatchEvent(new Event("change"));
    expect(model.sent.at(-1)).toEqual({ retrieval: "bundle 7" });
  });
});

describe("the sample picker", () => {
  it("searches through a custom message and picks a result; stale answers are dropped", async () => {
    vi.useFakeTimers();
    const { el, model } = mount(fixture("ragchecker_sample"));
    const messages = [];
    model.send = (msg) => messages.push(msg);
    const answer = (msg) => model.listeners["msg:custom"].forEach((cb) => cb(msg));
    const box = el.querySelector('[data-testid="search"]');
    const type = (value) => {
      box.value = value;
      box.dispatchEvent(new Event("input"));
    };
    type("riv");
    type("river"); // within the typing pause: one search
    await vi.advanceTimersByTimeAsync(200);
    type("river hallucination>0");
    await vi.advanceTimersByTimeAsync(200);
    const first = messages[0].request;
    expect(messages).toEqual([
      { type: "search", text: "river", request: first },
      { type: "search", text: "river hallucination>0", request: first + 1 },
    ]);
    const row = { index: 1, query_id: "1", query: "Which river?", metrics: { faithfulness: 0.5, hallucination: null } };
    answer({ type: "results", request: first + 1, matches: 120, rows: [row] });
    answer({ type: "results", request: first, matches: 7, rows: [] }); // late: dropped
    await vi.advanceTimersByTimeAsync(0);
    expect(text(el.querySelector('[data-testid="matches"]'))).toBe("120 matching samples (first 1 shown)");
    expect(text(el.querySelector(".rw-picker-row"))).toBe("2 1 Which river? faithfulness 0.5 · hallucination Undefined");
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    expect(model.sent.at(-1)).toEqual({ sample_index: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(el.querySelector(".rw-picker-results")).toBeNull();
    box.value = "faithfulness<bad";
    box.dispatchEvent(new Event("input"));
    await vi.advanceTimersByTimeAsync(200);
    answer({ type: "results", request: first + 2, error: "ValueError: unknown metric 'x'" });
    await vi.advanceTimersByTimeAsync(0);
    expect(text(el.querySelector('[role="alert"]'))).toBe("search failed: ValueError: unknown metric 'x'");
    box.value = "river";
    box.dispatchEvent(new Event("input"));
    await vi.advanceTimersByTimeAsync(200 + 20000); // no reply at all: the search says so, it does not spin
    expect(text(el.querySelector('[role="alert"]'))).toBe('search failed: no reply to "search" from the kernel in 20 s');
    vi.useRealTimers();
  });
});

describe("smaller defects", () => {
  it("Harbor's sources name no ground-truth claim that no view lists; the matrix legend separates with ';'", () => {
    const { el } = mount(fixture("harbor_default"));
    expect(el.querySelector('[data-testid="gt-claims"]')).toBeNull();
    expect(text(el.querySelector('[data-testid="sources"]'))).not.toMatch(/\bG\d/);
    const sample = mount(fixture("ragchecker_sample")).el;
    const legend = text(sample.querySelector('[data-testid="matrix"] .rw-note'));
    expect(legend).toContain("● entails; ⊗ contradicts; · does not mention; ? unjudged;");
    expect(text(sample.querySelector('[data-key="source:000"]'))).toContain("ground truth G4, G5, G6");
  });
});

describe("linked selection", () => {
  it("clicking a row selects it, clicking again clears", () => {
    const { el, model } = mount(fixture("harbor_default"));
    el.querySelector('[data-key="claim:R1"]').click();
    expect(model.sent.at(-1)).toEqual({ selected: "claim:R1" });
    el.querySelector('[data-key="source:D1"]').dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    expect(model.sent.at(-1)).toEqual({ selected: "source:D1" });
  });

  it("draws the highlights Python computed, as classes and as words", () => {
    const { el } = mount(fixture("harbor_selected"));
    const row = (key) => el.querySelector(`[data-key="${key}"]`);
    expect(row("claim:R3").getAttribute("aria-selected")).toBe("true");
    expect(row("source:D2").classList.contains("rw-role-supports")).toBe(true);
    expect(text(row("source:D2").querySelector(".rw-link"))).toBe("supports it");
    expect(text(row("source:D3").querySelector(".rw-link"))).toBe("cited by it");
    expect(row("source:D1").querySelector(".rw-link")).toBeNull();
    // R3 cites the unretrieved D3: invalid, with the reason as a tooltip
    const cells = [...row("claim:R3").querySelectorAll("td")].map(text);
    expect(cells).toContain("D3");
    expect(row("claim:R3").querySelector("span[title]").getAttribute("title")).toBe("invalid: D3 was not retrieved");
  });
});

describe("RAGChecker sample views", () => {
  it("entailment matrix for both sides, off passages marked in words", () => {
    const { el } = mount(fixture("ragchecker_sample"));
    const [resp, gt] = el.querySelectorAll(".rw-matrix");
    expect(text(resp.querySelector("caption"))).toBe("Response claims");
    expect(resp.querySelectorAll("tbody tr").length).toBe(11);
    expect(gt.querySelectorAll("tbody tr").length).toBe(22);
    const heads = [...resp.querySelectorAll("thead th")];
    expect(heads.map(text)).toEqual(["Claim", "1", "2", "3off", "4"]);
    expect(heads.map((th) => th.getAttribute("title"))).toEqual([
      null, "000 (rank 1)", "001 (rank 2)", "002 (rank 3): switched off", "003 (rank 4)"]);
    expect([...resp.querySelectorAll("col")].map((c) => c.className)).toEqual(["", "", "", "rw-off", ""]);
    expect([...resp.querySelector("tbody tr").children].map(text)).toEqual(["R1", "·", "●", "·", "·"]);
    const claimHeads = [...el.querySelectorAll(".rw-claims thead th")].map(text);
    expect(claimHeads).toEqual(["Claim", "Text", "Correct?", "Faithful?", "Supported by", "Review (against the ground truth)"]);
    expect(text(el.querySelector('[data-key="claim:R1"]'))).toContain("✗ Incorrect");
    expect(text(el.querySelector('[data-key="claim:R1"]'))).toContain("✓ Faithful");
    expect(el.querySelectorAll('[data-testid="gt-claims"] tbody tr').length).toBe(22);
    expect(text(el.querySelector(".rw-note"))).toContain("Not computable for this data");
  });

  it("a contradiction differs from 'not mentioned' in symbol and words, in the matrix and the tables", () => {
    const { el } = mount(fixture("ragchecker_sample"));
    const gt = el.querySelectorAll(".rw-matrix")[1];
    // G7: passages 000 and 001 contradict it (label Contradiction), 002 and 003 do not mention it
    const g7 = [...gt.querySelectorAll("tbody tr")].find((tr) => text(tr.querySelector("th")) === "G7");
    const [contra, , neutral] = g7.querySelectorAll("td");
    expect([text(contra), contra.className, contra.getAttribute("title")]).toEqual(["⊗", "rw-contradicts", "000 contradicts G7"]);
    expect([text(neutral), neutral.className, neutral.getAttribute("title")]).toEqual(["·", "rw-neutral", "002 does not mention G7"]);
    expect(text(el.querySelector('[data-testid="matrix"] .rw-note'))).toContain("2 contradictions");
    // R11: the ground truth contradicts it; R1 is only incorrect (not mentioned)
    expect(text(el.querySelector('[data-key="claim:R11"]'))).toContain("⊗ Contradicted");
    expect(text(el.querySelector('[data-key="claim:R1"]'))).toContain("✗ Incorrect");
    expect(text(el.querySelector('[data-key="claim:R1"]'))).not.toContain("Contradicted");
    const g7row = el.querySelector('[data-key="gt:G7"]');
    expect(text(g7row)).toContain("⊗ Contradicted");
    expect(text(g7row.querySelector(".rw-contradicts"))).toBe("⊗ contradicted by 000, 001");
    expect(text(el.querySelector('[data-key="source:000"] .rw-contradicts'))).toBe("⊗ contradicts G7");
    expect(text(el.querySelector('[data-kind="contradicted"]'))).toMatch(/^1 ⊗ Contradicted by the ground-truth answer .*: R11$/);
    expect(el.querySelector('[data-key="source:002"] .rw-contradicts')).toBeNull();
  });

  it("a passage that contradicts the selected claim says so in words", () => {
    const view = fixture("ragchecker_sample");
    view.selected = "gt:G7";
    view.sources.find((x) => x.doc_id === "001").roles = ["contradicts"]; // as Python's highlights() marks it
    const { el } = mount(view);
    const row = el.querySelector('[data-key="source:001"]');
    expect(row.classList.contains("rw-role-contradicts")).toBe(true);
    expect(text(row.querySelector(".rw-link"))).toBe("⊗ contradicts it");
  });

  it("a matrix row selects its claim, response or ground-truth side", () => {
    const { el, model } = mount(fixture("ragchecker_sample"));
    const [resp, gt] = el.querySelectorAll(".rw-matrix");
    resp.querySelector("tbody tr").click();
    expect(model.sent.at(-1)).toEqual({ selected: "claim:R1" });
    gt.querySelector("tbody tr").click();
    expect(model.sent.at(-1)).toEqual({ selected: "gt:G1" });
  });
});

describe("untrusted text is text", () => {
  it("renders markup in passages, claims, titles literally and runs nothing", () => {
    const alert = vi.fn();
    window.alert = alert;
    const { el } = mount(fixture("xss"));
    expect(el.querySelector("img")).toBeNull();
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("b:not(:empty)")?.textContent).not.toBe("bold?");
    const passage = el.querySelector('[data-key="source:D1"] .rw-text');
    expect(passage.textContent).toBe("<img src=x onerror=alert(1)>");
    expect([...passage.querySelectorAll("*")].map((n) => n.className)).toEqual(["rw-clamp"]); // our one span
    expect(el.querySelector('[data-key="claim:R1"] .rw-text').textContent).toBe("<img src=x onerror=alert(1)>");
    expect(el.querySelector(".rw-title").textContent).toBe("<img src=x onerror=alert(1)>");
    expect(el.textContent).toContain("<script>window.pwned = 1</script>");
    expect(el.textContent).toContain("<b>bold?</b>");
    expect(window.pwned).toBeUndefined();
    expect(alert).not.toHaveBeenCalled();
  });

  it("no source assigns markup, and the bundle writes none", () => {
    for (const f of readdirSync(join(HERE, "src")).filter((f) => f.endsWith(".js"))) {
      const src = readFileSync(join(HERE, "src", f), "utf8");
      expect(src, f).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write|eval\(/);
    }
    const bundle = readFileSync(join(HERE, "..", "ragwidgets", "static", "widget.js"), "utf8");
    expect(bundle).not.toMatch(/outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });
});

describe("lifecycle", () => {
  it("redraws the whole view on change and detaches on cleanup", () => {
    const { el, model, cleanup } = mount(fixture("harbor_default"));
    model.state._view = viewTrait(fixture("harbor_undefined"));
    model.emit("change:_view");
    expect(text(card(el, "context_relevance").querySelector(".rw-card-value"))).toBe("Undefined");
    expect(el.querySelectorAll(".rw-root").length).toBe(1);
    cleanup();
    expect(model.listeners["change:_view"]).toEqual([]);
  });
});

describe("mountSampleView: the sample view another widget mounts", () => {
  it("draws a view dict, reports actions through send, updates and unmounts", async () => {
    const { mountSampleView } = await import("./src/sample_view.js");
    const el = document.createElement("div");
    document.body.appendChild(el);
    const sent = [];
    const view = fixture("ragchecker_sample"); // matrix.cells a plain array: any array-like works
    const sv = mountSampleView(el, { view, send: (patch) => sent.push(patch) });
    expect(el.querySelectorAll(".rw-matrix tbody tr").length).toBe(33);
    el.querySelector('[data-key="claim:R2"]').click();
    expect(sent).toEqual([{ selected: "claim:R2" }]);
    const next = { ...view, matrix: { ...view.matrix, cells: new DataView(Int8Array.from(view.matrix.cells).buffer) } };
    next.state = "sample 0 · updated";
    sv.update(next);
    expect(text(el.querySelector('[data-testid="state"]'))).toBe("State: sample 0 · updated");
    expect([...el.querySelector(".rw-matrix tbody tr").children].map(text)).toEqual(["R1", "·", "●", "·", "·"]);
    sv.destroy();
    expect(el.childNodes.length).toBe(0);
  });
});

describe("one trait per view", () => {
  it("viewOf reads the JSON and its cells from one trait, whatever the buffer's alignment", async () => {
    const { viewOf, typed } = await import("./src/view_trait.js");
    const bytes = new Uint8Array([9, 9, 9, 1, 0, 2, 255]);
    const model = fakeModel({ _view: { json: JSON.stringify({ matrix: { columns: [] }, title: "t" }), cells: new DataView(bytes.buffer, 3, 4) } });
    const view = viewOf(model, "_view");
    expect(view.title).toBe("t");
    expect(Array.from(view.matrix.cells)).toEqual([1, 0, 2, -1]);
    expect(viewOf(fakeModel({ _view: viewTrait(null) }), "_view")).toBeNull();
    const odd = new DataView(new Float64Array([0, 0.5, 0.25]).buffer, 8, 16); // aligned: no copy
    expect(Array.from(typed(odd, Float64Array))).toEqual([0.5, 0.25]);
    const unaligned = new Uint8Array(17);
    unaligned.set(new Uint8Array(new Float64Array([0.75, 2]).buffer), 1);
    expect(Array.from(typed(new DataView(unaligned.buffer, 1, 16), Float64Array))).toEqual([0.75, 2]);
  });

  it("the matrix draws each code of labels.js, the table written from ragwidgets.model", async () => {
    const { CELL } = await import("./src/matrix.js");
    const { LABEL_CODES, UNJUDGED } = await import("./src/labels.js");
    expect(Object.keys(CELL).map(Number).sort()).toEqual([...Object.values(LABEL_CODES), UNJUDGED].sort());
    expect(CELL[LABEL_CODES.Contradiction][1]).toBe("contradicts");
  });

  it("the stand-in model refuses a space-separated event list, as marimo's does not honour it", () => {
    const model = fakeModel({});
    expect(() => model.on("change:a change:b", () => {})).toThrow(/one event name/);
  });

  it("a kernel-less snapshot draws the view from the saved widget state (its cells a saved buffer at _view.cells)", async () => {
    const { snapshotModel, withBuffers } = await import("./src/snapshot.js");
    const view = fixture("ragchecker_sample");
    const { cells, ...matrix } = view.matrix;
    const saved = { _view: { json: JSON.stringify({ ...view, matrix }) } }; // as ipywidgets saves it: the buffer apart
    const data = btoa(String.fromCharCode(...Int8Array.from(cells).map((v) => v & 255)));
    const model = snapshotModel(withBuffers(saved, [{ path: ["_view", "cells"], encoding: "base64", data }]));
    const el = document.createElement("div");
    widget.render({ model, el });
    expect(el.querySelectorAll(".rw-matrix tbody tr").length).toBe(33);
    expect([...el.querySelector(".rw-matrix tbody tr").children].map(text)).toEqual(["R1", "·", "●", "·", "·"]);
  });
});
