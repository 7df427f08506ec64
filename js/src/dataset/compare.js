// The DatasetExplorer's Comparison tab (several runs): each run against the baseline on the
// queries they share, per metric: both means, the paired difference and its interval, with what
// was left out and why a difference may be the judge's. Below it, what changed claim by claim
// (ragwidgets/widgets/dataset/changes.py): for the compare metric and one run, the queries that
// moved most and under each the labels that changed ("entailed → not entailed, by passage d3",
// "added", "removed"); a query or a change opens that query of the run in the drill-down. The
// kernel finds them when asked (`claim_changes`: the run, how many queries), never on a view; a
// review or another metric leaves them stale and they are asked for again.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../incremental.js";
import { Id, showId } from "../text.js";
import { fmt } from "./common.js";

const signed = (v) => (v === null ? "" : (v > 0 ? "+" : "") + fmt(v));
const STEP = 10; // more queries asked for at a time
const SIDE = { answer2response: "R", retrieved2response: "R", response2answer: "G", retrieved2answer: "G" }; // as the drill-down names claims

function ClaimChanges({ changes, label, request, set }) {
  const [run, setRun] = useState(changes.runs[0]);
  const [top, setTop] = useState(changes.top);
  const chosen = changes.runs.includes(run) ? run : changes.runs[0];
  const f = changes.found;
  const current = !!f && f.run === chosen && f.top === top;
  const asked = useRef("");
  useEffect(() => { // ask once per metric, run and top; again once an answer came and went stale (a review)
    const key = `${changes.metric}\n${chosen}\n${top}`;
    if (current) asked.current = "";
    else if (asked.current !== key) {
      asked.current = key;
      request("claim_changes", { run: chosen, top }).catch(() => null); // its error shows in the alert
    }
  });
  const open = (q) => q.row >= 0 && set({ selected: q.row });
  return html`<div class="rw-ds-changes" data-testid="claim-changes">
    <h4>What changed, claim by claim <span class="rw-hint">(${label}: the queries that moved most${
      changes.runs.length > 1 ? "" : ` in ${showId(chosen)}`} against ${showId(f ? f.baseline : "the baseline")})</span></h4>
    ${changes.runs.length > 1 ? html`<label>run <select value=${chosen} data-testid="changes-run"
      onChange=${(e) => setRun(e.target.value)}>${changes.runs.map((r) => html`<option value=${r}>${showId(r)}</option>`)}</select></label>` : ""}
    ${!current ? html`<p class="rw-hint" role="status" data-testid="changes-pending">Finding the claims that changed…</p>`
      : !f.queries.length ? html`<p class="rw-hint" data-testid="changes-none">No shared query moved on ${label}.</p>`
      : html`<div class="rw-ds-wide"><table class="rw-table" data-testid="changes-table">
        <thead><tr><th>query</th><th>baseline</th><th>${showId(chosen)}</th><th>difference</th><th>claim</th><th>what changed</th></tr></thead>
        <tbody>${f.queries.map((q) => html`<tr class="rw-ds-changes-query" data-testid="changes-query" key=${q.query_id}>
            <td><button type="button" class="rw-idlink" title="Open in the drill-down" disabled=${q.row < 0}
              onClick=${() => open(q)}><${Id} id=${q.query_id} /></button></td>
            <td class="rw-num">${fmt(q.base_value)}</td><td class="rw-num">${fmt(q.new_value)}</td>
            <td class="rw-num"><b>${signed(q.difference)}</b></td>
            <td colspan="2" class="rw-hint">${q.said || `${q.changes.length + q.more} change${q.changes.length + q.more === 1 ? "" : "s"}`}</td></tr>
          ${q.changes.map((c, k) => html`<tr data-testid="changes-claim" key=${`${q.query_id} ${k}`} onClick=${() => open(q)}
              title="Open in the drill-down"><td></td><td colspan="3" class="rw-hint">${c.base_label === null && c.new_label === null ? "" : c.kind}</td>
            <td><b title=${`${SIDE[c.kind]}${c.claim + 1} of ${showId(c.change.startsWith("removed") ? f.baseline : chosen)}`}>${SIDE[c.kind]}${c.claim + 1}</b> ${c.claim_text}</td><td data-testid="changes-said">${c.change}</td></tr>`)}
          ${q.more ? html`<tr><td></td><td colspan="5" class="rw-hint">… and ${q.more} more (rw.analysis.claim_changes lists every one)</td></tr>` : ""}`)}
        </tbody></table></div>
        ${f.queries.length === top && top < changes.max_top ? html`<button type="button" data-testid="changes-more"
          onClick=${() => setTop(Math.min(top + STEP, changes.max_top))}>More queries</button>` : ""}`}
  </div>`;
}

function Compare({ part, request, set }) {
  const { compare: cmp, metric, chartable, changes } = part;
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
    ${changes ? html`<${ClaimChanges} changes=${changes} request=${request} set=${set}
      label=${(chartable.find((m) => m.key === changes.metric) || { label: changes.metric }).label} />` : ""}
  </div>`;
}

export const panel = {
  key: "compare", title: "Comparison", place: "tab", shows: (view) => !!view.compare,
  part: (view) => ({ compare: view.compare, metric: view.controls.compare_metric, chartable: view.chartable || view.metrics,
    changes: view.changes || null }),
  traits: ["compare_metric", "sort_by", "descending", "selected"],
  Panel: Compare,
};
