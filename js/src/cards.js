// Score cards: value, fraction, definition; Undefined said once, with its reason; ragchecker's
// substitute zero told from a counted one; predict-then-reveal. A sample's view shows them as a
// dense strip (Strip: one item per metric, the full card on demand) unless a prediction is asked.
import { useCallback, useRef, useState } from "preact/hooks";
import { html, memo } from "./incremental.js";

/** Which items the fraction counts, e.g. "counted: R1, R2 — out of: R1, R2, R3". */
function itemsNote(c) {
  if (!c.denominator_items.length) return null;
  const counted = c.numerator_items.length ? c.numerator_items.join(", ") : "none";
  return `counted: ${counted} — out of: ${c.denominator_items.join(", ")}`;
}

function Prediction({ c, predictions, send }) {
  const p = c.prediction;
  const commit = (input) => {
    const text = input.value.trim();
    if ((predictions[c.name] || "") === text) return;
    const next = { ...predictions };
    if (text) next[c.name] = text;
    else delete next[c.name];
    send({ predictions: next });
  };
  let verdict = null;
  if (p && !p.readable) verdict = html`<div class="rw-verdict rw-verdict-no">${p.message}</div>`;
  else if (p)
    verdict = html`<div class=${p.match ? "rw-verdict rw-verdict-yes" : "rw-verdict rw-verdict-no"} data-testid="verdict">
      ${p.match ? `✓ You predicted ${p.shown}: right` : `✗ You predicted ${p.shown}; actual ${c.shown}`}
    </div>`;
  return html`<div class="rw-prediction">
    <input type="text" class="rw-predict-input" placeholder="0.5, 2/3 or Undefined"
      aria-label=${`Your prediction for ${c.label}`} value=${p ? p.text : ""}
      onChange=${(e) => commit(e.target)} onKeyDown=${(e) => e.key === "Enter" && commit(e.target)} />
    ${verdict}
  </div>`;
}

