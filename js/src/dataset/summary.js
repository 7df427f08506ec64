// The DatasetExplorer's Summary tab: each metric's mean per run over the rows the filters keep,
// with its interval and Undefined count, and for a run judged several times how many labels flip
// and each metric's interval with the judge's repeats resampled beside today's.
import { html } from "../incremental.js";
import { fmt, labelsOf } from "./common.js";

/** A run judged several times: how many labels flip, and each metric's interval with the judge's
 * repeats resampled beside today's (over all the run's samples, not the filter). */
function Repeats({ repeats, labelOf }) {
  const runs = Object.entries(repeats || {});
  if (!runs.length) return "";
  const range = (lo, hi) => (lo === null || lo === undefined ? "Undefined" : `${fmt(lo, 3)}–${fmt(hi, 3)}`);
  return html`<div class="rw-ds-wide" data-testid="repeats">${runs.map(([run, r]) => html`<table class="rw-table">
    <caption>${`${run}: judged ${r.n_repeats} times (labels by ${r.policy}); ${r.flaky.toLocaleString("en-US")} of `
      + `${r.samples.toLocaleString("en-US")} samples flaky (a metric changes across repeats; slice "flaky labels"); `
      + `labels that flip: ${r.labels.map((l) => `${l.kind} ${fmt(100 * l.share, 1)}% of ${l.labels.toLocaleString("en-US")}`
        + (l.pair_share === null || l.pair_share === undefined ? "" : ` (${fmt(100 * l.pair_share, 1)}% per pair of repeats)`)).join(", ") || "none"}`}</caption>
    <thead><tr><th>metric</th><th>mean</th><th>95% interval (questions)</th><th>one judge run: mean of the repeats (95% interval, questions and judge)</th><th>mean per repeat</th></tr></thead>
    <tbody>${r.metrics.map((m) => html`<tr><th>${labelOf[m.metric] || m.metric}</th>
      <td class="rw-num">${m.mean === null ? html`<span class="rw-ds-undef">Undefined</span>` : fmt(m.mean, 3)}</td>
      <td class="rw-num">${range(m.ci_low, m.ci_high)}</td>
      <td class="rw-num">${m.judge_mean === null || m.judge_ci_low === null ? "Undefined" : `${fmt(m.judge_mean, 3)} (${range(m.judge_ci_low, m.judge_ci_high)})`}</td>
      <td class="rw-num">${range(m.repeat_min, m.repeat_max)}</td></tr>`)}</tbody></table>`)}</div>`;
}

function Summary({ summary, metrics, percent, cluster, count }) {
  const runs = [...new Set(summary.map((r) => r.run))];
  const cell = (r) => {
    if (!r) return html`<td />`;
    const mean = r.mean === null ? html`<span class="rw-ds-undef">Undefined</span>` : fmt(r.mean, percent ? 1 : 3);
    const ci = r.ci_low === null ? "" : ` [${fmt(r.ci_low, percent ? 1 : 3)}–${fmt(r.ci_high, percent ? 1 : 3)}]`;
    return html`<td class="rw-num" title=${`${r.defined} defined, ${r.undefined} Undefined, ${r.not_computable} not computable`}>
      ${mean}<span class="rw-ds-ci">${ci}</span>${r.undefined ? html`<span class="rw-ds-count"> · ${r.undefined} Undef</span>` : ""}</td>`;
  };
  const caption = cluster
    ? `Summary over the ${cluster.matching.toLocaleString("en-US")} matching samples, computed on the cluster: mean over defined samples, Undefined count (no bootstrap interval on a Dask-scored run)`
    : `Summary over the ${count} samples shown: mean over defined samples, 95% interval (exact for rare outcomes), Undefined count`;
  return html`<div class="rw-ds-wide"><table class="rw-table rw-ds-summary" data-testid="summary">
    <caption>${caption}</caption>
    <thead><tr><th>metric</th>${runs.map((r) => html`<th>${r}</th>`)}</tr></thead>
    <tbody>${metrics.map((m) => html`<tr><th>${m.label}</th>
      ${runs.map((run) => cell(summary.find((r) => r.run === run && r.metric === m.key)))}</tr>`)}</tbody>
  </table></div>`;
}

export const panel = {
  key: "summary", title: "Summary", place: "tab", shows: () => true,
  part: (view) => ({ summary: view.summary, metrics: view.metrics, percent: view.controls.percent, cluster: view.cluster,
    count: view.count, repeats: view.repeats }),
  traits: [],
  Panel: ({ part }) => html`<${Summary} ...${part} /><${Repeats} repeats=${part.repeats} labelOf=${labelsOf(part.metrics)} />`,
};
