// The DatasetExplorer's reviews line and trust panel, above the tabs (a run in memory): what the
// reviews changed ("Faithfulness 0.600 → 0.650 after 3 reviews"), the reviews not applied, and
// "Can I trust the judge?": computed in Python while the panel is open (a "trust" request says
// it opened or closed), numbers as Python's format_value writes them. Per label kind the run has:
// the confusion matrix (judge rows × reviewer columns, each cell its count and row-normalised
// rate; a toggle to the 2-class view), per-class precision / recall / F1 and kappa beside the base
// rate; then the agreement table and the corrected scores with their discordant counts. A cell
// asks the kernel for its samples ("trust_cell") and keeps them as the explorer's `samples`: the
// table shows only them, and the toolbar's chip clears it. With two or more reviewers: their
// agreement with each other (Cohen's kappa for two, Krippendorff's alpha for more, and per pair)
// and a chooser of the labels in force ("trust_use": adjudicated, or one reviewer's). After a
// review the tables come back `stale` (kept, marked "Updating…") and are asked for again after
// a pause in the reviewing: a key press never waits for a pass over the run.
import { useEffect, useState } from "preact/hooks";
import { html } from "../incremental.js";
import { showId } from "../text.js";
import { PAUSE } from "./common.js";

/** Undefined said as such (the row's reason in the tooltip); a figure as the kernel wrote it. */
function cellText(v) {
  if (v === null || v === undefined) return html`<span class="rw-ds-undef">Undefined</span>`;
  return String(v);
}

