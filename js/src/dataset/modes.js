// The DatasetExplorer's failure modes (ragwidgets/widgets/dataset/modes.py), a tab of the drawer
// shown when a run has notes or a notes file: the analyst's axial coding. Per mode (a tag): the
// samples tagged of those read and the rate among them with its 95% interval, and, when the
// samples read follow a design (the reading queue), the estimated share of the run; with several
// runs, a modes × runs grid (each cell's shade its rate). A mode's name (or a run's cell) keeps its
// samples as the explorer's `samples` (the toolbar's chip clears it). Rename (✎, inline), merge
// (tick two or more, name them), split (the mode's notes with checkboxes, a new tag) append the
// changed notes' new versions in the kernel; grouping proposals of the untagged notes (by text, or
// by the judge) are listed to accept (their notes tagged, the name as edited) or reject. The table
// costs the kernel a pass over the run, so a note leaves it `stale` (its figures kept, "Updating…")
// and it is asked for ("modes_table") when the tab opens and after a pause in the note taking
// (common.js PAUSE), never on each note. Notes and tags are the analyst's text, drawn as text.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../incremental.js";
import { showId } from "../text.js";
import { PAUSE, toggled } from "./common.js";

/** A fraction as a whole percent ("<1%" / ">99%" near the ends, never a rounded 0% or 100%), "" for none;
 * the twin of ragwidgets.analysis.failure_modes.percent. */
export function pct(x) {
  if (x === null || x === undefined) return "";
  if (x > 0 && x < 0.005) return "<1%";
  if (x < 1 && x >= 0.995) return ">99%";
  return `${Math.round(x * 100)}%`;
}

/** A rate with its interval: "30% (11%–60%)"; "Undefined" without a rate. */
export function rateText(rate, lo, hi) {
  if (rate === null || rate === undefined) return "Undefined";
  return lo === null || lo === undefined ? pct(rate) : `${pct(rate)} (${pct(lo)}–${pct(hi)})`;
}

/** The background of a grid cell: the accent at an opacity that grows with the rate. */
export const heat = (rate) => (rate === null || rate === undefined ? "" : `background: color-mix(in srgb, var(--rw-accent) ${Math.round(8 + 52 * rate)}%, transparent)`);

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const fail = () => null; // a failed request's error shows in the explorer's alert

/** A mode's name, inline-editable: click ✎, type, Enter renames (Escape leaves it). */
function ModeName({ m, pick, rename }) {
  const [editing, setEditing] = useState(null);
  if (editing !== null) {
    return html`<input class="rw-ds-modes-rename" data-testid="mode-rename" value=${editing} aria-label=${`New name of ${m.mode}`}
      ref=${(el) => el && !el.dataset.focused && (el.dataset.focused = "1", el.focus())}
      onInput=${(e) => setEditing(e.target.value)}
      onKeyDown=${(e) => {
        if (e.key === "Enter") rename(m.mode, e.target.value).then((ok) => ok && setEditing(null));
        if (e.key === "Escape") setEditing(null);
      }} />`;
  }
  return html`<button type="button" class="rw-idlink rw-ds-modes-name" data-testid="mode-pick" data-mode=${m.mode}
      title="Show this mode's samples in the table" onClick=${() => pick(m.mode, "")}>${m.mode}</button>
    <button type="button" class="rw-ds-modes-icon" title="Rename this mode" aria-label=${`Rename ${m.mode}`}
      data-testid="mode-edit" onClick=${() => setEditing(m.mode)}>✎</button>`;
}

/** One run's figures of a mode: tagged / read, the rate among read, the share of the run. */
function Cell({ c, onPick }) {
  if (!c) return html`<td class="rw-num rw-hint">—</td>`;
  const share = c.run_rate !== null && c.run_rate !== undefined;
  return html`<td class="rw-num rw-ds-modes-cell" style=${heat(c.rate)}>
    <button type="button" class="rw-ds-cell" onClick=${onPick} title="Show these samples in the table">
      <b>${c.tagged}</b>/${c.read} · ${rateText(c.rate, c.lo, c.hi)}${share ? html`<br /><span class="rw-hint">run ${rateText(c.run_rate, c.run_lo, c.run_hi)}</span>` : ""}
    </button></td>`;
}

