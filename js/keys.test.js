// keys.js: plain keys pressed in a widget stay in it; the host's keys (Ctrl / Cmd / Alt, Escape,
// Shift+Enter, Tab) go on. Two kinds of host are played here: one that listens as keys bubble
// (JupyterLab, marimo) and one that listens on `document` in the capture phase and skips a key
// whose path has Lumino's data-lm-suppress-shortcuts (Notebook 7).
import { afterEach, describe, expect, it } from "vitest";
import { forHost, keepKeys } from "./src/keys.js";

const PLAIN = ["e", "n", "c", "a", "u", "w", "]", "[", "j", "k", "ArrowDown", "ArrowUp", "m", "y", "d", "z", "x", "v", "b", "Enter", " "];
const HOST = [{ key: "Escape" }, { key: "Enter", shiftKey: true }, { key: "Enter", ctrlKey: true }, { key: "s", ctrlKey: true },
  { key: "s", metaKey: true }, { key: "Tab" }, { key: "Tab", shiftKey: true }, { key: "a", altKey: true }];

/** Whether a Lumino host (its key matching as in @lumino/commands) runs a command-mode binding
 * on the key: it walks from the target up, stops (no match) at an element that carries
 * data-lm-suppress-shortcuts, and takes the first element the binding's selector matches. The
 * command-mode selectors end in `:focus`: the focused target itself matches. */
const luminoSees = (e) => {
  for (let n = e.target; n && n.nodeType === 1; n = n.parentElement) {
    if (n.hasAttribute("data-lm-suppress-shortcuts")) return false;
    if (n === e.target) return true;
  }
  return false;
};

let undo = [];
afterEach(() => {
  undo.forEach((f) => f());
  undo = [];
  document.body.innerHTML = "";
});

/** A notebook: a cell holding a widget root (with an input, a button and a row inside), the
 * root kept, and the keys each kind of host heard. */
function notebook({ focusable = false } = {}) {
  const cell = document.createElement("div");
  cell.innerHTML = `<div class="root"><input class="box" /><button class="btn">ok</button><div class="row" tabindex="0">row</div></div>`;
  document.body.append(cell);
  const root = cell.querySelector(".root");
  const heard = { bubble: [], capture: [], widget: [] };
  const bubble = (e) => heard.bubble.push(e.key);
  const capture = (e) => { if (luminoSees(e)) heard.capture.push(e.key); };
  document.addEventListener("keydown", bubble);
  document.addEventListener("keydown", capture, true);
  root.querySelector(".row").addEventListener("keydown", (e) => heard.widget.push(e.key));
  undo.push(() => {
    document.removeEventListener("keydown", bubble);
    document.removeEventListener("keydown", capture, true);
  });
  undo.push(keepKeys(root, { focusable }));
  return { cell, root, heard };
}

const press = (target, init) => {
  const e = new KeyboardEvent("keydown", { bubbles: true, cancelable: true, composed: true, ...init });
  target.dispatchEvent(e);
  return e;
};

describe("forHost", () => {
  it("gives the host its shortcuts and the widget every plain key", () => {
    for (const key of PLAIN) expect(forHost(new KeyboardEvent("keydown", { key })), key).toBe(false);
    for (const init of HOST) expect(forHost(new KeyboardEvent("keydown", init)), JSON.stringify(init)).toBe(true);
    expect(forHost(new KeyboardEvent("keydown", { key: "A", shiftKey: true }))).toBe(false); // Shift+A types A
  });

  it("counts AltGr (Ctrl+Alt on some systems) as plain: it types [ and ] on many layouts", () => {
    const e = new KeyboardEvent("keydown", { key: "]", ctrlKey: true, altKey: true, modifierAltGraph: true });
    expect(e.getModifierState("AltGraph")).toBe(true);
    expect(forHost(e)).toBe(false);
  });
});

describe("keepKeys", () => {
  it("keeps every plain key from a bubbling host and from a capturing Lumino host; the widget hears it", () => {
    const { root, heard } = notebook();
    const row = root.querySelector(".row");
    for (const key of PLAIN) press(row, { key });
    expect(heard.bubble).toEqual([]);
    expect(heard.capture).toEqual([]);
    expect(heard.widget).toEqual(PLAIN);
  });

  it("lets the host's keys through to both kinds of host, and the widget hears them first", () => {
    const { root, heard } = notebook();
    const row = root.querySelector(".row");
    press(row, { key: "a" }); // a plain key first: the mark it leaves must not hold back the next
    for (const init of HOST) press(row, init);
    const keys = HOST.map((x) => x.key);
    expect(heard.bubble).toEqual(keys);
    expect(heard.capture).toEqual(keys);
    expect(heard.widget).toEqual(["a", ...keys]);
  });

  it("leaves typing alone: a key in the widget's input is not default-prevented", () => {
    const { root, heard } = notebook();
    const e = press(root.querySelector(".box"), { key: "a" });
    expect(e.defaultPrevented).toBe(false);
    expect(heard.bubble).toEqual([]);
    expect(heard.capture).toEqual([]);
  });

  it("marks nothing but the target of the key being pressed, and only while it is", () => {
    const { root, heard } = notebook();
    const row = root.querySelector(".row");
    const button = root.querySelector(".btn");
    press(row, { key: "a" });
    expect(row.hasAttribute("data-lm-suppress-shortcuts")).toBe(true);
    press(button, { key: "b" });
    expect(row.hasAttribute("data-lm-suppress-shortcuts")).toBe(false);
    expect(button.hasAttribute("data-lm-suppress-shortcuts")).toBe(true);
    press(button, { key: "Escape" });
    expect(button.hasAttribute("data-lm-suppress-shortcuts")).toBe(false);
    expect(root.querySelectorAll("[data-lm-suppress-shortcuts]").length).toBe(0);
    expect(heard.capture).toEqual(["Escape"]);
  });

  it("a view kept inside another kept root (a drill-down's sample view) keeps its keys too", () => {
    const { root, heard } = notebook();
    const inner = document.createElement("div");
    inner.innerHTML = `<div class="deep" tabindex="0"></div>`;
    root.append(inner);
    undo.push(keepKeys(inner));
    const deep = inner.querySelector(".deep");
    press(deep, { key: "a" });
    press(deep, { key: "Enter", shiftKey: true });
    expect(heard.capture).toEqual(["Enter"]);
    expect(heard.bubble).toEqual(["Enter"]);
  });

  it("keys outside a kept root reach the host as before", () => {
    const { cell, heard } = notebook();
    const outside = document.createElement("div");
    outside.tabIndex = 0;
    cell.append(outside);
    press(outside, { key: "a" });
    expect(heard.bubble).toEqual(["a"]);
    expect(heard.capture).toEqual(["a"]);
  });

  it("a focusable root takes focus from a click on its text (tabindex -1, no Tab stop); the undo puts it back", () => {
    const { root } = notebook({ focusable: true });
    expect(root.getAttribute("tabindex")).toBe("-1");
    undo.pop()();
    expect(root.hasAttribute("tabindex")).toBe(false);
    expect(root.hasAttribute("data-rw-keys")).toBe(false);
    const plain = notebook();
    expect(plain.root.hasAttribute("tabindex")).toBe(false);
  });

  it("after the undo, keys reach the host again", () => {
    const { root, heard } = notebook();
    undo.pop()();
    press(root.querySelector(".row"), { key: "a" });
    expect(heard.bubble).toEqual(["a"]);
    expect(heard.capture).toEqual(["a"]);
  });
});
