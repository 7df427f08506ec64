// The linked tables: passages (sources), claims, ground-truth claims, required facts. Rows are
// keyed and memoised: an update re-renders only the rows whose data or selection changed. Long
// tables scroll inside a bounded region with a sticky header.
import { html, memo } from "./incremental.js";
import { LabelShown, ROW_KIND, ReviewButtons, firstPassage, reviewKeys } from "./review.js";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { closest, contentWords, excerptStart, overlap, segments } from "./evidence.js";
import { Id, IdLink, LongText, YesNo, idLinks, showId } from "./text.js";

const ROLE_TEXT = {
  selected: "● selected",
  supports: "supports it",
  cited: "cited by it",
  entailed: "entailed by it",
  cites: "cites it",
  contradicts: "⊗ contradicts it",
  contradicted: "⊗ contradicted by it",
};

/** The item's id, and under it what the selection makes of it, in words (not only colour). */
function IdCell({ id, roles }) {
  return html`<td class="rw-id">
    <${Id} id=${id} max=${24} />
    ${roles.length
      ? html`<div class="rw-link">${roles.map((r) => html`<span class=${`rw-badge rw-badge-${r}`}>${ROLE_TEXT[r] || r}</span>`)}</div>`
      : null}
  </td>`;
}

/** Keys on a row: Enter / Space select it, arrows move between rows (at the first / last row
 * they stay: never the holder's, which would open another sample), `more(e)` (a review key)
 * what it handles. Keys meant for a control inside the row (a checkbox's Space) are that
 * control's; keys with a modifier are the host's. */
function rowKeys(e, pick, more) {
  if (e.target !== e.currentTarget || e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
  if (more && more(e)) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    pick();
  } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    const step = (n) => (e.key === "ArrowDown" ? n.nextElementSibling : n.previousElementSibling);
    let next = step(e.currentTarget);
    while (next && !next.classList.contains("rw-row")) next = step(next); // past a claim's passages
    e.preventDefault();
    if (next) next.focus();
  }
}

function Row({ item, selected, send, more = null, children }) {
  const pick = () => send({ selected: selected ? "" : item.key });
  const cls = ["rw-row", ...item.roles.map((r) => `rw-role-${r}`)].join(" ");
  return html`<tr class=${cls} tabindex="0" aria-selected=${selected ? "true" : "false"} data-key=${item.key}
    onClick=${pick} onKeyDown=${(e) => rowKeys(e, pick, more)}>${children}</tr>`;
}

/** A claim's review cell: its per-claim label (judge / reviewer) and the buttons; `kind`: the
 * per-claim label matrix, `index`: the claim's 0-based index. */
/** Whether the view takes reviews: it carries them and its holder applies them. */
const reviewing = (view, ctx) => !!(ctx.review && view.review);

/** A claim's review cell: its per-claim label (judge / reviewer) and the buttons; `kind`: the
 * per-claim label matrix, `index`: the claim's 0-based index. Without that label (no ground
 * truth) only "none supports" (its passage row) is offered. */
function ReviewCell({ r, kind, index, id, item, ctx }) {
  const target = { kind: r ? kind : ROW_KIND[kind], claim: index, doc_id: null };
  const why = whyOf(r, kind, index, id, item, ctx);
  return html`<td class="rw-review-cell">
    ${r ? html`<${LabelShown} r=${r} />` : null}
    <${ReviewButtons} target=${target} ctx=${ctx} labels=${!!r} onWhy=${why} />
  </td>`;
}

/** W on a claim row: the trace of its per-claim label, or without one (no ground truth) of its
 * label against the passage that supports it (review.js firstPassage); null: no trace to ask for. */
function whyOf(r, kind, index, id, item, ctx) {
  if (!ctx.why) return null;
  if (r) return () => ctx.why({ kind, claim: index, doc_id: null }, `${id}, ${kind}`);
  const doc = firstPassage(item, ctx.view());
  const target = { kind: ROW_KIND[kind], claim: index, doc_id: doc };
  return doc === null ? null : () => ctx.why(target, `${id} × ${showId(doc)}, ${target.kind}`);
}

/** The review keys of a claim row (see review.js); null when the view takes no reviews. */
function claimKeys(review, r, kind, index, id, item, ctx) {
  if (!review) return null;
  const target = { kind: r ? kind : ROW_KIND[kind], claim: index, doc_id: null };
  return (e) => reviewKeys(e, target, ctx, whyOf(r, kind, index, id, item, ctx));
}