function TrustTable({ t, caption, testid }) {
  const reason = t.columns.indexOf("reason");
  return html`<div class="rw-ds-trust-wrap"><table class="rw-table rw-ds-trust-table" data-testid=${testid}>
    <caption>${caption}</caption>
    <thead><tr>${t.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${t.rows.map((row) => html`<tr title=${reason >= 0 && row[reason] ? row[reason] : null}>${row.map((v, k) => html`<td class=${k === reason ? "rw-ds-reason" : "rw-num"}>${k === reason ? v || "" : cellText(v)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** One kind's confusion matrix: judge rows × reviewer columns, a button per cell (count, rate). */
function Confusion({ k, m, binary, pick }) {
  return html`<table class="rw-table rw-ds-confusion" data-testid="confusion">
    <caption>Judge (rows) × reviewer (columns): labels, and the share of the judge's row</caption>
    <thead><tr><th scope="col">judge ↓ · reviewer →</th>${m.labels.map((l) => html`<th scope="col">${l}</th>`)}<th scope="col">judge n</th></tr></thead>
    <tbody>${m.labels.map((judge, i) => html`<tr>
      <th scope="row">${judge}</th>
      ${m.labels.map((reviewer, j) => {
        const n = m.counts[i][j];
        const rate = m.rates[i][j];
        const said = `judge ${judge}, reviewer ${reviewer}: ${plural(n, "label")} in ${plural(m.samples[i][j], "sample")}`;
        return html`<td class=${i === j ? "rw-ds-agree" : "rw-ds-disagree"}>
          <button class="rw-ds-cell" data-testid="confusion-cell" data-judge=${judge} data-reviewer=${reviewer} disabled=${!n}
            title=${n ? `${said}: show them in the table` : said} aria-label=${said}
            onClick=${() => pick({ kind: k.kind, run: k.run, judge, reviewer, binary })}>
            <b>${n}</b> <span class="rw-ds-rate">${rate === null ? html`<span class="rw-ds-undef" title=${`the judge never says ${judge}`}>Undefined</span>` : rate}</span>
          </button></td>`;
      })}
      <td class="rw-num">${m.counts[i].reduce((a, b) => a + b, 0)}</td>
    </tr>`)}</tbody>
  </table>`;
}

/** One label kind (of one run): kappa beside the base rate, the matrix and the per-class table. */
function Kind({ k, pick }) {
  const [binary, setBinary] = useState(false);
  const m = binary ? k.binary : k.classes;
  const kappaText = (v) => (v === null ? html`<span class="rw-ds-undef" title=${m.reason}>Undefined</span>` : v);
  return html`<section class="rw-ds-kind" data-testid=${`kind-${k.kind}`} data-kind=${k.kind}>
    <h4>${k.kind}${k.run ? ` · ${showId(k.run)}` : ""} <span class="rw-hint">(${plural(k.n, "reviewed label")})</span></h4>
    <p data-testid="kappa-line">kappa <b>${kappaText(m.kappa)}</b>${m.kappa_interval ? ` (95% ${m.kappa_interval})` : ""}${" · "}agreement ${kappaText(m.agreement)}${" · "}base rate ${m.base_rate === null ? kappaText(null) : html`<b>${m.base_rate}</b> (the reviewers' majority label, ${m.majority_label}: a judge always saying it would agree this often)`}
      ${k.binary ? html`${" · "}<label><input type="checkbox" data-testid="binary" checked=${binary} onChange=${(e) => setBinary(e.target.checked)} /> 2-class view (Entailment / not entailed)</label>` : ""}</p>
    <div class="rw-ds-trust-wrap"><${Confusion} k=${k} m=${m} binary=${binary} pick=${pick} /></div>
    <${TrustTable} t=${m.per_class} caption="Per class: precision (of the judge's labels of it), recall (of the reviewers'), F1" testid="per-class" />
  </section>`;
}

/** The reviewers' agreement with each other and the chooser of the labels in force. */
function Team({ team, request }) {
  return html`<section class="rw-ds-team" data-testid="team">
    <h4>Reviewers</h4>
    <label>Labels in force: <select data-testid="use" value=${team.use}
      onChange=${(e) => request("trust_use", { use: e.target.value }).catch(() => null)}>
      <option value="adjudicated">adjudicated</option>
      ${team.reviewers.map((n) => html`<option value=${n}>${n || "(unnamed)"}</option>`)}
    </select></label>
    ${Object.entries(team.runs).map(([run, t]) => html`<div key=${run}>
      <${TrustTable} t=${t.table} testid="reviewer-agreement"
        caption=${`Reviewer–reviewer agreement per label kind over the labels two or more reviewed: Cohen's kappa for two reviewers, Krippendorff's alpha for more${run ? ` · ${run}` : ""}`} />
      ${t.pairs.rows.length > 1 ? html`<${TrustTable} t=${t.pairs} testid="reviewer-pairs" caption="Each pair of reviewers: Cohen's kappa" />` : ""}
    </div>`)}
  </section>`;
}

function Reviews({ part: r, request, set }) {
  const trust = r.trust;
  useEffect(() => { // tables a review left stale are asked for again after a pause in the reviewing
    if (!trust || !trust.stale) return undefined;
    const t = setTimeout(() => request("trust", { open: true }).catch(() => null), PAUSE);
    return () => clearTimeout(t);
  });
  const pick = (cell) => request("trust_cell", cell)
    .then((reply) => set({ samples: { label: reply.label, query_ids: reply.query_ids }, ...(reply.run ? { run: reply.run } : {}) }))
    .catch(() => null); // the alert shows the kernel's error
  return html`<div class="rw-ds-panel rw-ds-reviews" data-testid="run-reviews">
    ${r.runs.length ? r.runs.map((x) => html`<p data-testid="run-review-line"><b>${showId(x.run)}:</b> ${x.line} (${x.samples} sample${x.samples === 1 ? "" : "s"})</p>`)
      : html`<p class="rw-hint">No label reviewed yet: open a sample below and press E / N / C on a claim row or a matrix cell.</p>`}
    ${r.problems.length ? html`<details><summary>${r.problems.length} review(s) not applied</summary><ul>${r.problems.map((p) => html`<li>${p}</li>`)}</ul></details>` : ""}
    <details open=${!!trust} data-testid="trust" onToggle=${(e) => e.target.open !== !!trust && request("trust", { open: e.target.open }).catch(() => null)}>
      <summary>Can I trust the judge? Agreement with the reviewers and corrected scores</summary>
      ${trust ? html`<p class="rw-hint">${trust.stale ? html`<b data-testid="trust-stale">Updating after the latest reviews… </b>` : ""}Over ${trust.n_reviews} reviewed label(s)${trust.team ? `; labels in force: ${trust.team.use === "adjudicated" ? "adjudicated, else the latest review" : `${trust.team.use || "(unnamed)"}'s`}` : ""}. Undefined where a figure has no data (hover for why). Click a cell of a matrix to show its samples in the table.</p>
        ${trust.team ? html`<${Team} team=${trust.team} request=${request} />` : ""}
        ${(trust.kinds || []).map((k) => html`<${Kind} key=${`${k.kind} ${k.run}`} k=${k} pick=${pick} />`)}
        <${TrustTable} t=${trust.agreement} caption="Judge–reviewer agreement per label kind (kappa with its bootstrap interval, the majority-label base rate beside it)" testid="agreement" />
        ${Object.entries(trust.corrected).map(([run, t]) => html`<${TrustTable} key=${run} t=${t} testid="corrected"
          caption=${`Each metric's mean three ways, 95% intervals: judge only, reviewed only, prediction-powered (corrected); discordant: reviewed samples whose reviewed value differs from the judge's${run ? ` · ${run}` : ""}`} />`)}`
        : html`<p class="rw-hint">Open to compute.</p>`}
    </details>
  </div>`;
}

export const panel = {
  key: "trust", place: "above", shows: (view) => !!view.reviews,
  part: (view) => view.reviews,
  traits: ["samples", "run"],
  Panel: Reviews,
};