const Card = memo(function Card({ c, predict, predictions, send, detail = false }) {
  const undef = c.value === null && !c.hidden;
  const substitute = c.value !== null && c.reason && c.status === "defined";
  const cls = ["rw-card", undef && "rw-undefined", c.hidden && "rw-concealed", substitute && "rw-substitute"];
  let body;
  if (c.hidden) {
    body = html`<div class="rw-card-value rw-hidden-value" data-testid="value">?</div>
      <div class="rw-card-fraction">Enter your prediction to reveal</div>`;
  } else {
    // Undefined is said once, as the value; the fraction shows 0/0 and the reason why.
    body = html`<div class="rw-card-value" data-testid="value">${c.shown}${substitute ? html`<span class="rw-substitute-mark"> (substitute)</span>` : null}</div>
      <div class="rw-card-fraction" data-testid="fraction">${c.fraction}</div>
      ${c.judge_shown ? html`<div class="rw-card-judge" data-testid="judge-value" title="the value under the judge's labels, before the reviews">judge's labels: <s>${c.judge_shown}</s></div>` : null}
      ${c.reason && (undef || substitute) ? html`<div class="rw-card-reason">${c.reason}</div>` : null}`;
  }
  const items = c.hidden ? null : itemsNote(c);
  return html`<article class=${cls.filter(Boolean).join(" ")} data-metric=${detail ? null : c.name}
      data-card=${detail ? c.name : null} aria-label=${c.label} title=${detail ? null : items}>
    <div class="rw-card-label">${c.label}${c.lower_is_better ? html`<span class="rw-hint" title="lower is better"> ↓</span>` : null}</div>
    ${body}
    <div class="rw-card-def">${c.definition}</div>
    ${detail && items ? html`<div class="rw-card-items" data-testid="items">${items}</div>` : null}
    ${predict ? html`<${Prediction} c=${c} predictions=${predictions} send=${send} />` : null}
  </article>`;
});

function Group({ g, predict, predictions, send }) {
  return html`<div class="rw-card-group" data-group=${g.group}>
    <h4>${g.title}</h4>
    <div class="rw-card-grid">
      ${g.cards.map((c) => html`<${Card} key=${c.name} c=${c} predict=${predict} predictions=${predictions} send=${send} />`)}
    </div>
  </div>`;
}

export const Cards = memo(function Cards({ groups, missing, predict, predictions, send }) {
  const primary = groups.filter((g) => !g.secondary);
  const secondary = groups.filter((g) => g.secondary);
  const n = secondary.reduce((k, g) => k + g.cards.length, 0);
  const group = (g) => html`<${Group} key=${g.group} g=${g} predict=${predict} predictions=${predictions} send=${send} />`;
  return html`<section class="rw-cards" data-testid="cards">
    ${primary.map(group)}
    ${secondary.length
      ? html`<details class="rw-more"><summary>RAGChecker metrics on the same state (${n})</summary>${secondary.map(group)}</details>`
      : null}
    ${missing.length
      ? html`<p class="rw-note">Not computable for this data: ${missing.map(
          (m, i) => html`${i ? "; " : ""}<b>${m.label}</b> (${m.reason})`,
        )}</p>`
      : null}
  </section>`;
});

/** One metric in the strip: label, value, fraction; Undefined as the word (and a dashed box), a
 * reviewed value as "judge's → reviewer's"; a button that opens the full card. */
const StripItem = memo(function StripItem({ c, open, toggle }) {
  const undef = c.value === null;
  const substitute = c.value !== null && c.reason && c.status === "defined";
  const cls = ["rw-strip-item", undef && "rw-undefined", substitute && "rw-substitute", open && "rw-active"];
  return html`<button type="button" class=${cls.filter(Boolean).join(" ")} data-metric=${c.name}
      aria-expanded=${open ? "true" : "false"}
      title=${`${c.label}: ${c.shown}${c.reason ? ` (${c.reason})` : ""}. Enter: the full card`}
      onClick=${() => toggle(c.name)}>
    <span class="rw-strip-label">${c.label}${c.lower_is_better ? html`<span class="rw-hint" title="lower is better">↓</span>` : null}</span>
    <span class="rw-strip-value">${c.judge_shown
      ? html`<s class="rw-judge-label" data-testid="judge-value" title="the value under the judge's labels, before the reviews"><span class="rw-sr">judge's labels: </span>${c.judge_shown}</s> → `
      : null}<b data-testid="value">${c.shown}</b>${substitute ? html`<span class="rw-substitute-mark"> (substitute)</span>` : null}</span>
    <span class="rw-strip-fraction" data-testid="fraction">${c.fraction}</span>
  </button>`;
});

/** The metrics as one dense strip, grouped; a click (or Enter) on an item opens its full card
 * (formula, fraction, counted items, reason) under the strip, Esc or a second click closes it.
 * The not-computable metrics follow as words, with their reasons. Not memo(): its own state
 * (the open card) must re-render it while its props stay the same. */
export function Strip({ groups, missing, send }) {
  const [open, setOpen] = useState(null);
  const toggle = useCallback((name) => setOpen((o) => (o === name ? null : name)), []);
  const strip = useRef(null);
  const cards = groups.flatMap((g) => g.cards);
  const shown = cards.find((c) => c.name === open) || null;
  const close = (e) => {
    if (e.key !== "Escape" || !shown) return;
    e.preventDefault();
    e.stopPropagation();
    setOpen(null);
    const item = strip.current && [...strip.current.querySelectorAll(".rw-strip-item")].find((b) => b.dataset.metric === shown.name);
    if (item) item.focus();
  };
  return html`<section class="rw-cards rw-strip-section" data-testid="cards" onKeyDown=${close}>
    <div class="rw-strip" ref=${strip} role="group" aria-label="Metrics (Enter on one: its full card)">
      ${groups.map((g) => html`<div class="rw-strip-group" key=${g.group} data-group=${g.group}>
        <span class="rw-strip-title">${g.title.replace("RAGChecker · ", "")}</span>
        ${g.cards.map((c) => html`<${StripItem} key=${c.name} c=${c} open=${open === c.name}
          toggle=${toggle} />`)}
      </div>`)}
    </div>
    ${shown ? html`<div class="rw-card-detail" data-testid="card-detail">
        <${Card} c=${shown} predict=${false} predictions=${{}} send=${send} detail=${true} />
        <button type="button" class="rw-close" aria-label="Close the card (Esc)" onClick=${() => setOpen(null)}>✕</button>
      </div>` : null}
    ${missing.length
      ? html`<details class="rw-note rw-not-computable" data-testid="not-computable">
          <summary>⊘ Not computable for this data (${missing.length}): ${missing.map((m) => m.label).join(", ")}</summary>
          <ul>${missing.map((m) => html`<li key=${m.name}><b>${m.label}</b>: ${m.reason}</li>`)}</ul>
        </details>`
      : null}
  </section>`;
}