/** The claim table's review column, in the words of the labels it reviews: against the ground
 * truth only where the claims carry such a label. */
const reviewHead = (claims) => (claims.some((c) => c.review) ? "Review (against the ground truth)" : "Review (its passages)");

// Column widths (em) of long tables, which lay out with `table-layout: fixed`: an update then
// re-lays out only the rows it changed, not every cell of the table. Unlisted: the rest.
const WIDTHS = {
  Rank: 3.2, Source: 7, "In context?": 6.5, "Question-relevant?": 8, "Entails claims": 8, "Cited by": 5,
  "Fact IDs": 5.5, Claim: 5.8, "Fact ID": 4.5, "Correct?": 7, "Faithful?": 7.8, "Supported by": 9,
  "Retrieved?": 5.5, "Entails?": 5, "Valid?": 4.5, "In the response?": 7, "Supported by (retrieved)": 9,
  "Review (against the ground truth)": 12, "Review (against the response)": 12, "Review (its passages)": 12,
};

const TEXT_WIDTH = 14; // em: the least an unlisted column (a text) keeps in a narrow host

/** The width (em) below which a fixed-layout table scrolls sideways in its region rather than
 * squeeze its text columns to nothing (side by side, a narrow host). */
const minWidth = (heads) => heads.reduce((n, t) => n + (WIDTHS[t] || TEXT_WIDTH), 0);

/** A table in a region that scrolls when it holds more than a screenful; the header sticks. */
export function Table({ heads, groupRow, cls, n, children, label }) {
  const tall = n > 12;
  return html`<div class=${tall ? "rw-table-wrap rw-scroll" : "rw-table-wrap"} tabindex=${tall ? "0" : null}
      role=${tall ? "region" : null} aria-label=${tall ? label : null}>
    <table class=${`rw-table ${cls}${tall ? " rw-fixed" : ""}`} style=${tall ? `--rw-min-width: ${minWidth(heads)}em` : null}>
      ${tall ? html`<colgroup>${heads.map((t) => html`<col style=${WIDTHS[t] ? `width: ${WIDTHS[t]}em` : null} />`)}</colgroup>` : null}
      <thead>
        ${groupRow
          ? html`<tr class="rw-group-row">${groupRow.map((g) => html`<th colspan=${String(g.span)} class=${g.class || null}>${g.text}</th>`)}</tr>`
          : null}
        <tr>${heads.map((t) => html`<th scope="col">${t}</th>`)}</tr>
      </thead>
      <tbody>${children}</tbody>
    </table>
  </div>`;
}

const SourceRow = memo(function SourceRow({ s, selected, sample, cites, showGt, ctx }) {
  const toggle = (e) => {
    const inPlay = ctx.view().sources.filter((x) => x.retrieved).map((x) => x.doc_id);
    const next = e.target.checked ? [...inPlay, s.doc_id] : inPlay.filter((d) => d !== s.doc_id);
    ctx.send({ retrieved: next });
  };
  const send = ctx.send;
  const gt = showGt && s.entails_gt.length;
  const entails = s.entails_response.length || gt
    ? html`${idLinks(s.entails_response, "claim", send, "")}${gt ? html`${s.entails_response.length ? "; " : ""}ground truth ${idLinks(s.entails_gt, "gt", send)}` : null}`
    : "—";
  return html`<${Row} item=${s} selected=${selected} send=${ctx.send}>
    <td class="rw-num">${s.rank === null ? "—" : String(s.rank)}</td>
    <${IdCell} id=${s.doc_id} roles=${s.roles} />
    <td class="rw-text"><${LongText} text=${s.text} clamp=${true} /></td>
    ${sample ? null : html`<td>${s.facts && s.facts.length ? s.facts.map(showId).join(", ") : "—"}</td>`}
    <td class="rw-toggle-cell">
      <label onClick=${(e) => e.stopPropagation()}>
        <input type="checkbox" checked=${s.retrieved} disabled=${!s.toggleable}
          aria-label=${`${s.doc_id} in the retrieved context`} data-toggle=${s.doc_id} onChange=${toggle} />
        ${s.retrieved ? " ✓ Yes" : " ✗ No"}
      </label>
    </td>
    ${sample ? null : html`<td><${YesNo} value=${s.relevant} />${s.outdated ? html`<span class="rw-outdated"> (⚠ outdated)</span>` : null}</td>`}
    <td class="rw-list">${entails}${against([["claim", s.contradicts_response], ["gt", showGt ? s.contradicts_gt : []]], "contradicts", send)}</td>
    ${cites ? html`<td class="rw-list">${idLinks(s.cited_by, "claim", send)}</td>` : null}
  <//>`;
});

