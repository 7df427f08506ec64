// One sample's views, mountable by any widget: the drawing half of ragwidgets.widgets.sample_view.
//
//   const sv = mountSampleView(el, { view, send, search });  sv.update(view);  sv.destroy();
//
// `view`: the dict SampleView.view() builds (or an Explorer's view), with view.matrix.cells the
// claims x passages labels as a DataView / ArrayBuffer / typed array / plain array (int8,
// row-major: response rows then ground-truth rows; the codes of labels.js). `send(patch)`: called once per user action
// with the state fields it changes, e.g. {selected: "claim:R3"} or {retrieved: ["P1", "P2"]};
// the holder applies it (SampleView.apply in Python) and calls update() with the new view.
// `search(text)` (optional): a promise of the samples matching a search, for the sample picker
// that view.controls.picker asks for (SampleExplorer's; see ragwidgets/widgets/picker.py).
// `review(action)` and `trace(target)` (optional; review.js): a review action for the holder to
// apply, and a promise of the judge's trace behind one label ({trace, reason}); the review
// controls show where view.review is set and `review` is given. `queue(step)` (optional): move
// along the review queue (view.review.queue, or the holder's `queued()`; keys ] and [). `keys(e)`
// (optional): the holder's plain keys, those the view leaves (a DatasetExplorer's j / k / ↓ / ↑).
// The keyboard review: when a sample opens or a label is reviewed while the user works in the
// widget, focus goes to the next label to review (review.js nextLabel, of `kinds()`' kinds); after the
// last label of the queue's current sample the queue moves on by itself.
//
// Updates are incremental (Preact, keyed, memoised rows over a structurally shared view): DOM
// nodes, focus, scroll positions and open sections survive. Plain keys pressed in the view stay
// in it, in every host (keys.js).
import { render } from "preact";
import { useRef } from "preact/hooks";
import { Cards, Strip } from "./cards.js";
import { Controls, Header } from "./controls.js";
import { Failing } from "./failing.js";
import { forHost, keepKeys } from "./keys.js";
import { html, share } from "./incremental.js";
import { Matrix } from "./matrix.js";
import { PASSAGE_KINDS, ReviewLine, TracePanel, nextLabel, useTrace } from "./review.js";
import { ClaimTable, FactsTable, GtTable, SourceTable } from "./tables.js";
import { LongText } from "./text.js";

function Answer({ view }) {
  return html`<section class="rw-section rw-answer">
    <p><b>Answer: </b>${view.answer ? html`<${LongText} text=${view.answer} />` : html`<i>(empty answer: no claims)</i>`}</p>
    ${view.kind === "sample" && view.gt_answer
      ? html`<details class="rw-gt-answer"><summary>Ground-truth answer</summary><p><${LongText} text=${view.gt_answer} /></p></details>`
      : null}
  </section>`;
}

/** `list`, or the one last returned while its items are the same (a selection relights the
 * passages, which are new objects then, but switches none: the controls are not redrawn). */
function useSame(list) {
  const last = useRef(list);
  if (list.length !== last.current.length || list.some((x, i) => x !== last.current[i])) last.current = list;
  return last.current;
}

export function SampleView({ view, ctx, focusCell = null }) {
  const [trace, why, closeTrace] = useTrace(ctx);
  const toggleable = useSame(view && view.sources ? view.sources.filter((s) => s.toggleable).map((s) => s.doc_id) : []);
  ctx.why = why; // read when a key or button asks (the rows keep their props: ctx is one object)
  if (!view || !view.controls) return html`<div class="rw-root">Loading…</div>`;
  const review = ctx.review && view.review ? view.review : null;
  const inPlay = view.sources.filter((s) => s.retrieved).length;
  const gtTable = view.gt_claims.length > 0 && !view.facts.length;
  const queueKeys = review && review.queue && ctx.queue ? (e) => {
    if ((e.key === "]" || e.key === "[") && !e.target.closest("input, select, textarea")) {
      e.preventDefault();
      ctx.queue(e.key === "]" ? 1 : -1);
    }
  } : null;
  // A sample's view: the metrics as a dense strip (full cards while predicting), then which
  // claims fail, then the claims (a selected one with its passages under it), then the rest.
  const strip = view.kind === "sample" && !view.predict;
  return html`<div class="rw-root" data-kind=${view.kind} onKeyDown=${queueKeys}>
    <${Header} title=${view.title} question=${view.question} state=${view.state} kind=${view.kind} />
    <${Controls} c=${view.controls} predict=${view.predict} ids=${toggleable} inPlay=${inPlay} send=${ctx.send} search=${ctx.search} />
    <p class="rw-summary" data-testid="summary">${view.summary}</p>
    ${review ? html`<${ReviewLine} review=${review} queue=${view.review.queue ? ctx.queue : null}
      focusNext=${nextLabel(view, ctx.kinds()) ? ctx.focusNext : null} />` : null}
    ${view.review_note ? html`<p class="rw-note" data-testid="review-note">${view.review_note}</p>` : null}
    <${TracePanel} answer=${trace} onClose=${closeTrace} />
    ${view.repeats ? html`<${RepeatedLabels} view=${view} />` : null}
    ${strip
      ? html`<${Strip} groups=${view.card_groups} missing=${view.not_computable} send=${ctx.send} />`
      : html`<${Cards} groups=${view.card_groups} missing=${view.not_computable} predict=${view.predict}
          predictions=${view.predictions || {}} send=${ctx.send} />`}
    ${view.kind === "sample"
      ? html`<${Failing} claims=${view.claims} gtClaims=${view.gt_claims} selected=${view.selected} send=${ctx.send} />`
      : null}
    ${strip ? null : html`<${Answer} view=${view} />`}
    ${strip ? null : html`<${SourceTable} view=${view} ctx=${ctx} showGt=${gtTable} />`}
    <${ClaimTable} view=${view} ctx=${ctx} />
    ${strip ? html`<${Answer} view=${view} />` : null}
    ${strip ? html`<${SourceTable} view=${view} ctx=${ctx} showGt=${gtTable} />` : null}
    ${strip && gtTable ? html`<${GtTable} view=${view} ctx=${ctx} />` : null}
    ${view.matrix ? html`<${Matrix} key=${view.query_id} m=${view.matrix} selected=${view.selected} ctx=${ctx} reviewable=${!!review}
      focusCell=${focusCell} />` : null}
    ${!strip && gtTable ? html`<${GtTable} view=${view} ctx=${ctx} />` : null}
    ${view.facts.length ? html`<${FactsTable} view=${view} ctx=${ctx} />` : null}
  </div>`;
}

