// The sample picker: the current sample, previous / next, and a search by query text and metric
// values answered by Python (`search(text)` returns a promise of {matches, rows} or {error}).
// Only the current sample and at most one page of results ever reach the page.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./incremental.js";
import { showId } from "./text.js";

const WAIT_MS = 150; // typing pause before a search is sent

const number = (v) => (v === null ? "Undefined" : String(v));

export function Picker({ p, send, search }) {
  const [text, setText] = useState("");
  const [results, setResults] = useState(null);
  const [active, setActive] = useState(0);
  const asked = useRef({ request: 0, timer: null });
  useEffect(() => () => clearTimeout(asked.current.timer), []);

  const ask = (next) => {
    clearTimeout(asked.current.timer);
    setText(next);
    if (!next.trim()) {
      setResults(null);
      return;
    }
    asked.current.timer = setTimeout(async () => {
      const request = ++asked.current.request;
      const found = await search(next);
      if (request === asked.current.request) { // a newer search wins
        setResults(found);
        setActive(0);
      }
    }, WAIT_MS);
  };

  const pick = (index) => {
    setResults(null);
    setText("");
    if (index !== p.index) send({ sample_index: index });
  };

  const rows = (results && results.rows) || [];
  const keys = (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive(Math.max(0, Math.min(rows.length - 1, active + step)));
    } else if (e.key === "Enter" && rows.length) {
      e.preventDefault();
      pick(rows[active].index);
    } else if (e.key === "Escape") {
      setResults(null);
    }
  };
  return html`<div class="rw-picker" data-testid="picker">
    <span class="rw-control-label">Sample</span>
    <button type="button" aria-label="Previous sample" data-testid="prev" disabled=${p.index === 0}
      onClick=${() => send({ sample_index: p.index - 1 })}>◀</button>
    <span class="rw-picker-current" data-testid="current">${(p.index + 1).toLocaleString("en")} of ${p.total.toLocaleString("en")}:${" "}<bdi class="rw-idtext">${showId(p.query_id)}</bdi></span>
    <button type="button" aria-label="Next sample" data-testid="next" disabled=${p.index === p.total - 1}
      onClick=${() => send({ sample_index: p.index + 1 })}>▶</button>
    <input type="search" class="rw-picker-search" data-testid="search" value=${text}
      aria-label="Search samples" placeholder="Search: words of the query or its id; faithfulness<0.5; hallucination=undefined"
      onInput=${(e) => ask(e.target.value)} onKeyDown=${(e) => keys(e)} />
    ${results
      ? html`<div class="rw-picker-results">
          ${results.error
            ? html`<p class="rw-picker-error" role="alert">${results.error}</p>`
            : html`<p class="rw-note" data-testid="matches">${results.matches.toLocaleString("en")} matching
                sample${results.matches === 1 ? "" : "s"}${results.matches > rows.length ? ` (first ${rows.length} shown)` : ""}</p>`}
          <ul role="listbox" aria-label="Matching samples">
            ${rows.map((r, k) => html`<li key=${r.index} role="option" aria-selected=${k === active ? "true" : "false"}
                class=${k === active ? "rw-picker-row rw-active" : "rw-picker-row"} data-index=${r.index}
                onClick=${() => pick(r.index)}>
              <span class="rw-num">${r.index + 1}</span>${" "}<bdi class="rw-idtext">${showId(r.query_id)}</bdi>${" "}<span
                class="rw-picker-query">${r.query}</span>${" "}<span class="rw-picker-metrics">${Object.entries(r.metrics).map(([n, v]) => `${n} ${number(v)}`).join(" · ")}</span>
            </li>`)}
          </ul>
        </div>`
      : null}
  </div>`;
}
