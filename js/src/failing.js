// "Which claims fail, and why": the claims sorted into RAGChecker's failure kinds, each with its
// claims as buttons that select them (and so light up the passages behind them). A claim whose
// faithfulness is not known (faithful null: no passage labels) is never filed under a kind that
// reads it: only "incorrect" where the ground truth says so.
import { useState } from "preact/hooks";
import { html, memo } from "./incremental.js";
import { showId } from "./text.js";

const SHOWN = 12; // claims listed per kind before "+ n more"

const KINDS = [
  ["hallucinated", "Incorrect, and no retrieved passage entails it (hallucination)", (c) => c.correct === false && c.faithful === false],
  ["misled", "Incorrect, yet a retrieved passage entails it (noise sensitivity)", (c) => c.correct === false && c.faithful === true],
  ["incorrect", "Incorrect: the ground-truth answer does not entail it (no passage labels to say more)", (c) => c.correct === false && c.faithful === null],
  ["unsupported", "Correct, but no retrieved passage entails it (self-knowledge)", (c) => c.correct === true && c.faithful === false],
  ["unfaithful", "No retrieved passage entails it", (c) => c.correct === null && c.faithful === false],
  ["contradicted", "⊗ Contradicted by the ground-truth answer (not merely absent from it)", (c) => c.contradicted],
  ["bad-citation", "Cites a source that is not retrieved or does not entail it", (c) => (c.citations || []).some((x) => !x.valid)],
];

function Chips({ items, selected, send }) {
  const [all, setAll] = useState(false);
  return html`${(all ? items : items.slice(0, SHOWN)).map(
    (x) => html`<button key=${x.key} type="button" class=${selected === x.key ? "rw-chip rw-active" : "rw-chip"}
      title=${x.text} onClick=${() => send({ selected: selected === x.key ? "" : x.key })}>${showId(x.id)}</button>`,
  )}${items.length > SHOWN ? html`<button type="button" class="rw-more-count" aria-expanded=${all ? "true" : "false"}
      onClick=${() => setAll(!all)}>${all ? "fewer" : `+ ${items.length - SHOWN} more`}</button>` : null}`;
}

export const Failing = memo(function Failing({ claims, gtClaims, selected, send }) {
  const rows = KINDS.map(([name, why, test]) => [name, why, claims.filter(test)]).filter(([, , items]) => items.length);
  const missed = gtClaims.filter((g) => g.covered === false);
  const fine = !rows.length && !missed.length;
  return html`<section class="rw-section rw-failing" data-testid="failing">
    <h4>Which claims fail, and why</h4>
    ${fine ? html`<p class="rw-note">${claims.some((c) => c.faithful === null)
      ? "No claim fails where that is known: every claim is correct where the ground truth says; without passage labels, whether a passage entails it is not known."
      : "No claim fails: every claim is correct where that is known and entailed by a retrieved passage."}</p>` : null}
    <ul class="rw-failing-list">
      ${rows.map(([name, why, items]) => html`<li key=${name} data-kind=${name}>
        <span class="rw-failing-why"><b>${items.length}</b> ${why}:</span> <${Chips} items=${items} selected=${selected} send=${send} />
      </li>`)}
      ${missed.length
        ? html`<li data-kind="missed"><span class="rw-failing-why"><b>${missed.length}</b> ground-truth claims the response does not cover:</span>
            <${Chips} items=${missed} selected=${selected} send=${send} /></li>`
        : null}
    </ul>
  </section>`;
});