/** showGt: name the ground-truth claims a passage entails (only where a view lists them). */
export function SourceTable({ view, ctx, showGt }) {
  const sample = view.kind === "sample";
  const cites = view.has_citations;
  const heads = [
    "Rank", "Source", sample ? "Passage text" : "Exact text", sample ? null : "Fact IDs", "In context?",
    sample ? null : "Question-relevant?", "Entails claims", cites ? "Cited by" : null,
  ].filter(Boolean);
  return html`<section class="rw-section" data-testid="sources">
    <h4>${sample ? `Retrieved passages (${view.sources.length}, rank order; untick to see the scores without one)` : "Sources"}</h4>
    <${Table} heads=${heads} cls="rw-sources" n=${view.sources.length} label="Passages">
      ${view.sources.map((s) => html`<${SourceRow} key=${s.key} s=${s} selected=${view.selected === s.key} sample=${sample} cites=${cites} showGt=${showGt} ctx=${ctx} />`)}
    <//>
  </section>`;
}

/** A selected claim's "Supported by": the counts, its passages being listed under its row. */
function below(c) {
  const n = c.supported_by.length;
  const k = c.contradicted_by.length;
  if (!n && !k) return "none";
  return html`<span class="rw-below">${n ? `${n} passage${n === 1 ? "" : "s"}` : "none"}${k ? html`; <span class="rw-contradicts">⊗ ${k} contradict${k === 1 ? "s" : ""}</span>` : null} <span class="rw-hint">(listed below ↓)</span></span>`;
}

/** "⊗ contradicted by D3" (or "⊗ contradicts R2") under a list of entailments, each ID a link;
 * `groups`: [[prefix, ids], ...] (source / claim / gt); nothing when all are empty. */
function against(groups, words, send) {
  const all = groups.flatMap(([prefix, items]) => (items || []).map((id) => [prefix, id]));
  return all.length
    ? html`<div class="rw-contradicts" title=${`${words} (judged Contradiction, not merely not mentioned)`}><span class="rw-words">⊗ ${words}</span> ${all.map(
        ([prefix, id], i) => html`${i ? ", " : ""}<${IdLink} id=${id} target=${`${prefix}:${id}`} send=${send} />`)}</div>`
    : null;
}

/** A verdict that is "no": "⊗ Contradicted" when the label was Contradiction, else the plain no. */
function Verdict({ value, contradicted, words }) {
  if (contradicted) return html`<span class="rw-no rw-contradicted" title=${`${words[2]} (judged Contradiction)`}>⊗ Contradicted</span>`;
  return html`<${YesNo} value=${value} words=${words} />`;
}

// Faithfulness not computable (no passage labels): no verdict, and why.
const NO_PASSAGE_LABELS = html`<span class="rw-unknown" title="faithfulness is not computable: the data has no passage labels">⊘ no passage labels</span>`;

const ClaimRow = memo(function ClaimRow({ c, index, selected, hasFacts, hasCorrect, cites, review, ctx }) {
  const cits = c.citations || [];
  const per = (f) => (cits.length ? cits.map((x, i) => html`${i ? html`<br />` : null}${f(x)}`) : "—");
  return html`<${Row} item=${c} selected=${selected} send=${ctx.send} more=${claimKeys(review, c.review, "answer2response", index, c.id, c, ctx)}>
    <${IdCell} id=${c.id} roles=${c.roles} />
    <td class="rw-text"><${LongText} text=${c.text} />${ctx.note ? html` <button type="button" class="rw-whole"
      data-testid="claim-note" title=${`Note on claim ${c.id} (the note box opens on it)`}
      onClick=${(e) => { e.stopPropagation(); ctx.note(index); }}>✎ note</button>` : null}</td>
    ${hasFacts ? html`<td data-label="Fact ID:">${c.facts && c.facts.length ? c.facts.map(showId).join(", ") : "—"}</td>` : null}
    ${hasCorrect ? html`<td class="rw-verdict-cell"><${Verdict} value=${c.correct} contradicted=${c.contradicted}
      words=${["Correct", "Incorrect", "the ground-truth answer contradicts it"]} /></td>` : null}
    <td class="rw-verdict-cell">${c.faithful === null ? NO_PASSAGE_LABELS : html`<${YesNo} value=${c.faithful} words=${["Faithful", "Unfaithful"]} />`}</td>
    <td class="rw-list" data-label="Supported by:">${c.faithful === null ? "—" : selected ? below(c) : html`${idLinks(c.supported_by, "source", ctx.send, "none", { n: 3, target: c.key })}${against([["source", c.contradicted_by]], "contradicted by", ctx.send)}`}</td>
    ${cites ? html`<td class="rw-list" data-label="Cites:">${cits.length ? idLinks(cits.map((x) => x.doc_id), "source", ctx.send) : "no citation"}</td>` : null}
    ${cites ? html`<td data-label="Retrieved?">${per((x) => html`<${YesNo} value=${x.retrieved} />`)}</td>` : null}
    ${cites ? html`<td data-label="Entails?">${per((x) => html`<${Verdict} value=${x.entails} contradicted=${x.contradicts}
      words=${["Yes", "No", `${x.doc_id} contradicts the claim`]} />`)}</td>` : null}
    ${cites ? html`<td data-label="Valid?">${per((x) => html`<span title=${x.why}><${YesNo} value=${x.valid} /></span>`)}</td>` : null}
    ${review ? html`<${ReviewCell} r=${c.review} kind="answer2response" index=${index} id=${c.id} item=${c} ctx=${ctx} />` : null}
  <//>`;
});