// What a selection lights, most telling first: support and citation links, then contradictions.
const LIT = [".rw-role-supports, .rw-role-cited, .rw-role-entailed, .rw-role-cites, .rw-role-selected",
  ".rw-role-contradicts, .rw-role-contradicted"];

/** Scroll each bounded table region (and an open matrix) so that its first highlighted row is in
 * view: the first supporting / cited / entailed one, else the first contradicting one; a region
 * holding the selected claim's passages (its evidence row) puts the claim at its top. Then, in
 * the next frame (the selection drawn first), the page (the notebook) moves the least that
 * shows the evidence and the claim. */
function revealLinked(el, page) {
  for (const region of el.querySelectorAll(".rw-scroll, .rw-matrix-wrap")) {
    const evidence = region.querySelector(".rw-evidence-row");
    if (evidence && evidence.previousElementSibling) {
      const row = evidence.previousElementSibling;
      const head = region.querySelector("thead");
      const top = row.getBoundingClientRect().top - region.getBoundingClientRect().top;
      region.scrollTop += top - (head ? head.getBoundingClientRect().height : 0);
      continue;
    }
    const row = region.querySelector(LIT[0]) || region.querySelector(LIT[1]);
    if (!row) continue;
    const head = region.querySelector("thead");
    const top = row.getBoundingClientRect().top - region.getBoundingClientRect().top;
    const headHeight = head ? head.getBoundingClientRect().height : 0;
    if (top < headHeight || top + row.getBoundingClientRect().height > region.clientHeight) {
      region.scrollTop += top - headHeight - 4;
    }
  }
  const evidence = el.querySelector(".rw-evidence-row");
  if (page && evidence) {
    requestAnimationFrame(() => evidence.isConnected && showOnPage(el, evidence.previousElementSibling, evidence, evidence.closest(".rw-scroll")));
  }
}

/** Scroll the page (the nearest scrolling ancestor outside the view: JupyterLab's notebook, an
 * explorer's drill-down pane) the least that shows `top` to `bottom`'s end (as far as its own
 * scrolling `region` shows it), never past `top`. */
function showOnPage(el, top, bottom, region) {
  if (!top) return;
  let pane = el.parentElement;
  while (pane && !(pane.scrollHeight > pane.clientHeight && /(auto|scroll)/.test(getComputedStyle(pane).overflowY))) pane = pane.parentElement;
  pane = pane || document.scrollingElement;
  if (!pane) return;
  const box = pane === document.scrollingElement ? { top: 0, bottom: innerHeight } : pane.getBoundingClientRect();
  const a = top.getBoundingClientRect().top - box.top;
  const end = Math.min(bottom.getBoundingClientRect().bottom, region ? region.getBoundingClientRect().bottom : Infinity);
  const b = end - box.bottom;
  if (a < 0) pane.scrollTop += a;
  else if (b > 0) pane.scrollTop += Math.min(a, b);
}

/** Focus the claim-table row of label `t` (answer2response / response2answer) in `view`. */
function focusRow(el, view, t) {
  const item = t.kind === "answer2response" ? view.claims[t.claim] : view.gt_claims[t.claim];
  const table = t.kind === "answer2response" ? "claims" : "gt-claims";
  const row = item && [...el.querySelectorAll(`[data-testid="${table}"] tr.rw-row`)].find((r) => r.dataset.key === item.key);
  if (row) row.focus();
  return !!row;
}

