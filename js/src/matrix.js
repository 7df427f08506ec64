// The entailment matrix, claims x passages, from the binary cells buffer. Compact cells, sticky
// row and column headers inside a bounded scrolling region; a large matrix is summarised first
// and drawn on demand. Rows are memoised on the buffer: toggling a passage re-renders only the
// column headers (switched-off columns are shaded through <col>), not 10,000 cells.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { html, memo } from "./incremental.js";
import { LABEL_CODES, UNJUDGED } from "./labels.js";
import { LabelShown, ReviewButtons, reviewKeys } from "./review.js";
import { IdLink, showId } from "./text.js";
import { typed } from "./view_trait.js";

// Per label code (labels.js, written from ragwidgets.model): symbol, words (the cell's title,
// e.g. "D3 contradicts R2"), class. A contradiction and a passage that does not mention the
// claim count alike in the metrics but differ here in symbol and words, not only colour.
export const CELL = {
  [LABEL_CODES.Entailment]: ["●", "entails", "rw-entails"],
  [LABEL_CODES.Neutral]: ["·", "does not mention", "rw-neutral"],
  [LABEL_CODES.Contradiction]: ["⊗", "contradicts", "rw-contradicts"],
  [UNJUDGED]: ["?", "unjudged", "rw-unjudged"],
};
const ON_DEMAND = 600; // cells above which the matrix waits to be opened

/** A row's cells under review as "col:judge,col:judge" (a string, so a memoised row sees a change). */
function marksOf(reviewed, index) {
  return reviewed ? reviewed.filter((x) => x[0] === index).map((x) => `${x[1]}:${x[2]}`).join(",") : "";
}

/** The label matrix, claim and doc_id of matrix row `index`, column `col`. */
export function cellTarget(m, index, col) {
  const response = index < m.response.length;
  return { kind: response ? "retrieved2response" : "retrieved2answer", claim: response ? index : index - m.response.length,
    doc_id: m.columns[col].doc_id };
}

function cellKeys(e, { index, col, width, setCursor, act }) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    e.preventDefault();
    setCursor({ index, col: Math.max(0, Math.min(width - 1, col + (e.key === "ArrowRight" ? 1 : -1))) });
  } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    const next = e.key === "ArrowDown" ? e.currentTarget.nextElementSibling : e.currentTarget.previousElementSibling;
    if (next) {
      e.preventDefault();
      next.focus();
    }
  } else act(e, index, col);
}

const MatrixRow = memo(function MatrixRow({ r, buf, index, doc_ids, selected, ctx, cursorCol, marks, reviewable, setCursor, act }) {
  const cells = typed(buf, Int8Array).subarray(index * doc_ids.length, (index + 1) * doc_ids.length);
  const judged = Object.fromEntries(marks ? marks.split(",").map((x) => x.split(":").map(Number)) : []);
  const col = cursorCol < 0 ? 0 : cursorCol;
  const keys = reviewable ? (e) => cellKeys(e, { index, col, width: doc_ids.length, setCursor, act }) : null;
  return html`<tr class=${selected ? "rw-row rw-role-selected" : "rw-row"} data-row=${r.key} tabindex=${reviewable ? "0" : null}
      onClick=${() => ctx.send({ selected: selected ? "" : r.key })} onKeyDown=${keys}
      onFocus=${reviewable ? () => cursorCol < 0 && setCursor((c) => ({ index, col: c ? c.col : 0 })) : null}>
    <th class="rw-id" scope="row" title=${r.text}><${IdLink} id=${r.id} target=${r.key} send=${ctx.send} /></th>
    ${Array.from(cells, (v, k) => {
      const [sym, word, cls] = CELL[v];
      const judge = judged[k];
      const reviewed = judge !== undefined;
      const classes = [cls, reviewed && "rw-reviewed", k === cursorCol && "rw-cursor"].filter(Boolean).join(" ");
      const title = `${showId(doc_ids[k])} ${word} ${r.id}${reviewed ? (judge === v ? " (judge's label, confirmed)" : ` (reviewer; the judge said: ${CELL[judge][1]})`) : ""}`;
      const pick = reviewable ? (e) => { e.stopPropagation(); setCursor({ index, col: k }); if (!selected) ctx.send({ selected: r.key }); } : null;
      return html`<td class=${classes} title=${title} data-col=${k} onClick=${pick}>${reviewed && judge !== v
        ? html`<s class="rw-judge-label">${CELL[judge][0]}</s>${sym}` : sym}${reviewed && judge === v ? "✓" : null}</td>`;
    })}
  </tr>`;
});