/** Whether each clamped box cuts its text, measured together: every box is read before any
 * button is shown, so the list costs one layout, not one per passage. */
const clampChecks = new Map();
function checkClamp(box, more) {
  clampChecks.set(box, more);
  if (clampChecks.size > 1) return;
  queueMicrotask(() => {
    const jobs = [...clampChecks];
    clampChecks.clear();
    const cut = jobs.map(([b]) => b.isConnected && b.scrollHeight > b.clientHeight + 1);
    jobs.forEach(([, m], i) => { if (m.isConnected) m.hidden = !cut[i]; });
  });
}

/** A passage's text in the evidence list, the words it shares with the claim (`spans`) marked: a
 * few lines, starting near the first mark, and a button that shows it whole. The button is shown,
 * after the paint, only where the text is cut: set on the DOM node itself (its `hidden` prop stays
 * the same, so Preact leaves it), which re-renders nothing. */
function EvidenceText({ text, spans }) {
  const box = useRef(null);
  const more = useRef(null);
  const [whole, setWhole] = useState(false);
  const s = String(text);
  const start = whole ? 0 : excerptStart(s, spans);
  useEffect(() => {
    if (start) more.current.hidden = false; // cut at the start: always "more"
    else if (box.current && more.current && !whole) checkClamp(box.current, more.current);
  }, [text, whole, start]);
  const end = whole ? s.length : Math.min(s.length, start + SHOWN);
  const pieces = segments(s.slice(start, end), spans.filter(([, b]) => b > start && b <= end)
    .map(([a, b]) => [Math.max(a, start) - start, b - start]));
  return html`<span class=${whole ? "rw-ev-text" : "rw-ev-text rw-ev-clamp"} ref=${box} data-testid="evidence-text">${start ? "…" : ""}${
    pieces.map((p) => (p.mark ? html`<mark>${p.text}</mark>` : p.text))}${end < s.length ? "…" : ""}</span>${whole
    ? html`<button type="button" class="rw-whole" aria-expanded="true" onClick=${() => setWhole(false)}>less</button>`
    : html`<button type="button" class="rw-whole" ref=${more} hidden=${true} aria-expanded="false" onClick=${() => setWhole(true)}>more</button>`}`;
}

const SHOWN = 600; // characters of a passage drawn before "more" (its box shows two lines of them)
const CLOSEST = 3; // the closest passages listed before "show all"

const HOW = {
  entails: ["● entails", "entails it"],
  contradicts: ["⊗ contradicts", "contradicts it (judged Contradiction)"],
  cited: ["cited, does not entail", "cited by the claim but does not entail it"],
  closest: ["≈ closest", "no judge's label: it shares these content words with the claim (lexical overlap)"],
};

/** The evidence head's words after "Passages behind R3". */
function evidenceHead(item, entries, near, retrieved) {
  if (item.faithful === null) return ": none known (the data has no passage labels)";
  if (entries.length) {
    const n = item.supported_by.length;
    const k = item.contradicted_by.length;
    return ` (${n} entail${n === 1 ? "s" : ""} it, ${k} contradict${k === 1 ? "s" : ""} it)`;
  }
  if (!retrieved) return ": none (no passage is retrieved for this sample)";
  return near ? ": no retrieved passage entails or contradicts it" : ": no retrieved passage entails or contradicts it, or shares a content word with it";
}