/** A mode's notes, each with a checkbox, and the new tag those ticked get. */
function Split({ mode, request, done }) {
  const [notes, setNotes] = useState(null);
  const [ticked, setTicked] = useState([]);
  const [name, setName] = useState("");
  useEffect(() => { request("modes_notes", { mode }).then(setNotes, () => done()); }, [mode]);
  if (notes === null) return html`<p class="rw-hint">Loading the notes of ${mode}…</p>`;
  const key = (n) => JSON.stringify([n.run, n.query_id, n.claim]);
  const split = () => request("modes_split", { mode, new: name, keys: ticked.map((k) => JSON.parse(k)) }).then(done, fail);
  return html`<div class="rw-ds-modes-split" data-testid="mode-split">
    <b>Split ${mode}:</b> tick the notes that get a new tag.
    <ul>${notes.notes.map((n) => html`<li><label><input type="checkbox" checked=${ticked.includes(key(n))}
        onChange=${() => setTicked((t) => toggled(t, key(n)))} />
      <span class="rw-idtext">${showId(n.query_id)}${n.claim === null ? "" : ` · claim ${n.claim + 1}`}</span> ${n.note || html`<i class="rw-hint">(no text)</i>`}</label></li>`)}
    </ul>${notes.more ? html`<p class="rw-hint">${notes.more} more not listed.</p>` : ""}
    <input placeholder="new tag" value=${name} onInput=${(e) => setName(e.target.value)} data-testid="split-name" />
    <button type="button" disabled=${!ticked.length || !name.trim()} onClick=${split}>Split off ${ticked.length}</button>
    <button type="button" onClick=${done}>Cancel</button>
  </div>`;
}

/** A grouping proposal: its name (editable), why, its notes; Accept tags them, Reject drops it. */
function Proposal({ p, i, request }) {
  const [name, setName] = useState(p.name);
  return html`<li class="rw-ds-modes-proposal" data-testid="proposal">
    <input value=${name} onInput=${(e) => setName(e.target.value)} aria-label="Name of this mode" data-testid="proposal-name" />
    <button type="button" data-testid="proposal-accept" disabled=${!name.trim()}
      onClick=${() => request("modes_accept", { index: i, name }).catch(fail)}>Accept</button>
    <button type="button" data-testid="proposal-reject" onClick=${() => request("modes_reject", { index: i }).catch(fail)}>Reject</button>
    <span class="rw-hint"> ${plural(p.n, "note")} · ${p.why}${p.source === "judge" ? " (judge)" : ""}</span>
    <ul>${p.notes.map((n) => html`<li><span class="rw-idtext">${showId(n.query_id)}</span> ${n.note}</li>`)}
      ${p.n > p.notes.length ? html`<li class="rw-hint">… ${p.n - p.notes.length} more</li>` : ""}</ul>
  </li>`;
}