function Grid({ caption, rows, first, m, docIds, selected, ctx, cursor, reviewable, setCursor, act }) {
  return html`<table class="rw-table rw-matrix">
    <caption>${caption}</caption>
    <colgroup><col />${m.columns.map((c) => html`<col class=${c.active ? null : "rw-off"} />`)}</colgroup>
    <thead><tr>
      <th class="rw-corner">Claim</th>
      ${m.columns.map((c, k) => html`<th class="rw-matrix-col" scope="col"
        title=${`${showId(c.doc_id)} (rank ${k + 1})${c.active ? "" : ": switched off"}`}><${IdLink} id=${c.doc_id} label=${String(k + 1)}
          target=${`source:${c.doc_id}`} send=${ctx.send} />${c.active ? "" : html`<span class="rw-off-mark">off</span>`}</th>`)}
    </tr></thead>
    <tbody>
      ${rows.map((r, j) => html`<${MatrixRow} key=${r.key} r=${r} buf=${m.cells} index=${first + j} doc_ids=${docIds}
        selected=${selected === r.key} ctx=${ctx} cursorCol=${cursor && cursor.index === first + j ? cursor.col : -1}
        marks=${marksOf(m.reviewed, first + j)} reviewable=${reviewable} setCursor=${setCursor} act=${act} />`)}
    </tbody>
  </table>`;
}

/** The cell under the cursor: which label, the judge's and the reviewer's, and the buttons. */
function ReviewBar({ m, cursor, ctx }) {
  const row = cursor.index < m.response.length ? m.response[cursor.index] : m.gt[cursor.index - m.response.length];
  if (!row || cursor.col >= m.columns.length) return null;
  const target = cellTarget(m, cursor.index, cursor.col);
  const v = typed(m.cells, Int8Array)[cursor.index * m.columns.length + cursor.col];
  const mark = (m.reviewed || []).find((x) => x[0] === cursor.index && x[1] === cursor.col);
  const r = { judge: mark ? mark[2] : v, label: v, reviewed: !!mark };
  const title = `${row.id} × ${showId(target.doc_id)}`;
  return html`<div class="rw-review-bar" data-testid="review-bar">
    <span><b>${title}</b> (passage rank ${cursor.col + 1}, ${target.kind}): <${LabelShown} r=${r} /></span>
    <${ReviewButtons} target=${target} ctx=${ctx} onWhy=${ctx.why ? () => ctx.why(target, `${title}, ${target.kind}`) : null} />
  </div>`;
}

/** The matrix cells a reviewer overruled, in words: "R2 × D3: the judge said Entailment, the reviewer Neutral". */
function Overruled({ m }) {
  const cells = typed(m.cells, Int8Array);
  const rows = [...m.response, ...m.gt];
  const changed = (m.reviewed || []).filter(([i, k, judge]) => cells[i * m.columns.length + k] !== judge);
  if (!changed.length) return null;
  return html`<ul class="rw-overruled-list" data-testid="overruled">${changed.map(([i, k, judge]) => html`<li key=${`${i}:${k}`}>
    <b>${rows[i].id} × ${showId(m.columns[k].doc_id)}</b>: the judge said <s class="rw-judge-word">${CELL[judge][0]} ${LABEL_WORD[judge]}</s>,
    the reviewer <b>${CELL[cells[i * m.columns.length + k]][0]} ${LABEL_WORD[cells[i * m.columns.length + k]]}</b></li>`)}</ul>`;
}

const LABEL_WORD = { [LABEL_CODES.Entailment]: "Entailment", [LABEL_CODES.Neutral]: "Neutral",
  [LABEL_CODES.Contradiction]: "Contradiction", [UNJUDGED]: "unjudged" };

