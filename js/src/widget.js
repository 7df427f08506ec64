// The anywidget module shared by Explorer and SampleExplorer: it draws the `_view` trait (the
// view state as JSON with the entailment matrix's cells as a binary buffer, view_trait.js)
// through the mountable sample view, and writes each user action back as trait changes. All
// metrics are recomputed in Python. A selection changes none: it is drawn here at once, on the
// last view, from what that view carries (selection.js), then set as the `selected` trait, which
// Python keeps without rebuilding the view; a selection Python makes (`select()`) arrives as
// change:selected and is drawn the same way. A SampleExplorer given notes= draws the
// DatasetExplorer's note box (dataset/notes.js) over the sample view; key m focuses it.
import { render as draw } from "preact";
import { focusNoteBox, NOTE_KEY, NoteBox } from "./dataset/notes.js";
import { html } from "./incremental.js";
import { mountSampleView } from "./sample_view.js";
import { viewOf } from "./view_trait.js";
import { forHost, keepKeys } from "./keys.js";
import { requester } from "./request.js";
import { withSelection } from "./selection.js";

function render({ model, el }) {
  let view = viewOf(model, "_view"); // the last view from Python; the selection is drawn on it
  const trait = () => model.get("selected") ?? (view && view.selected) ?? ""; // the view's own where no trait
  let drawn = { view: null, selected: null }; // what the sample view shows
  const shown = (selected = trait()) => {
    drawn = { view, selected };
    return withSelection(view, selected);
  };
  let sv = null;
  // A sample's `retrieved` goes in rank order (its Reset lists every passage by rank), the order
  // Python keeps: in any other it would send the list straight back, a second message per toggle.
  const ranked = (ids) => {
    const all = view && view.controls && view.controls.kind === "sample" ? view.controls.reset.retrieved : null;
    const set = new Set(ids);
    return all && ids.every((d) => all.includes(d)) ? all.filter((d) => set.has(d)) : ids;
  };
  const send = (patch) => {
    if ("selected" in patch) sv.update(shown(patch.selected)); // drawn before Python hears of it
    if ("retrieved" in patch) patch = { ...patch, retrieved: ranked(patch.retrieved) };
    for (const [name, value] of Object.entries(patch)) model.set(name, value);
    model.save_changes();
  };
  el.classList.add("rw-widget");
  const unkeep = keepKeys(el, { focusable: true }); // keys pressed in it stay in it (keys.js)
  const { ask, stop } = requester(model);
  // a failed request shows where its answer would have: the picker's alert, the trace panel
  const search = (text) => ask({ type: "search", text }).catch((err) => ({ error: `search failed: ${err.message}` }));
  const review = (action) => model.send({ type: "review", ...action });
  const trace = (target) => ask({ type: "trace", ...target })
    .catch((err) => ({ trace: null, reason: `the trace request failed: ${err.message}` }));
  const queue = (step) => model.send({ type: "queue", step });
  const noted = !!(view && view.notes); // notes= given: the note box over the sample view, each in its own element
  const boxEl = noted ? el.appendChild(document.createElement("div")) : null;
  let opened = null; // a claim row's "note": {claim, seq}, the note box opens on it
  const note = () => boxEl && draw(html`<${NoteBox} notes=${view.notes} claims=${view.claims}
    request=${(name, msg) => ask({ type: name, ...msg })} opened=${opened} />`, boxEl);
  // key m: from inside the sample view (its keys stop there) and from the widget itself (focused by a click)
  const keys = noted ? (e) => e.key === NOTE_KEY && focusNoteBox(e.target) && (e.preventDefault(), true) : null;
  const onKey = (e) => !forHost(e) && !e.target.closest("input, select, textarea") && keys(e);
  if (noted) el.addEventListener("keydown", onKey);
  sv = mountSampleView(noted ? el.appendChild(document.createElement("div")) : el,
    { view: shown(), send, search, review, trace, queue, keys,
      note: noted ? (claim) => { opened = { claim, seq: Date.now() }; note(); } : null });
  note();
  const redraw = () => { // a new view, or its base (a view sent as changes reads both)
    const next = viewOf(model, "_view");
    if (next === view) return;
    view = next;
    sv.update(shown());
    note();
  };
  const reselect = () => { // a selection from Python, or the echo of the one drawn
    if (drawn.view !== view || drawn.selected !== trait()) sv.update(shown());
  };
  model.on("change:_view", redraw);
  model.on("change:_view_base", redraw);
  model.on("change:selected", reselect);
  return () => {
    model.off("change:_view", redraw);
    model.off("change:_view_base", redraw);
    model.off("change:selected", reselect);
    sv.destroy();
    if (boxEl) {
      draw(null, boxEl);
      el.removeEventListener("keydown", onKey);
    }
    stop();
    unkeep();
  };
}

export default { render };
