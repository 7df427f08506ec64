// The failure-note box (issue 37 item 1), in jsdom: the drilled sample's note in force fills it,
// Enter sends the note and moves on at once (the box empties), a refused note comes back into the
// box with the kernel's reason, Shift+Enter and Escape stay out of the host, tags split on commas,
// and key m focuses the box from the explorer.
import { render } from "preact";
import { beforeEach, describe, expect, it } from "vitest";
import { navigate } from "./src/dataset/drill.js";
import { NoteBox, splitTags, toggleTag } from "./src/dataset/notes.js";
import { html } from "./src/incremental.js";

const key = (node, k, extra = {}) => node.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...extra }));
const tick = () => new Promise((r) => setTimeout(r, 0));
const notes = (qid, shown = null, tags = ["dates", "made up"]) => ({
  available: true, run: "run", query_id: qid, file: "Saved to notes.jsonl", tags, reading: null,
  shown: shown || { sample: null, claims: {} } });
const claims = [{ text: "Paris is in France" }, { text: "It has 3 million people" }];

function mount(part, reply = () => Promise.resolve({})) {
  const el = document.createElement("div");
  el.className = "rw-ds";
  el.tabIndex = 0;
  document.body.appendChild(el);
  const asked = [];
  const request = (name, msg) => { asked.push({ name, ...msg }); return reply(name, msg); };
  const draw = (p) => render(html`<${NoteBox} notes=${p} claims=${claims} request=${request} />`, el);
  draw(part);
  const typeInto = (testid, value) => {
    const box = el.querySelector(`[data-testid="${testid}"]`);
    box.value = value;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  };
  return { el, asked, draw, typeInto, box: () => el.querySelector('[data-testid="note-text"]') };
}

beforeEach(() => document.body.replaceChildren());

describe("the note box", () => {
  it("splits tags on commas and toggles a suggested one", () => {
    expect(splitTags(" dates,  made   up ,, dates ")).toEqual(["dates", "made up"]);
    expect(toggleTag("dates", "made up")).toBe("dates, made up");
    expect(toggleTag("dates, made up", "dates")).toBe("made up");
  });

  it("shows the note in force, and Enter sends it and empties the box at once", async () => {
    const m = mount(notes("q1", { sample: { note: "wrong year", tags: ["dates"] }, claims: {} }));
    await tick();
    expect(m.box().value).toBe("wrong year");
    expect(m.el.querySelector('[data-testid="note-tags"]').value).toBe("dates");
    m.typeInto("note-text", "wrong year again");
    await tick();
    m.el.querySelectorAll('[data-testid="note-tag-chip"]')[1].click(); // + made up
    await tick();
    const enter = key(m.box(), "Enter");
    expect(enter).toBe(false); // its default (a new line) prevented
    expect(m.asked).toEqual([{ name: "note", query_id: "q1", run: "run", note: "wrong year again",
      tags: ["dates", "made up"], advance: 1 }]);
    await tick();
    expect(m.box().value).toBe("");
    m.draw(notes("q2")); // the kernel opened the next sample
    await tick();
    expect(m.box().value).toBe("");
    expect(m.el.querySelector('[data-testid="note-state"]').textContent).toBe("saved q1");
  });

  it("keeps what was typed ahead of the next sample's view", async () => {
    const m = mount(notes("q1"));
    m.typeInto("note-text", "first");
    key(m.box(), "Enter");
    await tick();
    m.typeInto("note-text", "second, typed fast");
    m.draw(notes("q2"));
    await tick();
    expect(m.box().value).toBe("second, typed fast");
  });

  it("puts a refused note back in the box with the kernel's reason", async () => {
    const m = mount(notes("q1"), () => Promise.reject(new Error("tags: a tag is 1 to 80 characters")));
    m.typeInto("note-text", "my careful note");
    m.typeInto("note-tags", "x".repeat(81));
    key(m.box(), "Enter");
    await tick();
    await tick();
    expect(m.box().value).toBe("my careful note");
    expect(m.el.querySelector('[data-testid="note-tags"]').value).toBe("x".repeat(81));
    expect(m.el.querySelector('[data-testid="note-error"]').textContent).toContain("a tag is 1 to 80 characters");
  });

  it("writes a claim's note, and Shift+Enter and Escape do not reach the host", async () => {
    const m = mount(notes("q1", { sample: null, claims: { 1: { note: "invented", tags: [] } } }));
    const heard = [];
    document.body.addEventListener("keydown", (e) => heard.push(e.key));
    const on = m.el.querySelector('[data-testid="note-on"]');
    on.value = "1";
    on.dispatchEvent(new Event("change", { bubbles: true }));
    await tick();
    expect(m.box().value).toBe("invented");
    key(m.box(), "Enter", { shiftKey: true });
    key(m.box(), "Escape");
    expect(heard).toEqual([]);
    expect(document.activeElement).toBe(m.el); // Escape left the box for the explorer
    m.el.querySelector('[data-testid="note-save"]').click();
    expect(m.asked.at(-1)).toEqual({ name: "note", query_id: "q1", run: "run", note: "invented", tags: [], advance: 0, claim: 1 });
  });

  it("is focused by key m from the explorer, outside text boxes only", async () => {
    const m = mount(notes("q1"));
    const cell = document.createElement("span");
    m.el.appendChild(cell);
    const e = new KeyboardEvent("keydown", { key: "m", bubbles: true, cancelable: true });
    cell.dispatchEvent(e);
    expect(navigate({ key: "m", target: cell, preventDefault: () => {} }, () => {}, null)).toBe(true);
    expect(document.activeElement).toBe(m.box());
    expect(navigate({ key: "m", target: m.box(), preventDefault: () => {} }, () => {}, null)).toBe(false);
  });
});