function Modes({ part: m, request, set }) {
  const opened = useRef(true);
  useEffect(() => { // the table costs a pass over the run: asked for when the tab opens, and after a pause in the note taking
    const first = opened.current;
    opened.current = false;
    if (!m.stale) return undefined;
    const t = setTimeout(() => request("modes_table").catch(fail), first ? 0 : PAUSE);
    return () => clearTimeout(t);
  });
  const [ticked, setTicked] = useState([]);
  const [mergeName, setMergeName] = useState("");
  const [splitting, setSplitting] = useState("");
  const runs = m.runs;
  const grid = runs.length > 1;
  const pick = (mode, run) => request("modes_pick", { mode, run })
    .then((r) => set({ samples: { label: r.label, query_ids: r.query_ids }, ...(r.run ? { run: r.run } : {}) }))
    .catch(fail);
  const rename = (mode, name) => request("modes_rename", { mode, new: name }).then(() => true, () => false);
  const merge = () => request("modes_merge", { modes: ticked, new: mergeName })
    .then(() => { setTicked([]); setMergeName(""); }, fail);
  const read = runs.map((r) => `${plural(m.read[r], "sample")} read${grid ? ` in ${showId(r)}` : ""}`).join(" · ");
  const basis = runs.filter((r) => m.basis[r]).map((r) => `${grid ? `${showId(r)}: ` : ""}${m.basis[r]}`).join("; ");
  return html`<div class="rw-ds-panel rw-ds-modes" data-testid="modes">
    <p class="rw-hint" data-testid="modes-line">${read} · ${plural(m.modes.length, "mode")} · ${plural(m.untagged, "untagged note")} · ${m.files.length ? `edits saved to ${m.files.join(", ")}` : "edits kept in memory (no notes file)"}</p>
    ${m.stale ? html`<p class="rw-hint" data-testid="modes-stale"><b>${m.modes.length ? "Updating after the latest notes…" : "Counting…"}</b></p>` : ""}
    ${m.modes.length ? html`<table class="rw-table rw-ds-modes-table" data-testid="modes-table">
      <thead><tr><th scope="col" title="Tick two or more to merge them">merge</th><th scope="col">mode</th>
        ${grid ? runs.map((r) => html`<th scope="col" class="rw-num">${showId(r)}</th>`)
          : html`<th scope="col">tagged / read</th><th scope="col">rate among read (95%)</th><th scope="col">share of the run (95%)</th>`}
        <th scope="col"></th></tr></thead>
      <tbody>${m.modes.map((x) => {
        const c = x.runs[runs[0]];
        return html`<tr key=${x.mode} data-mode=${x.mode}>
          <td><input type="checkbox" aria-label=${`Merge ${x.mode}`} checked=${ticked.includes(x.mode)}
            onChange=${() => setTicked((t) => toggled(t, x.mode))} /></td>
          <td><${ModeName} m=${x} pick=${pick} rename=${rename} /></td>
          ${grid ? runs.map((r) => html`<${Cell} c=${x.runs[r]} onPick=${() => pick(x.mode, r)} />`)
            : html`<td class="rw-num" data-testid="mode-count"><b>${c.tagged}</b> / ${c.read}</td>
              <td class="rw-num" data-testid="mode-rate" style=${heat(c.rate)}>${rateText(c.rate, c.lo, c.hi)}</td>
              <td class="rw-num" data-testid="mode-share">${c.run_rate === null ? html`<span class="rw-hint" title=${basis}>no design</span>` : rateText(c.run_rate, c.run_lo, c.run_hi)}</td>`}
          <td><button type="button" data-testid="mode-split-open" onClick=${() => setSplitting(splitting === x.mode ? "" : x.mode)}>Split…</button></td>
        </tr>`;
      })}</tbody></table>` : m.stale ? "" : html`<p class="rw-hint">No mode yet: tag notes in the drill-down, or propose groupings of the untagged notes.</p>`}
    ${basis ? html`<p class="rw-hint" data-testid="modes-basis">${basis}</p>` : ""}
    ${ticked.length > 1 ? html`<p class="rw-ds-modes-merge">Merge ${ticked.join(", ")} into
      <input placeholder="name" value=${mergeName} onInput=${(e) => setMergeName(e.target.value)} data-testid="merge-name" />
      <button type="button" disabled=${!mergeName.trim()} onClick=${merge} data-testid="merge">Merge</button></p>` : ""}
    ${splitting ? html`<${Split} key=${splitting} mode=${splitting} request=${request} done=${() => setSplitting("")} />` : ""}
    <div class="rw-ds-modes-proposals">
      <button type="button" data-testid="propose" disabled=${!m.untagged}
        onClick=${() => request("modes_propose", {}).catch(fail)}>Propose groupings</button>
      ${m.judge ? html`<button type="button" data-testid="propose-judge" disabled=${!m.untagged}
        onClick=${() => request("modes_propose", { judge: true }).catch(fail)}>Ask the judge</button>` : ""}
      ${m.proposed ? html`<span class="rw-hint"> ${m.proposed}${m.proposals.length ? "" : " · none left"}</span>` : ""}
      <ol>${m.proposals.map((p, i) => html`<${Proposal} key=${`${m.proposed}|${p.name}|${p.notes.length ? p.notes[0].query_id : ""}`} p=${p} i=${i} request=${request} />`)}</ol>
    </div>
  </div>`;
}

export const panel = {
  key: "modes", title: "Failure modes", place: "tab", shows: (view) => !!view.modes,
  part: (view) => view.modes,
  traits: ["samples", "run"],
  Panel: Modes,
};
