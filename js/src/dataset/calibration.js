// The DatasetExplorer's checker calibration (ragwidgets/widgets/dataset/calibration.py), a tab
// shown once the kernel fitted a local checker to the run's reviews (explorer.calibrate(checker)):
// the agreement with the reviewer before (the checker's own labels) and after (cross-validated),
// their difference with 95% intervals, the fitted threshold, a sentence saying what to do, and the
// reliability diagram (predicted probability against the reviewer's entailed share per bin, with
// Clopper–Pearson whiskers, before and after) drawn as SVG, its numbers in a table beside it. The
// method is chosen here ("calibrate" request); a review since the fit marks it stale (Fit again).
import { useState } from "preact/hooks";
import { html } from "../incremental.js";

const fail = () => null; // a failed request's error shows in the explorer's alert
const SIZE = 220, PAD = 34;
const COLOURS = { before: "var(--rw-warn)", after: "var(--rw-accent)" }; // the theme's, light and dark

const share = (s) => (s.value === null ? "Undefined" : s.low === null ? s.value : `${s.value} (${s.low} to ${s.high})`);

function Diagram({ diagrams }) {
  const x = (p) => PAD + p * (SIZE - PAD - 8);
  const y = (p) => SIZE - PAD - p * (SIZE - PAD - 8);
  const ticks = [0, 0.5, 1];
  return html`<svg class="rw-ds-calibration-diagram" data-testid="calibration-diagram" width=${SIZE} height=${SIZE}
      viewBox=${`0 0 ${SIZE} ${SIZE}`} role="img" aria-label="reliability diagram">
    <line x1=${x(0)} y1=${y(0)} x2=${x(1)} y2=${y(1)} stroke="currentColor" stroke-opacity="0.35" stroke-dasharray="4 3" />
    <line x1=${x(0)} y1=${y(0)} x2=${x(1)} y2=${y(0)} stroke="currentColor" stroke-opacity="0.6" />
    <line x1=${x(0)} y1=${y(0)} x2=${x(0)} y2=${y(1)} stroke="currentColor" stroke-opacity="0.6" />
    ${ticks.map((t) => html`<text x=${x(t)} y=${y(0) + 14} text-anchor="middle" font-size="10" fill="currentColor">${t}</text>
      <text x=${x(0) - 6} y=${y(t) + 3} text-anchor="end" font-size="10" fill="currentColor">${t}</text>`)}
    <text x=${x(0.5)} y=${SIZE - 4} text-anchor="middle" font-size="10" fill="currentColor">predicted P(entailment)</text>
    <text x="10" y=${y(0.5)} text-anchor="middle" font-size="10" fill="currentColor" transform=${`rotate(-90 10 ${y(0.5)})`}>reviewer's entailed share</text>
    ${Object.entries(diagrams).map(([name, d]) => {
      const total = d.rows.reduce((a, r) => a + r[2], 0) || 1;
      return d.rows.map(([, , n, predicted, observed, lo, hi]) => html`<g data-testid=${`calibration-point-${name}`}>
        <line x1=${x(predicted)} x2=${x(predicted)} y1=${y(lo)} y2=${y(hi)} style=${`stroke: ${COLOURS[name]}; stroke-opacity: 0.5`} />
        <circle cx=${x(predicted)} cy=${y(observed)} r=${2.5 + 6 * Math.sqrt(n / total)} style=${`fill: ${COLOURS[name]}; fill-opacity: 0.75`}>
          <title>${`${name}: ${n} checks, predicted ${predicted.toFixed(3)}, observed ${observed.toFixed(3)} (${lo.toFixed(3)} to ${hi.toFixed(3)})`}</title></circle>
      </g>`);
    })}
  </svg>`;
}

function Calibration({ part: c, request }) {
  const [method, setMethod] = useState(c.method);
  const names = Object.keys(c.diagrams);
  return html`<div class="rw-ds-panel rw-ds-calibration" data-testid="calibration">
    <p class="rw-ds-calibration-checker" data-testid="calibration-checker">${c.checker}${c.run ? ` · run ${c.run}` : ""}</p>
    <p><label>method <select data-testid="calibration-method" value=${method} onChange=${(e) => setMethod(e.target.value)}>
        ${c.methods.map((m) => html`<option value=${m}>${m}</option>`)}</select></label>
      <button type="button" data-testid="calibration-fit" onClick=${() => request("calibrate", { method }).catch(fail)}>Fit</button>
      <span class="rw-hint"> threshold: a cut on the support; platt: σ(a·logit(s) + b); isotonic: a non-decreasing step map</span></p>
    ${c.stale ? html`<p class="rw-hint" data-testid="calibration-stale"><b>Reviews changed since this fit: its figures are those of the reviews then.</b>
      <button type="button" data-testid="calibration-again" onClick=${() => request("calibrate", { method: c.method }).catch(fail)}>Fit again</button></p>` : ""}
    <table class="rw-table rw-ds-calibration-table" data-testid="calibration-table">
      <caption>Agreement with the reviewer on ${c.n} reviewed checks (${c.entailed} entailed), 95% intervals over the samples${c.checks_left_out ? ` · ${c.checks_left_out} left out (blank claim or passage)` : ""}</caption>
      <tbody>
        <tr><th scope="row">before (the checker's own labels)</th><td data-testid="calibration-before">${share(c.before)}</td></tr>
        <tr><th scope="row">after (${c.method}${c.folds ? `, ${c.folds}-fold cross-validated` : ""})</th><td data-testid="calibration-after">${share(c.after)}</td></tr>
        <tr><th scope="row">change</th><td data-testid="calibration-change">${share(c.change)}</td></tr>
        <tr><th scope="row">fitted threshold on the support</th><td data-testid="calibration-threshold">${c.threshold === null ? "Undefined" : c.threshold}</td></tr>
      </tbody>
    </table>
    <p data-testid="calibration-advice">${c.advice}</p>
    <div class="rw-ds-calibration-reliability">
      <${Diagram} diagrams=${c.diagrams} />
      <div>
        <p>${names.map((name) => html`<span class="rw-ds-calibration-key" style=${`color: ${COLOURS[name]}`}>● ${name}</span>
          <span class="rw-hint"> ECE ${c.diagrams[name].ece}, Brier ${c.diagrams[name].brier} </span>`)}</p>
        <p class="rw-hint">Each dot a bin of predicted probability (its size: the checks in it), its whisker the reviewer's
          entailed share's 95% interval; on the dashed line the checker means what it says.${names.length < 2 && !c.reason
            ? " A threshold gives labels, not probabilities: no after diagram." : ""}</p>
        ${names.map((name) => html`<details><summary>${name}: the bins</summary>
          <table class="rw-table" data-testid=${`calibration-bins-${name}`}><thead><tr>${["bin", "checks", "predicted", "observed", "95%"].map((h) => html`<th>${h}</th>`)}</tr></thead>
          <tbody>${c.diagrams[name].rows.map(([lo, hi, n, p, o, olo, ohi]) => html`<tr><td>${lo.toFixed(1)}–${hi.toFixed(1)}</td><td>${n}</td>
            <td>${p.toFixed(3)}</td><td>${o.toFixed(3)}</td><td>${olo.toFixed(3)} to ${ohi.toFixed(3)}</td></tr>`)}</tbody></table></details>`)}
      </div>
    </div>
  </div>`;
}

export const panel = {
  key: "calibration", title: "Calibration", place: "tab", shows: (view) => !!view.calibration,
  part: (view) => view.calibration,
  traits: [],
  Panel: Calibration,
};
