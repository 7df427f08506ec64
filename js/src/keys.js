// Keys pressed in a widget stay in it, in every host. A notebook binds plain keys in its command
// mode (A inserts a cell, C copies it, M makes it Markdown, J / K / arrows move the selection);
// a key typed in a widget must reach the widget alone. Hosts listen in two ways:
// - JupyterLab 4 (Lumino's application started with `bubblingKeydown`) and marimo (React's
//   handlers on its cells) hear a key as it bubbles: the root stops it there, after the widget's
//   own handlers ran.
// - Notebook 7 starts its Lumino application without `bubblingKeydown`: it hears every key on
//   `document` in the capture phase, before any element of the widget does. Lumino walks from
//   the key's target up to the first element a binding's selector matches (the command-mode
//   selectors end in `:focus`, so the target itself matches) and stops at an element that
//   carries `data-lm-suppress-shortcuts`. A listener on the window (the only node captured
//   before `document`) puts that attribute on the target of a plain key pressed inside a root,
//   for that key alone: the next key takes it away first, so a host key still matches.
// Host keys, which go on to the host: anything with Ctrl / Cmd / Alt (Ctrl+Enter runs the cell,
// Ctrl+S saves), Shift+Enter (run the cell and go on), Escape (leave the widget for the
// notebook) and Tab / Shift+Tab (focus moves on; the widget binds none). AltGr, which types
// characters such as [ and ] on many layouts, counts as plain.

const ROOT = "data-rw-keys"; // on each root that keeps its keys
const SUPPRESS = "data-lm-suppress-shortcuts"; // Lumino's: no shortcut matches at or above it

/** Whether keydown `e` belongs to the host rather than the widget (see above). */
export function forHost(e) {
  const altGraph = typeof e.getModifierState === "function" && e.getModifierState("AltGraph");
  return (!altGraph && (e.ctrlKey || e.metaKey || e.altKey)) || e.key === "Escape" || e.key === "Tab"
    || (e.shiftKey && e.key === "Enter");
}

let marked = null; // the element that carries SUPPRESS for the key being dispatched

/** Before a capture-phase host hears the key: its target carries SUPPRESS when the key is plain
 * and pressed inside a root (`e.target` as `document` sees it, a shadow root's host included). */
function mark(e) {
  if (marked) marked.removeAttribute(SUPPRESS);
  marked = null;
  const target = e.target;
  if (forHost(e) || !target || target.nodeType !== 1 || target.hasAttribute(SUPPRESS)) return;
  if (!e.composedPath().some((node) => node.nodeType === 1 && node.hasAttribute(ROOT))) return;
  target.setAttribute(SUPPRESS, "");
  marked = target;
}

const watched = new WeakSet(); // windows whose keys `mark` sees

/** Make `el` (a widget's root) keep the plain keys pressed inside it. `focusable`: the root also
 * takes focus when clicked anywhere inside (tabindex -1: not a Tab stop), so a key pressed after
 * a click on its text is the widget's too (an anywidget's own element; not a view mounted inside
 * another widget, whose clicks focus that widget). Returns the undo. */
export function keepKeys(el, { focusable = false } = {}) {
  const win = el.ownerDocument.defaultView;
  if (win && !watched.has(win)) {
    watched.add(win);
    win.addEventListener("keydown", mark, true);
  }
  el.setAttribute(ROOT, "");
  const focus = focusable && !el.hasAttribute("tabindex");
  if (focus) el.setAttribute("tabindex", "-1");
  const stop = (e) => { if (!forHost(e)) e.stopPropagation(); };
  el.addEventListener("keydown", stop);
  return () => {
    el.removeEventListener("keydown", stop);
    el.removeAttribute(ROOT);
    if (focus) el.removeAttribute("tabindex");
  };
}
