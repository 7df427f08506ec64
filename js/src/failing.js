// "Which claims fail, and why": the claims sorted into RAGChecker's failure kinds, each with its
// claims as buttons that select them (and so light up the passages behind them).
import { html, memo } from "./incremental.js";
import { showId } from "./text.js";

const SHOWN = 12; // claims listed per kind before "+ n more"

const KINDS = [
  ["hallucinated", "Incorrect, and no retrieved passage entails it (hallucination)", (c) => c.correct === false && !c.faithful],
  ["misled", "Incorrect, yet a retrieved passage entails it (noise sensitivity)", (c) => c.correct === false && c.faithful],
  ["unsupported", "Correct, but no retrieved passage entails it (self-knowledge)", (c) => c.correct === true && !c.faithful],
  ["unfaithful", "No retrieved passage entails it", (c) => c.correct === null && !c.faithful],
  ["contradicted", "⊗ Contradicted by the ground-truth answer (not merely absent from it)", (c) => c.contradicted],
  ["bad-citation", "Cites a source that is not retrieved or does not entail it", (c) => (c.citations || []).some((x) => !x.valid)],
];

function Chips({ items, selected, send }) {
  return html`${items.slice(0, SHOWN).map(
    (x) => html`<button key=${x.key} type="button" class=${selected === x.key ? "rw-chip rw-active" : "rw-chip"}
      title=${x.text} onClick=${() => send({ selected: selected === x.key ? "" : x.key })}>${showId(x.id)}</button>`,
  )}${items.length > SHOWN ? html`<span class="rw-more-count"> + ${items.length - SHOWN} more (in the table below)</span>` : null}`;
}

export const Failing = memo(function Failing({ claims, gtClaims, selected, send }) {
  const rows = KINDS.map(([name, why, test]) => [name, why, claims.filter(test)]).filter(([, , items]) => items.length);
  const missed = gtClaims.filter((g) => g.covered === false);
  const fine = !rows.length && !missed.length;
  return html`<section class="rw-section rw-failing" data-testid="failing">
    <h4>Which claims fail, and why</h4>
    ${fine ? html`<p class="rw-note">No claim fails: every claim is correct where that is known and entailed by a retrieved passage.</p>` : null}
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
