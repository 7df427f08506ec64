// Failure notes (ragwidgets/widgets/dataset/notes.py). The reading queue's line over the table
// (started from Python, `ex.start_reading(n, where=...)`): "Reading 12 of 40 failing (where
// faithfulness < 1, random) · 8 read · 5 tagged · Saved to notes.jsonl", ◀ ▶ along it. The note
// box (NoteBox, drawn by the drill-down under its bar): the drilled sample's note, or one of its
// response claims' ("on", or a claim row's "✎ note", `opened`), a tags field (comma-separated; the run's tags offered as chips and a
// datalist). Key m focuses it (drill.js `navigate`); in it Enter saves and opens the next sample
// (the reading queue's; without one, the table's next row), Shift+Enter is a new line and Escape
// leaves it for the explorer. The box empties at once on Enter and the kernel writes; until the next
// sample is shown an Enter sends nothing (typing ahead stays in the box for it); a refused
// note comes back into the box with the kernel's reason, never lost. Keys typed in it stay in it:
// the explorer's root keeps plain keys from the host (keys.js), and Enter, Shift+Enter and Escape
// are stopped here (the host would run the cell or leave the widget).
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { html } from "../incremental.js";
import { showId } from "../text.js";

export const NOTE_KEY = "m"; // focuses the note box (memo); free among the explorer's keys
const SUGGESTED = 8; // the run's most used tags offered as chips

/** Tags as typed: split on commas, trimmed, blanks and repeats dropped. */
export const splitTags = (text) => [...new Set(text.split(",").map((t) => t.trim().replace(/\s+/g, " ")).filter(Boolean))];

/** The tags field with `tag` added, or taken out when it is there. */
export function toggleTag(text, tag) {
  const tags = splitTags(text);
  return (tags.includes(tag) ? tags.filter((t) => t !== tag) : [...tags, tag]).join(", ");
}

/** The note in force on `on` ("" the sample, else a claim's index as text) of the shown notes. */
const noteOn = (shown, on) => (shown ? (on === "" ? shown.sample : shown.claims[on]) : null) || null;

/** Focus the note box of the explorer (or SampleExplorer) that holds `from` (key m); true when there is one. */
export function focusNoteBox(from) {
  const root = from && from.closest ? from.closest(".rw-ds, .rw-widget") : null;
  const box = root && root.querySelector('[data-testid="note-text"]');
  if (!box) return false;
  box.focus();
  return true;
}

