// Untrusted text as text. Everything from a sample goes through Preact's text nodes and
// attribute values, never markup. IDs are isolated from the text around them (<bdi>), and the
// bidi control characters in them are shown, not obeyed ("evil.exe" never reads "exe.live").
import { useState } from "preact/hooks";
import { html } from "./incremental.js";

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const codePoint = (c) => `⟨U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`;

/** An ID with its bidi controls made visible. */
export function showId(id) {
  return String(id).replace(BIDI, codePoint);
}

/** An ID, isolated; longer than `max` characters it is cut, with the whole ID as its tooltip. */
export function Id({ id, max = 40 }) {
  const shown = showId(id);
  if (shown.length <= max) return html`<bdi class="rw-idtext">${shown}</bdi>`;
  return html`<bdi class="rw-idtext rw-cut" title=${shown}>${shown.slice(0, max - 1)}…</bdi>`;
}

/** An ID that selects what it names: a button styled as a link (Tab reaches it, Enter or a
 * click selects `key`, as clicking its row does; the row it sits in is not toggled). */
export function IdLink({ id, target, send, label = null, max = 24 }) {
  return html`<button type="button" class="rw-idlink" data-select=${target} title=${`Select ${showId(id)}`}
    onClick=${(e) => { e.stopPropagation(); send({ selected: target }); }}>${label === null ? html`<${Id} id=${id} max=${max} />` : label}</button>`;
}

/** `items` (IDs) as links that select `${prefix}:${id}`, comma separated; `empty` when none.
 * `more` ({n, target}): after the first `n`, one link "+ k more" that selects `target` (the
 * item whose list it is, which then shows them all). */
export function idLinks(items, prefix, send, empty = "—", more = null) {
  if (!items || !items.length) return empty;
  const cut = more && items.length > more.n + 1 ? more.n : items.length;
  const links = items.slice(0, cut).map((id, i) => html`${i ? ", " : ""}<${IdLink} key=${id} id=${id} target=${`${prefix}:${id}`} send=${send} max=${16} />`);
  if (cut === items.length) return links;
  return html`${links}, <button type="button" class="rw-idlink rw-idlink-more" data-select=${more.target}
    title=${items.map(showId).join(", ")} onClick=${(e) => { e.stopPropagation(); send({ selected: more.target }); }}>+ ${items.length - cut} more</button>`;
}

/** A yes/no/unknown cell that reads without colour: a symbol and a word. */
export function YesNo({ value, words = ["Yes", "No"] }) {
  if (value === null || value === undefined) return html`<span class="rw-unknown">? unknown</span>`;
  const yes = value === true || value === "yes";
  return html`<span class=${yes ? "rw-yes" : "rw-no"}>${yes ? `✓ ${words[0]}` : `✗ ${words[1]}`}</span>`;
}

const LONG = 300; // characters shown of a long text before "Show all"

/** A text that may be very long (a passage, an answer, a 10,000-character token): the first
 * LONG characters, then a button that shows it whole (and hides it again). `clamp`: in a long
 * table, the text (unless shown whole) sits in a box that CSS cuts to a few lines except in
 * selected and highlighted rows. */
export function LongText({ text, clamp = false }) {
  const [whole, setWhole] = useState(false);
  const s = String(text);
  const long = s.length > LONG;
  const shown = long && !whole ? `${s.slice(0, LONG)}…` : s;
  const body = clamp && !whole ? html`<span class="rw-clamp">${shown}</span>` : shown;
  if (!long) return body;
  return html`${body}<button type="button" class="rw-whole"
    aria-expanded=${whole ? "true" : "false"} onClick=${(e) => { e.stopPropagation(); setWhole(!whole); }}
    >${whole ? "Show less" : `Show all ${s.length.toLocaleString("en")} characters`}</button>`;
}
