// The sample picker: the current sample, previous / next, and a search by query text and metric
// values answered by Python (`search(text)` returns a promise of {matches, rows} or {error}).
// Only the current sample and at most one page of results ever reach the page.
import { Component } from "preact";
import { html } from "./incremental.js";
import { showId } from "./text.js";

const WAIT_MS = 150; // typing pause before a search is sent

const number = (v) => (v === null ? "Undefined" : String(v));

export class Picker extends Component {
  constructor() {
    super();
    this.state = { text: "", results: null, active: 0 };
    this.request = 0;
  }

  componentWillUnmount() {
    clearTimeout(this.timer);
  }

  ask(text) {
    clearTimeout(this.timer);
    this.setState({ text });
    if (!text.trim()) {
      this.setState({ results: null });
      return;
    }
    this.timer = setTimeout(async () => {
      const request = ++this.request;
      const results = await this.props.search(text);
      if (request === this.request) this.setState({ results, active: 0 }); // a newer search wins
    }, WAIT_MS);
  }

  pick(index) {
    this.setState({ results: null, text: "" });
    if (index !== this.props.p.index) this.props.send({ sample_index: index });
  }

  keys(e) {
    const rows = (this.state.results && this.state.results.rows) || [];
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      this.setState({ active: Math.max(0, Math.min(rows.length - 1, this.state.active + step)) });
    } else if (e.key === "Enter" && rows.length) {
      e.preventDefault();
      this.pick(rows[this.state.active].index);
    } else if (e.key === "Escape") {
      this.setState({ results: null });
    }
  }

  render({ p, send }, { text, results, active }) {
    const rows = (results && results.rows) || [];
    return html`<div class="rw-picker" data-testid="picker">
      <span class="rw-control-label">Sample</span>
      <button type="button" aria-label="Previous sample" data-testid="prev" disabled=${p.index === 0}
        onClick=${() => send({ sample_index: p.index - 1 })}>◀</button>
      <span class="rw-picker-current" data-testid="current">${(p.index + 1).toLocaleString("en")} of ${p.total.toLocaleString("en")}:${" "}<bdi class="rw-idtext">${showId(p.query_id)}</bdi></span>
      <button type="button" aria-label="Next sample" data-testid="next" disabled=${p.index === p.total - 1}
        onClick=${() => send({ sample_index: p.index + 1 })}>▶</button>
      <input type="search" class="rw-picker-search" data-testid="search" value=${text}
        aria-label="Search samples" placeholder="Search: words of the query or its id; faithfulness<0.5; hallucination=undefined"
        onInput=${(e) => this.ask(e.target.value)} onKeyDown=${(e) => this.keys(e)} />
      ${results
        ? html`<div class="rw-picker-results">
            ${results.error
              ? html`<p class="rw-picker-error" role="alert">${results.error}</p>`
              : html`<p class="rw-note" data-testid="matches">${results.matches.toLocaleString("en")} matching
                  sample${results.matches === 1 ? "" : "s"}${results.matches > rows.length ? ` (first ${rows.length} shown)` : ""}</p>`}
            <ul role="listbox" aria-label="Matching samples">
              ${rows.map((r, k) => html`<li key=${r.index} role="option" aria-selected=${k === active ? "true" : "false"}
                  class=${k === active ? "rw-picker-row rw-active" : "rw-picker-row"} data-index=${r.index}
                  onClick=${() => this.pick(r.index)}>
                <span class="rw-num">${r.index + 1}</span>${" "}<bdi class="rw-idtext">${showId(r.query_id)}</bdi>${" "}<span
                  class="rw-picker-query">${r.query}</span>${" "}<span class="rw-picker-metrics">${Object.entries(r.metrics).map(([n, v]) => `${n} ${number(v)}`).join(" · ")}</span>
              </li>`)}
            </ul>
          </div>`
        : null}
    </div>`;
  }
}