/** Focus the view itself (not a Tab stop), where the element that held focus may be redrawn away. */
function holdFocus(el) {
  const root = el.querySelector(".rw-root");
  if (!root || root.contains(document.activeElement)) return;
  root.tabIndex = -1;
  root.focus({ preventScroll: true });
}

/** A sample judged several times: each label whose repeats disagree, with how often each word came. */
function RepeatedLabels({ view }) {
  const { n, labels } = view.repeats;
  const claims = { response: view.claims, ground_truth: view.gt_claims };
  if (!labels.length) return html`<p class="rw-note" data-testid="repeated-labels">The judge's ${n} repeats agree on every label of this sample.</p>`;
  return html`<details class="rw-note" open data-testid="repeated-labels">
    <summary>${labels.length} label${labels.length === 1 ? "" : "s"} the judge gave differently across its ${n} repeats</summary>
    <ul>${labels.map((l) => {
      const claim = (claims[l.side] || [])[l.claim];
      return html`<li><span class="rw-id">${claim ? claim.id : `claim ${l.claim + 1}`}</span> ${claim ? `“${claim.text}”` : ""}
        ${l.doc_id === null ? (l.side === "response" ? " against the reference answer" : " against the response") : html` × <span class="rw-id">${l.doc_id}</span>`}: ${l.said}</li>`;
    })}</ul></details>`;
}

export function mountSampleView(el, { view, send, search = null, review = null, trace = null, queue = null,
  queued = null, kinds = () => null, keys = null, note = null }) {
  let current = null;
  let first = true; // the first draw scrolls no page
  let label = null; // the sample and the label to review next the last draw showed ("…\0done": none left)
  let engaged = false; // the user works in the widget: focus may move to the next label
  let focusCell = null; // the matrix cell to focus ({kind, claim, doc_id, seq})
  let seq = 0;
  const widget = () => el.closest(".rw-widget") || el;
  const ctx = { send, search, review, trace, queue, kinds, note, view: () => current }; // note(i): a claim's note box
  const unkeep = keepKeys(el); // plain keys stay in the view; the host's go on (keys.js)
  // Whether focus may move to a label: it is in the widget (not in a text box), or was until the
  // element that held it was redrawn away.
  const mayFocus = () => {
    const a = document.activeElement;
    if (!a || a === document.body) return engaged;
    return !a.closest("input, select, textarea") && widget().contains(a);
  };
  const focusLabel = (t) => {
    if (!PASSAGE_KINDS.includes(t.kind)) return focusRow(el, current, t);
    focusCell = { ...t, seq: ++seq }; // the matrix focuses it when drawn
    return false;
  };
  ctx.focusNext = () => {
    const t = nextLabel(current, kinds());
    if (t && !focusLabel(t)) draw(current);
  };
  const onKey = (e) => { // the holder's keys: those the view left, outside text boxes
    engaged = true;
    if (keys && !forHost(e) && !e.defaultPrevented && !e.target.closest("input, select, textarea")) keys(e);
  };
  const onDown = () => { engaged = true; };
  const onOut = (e) => { if (e.relatedTarget && !widget().contains(e.relatedTarget)) engaged = false; };
  el.addEventListener("keydown", onKey);
  el.addEventListener("pointerdown", onDown);
  el.addEventListener("focusout", onOut);
  const draw = (next) => {
    const before = current && current.selected;
    current = share(current, next);
    const t = current && current.review ? nextLabel(current, kinds()) : null;
    const now = current && current.review ? `${current.query_id}\0${t ? `${t.kind}/${t.claim}/${t.doc_id}` : "done"}` : null;
    const go = now !== null && now !== label && mayFocus();
    const finished = go && !t && label !== null && label.startsWith(`${current.query_id}\0`); // its last label just reviewed
    label = now;
    if (go && t && PASSAGE_KINDS.includes(t.kind)) focusLabel(t);
    render(html`<${SampleView} view=${current} ctx=${ctx} focusCell=${focusCell} />`, el);
    if (go && t && !PASSAGE_KINDS.includes(t.kind)) focusLabel(t);
    if (go && !t) holdFocus(el); // nothing left to review here: the keys still reach the view ([ ], j / k)
    if (current && current.selected && current.selected !== before) revealLinked(el, !first);
    first = false;
    const q = queued ? queued() : current && current.review && current.review.queue;
    if (finished && queue && q && q.query_id === current.query_id && q.position < q.total - 1) queue(1); // the next queued sample opens
  };
  draw(view);
  return {
    update: draw,
    destroy() {
      unkeep();
      el.removeEventListener("keydown", onKey);
      el.removeEventListener("pointerdown", onDown);
      el.removeEventListener("focusout", onOut);
      render(null, el);
    },
  };
}
