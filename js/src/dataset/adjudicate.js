// The DatasetExplorer's adjudication tab (widgets/dataset/adjudicate.py): with two or more
// reviewers, the labels they disagree on: the sample, the label (kind, claim, passage), the
// claim's text, each reviewer's label and the decision so far. E / N / C on a row (or its
// buttons) record the decision once per press ("adjudicate": a review with adjudicated true, by the explorer's
// reviewer, appended to the reviews file) and move to the next row; a click or Enter on a row
// opens its sample in the drill-down; a button keeps their samples in the table (the explorer's
// `samples`, cleared by the toolbar's chip). Every text is drawn as text.
import { useState } from "preact/hooks";
import { html } from "../incremental.js";
import { showId } from "../text.js";

export const DECISION_KEYS = { e: "Entailment", n: "Neutral", c: "Contradiction" };
const SHORT = { Entailment: "E", Neutral: "N", Contradiction: "C" };
const ROW = { answer2response: "R", retrieved2response: "R", response2answer: "G", retrieved2answer: "G" };

/** A label as "R3" (response claim 3) or "G2 × doc-1" (ground-truth claim 2 against a passage). */
export const labelName = (d) => `${ROW[d.kind] || ""}${d.claim + 1}${d.doc_id ? ` × ${showId(d.doc_id)}` : ""}`;

function Adjudicate({ part: a, request, set }) {
  const [said, setSaid] = useState("");
  const several = a.rows.some((d) => d.run);
  const samplesLabel = `${a.query_ids.length} sample${a.query_ids.length === 1 ? "" : "s"} the reviewers disagree on`;
  const decide = (d, label, tr) => request("adjudicate", {
    run: d.run, query_id: d.query_id, kind: d.kind, claim: d.claim, doc_id: d.doc_id, label,
  }).then((reply) => {
    setSaid(reply.said || "");
    const next = tr && tr.nextElementSibling;
    if (next) next.focus();
  }).catch(() => null); // the alert shows the kernel's error
  const open = (d) => d.row >= 0 && set({ selected: d.row });
  const onKey = (d) => (e) => {
    const label = DECISION_KEYS[e.key.toLowerCase()];
    if (label && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      e.stopPropagation();
      if (!e.repeat) decide(d, label, e.currentTarget); // a held key decides once
    } else if (e.key === "Enter") {
      e.preventDefault();
      open(d);
    }
  };
  return html`<div class="rw-ds-adjudicate" data-testid="adjudicate">
    <p class="rw-hint">${a.total} label${a.total === 1 ? "" : "s"} the reviewers disagree on, ${a.decided} decided${a.rows.length < a.total ? ` (the first ${a.rows.length} listed)` : ""}.
      Press E / N / C on a row to decide (saved as adjudicated), Enter or a click to open its sample.
      <button data-testid="adjudicate-samples" onClick=${() => set({ samples: { label: samplesLabel, query_ids: a.query_ids } })}>Show their ${a.query_ids.length} sample${a.query_ids.length === 1 ? "" : "s"} in the table</button></p>
    ${said ? html`<p role="status" data-testid="adjudicate-said">${said}</p>` : ""}
    <div class="rw-ds-trust-wrap"><table class="rw-table rw-ds-trust-table">
      <thead><tr>${several ? html`<th scope="col">run</th>` : ""}<th scope="col">sample</th><th scope="col">label</th><th scope="col">claim</th>
        ${a.reviewers.map((r) => html`<th scope="col">${r || "(unnamed)"}</th>`)}<th scope="col">decision</th><th scope="col">decide</th></tr></thead>
      <tbody>${a.rows.map((d) => html`<tr tabindex="0" data-testid="disagreement" data-query=${d.query_id}
          class=${d.adjudicated ? "rw-ds-decided" : ""} onKeyDown=${onKey(d)} onClick=${(e) => !e.target.closest("button") && open(d)}>
        ${several ? html`<td>${showId(d.run)}</td>` : ""}<td>${showId(d.query_id)}</td>
        <td title=${d.kind}>${labelName(d)}</td><td class="rw-ds-claim-text">${d.claim_text}</td>
        ${a.reviewers.map((r) => html`<td>${d.labels[r] || html`<span class="rw-hint">—</span>`}</td>`)}
        <td data-testid="decision">${d.adjudicated || html`<span class="rw-hint">not yet</span>`}</td>
        <td>${Object.entries(SHORT).map(([label, key]) => html`<button data-testid=${`decide-${key}`} title=${`Decide ${label} (${key})`}
          aria-pressed=${d.adjudicated === label ? "true" : "false"} onClick=${(e) => decide(d, label, e.currentTarget.closest("tr"))}>${key}</button>`)}</td>
      </tr>`)}</tbody>
    </table></div>
  </div>`;
}

export const panel = {
  key: "adjudicate", title: "Adjudicate", place: "tab", shows: (view) => !!view.adjudicate,
  part: (view) => view.adjudicate,
  traits: ["selected", "samples"],
  Panel: Adjudicate,
};
