// The DatasetExplorer's drill-down, beside the table: the one-sample view (sample_view.js) of the
// selected row (`_drill`), and of the same query in the baseline run when runs are compared
// (`_other`), with ◀ ▶ to step through the rows and the query_id to copy. Toggling a passage, a
// review and a trace are requests to the kernel ("drill", "review", "trace"); a failed one says so
// above the views. Selecting a claim or a passage asks the kernel nothing: it is drawn here
// (selection.js) and kept while the same sample is shown. The keyboard review (sample_view.js):
// the next label to review (of the review queue's kinds, `queue`) takes focus when a sample opens
// or a label is reviewed, and the main view's last label moves the queue on; keys the view leaves
// are the explorer's (`navigate`: j / k / ↓ / ↑ step the table's rows, ] and [ the queue, m the
// note box) here too. The note box (notes.js) sits under the bar, for the main view's sample.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../incremental.js";
import { mountSampleView } from "../sample_view.js";
import { withSelection } from "../selection.js";
import { showId } from "../text.js";
import { focusNoteBox, NOTE_KEY, NoteBox } from "./notes.js";

/** Put `text` on the clipboard (the asynchronous clipboard API); where it is refused or missing,
 * select the text in `input` so that Ctrl+C copies it. A promise of what happened. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return "copied";
  } catch {
    if (input) {
      input.value = text;
      input.hidden = false;
      input.focus();
      input.select();
    }
    return "selected: press Ctrl+C (⌘C) to copy";
  }
}

/** The DatasetExplorer's navigation keys (outside text boxes): j / ↓ and k / ↑ step the table's
 * rows (`step(delta)`), ] and [ the review queue (`queue(step)`; null: no queue), m focuses the
 * note box. True when handled. */
export function navigate(e, step, queue) {
  if (e.target.closest("input, select, textarea")) return false;
  if (e.key === NOTE_KEY && focusNoteBox(e.target)) {
    e.preventDefault(); // focused, not typed into it
    return true;
  }
  const by = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1 }[e.key];
  if (by) {
    e.preventDefault();
    step(by);
    return true;
  }
  if (queue && (e.key === "]" || e.key === "[")) {
    e.preventDefault();
    queue(e.key === "]" ? 1 : -1);
    return true;
  }
  return false;
}

const selectable = (view) => new Set([...view.sources, ...view.claims, ...view.gt_claims].map((x) => x.key));

/** The selection `kept` ({sample, selected}) carried over to `view`: the same while it shows the
 * same sample (its title and query_id) and the item is still there, else none. */
export function keptSelection(kept, view) {
  const sample = `${view.title}\u0000${view.query_id}`;
  const same = kept && kept.sample === sample && (!kept.selected || selectable(view).has(kept.selected));
  return { sample, selected: same ? kept.selected : "" };
}

