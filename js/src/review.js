// Reviewing the judge's labels in the sample view. A review action is
//   ctx.review({ kind, claim, label, doc_id })
// kind: a label matrix (answer2response, response2answer, retrieved2response, retrieved2answer);
// claim: the 0-based claim of that matrix; label: "Entailment" | "Neutral" | "Contradiction", or
// null to confirm the judge's label as it is; doc_id: the passage (retrieved2*), or null for the
// whole row ("not supported by any passage": the row set to Neutral). The holder sends it to
// Python, which recomputes every metric and sends the new view. Keys on a focused claim row or
// matrix cell: E / N / C label it, A confirms the judge's label, U: no passage supports the claim,
// W: why the judge said it (its trace). Judge and reviewer are told apart by words and symbols:
// the judge's label struck through, the reviewer's beside it.
import { useState } from "preact/hooks";
import { html, memo } from "./incremental.js";
import { LABEL_CODES, UNJUDGED } from "./labels.js";

/** Per label code: symbol and word. */
export const LABEL = {
  [LABEL_CODES.Entailment]: ["●", "Entailment"],
  [LABEL_CODES.Neutral]: ["·", "Neutral"],
  [LABEL_CODES.Contradiction]: ["⊗", "Contradiction"],
  [UNJUDGED]: ["?", "unjudged"],
};
const KEYS = { e: "Entailment", n: "Neutral", c: "Contradiction" };
/** A per-claim label's passage row: the label matrix of the same claims against the passages. */
export const ROW_KIND = { answer2response: "retrieved2response", response2answer: "retrieved2answer" };
/** The order a keyboard review walks a sample's labels (as Python's REVIEW_ORDER): the claim
 * tables' rows, then the matrix's cells. */
export const REVIEW_ORDER = ["answer2response", "response2answer", "retrieved2response", "retrieved2answer"];
export const PASSAGE_KINDS = ["retrieved2response", "retrieved2answer"];

/** The label to review next in `view` ({kind, claim, doc_id}): view.review.next's first, in
 * REVIEW_ORDER, of `kinds` (null: every kind); null when every one is reviewed. */
export function nextLabel(view, kinds = null) {
  const next = view && view.review && view.review.next;
  if (!next) return null;
  for (const k of REVIEW_ORDER) if (next[k] && (!kinds || kinds.includes(k))) return next[k];
  return null;
}

/** The passage whose label W explains on a claim row without a per-claim label (no ground
 * truth): the first that entails it, else the first that contradicts it, else the first passage. */
export const firstPassage = (item, view) => item.supported_by[0] || item.contradicted_by[0]
  || (view && view.sources.length ? view.sources[0].doc_id : null);

/** The review action a key asks for on `target` ({kind, claim, doc_id}), or null (not a review
 * key). U on a per-claim label (answer2response / response2answer) is its passage row. */
export function keyAction(key, target) {
  const k = key.toLowerCase();
  if (k in KEYS) return { ...target, label: KEYS[k] };
  if (k === "a") return { ...target, label: null };
  if (k === "u") return { kind: ROW_KIND[target.kind] || target.kind, claim: target.claim, doc_id: null, label: "Neutral" };
  return null;
}

/** Keys on a focused row or cell: a review key sends its action (true when handled); W opens the
 * trace. A held key's auto-repeats are handled and do nothing (no label after label). */
export function reviewKeys(e, target, ctx, onWhy) {
  if (!ctx.review || e.ctrlKey || e.metaKey || e.altKey) return false;
  const why = e.key.toLowerCase() === "w" && onWhy;
  const action = why ? null : keyAction(e.key, target);
  if (!why && !action) return false;
  e.preventDefault();
  if (e.repeat) return true;
  if (why) onWhy();
  else ctx.review(action);
  return true;
}

const said = (code) => `${LABEL[code][0]} ${LABEL[code][1]}`;

/** A label as the view shows it: the judge's alone; confirmed; or the judge's struck through
 * with the reviewer's beside it. `r`: {judge, label, reviewed}. */
export function LabelShown({ r }) {
  if (!r.reviewed) return html`<span class="rw-label" title="the judge's label">${said(r.judge)} <span class="rw-who">(judge)</span></span>`;
  if (r.label === r.judge) return html`<span class="rw-label rw-confirmed" title="the judge's label, confirmed by a reviewer">${said(r.label)} <span class="rw-who">✓ confirmed</span></span>`;
  return html`<span class="rw-label rw-overruled"><s class="rw-judge-label" title="the judge's label, overruled">${said(r.judge)}</s>${" → "}<b title="the reviewer's label">${said(r.label)}</b> <span class="rw-who">(reviewer)</span></span>`;
}

/** Buttons for one label: E / N / C and confirm (unless `labels` is false), "no passage supports
 * it" (the claim's passage row) and Why? (when `onWhy`). */