/** `focusCell` ({kind, claim, doc_id, seq}): a label to focus (the keyboard review's next): the
 * matrix opens, the cursor goes to its cell and its row takes focus. In a snapshot (the export's
 * inert `.rw-snapshot-view`, no kernel, no button to press) a large matrix is drawn open. */
export function Matrix({ m, selected, ctx, reviewable = false, focusCell = null }) {
  const [open, setOpen] = useState(() => (m.response.length + m.gt.length) * m.columns.length <= ON_DEMAND);
  const section = useRef(null);
  useLayoutEffect(() => {
    if (!open && section.current?.closest?.(".rw-snapshot-view")) setOpen(true);
  }, []);
  const [cursor, setCursor] = useState(null);
  const mref = useRef(m);
  mref.current = m;
  const wrap = useRef(null);
  const pending = useRef(-1); // the matrix row to focus once drawn
  useLayoutEffect(() => {
    if (!focusCell) return;
    const index = focusCell.kind === "retrieved2response" ? focusCell.claim : m.response.length + focusCell.claim;
    const col = m.columns.findIndex((c) => c.doc_id === focusCell.doc_id);
    if (col < 0) return;
    pending.current = index;
    setOpen(true);
    setCursor({ index, col });
  }, [focusCell && focusCell.seq]);
  useEffect(() => {
    if (pending.current < 0 || !wrap.current) return;
    const row = wrap.current.querySelectorAll("tr[data-row]")[pending.current]; // response rows, then ground truth
    if (row) {
      pending.current = -1;
      row.focus();
    }
  });
  // The review keys of a matrix row (stable, so memoised rows keep their props): the cursor's cell.
  const act = useCallback((e, index, col) => {
    const target = cellTarget(mref.current, index, col);
    reviewKeys(e, target, ctx, ctx.why ? () => ctx.why(target, `${target.kind} claim ${target.claim + 1} × ${showId(target.doc_id)}`) : null);
  }, [ctx]);
  const grid = { cursor, reviewable, setCursor, act };
  const docIds = useMemo(() => m.columns.map((c) => c.doc_id), [m.columns]); // one array while the columns stay
  const [entailed, contradicted] = useMemo(() => { // counted once per buffer, not on every selection
    const cells = typed(m.cells, Int8Array);
    let e = 0, c = 0;
    for (const v of cells) { e += v === LABEL_CODES.Entailment; c += v === LABEL_CODES.Contradiction; }
    return [e, c];
  }, [m.cells]);
  const size = `${m.response.length} response + ${m.gt.length} ground-truth claims × ${m.columns.length} passages`;
  return html`<section class="rw-section" data-testid="matrix" ref=${section}>
    <h4>Entailment: claims × passages</h4>
    <p class="rw-note">${size}; ${entailed} entailments, ${contradicted} contradictions. Columns are passages
      by rank (hover for the doc_id). Symbols: ● entails; ⊗ contradicts; · does not mention; ? unjudged;
      shaded columns are switched off.${reviewable ? " Reviewed: a struck-through symbol is the judge's label, overruled, the one after it the reviewer's (each listed in words under the matrix); ✓ the judge's label confirmed. Click a cell (or focus a row, ← →) and press E / N / C, A, U or W." : ""}</p>
    ${open
      ? html`<div class="rw-matrix-wrap" tabindex="0" role="region" aria-label="Entailment matrix" ref=${wrap}>
          <${Grid} caption="Response claims" rows=${m.response} first=${0} m=${m} docIds=${docIds} selected=${selected} ctx=${ctx} ...${grid} />
          ${m.gt.length
            ? html`<${Grid} caption="Ground-truth claims" rows=${m.gt} first=${m.response.length} m=${m} docIds=${docIds} selected=${selected} ctx=${ctx} ...${grid} />`
            : null}
        </div>
        ${reviewable && cursor ? html`<${ReviewBar} m=${m} cursor=${cursor} ctx=${ctx} />` : null}
        ${reviewable ? html`<${Overruled} m=${m} />` : null}`
      : html`<button type="button" class="rw-show-matrix" data-testid="show-matrix"
          onClick=${() => setOpen(true)}>Show the full matrix</button>`}
  </section>`;
}