function Drill({ part, request }) {
  const { drill, other, selected: sel, count, notes } = part;
  const queued = useRef(null);
  queued.current = part.queue; // read when a key or a review asks
  const main = useRef(null);
  const otherRef = useRef(null);
  const mounted = useRef({});
  const kept = useRef({}); // which -> {sample, selected}: the selection drawn on that view
  const latest = useRef({}); // which -> the kernel's last view
  const [failed, setFailed] = useState(""); // why the drill-down's last request failed
  const [opened, setOpened] = useState(null); // a claim row's "note": {claim, seq}, the note box opens on it
  const drillAsk = (name, msg) => request(name, msg).then((reply) => { setFailed(""); return reply; },
    (err) => { setFailed(`${name === "drill" ? "the drill-down" : name} failed: ${err.message}`); return null; });
  const shown = (which, next) => {
    latest.current[which] = next;
    kept.current[which] = keptSelection(kept.current[which], next);
    return withSelection(next, kept.current[which].selected);
  };
  const sync = (which, ref, next) => {
    const m = mounted.current[which];
    if (!next) {
      if (m) { m.destroy(); delete mounted.current[which]; }
      delete kept.current[which];
      delete latest.current[which];
      return;
    }
    if (m) m.update(shown(which, next));
    else if (ref.current) {
      const send = ({ selected, ...patch }) => {
        if (selected !== undefined) {
          kept.current[which].selected = selected;
          mounted.current[which].update(withSelection(latest.current[which], selected)); // drawn at once
        }
        if (Object.keys(patch).length) drillAsk("drill", { which, patch });
      };
      const queue = (by) => (queued.current ? drillAsk("queue", { step: by }) : null);
      const isMain = which === "main"; // the queue is the main view's: the baseline's sample finished moves nothing
      mounted.current[which] = mountSampleView(ref.current, {
        view: shown(which, next), send, queue: isMain ? queue : null, queued: isMain ? () => queued.current : null,
        kinds: () => (queued.current ? queued.current.kinds : null),
        note: isMain && notes && notes.available ? (claim) => setOpened({ claim, seq: Date.now() }) : null,
        keys: (e) => !(e.key.startsWith("Arrow") && e.target.matches(".rw-scroll, .rw-matrix-wrap")) // an arrow scrolls a region
          && navigate(e, (by) => request("step", { delta: by }).catch(() => null), queued.current ? queue : null),
        review: (action) => drillAsk("review", { which, ...action }),
        trace: (target) => request("trace", { which, ...target })
          .catch((err) => ({ trace: null, reason: `the trace request failed: ${err.message}` })),
      });
    }
  };
  useEffect(() => {
    sync("main", main, drill);
    sync("other", otherRef, other);
  });
  useEffect(() => () => Object.values(mounted.current).forEach((m) => m.destroy()), []);
  const copyBox = useRef(null);
  const [copied, setCopied] = useState("");
  useEffect(() => { setCopied(""); setFailed(""); }, [sel.row]);
  const step = (delta) => request("step", { delta }).catch(() => null);
  return html`<div class="rw-ds-drill" data-testid="drill">
    <div class="rw-ds-drill-bar">
      <button onClick=${() => step(-1)} title="Previous row (↑ or k)">◀</button>
      <button onClick=${() => step(1)} title="Next row (↓ or j)">▶</button>
      <span class="rw-hint">${sel.row < 0 ? "Select a row (or press ↓) to open the sample."
        : `${sel.run ? showId(sel.run) + " · " : ""}${showId(sel.query_id)} · row ${sel.index + 1} of ${count}${sel.index < 0 ? " (not among the rows shown)" : ""}`}</span>
      ${sel.row >= 0 ? html`<button data-testid="copy-id" title="Copy this sample's query_id"
          onClick=${() => copyText(sel.query_id, copyBox.current).then(setCopied)}>Copy query_id</button>
        <input ref=${copyBox} class="rw-ds-copy" readonly hidden data-testid="copy-box" aria-label="query_id" />
        ${copied ? html`<span class="rw-hint" role="status">${copied}</span>` : ""}` : ""}
    </div>
    ${failed ? html`<div class="rw-ds-error" role="alert" data-testid="drill-error">${failed}</div>` : ""}
    ${sel.row >= 0 ? html`<${NoteBox} key="notes" notes=${notes} claims=${drill ? drill.claims : null} request=${request}
      opened=${opened} />` : ""}
    <div class="rw-ds-drill-views" key="views">
      <div class="rw-ds-drill-view" ref=${main} data-testid="drill-main" />
      ${other ? html`<div class="rw-ds-drill-view" ref=${otherRef} data-testid="drill-other" />` : ""}
    </div>
  </div>`;
}

export const panel = {
  key: "drill", place: "detail", shows: () => true,
  part: (view, views) => ({ drill: views._drill, other: views._other, selected: view.selected, count: view.count,
    queue: view.queue || null, notes: view.notes || null }),
  traits: [],
  Panel: Drill,
};
