// The DatasetExplorer's Comparison tab (several runs): each run against the baseline on the
// queries they share, per metric: both means, the paired difference and its interval, with what
// was left out and why a difference may be the judge's.
import { html } from "../incremental.js";
import { fmt } from "./common.js";

function Compare({ part, set }) {
  const { compare: cmp, metric, chartable } = part;
  const rows = cmp.rows.filter((r) => r.metric === metric);
  return html`<div class="rw-ds-panel" data-testid="compare">
    <h4>Compared with ${cmp.baseline} on ${cmp.shared} shared queries
      <span class="rw-hint">(left out: ${Object.entries(cmp.left_out).map(([k, n]) => `${k} ${n}`).join(", ")})</span></h4>
    ${Object.entries(cmp.query_mismatch || {}).filter(([, n]) => n).map(([run, n]) => html`<p class="rw-ds-notice" role="note" data-testid="query-mismatch">
      ⚠ ${run}: ${n} shared query_id${n === 1 ? "" : "s"} ask${n === 1 ? "s" : ""} another question than in ${cmp.baseline} (still paired by query_id)</p>`)}
    ${Object.entries(cmp.judge_notes || {}).filter(([, note]) => note).map(([run, note]) => html`<p class="rw-ds-notice" role="note" data-testid="judge-note">
      ⚠ ${run}: ${note}; part of its difference may be the judge's</p>`)}
    ${Object.keys(cmp.said || {}).length ? html`<p class="rw-hint" role="status">${Object.entries(cmp.said).map(([run, said], k) =>
      html`${k ? " · " : ""}<span data-testid="compare-said">${run}: ${said}</span>`)}</p>` : ""}
    <label>metric <select value=${metric} onChange=${(e) => set({ compare_metric: e.target.value })}>
      ${chartable.map((m) => html`<option value=${m.key}>${m.label}</option>`)}</select></label>
    <button onClick=${() => set({ sort_by: "difference", descending: true })}>Queries by difference</button>
    <div class="rw-ds-wide"><table class="rw-table"><thead><tr><th>run</th><th>baseline</th><th>run</th><th>difference</th><th>paired 95% interval</th><th>paired</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr><td>${r.run}</td><td class="rw-num">${fmt(r.baseline_mean)}</td><td class="rw-num">${fmt(r.mean)}</td>
        <td class="rw-num">${r.difference === null ? "" : (r.difference > 0 ? "+" : "") + fmt(r.difference)}
          ${r.judge_note ? html` <span class="rw-ds-badge" title=${r.judge_note} data-testid="judged-differently">judged differently</span>` : ""}</td>
        <td class="rw-num">${r.ci_low === null ? "" : `${fmt(r.ci_low)} – ${fmt(r.ci_high)}`}
          ${r.includes_zero ? html` <span class="rw-ds-badge">includes 0</span>` : ""}</td><td class="rw-num">${r.paired}</td></tr>`)}</tbody></table></div>
  </div>`;
}

export const panel = {
  key: "compare", title: "Comparison", place: "tab", shows: (view) => !!view.compare,
  part: (view) => ({ compare: view.compare, metric: view.controls.compare_metric, chartable: view.chartable || view.metrics }),
  traits: ["compare_metric", "sort_by", "descending"],
  Panel: Compare,
};
