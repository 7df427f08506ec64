// The DatasetExplorer's reviews line and trust panel, above the tabs (a run in memory): what the
// reviews changed ("Faithfulness 0.600 → 0.650 after 3 reviews"), the reviews not applied, and
// "Can I trust the judge?": judge–reviewer agreement and corrected scores, computed in Python
// while the panel is open (a "trust" request says it opened or closed).
import { html } from "../incremental.js";
import { showId } from "../text.js";

/** Undefined said as such (with the row's reason in the tooltip), numbers to three places. */
function cellText(v) {
  if (v === null || v === undefined) return html`<span class="rw-ds-undef">Undefined</span>`;
  return typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : String(v);
}

function TrustTable({ t, caption, testid }) {
  const reason = t.columns.indexOf("reason");
  return html`<div class="rw-ds-trust-wrap"><table class="rw-table rw-ds-trust-table" data-testid=${testid}>
    <caption>${caption}</caption>
    <thead><tr>${t.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${t.rows.map((row) => html`<tr title=${reason >= 0 && row[reason] ? row[reason] : null}>${row.map((v, k) => html`<td class=${k === reason ? "rw-ds-reason" : "rw-num"}>${k === reason ? v || "" : cellText(v)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

function Reviews({ part: r, request }) {
  const trust = r.trust;
  return html`<div class="rw-ds-panel rw-ds-reviews" data-testid="run-reviews">
    ${r.runs.length ? r.runs.map((x) => html`<p data-testid="run-review-line"><b>${showId(x.run)}:</b> ${x.line} (${x.samples} sample${x.samples === 1 ? "" : "s"})</p>`)
      : html`<p class="rw-hint">No label reviewed yet: open a sample below and press E / N / C on a claim row or a matrix cell.</p>`}
    ${r.problems.length ? html`<details><summary>${r.problems.length} review(s) not applied</summary><ul>${r.problems.map((p) => html`<li>${p}</li>`)}</ul></details>` : ""}
    <details open=${!!trust} data-testid="trust" onToggle=${(e) => e.target.open !== !!trust && request("trust", { open: e.target.open }).catch(() => null)}>
      <summary>Can I trust the judge? Agreement with the reviewers and corrected scores</summary>
      ${trust ? html`<p class="rw-hint">Over ${trust.n_reviews} reviewed label(s). Undefined where a figure has no data (hover a row for why).</p>
        <${TrustTable} t=${trust.agreement} caption="Judge–reviewer agreement per label kind (kappa with its bootstrap interval, the majority-label base rate beside it)" testid="agreement" />
        ${Object.entries(trust.corrected).map(([run, t]) => html`<${TrustTable} key=${run} t=${t} testid="corrected"
          caption=${`Each metric's mean three ways, 95% intervals: judge only, reviewed only, prediction-powered (corrected)${run ? ` · ${run}` : ""}`} />`)}`
        : html`<p class="rw-hint">Open to compute.</p>`}
    </details>
  </div>`;
}

export const panel = {
  key: "trust", place: "above", shows: (view) => !!view.reviews,
  part: (view) => view.reviews,
  traits: [],
  Panel: Reviews,
};