export function NoteBox({ notes, claims, request, opened = null }) {
  const sample = notes && notes.query_id ? `${notes.run}\u0000${notes.query_id}` : "";
  const [on, setOn] = useState(""); // "" the sample, else a response claim's index
  const [text, setText] = useState("");
  const [tags, setTags] = useState("");
  const [state, setState] = useState(""); // "", "saving", "saved <id>" or the kernel's refusal
  const dirty = useRef(false); // typed since the box was filled
  const pending = useRef(false); // saved with Enter: the next sample is on its way
  const shownFor = useRef({ sample: null, on: "" }); // what the box was last filled for
  const viewFor = useRef(notes); // the view the box last saw (a new one while pending: the kernel answered)
  const textBox = useRef(null);
  const tagsBox = useRef(null);
  useEffect(() => { // a claim row's "note" (opened: {claim, seq}): the box on that claim, focused
    if (!opened) return;
    setOn(String(opened.claim));
    if (textBox.current) textBox.current.focus();
  }, [opened]);
  useLayoutEffect(() => { // a new sample or target: its note in force, unless the box holds typing
    const last = shownFor.current;
    const redrawn = viewFor.current !== notes;
    viewFor.current = notes;
    if (pending.current && redrawn && last.sample === sample) { // the same sample again (the end of the queue): its note in force
      pending.current = false;
      setState("nothing after this sample: its saved note is shown");
      if (dirty.current) return; // typed ahead: kept, and not sent
      const mine = noteOn(notes && notes.shown, on);
      setText(mine ? mine.note : "");
      setTags(mine ? mine.tags.join(", ") : "");
      return;
    }
    if (last.sample === sample && last.on === on) return;
    if (last.sample !== sample && on !== "") { // a new sample: on itself first (a claim index is the last one's)
      setOn("");
      return;
    }
    shownFor.current = { sample, on };
    if (last.sample === sample && (pending.current || dirty.current)) return; // typing, or the next is on its way
    if (last.sample !== sample && pending.current && dirty.current) { // typed ahead of the next sample: kept for it
      pending.current = false;
      return;
    }
    if (!pending.current || last.sample === sample) setState(""); // "saved <the last>" stays only as the next opens
    pending.current = false;
    dirty.current = false;
    const mine = noteOn(notes && notes.shown, on);
    setText(mine ? mine.note : "");
    setTags(mine ? mine.tags.join(", ") : "");
  });
  if (!notes) return null;
  if (!notes.available) return html`<div class="rw-hint" data-testid="notes-unavailable">${notes.said}</div>`;
  if (!notes.query_id) return null;
  const edit = (set) => (e) => { dirty.current = true; set(e.target.value); };
  const save = (advance) => { // what the boxes hold now (a key pressed before the last render included)
    if (pending.current) { // the next sample is not shown yet: nothing goes to the last one; typing ahead stays
      setState("waiting for the next sample…");
      return;
    }
    const back = { text: textBox.current.value, tags: tagsBox.current.value, on };
    const sent = { query_id: notes.query_id, run: notes.run, note: back.text, tags: splitTags(back.tags), advance };
    if (on !== "") sent.claim = Number(on);
    dirty.current = false;
    if (advance) { // moved on at once: the box is the next sample's, the cursor in it
      pending.current = true;
      setText(""); setTags(""); setOn("");
      textBox.current.focus();
    }
    setState("saving");
    request("note", sent).then(
      () => setState(`saved ${showId(sent.query_id)}${sent.claim === undefined ? "" : ` claim ${sent.claim + 1}`}`),
      (err) => { // refused (nothing moved): the typed note back in the box, with why; typed ahead kept, the refused one in the line
        pending.current = false;
        if (dirty.current) {
          setState(`not saved: ${err.message} · the note was: ${back.text}${back.tags ? ` (tags: ${back.tags})` : ""}`);
          return;
        }
        dirty.current = true;
        setText(back.text); setTags(back.tags); setOn(back.on);
        setState(`not saved: ${err.message}`);
      });
  };
  const onKey = (e) => {
    if (e.isComposing || e.keyCode === 229) return; // an input method's Enter confirms its text, not the note
    if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      e.stopPropagation();
      save(1);
    } else if (e.key === "Enter" && e.shiftKey) {
      e.stopPropagation(); // a new line here, not the host's "run the cell"
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      const root = e.target.closest(".rw-ds, .rw-widget");
      if (root) root.focus(); // leave the box; keys are the explorer's again
    }
  };
  const suggested = notes.tags.slice(0, SUGGESTED);
  const chosen = splitTags(tags);
  const list = `rw-note-tags-${notes.run}`.replace(/[^\w-]/g, "_");
  const refused = state.startsWith("not saved");
  const hint = state === "saving" ? "saving…" : refused ? "" : state;
  return html`<div class="rw-ds-note" data-testid="note-box" style="padding: 3px 6px; border-bottom: 1px solid var(--rw-border);">
    <div style="display: flex; gap: 4px; align-items: flex-start; flex-wrap: wrap;">
      <select data-testid="note-on" value=${on} title="What the note is on" style="max-width: 12em; min-width: 0;"
        onChange=${(e) => { setOn(e.target.value); }}>
        <option value="">Note: this sample</option>
        ${(claims || []).map((c, i) => html`<option value=${String(i)}>${`Note: claim ${i + 1}, ${c.text.slice(0, 60)}`}${noteOn(notes.shown, String(i)) ? " ✎" : ""}</option>`)}
      </select>
      <textarea ref=${textBox} data-testid="note-text" rows=${Math.min(4, text.split("\n").length)}
        style="flex: 3 1 14em; min-width: 0; box-sizing: border-box; resize: vertical;"
        placeholder=${`What went wrong? (${NOTE_KEY}; Enter: next)`}
        title=${`Key ${NOTE_KEY} comes here · Enter saves and opens the next sample · Shift+Enter: a new line · Esc leaves`}
        aria-label="failure note" value=${text} onInput=${edit(setText)} onKeyDown=${onKey} />
      <input ref=${tagsBox} type="text" data-testid="note-tags" list=${list} value=${tags} style="flex: 1 1 9em; min-width: 0;"
        placeholder="tags, comma-separated" aria-label="tags (failure modes), comma-separated" onInput=${edit(setTags)} onKeyDown=${onKey} />
      <datalist id=${list}>${notes.tags.map((t) => html`<option value=${t} />`)}</datalist>
      <button type="button" data-testid="note-save" onClick=${() => save(0)} title="Save, stay on this sample">Save</button>
    </div>
    <div class="rw-hint" style="display: flex; gap: 4px; align-items: center; flex-wrap: wrap; font-size: 0.9em;">
      ${suggested.map((t) => html`<button type="button" class=${`rw-ds-chip${chosen.includes(t) ? " rw-ds-on" : ""}`}
        data-testid="note-tag-chip" title=${chosen.includes(t) ? `Take tag ${t} off` : `Add tag ${t}`}
        onClick=${() => { dirty.current = true; setTags(toggleTag(tags, t)); }}>${t}</button>`)}
      <span data-testid="note-state" aria-live="polite">${hint}</span>
      <span style="overflow-wrap: anywhere; min-width: 0;">${notes.file}</span>
    </div>
    ${refused ? html`<div class="rw-ds-error" role="alert" data-testid="note-error" style="overflow-wrap: anywhere;">${state}</div>` : ""}
  </div>`;
}

function Reading({ part, request }) {
  const r = part.notes.reading;
  const step = (by) => request("reading", { step: by }).catch(() => null);
  return html`<div class="rw-ds-queue" role="status" data-testid="reading">
    <b data-testid="reading-line">${r.line}</b>${r.run ? ` · run ${showId(r.run)}` : ""} · <span class="rw-hint"
      data-testid="reading-file">${r.file}</span>
    <button type="button" onClick=${() => step(-1)} disabled=${r.position === 0} title="Previous to read">◀</button>
    <button type="button" onClick=${() => step(1)} disabled=${r.position >= r.total - 1} title="Next to read"
      data-testid="reading-next">▶</button>
    <span class="rw-hint">${` press ${NOTE_KEY} to write a note`}</span>
  </div>`;
}

export const panel = {
  key: "notes", place: "above", shows: (view) => !!(view.notes && view.notes.reading),
  part: (view) => ({ notes: view.notes }),
  traits: [],
  Panel: Reading,
};
