// The entailment matrix, claims x passages, from the binary cells buffer. Compact cells, sticky
// row and column headers inside a bounded scrolling region; a large matrix is summarised first
// and drawn on demand. Rows are memoised on the buffer: toggling a passage re-renders only the
// column headers (switched-off columns are shaded through <col>), not 10,000 cells.
import { useState } from "preact/hooks";
import { html, memo } from "./incremental.js";
import { LABEL_CODES, UNJUDGED } from "./labels.js";
import { showId } from "./text.js";
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

const MatrixRow = memo(function MatrixRow({ r, buf, index, doc_ids, selected, ctx }) {
  const cells = typed(buf, Int8Array).subarray(index * doc_ids.length, (index + 1) * doc_ids.length);
  return html`<tr class=${selected ? "rw-row rw-role-selected" : "rw-row"} data-row=${r.key}
      onClick=${() => ctx.send({ selected: selected ? "" : r.key })}>
    <th class="rw-id" scope="row" title=${r.text}>${r.id}</th>
    ${Array.from(cells, (v, k) => {
      const [sym, word, cls] = CELL[v];
      return html`<td class=${cls} title=${`${showId(doc_ids[k])} ${word} ${r.id}`}>${sym}</td>`;
    })}
  </tr>`;
});

function Grid({ caption, rows, first, m, docIds, selected, ctx }) {
  return html`<table class="rw-table rw-matrix">
    <caption>${caption}</caption>
    <colgroup><col />${m.columns.map((c) => html`<col class=${c.active ? null : "rw-off"} />`)}</colgroup>
    <thead><tr>
      <th class="rw-corner">Claim</th>
      ${m.columns.map((c, k) => html`<th class="rw-matrix-col" scope="col"
        title=${`${showId(c.doc_id)} (rank ${k + 1})${c.active ? "" : ": switched off"}`}>${k + 1}${c.active ? "" : html`<span class="rw-off-mark">off</span>`}</th>`)}
    </tr></thead>
    <tbody>
      ${rows.map((r, j) => html`<${MatrixRow} key=${r.key} r=${r} buf=${m.cells} index=${first + j} doc_ids=${docIds}
        selected=${selected === r.key} ctx=${ctx} />`)}
    </tbody>
  </table>`;
}

export function Matrix({ m, selected, ctx }) {
  const [open, setOpen] = useState(() => (m.response.length + m.gt.length) * m.columns.length <= ON_DEMAND);
  const docIds = m.columns.map((c) => c.doc_id);
  const cells = typed(m.cells, Int8Array);
  const entailed = cells.reduce((n, v) => n + (v === LABEL_CODES.Entailment), 0);
  const contradicted = cells.reduce((n, v) => n + (v === LABEL_CODES.Contradiction), 0);
  const size = `${m.response.length} response + ${m.gt.length} ground-truth claims × ${m.columns.length} passages`;
  return html`<section class="rw-section" data-testid="matrix">
    <h4>Entailment: claims × passages</h4>
    <p class="rw-note">${size}; ${entailed} entailments, ${contradicted} contradictions. Columns are passages
      by rank (hover for the doc_id). Symbols: ● entails; ⊗ contradicts; · does not mention; ? unjudged;
      shaded columns are switched off.</p>
    ${open
      ? html`<div class="rw-matrix-wrap" tabindex="0" role="region" aria-label="Entailment matrix">
          <${Grid} caption="Response claims" rows=${m.response} first=${0} m=${m} docIds=${docIds} selected=${selected} ctx=${ctx} />
          ${m.gt.length
            ? html`<${Grid} caption="Ground-truth claims" rows=${m.gt} first=${m.response.length} m=${m} docIds=${docIds} selected=${selected} ctx=${ctx} />`
            : null}
        </div>`
      : html`<button type="button" class="rw-show-matrix" data-testid="show-matrix"
          onClick=${() => setOpen(true)}>Show the full matrix</button>`}
  </section>`;
}