/** One passage under a claim: how it stands to the claim (`note`, else in HOW's words), its ID,
 * rank, text (the shared words marked) and, for a cited one, why its citation is invalid. */
function EvidenceItem({ how, d, s, spans, note, why, ctx }) {
  return html`<li class=${`rw-evidence-item rw-ev-${how}`} data-doc=${d}>
    <span class="rw-ev-how" title=${HOW[how][1]}>${note || HOW[how][0]}</span>
    <${IdLink} id=${d} target=${`source:${d}`} send=${ctx.send} max=${14} />
    <span class="rw-ev-rank">${s && s.rank !== null ? `rank ${s.rank}` : ""}</span>
    ${s ? html`<${EvidenceText} text=${s.text} spans=${spans} />` : html`<i>(not among the passages)</i>`}
    ${why ? html`<span class="rw-ev-why">citation ${why}</span>` : null}
  </li>`;
}

/** Under a selected claim: the text of every passage that entails or contradicts it (and of the
 * sources it cites that do neither, with why the citation is invalid), each marked in words and a symbol,
 * its ID a link, the words it shares with the claim marked. For a claim no passage entails, the
 * other retrieved passages ranked by how close they come (evidence.js), the first CLOSEST of them
 * until "show all". */
export function Evidence({ item, sources, span, ctx }) {
  const [all, setAll] = useState(false);
  const docs = useMemo(() => new Map(sources.map((s) => [s.doc_id, s])), [sources]);
  const claim = useMemo(() => contentWords(item.text), [item.text]);
  const taken = new Set([...item.supported_by, ...item.contradicted_by]);
  const cites = item.citations || [];
  const cited = [...new Set(cites.map((x) => x.doc_id).filter((d) => !taken.has(d)))];
  const entries = [...item.supported_by.map((d) => ["entails", d]), ...item.contradicted_by.map((d) => ["contradicts", d]),
    ...cited.map((d) => ["cited", d])];
  const retrieved = sources.filter((s) => s.retrieved);
  const near = useMemo(() => (item.supported_by.length ? []
    : closest(item.text, retrieved.filter((s) => !taken.has(s.doc_id) && !cited.includes(s.doc_id)))),
  [item, sources]); // taken, cited and retrieved follow from these two
  const shown = all ? near : near.slice(0, CLOSEST);
  const why = (d) => (cites.find((x) => x.doc_id === d && x.why) || {}).why;
  return html`<tr class="rw-evidence-row" data-evidence=${item.key}><td colspan=${String(span)}>
    <div class="rw-evidence" data-testid="evidence">
      <div class="rw-evidence-head"><b>Passages behind ${item.id}</b>${evidenceHead(item, entries, near.length, retrieved.length)}</div>
      ${entries.length ? html`<ol class="rw-evidence-list">${entries.map(([how, d]) => {
        const s = docs.get(d);
        return html`<${EvidenceItem} key=${`${how}:${d}`} how=${how} d=${d} s=${s} spans=${s ? overlap(claim, s.text).spans : []}
          why=${how === "cited" ? why(d) : null} ctx=${ctx} />`;
      })}</ol>` : null}
      ${near.length ? html`<div class="rw-evidence-head rw-ev-near-head" data-testid="closest-head">${entries.length ? "No passage entails it. " : ""}Closest retrieved passages by the words they share with it (not the judge's labels):</div>
        <ol class="rw-evidence-list" data-testid="closest">${shown.map((x) => html`<${EvidenceItem} key=${`closest:${x.passage.doc_id}`} how="closest"
          d=${x.passage.doc_id} s=${x.passage} spans=${x.spans} note=${`≈ ${x.shared} of ${x.of} words`} ctx=${ctx} />`)}</ol>
        ${near.length > CLOSEST ? html`<button type="button" class="rw-whole rw-ev-all" data-testid="closest-all" aria-expanded=${all ? "true" : "false"}
          onClick=${(e) => { e.stopPropagation(); setAll(!all); }}>${all ? `show the closest ${CLOSEST}` : `show all ${near.length}`}</button>` : null}` : null}
    </div>
  </td></tr>`;
}

export function ClaimTable({ view, ctx }) {
  const cites = view.has_citations;
  const hasFacts = view.claims.some((c) => c.facts);
  const hasCorrect = view.claims.some((c) => c.correct !== null);
  const heads = [
    "Claim", "Text", hasFacts ? "Fact ID" : null, hasCorrect ? "Correct?" : null, "Faithful?", "Supported by",
    cites ? "Source" : null, cites ? "Retrieved?" : null, cites ? "Entails?" : null, cites ? "Valid?" : null,
    reviewing(view, ctx) ? reviewHead(view.claims) : null,
  ].filter(Boolean);
  const before = heads.indexOf("Supported by");
  const groupRow = cites
    ? [{ text: "", span: before }, { text: "Retrieved context", span: 1 }, { text: "Cited source", span: 4, class: "rw-group-head" }]
    : null;
  const title = cites ? "Claims and citations" : `Response claims (${view.claims.length})`;
  const fit = cites ? (reviewing(view, ctx) ? " rw-fit-cites-review" : " rw-fit-cites") : ""; // when it collapses: widget.css
  return html`<section class=${`rw-section rw-claims-section${fit}`} data-testid="claims">
    <h4>${title}</h4>
    <${Table} heads=${heads} groupRow=${groupRow} cls="rw-claims" n=${view.claims.length} label="Claims">
      ${view.claims.map((c, i) => html`<${ClaimRow} key=${c.key} c=${c} index=${i} selected=${view.selected === c.key}
        hasFacts=${hasFacts} hasCorrect=${hasCorrect} cites=${cites} review=${reviewing(view, ctx)} ctx=${ctx} />
        ${view.selected === c.key ? html`<${Evidence} key=${`evidence:${c.key}`} item=${c} sources=${view.sources} span=${heads.length} ctx=${ctx} />` : null}`)}
    <//>
    ${view.claims.length ? null : html`<p class="rw-note">The answer makes no claims.</p>`}
  </section>`;
}

const GtRow = memo(function GtRow({ g, index, selected, review, ctx }) {
  return html`<${Row} item=${g} selected=${selected} send=${ctx.send} more=${claimKeys(review, g.review, "response2answer", index, g.id, g, ctx)}>
    <${IdCell} id=${g.id} roles=${g.roles} />
    <td class="rw-text"><${LongText} text=${g.text} /></td>
    <td class="rw-verdict-cell"><${Verdict} value=${g.covered} contradicted=${g.contradicted}
      words=${["Covered", "Missed", "the response contradicts it"]} /></td>
    <td class="rw-list" data-label="Supported by:">${selected ? below(g) : html`${idLinks(g.supported_by, "source", ctx.send, "none", { n: 3, target: g.key })}${against([["source", g.contradicted_by]], "contradicted by", ctx.send)}`}</td>
    ${review ? html`<${ReviewCell} r=${g.review} kind="response2answer" index=${index} id=${g.id} item=${g} ctx=${ctx} />` : null}
  <//>`;
});

export function GtTable({ view, ctx }) {
  return html`<section class="rw-section rw-claims-section" data-testid="gt-claims">
    <h4>Ground-truth claims (${view.gt_claims.length})</h4>
    <${Table} heads=${["Claim", "Text", "In the response?", "Supported by (retrieved)", ...(reviewing(view, ctx) ? ["Review (against the response)"] : [])]}
      cls="rw-gt" n=${view.gt_claims.length} label="Ground-truth claims">
      ${view.gt_claims.map((g, i) => html`<${GtRow} key=${g.key} g=${g} index=${i} selected=${view.selected === g.key} review=${reviewing(view, ctx)} ctx=${ctx} />
        ${view.selected === g.key ? html`<${Evidence} key=${`evidence:${g.key}`} item=${g} sources=${view.sources} span=${4 + (reviewing(view, ctx) ? 1 : 0)} ctx=${ctx} />` : null}`)}
    <//>
  </section>`;
}

export function FactsTable({ view, ctx }) {
  return html`<section class="rw-section" data-testid="facts">
    <h4>Required facts</h4>
    <${Table} heads=${["Required current fact", "Fact ID", "Present in answer?", "Stated by"]} cls="rw-facts" n=${view.facts.length} label="Required facts">
      ${view.facts.map((f) => html`<tr key=${f.fact_id}>
        <td class="rw-text"><${LongText} text=${f.text || f.fact_id} /></td>
        <td class="rw-id"><${Id} id=${f.fact_id} /></td>
        <td><${YesNo} value=${f.present} /></td>
        <td class="rw-list">${idLinks(f.stated_by, "claim", ctx.send)}</td>
      </tr>`)}
    <//>
  </section>`;
}