export function ReviewButtons({ target, ctx, labels = true, onWhy = null }) {
  const act = (label, t = target) => (e) => { e.stopPropagation(); ctx.review({ ...t, label }); };
  return html`<span class="rw-review-buttons" role="group" aria-label="Review this label">
    ${labels ? Object.entries(KEYS).map(([k, label]) => html`<button type="button" class="rw-review-button" data-review=${label}
      title=${`${label} (key ${k.toUpperCase()})`} onClick=${act(label)}>${k.toUpperCase()}</button>`) : null}
    ${labels ? html`<button type="button" class="rw-review-button" data-review="confirm" title="Confirm the judge's label (key A)" onClick=${act(null)}>✓</button>` : null}
    <button type="button" class="rw-review-button" data-review="unsupported" title="No passage supports it: the whole row Neutral (key U)"
      onClick=${act("Neutral", { kind: ROW_KIND[target.kind] || target.kind, claim: target.claim, doc_id: null })}>none supports</button>
    ${onWhy ? html`<button type="button" class="rw-review-button" data-testid="why" title="Why the judge said it: its prompt and raw reply (key W)"
      onClick=${(e) => { e.stopPropagation(); onWhy(); }}>Why?</button>` : null}
  </span>`;
}

/** How to review, in the words of the label kinds the sample has (`next`'s keys): a claim row
 * against the ground truth only where there are such labels. */
function hint(next) {
  const kinds = Object.keys(next || {});
  const rows = kinds.includes("answer2response") || kinds.includes("response2answer")
    ? "a claim row (its label against the ground truth, or the ground-truth claim against the response) or a matrix cell (claim × passage)"
    : "a matrix cell (claim × passage; no ground-truth labels here) or a claim row (its passages)";
  return html`<b>Review the judge: </b>the next label to review is focused (or press the button); on ${rows} press E / N / C (Entailment / Neutral / Contradiction), A to confirm the judge's label, U for "no passage supports it" (the claim's whole passage row), W for why the judge said it.`;
}

/** "Faithfulness 0.364 → 0.455 after 2 reviews", a refused action's reason, and reviews that did
 * not apply; `focusNext()`: the button that focuses the next label to review. */
export const ReviewLine = memo(function ReviewLine({ review, queue = null, focusNext = null }) {
  if (!review) return null;
  const q = review.queue;
  return html`<section class="rw-review-line" data-testid="review" aria-live="polite">
    <p data-testid="review-changes">${review.count ? html`<b>Reviewed: </b>${review.line}` : hint(review.next)}
      ${review.file ? html` <span class="rw-hint">Saved to ${review.file}.</span>` : null}</p>
    ${focusNext ? html`<p><button type="button" data-testid="next-label" title="Focus the next label to review (then E / N / C / A)"
      onClick=${focusNext}>Next label to review ▸</button></p>` : null}
    ${q ? html`<p data-testid="queue">Review queue (${q.strategy}): <b data-testid="progress">${q.line}</b>${q.total ? ` · item ${q.position + 1}` : ""}${q.double ? html` · <b data-testid="queue-double">${q.double}</b>` : ""}
      ${queue ? html`<button type="button" onClick=${() => queue(-1)} disabled=${q.position === 0} title="Previous in the queue ([)">◀ previous</button>
        <button type="button" onClick=${() => queue(1)} disabled=${q.position >= q.total - 1} title="Next in the queue (])" data-testid="queue-next">next ▶</button>` : null}
      ${q.note ? html` <span class="rw-hint">${q.note}</span>` : null}</p>` : null}
    ${review.error ? html`<p class="rw-review-error" role="alert" data-testid="review-error">${review.error}</p>` : null}
    ${review.problems.length ? html`<details><summary>${review.problems.length} review(s) not applied</summary>
      <ul>${review.problems.map((p) => html`<li>${p}</li>`)}</ul></details>` : null}
  </section>`;
});

/** The judge's trace behind one label, as text (never HTML), or why there is none. */
export function TracePanel({ answer, onClose }) {
  if (!answer) return null;
  const t = answer.trace;
  return html`<section class="rw-trace" data-testid="trace" aria-label="Why the judge said it">
    <h4>Why the judge said it: ${answer.title} <button type="button" onClick=${onClose} aria-label="Close the trace">✕</button></h4>
    ${answer.pending ? html`<p class="rw-note">Asking…</p>`
      : !t ? html`<p class="rw-note" data-testid="no-trace">No trace kept${answer.reason ? `: ${answer.reason}` : "."}</p>`
      : html`<p class="rw-note">${[t.model, t.prompt_version, t.time].filter(Boolean).join(" · ")}${t.label !== null && t.label !== undefined ? ` · label: ${typeof t.label === "string" ? t.label : JSON.stringify(t.label)}` : ""}</p>
        ${t.note ? html`<pre class="rw-trace-text">${t.note}</pre>` : null}
        ${(t.messages || []).map((m) => html`<div><i>${m.role}</i><pre class="rw-trace-text">${m.content}</pre></div>`)}
        ${t.reasoning ? html`<div><i>reasoning</i><pre class="rw-trace-text">${t.reasoning}</pre></div>` : null}
        ${t.reply !== null && t.reply !== undefined ? html`<div><i>raw reply</i><pre class="rw-trace-text" data-testid="trace-reply">${t.reply}</pre></div>` : null}`}
  </section>`;
}

/** A trace's state in a view: `why(target, title)` asks the holder (ctx.trace) and shows the answer. */
export function useTrace(ctx) {
  const [answer, setAnswer] = useState(null);
  const why = ctx.trace
    ? (target, title) => {
      setAnswer({ title, pending: true });
      ctx.trace(target).then((reply) => setAnswer({ title, trace: reply.trace, reason: reply.reason }));
    }
    : null;
  return [answer, why, () => setAnswer(null)];
}