describe("the SampleExplorer's note box", () => {
  it("is drawn over the sample view when the view carries notes, m focuses it, Enter asks the kernel", async () => {
    const { readFileSync } = await import("node:fs");
    const { fakeModel, viewTrait } = await import("./fake_model.js");
    const widget = (await import("./src/widget.js")).default;
    const view = JSON.parse(readFileSync("fixtures/ragchecker_reviewed.json", "utf8"));
    const el = document.createElement("div");
    document.body.appendChild(el);
    const model = fakeModel({ predictions: {}, _view: viewTrait({ ...view, notes: { ...notes(view.query_id), run: "" } }) });
    const cleanup = widget.render({ model, el });
    const box = el.querySelector('[data-testid="note-text"]');
    expect(box).not.toBeNull();
    el.querySelector(".rw-root").focus();
    key(el.querySelector(".rw-root"), "m");
    expect(document.activeElement).toBe(box);
    box.value = "wrong passage";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    key(box, "Enter");
    expect(model.messages.at(-1)).toMatchObject({ type: "note", query_id: view.query_id, run: "", note: "wrong passage", advance: 1 });
    cleanup();
    const plain = document.createElement("div");
    document.body.appendChild(plain);
    widget.render({ model: fakeModel({ predictions: {}, _view: viewTrait(view) }), el: plain });
    expect(plain.querySelector('[data-testid="note-box"]')).toBeNull(); // no notes=: no box, the view as before
    expect(plain.firstElementChild.classList.contains("rw-root")).toBe(true);
  });
});

describe("a claim row's note control", () => {
  it("opens the note box on that claim, focused, with its note in force", async () => {
    const el = document.createElement("div");
    el.className = "rw-ds";
    document.body.appendChild(el);
    const shown = { sample: { note: "on the sample", tags: [] }, claims: { 1: { note: "invented", tags: ["made up"] } } };
    const draw = (opened) => render(html`<${NoteBox} notes=${notes("q1", shown)} claims=${claims}
      request=${() => Promise.resolve({})} opened=${opened} />`, el);
    draw(null);
    await tick();
    expect(el.querySelector('[data-testid="note-text"]').value).toBe("on the sample");
    draw({ claim: 1, seq: 1 });
    await new Promise((r) => setTimeout(r, 30));
    expect(el.querySelector('[data-testid="note-on"]').value).toBe("1");
    expect(el.querySelector('[data-testid="note-text"]').value).toBe("invented");
    expect(document.activeElement).toBe(el.querySelector('[data-testid="note-text"]'));
  });

  it("is drawn on each response claim row only where the holder takes notes", async () => {
    const { readFileSync } = await import("node:fs");
    const { mountSampleView } = await import("./src/sample_view.js");
    const view = JSON.parse(readFileSync("fixtures/ragchecker_reviewed.json", "utf8"));
    const asked = [];
    const el = document.createElement("div");
    document.body.appendChild(el);
    mountSampleView(el, { view, send: () => {}, note: (i) => asked.push(i) });
    const buttons = el.querySelectorAll('[data-testid="claim-note"]');
    expect(buttons.length).toBe(view.claims.length);
    buttons[1].click();
    expect(asked).toEqual([1]);
    const plain = document.createElement("div");
    document.body.appendChild(plain);
    mountSampleView(plain, { view, send: () => {} });
    expect(plain.querySelector('[data-testid="claim-note"]')).toBeNull();
  });
});

describe("the note box between Enter and the next sample (review 37, findings 1, 5, 11)", () => {
  it("sends nothing to the last sample on a second Enter; the typing ahead stays for the next", async () => {
    const m = mount(notes("q1"), () => new Promise(() => {})); // the kernel is busy
    m.typeInto("note-text", "wrong year");
    key(m.box(), "Enter"); await tick();
    m.typeInto("note-text", "typed ahead for q2");
    key(m.box(), "Enter"); await tick();
    key(m.box(), "Enter"); await tick();
    expect(m.asked.length).toBe(1);
    expect(m.asked[0].note).toBe("wrong year");
    m.draw(notes("q2")); await tick();
    expect(m.box().value).toBe("typed ahead for q2");
    key(m.box(), "Enter"); await tick();
    expect(m.asked[1]).toMatchObject({ query_id: "q2", note: "typed ahead for q2" });
  });

  it("shows the saved note when the same sample comes back (the end of the queue), and Enter does not empty it", async () => {
    const m = mount(notes("q5"));
    m.typeInto("note-text", "wrong year");
    key(m.box(), "Enter"); await tick();
    m.draw(notes("q5", { sample: { note: "wrong year", tags: [] }, claims: {} })); await tick();
    expect(m.box().value).toBe("wrong year");
    expect(m.el.querySelector('[data-testid="note-state"]').textContent).toContain("nothing after this sample");
    key(m.box(), "Enter"); await tick();
    expect(m.asked.map((a) => a.note)).toEqual(["wrong year", "wrong year"]);
  });

  it("keeps what was typed ahead when the last note is refused, the refused one in the error line", async () => {
    let reject;
    const m = mount(notes("q1"), () => new Promise((_, r) => { reject = r; }));
    m.typeInto("note-text", "first note");
    key(m.box(), "Enter"); await tick();
    m.typeInto("note-text", "typed ahead for the next sample");
    await tick();
    reject(new Error("disk full")); await tick(); await tick();
    expect(m.box().value).toBe("typed ahead for the next sample");
    expect(m.el.querySelector('[data-testid="note-error"]').textContent).toContain("first note");
  });

  it("does not save on the Enter that confirms an input method's text", async () => {
    const m = mount(notes("q1"));
    m.typeInto("note-text", "日付");
    key(m.box(), "Enter", { isComposing: true }); await tick();
    expect(m.asked).toEqual([]);
  });
});
