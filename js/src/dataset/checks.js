// The DatasetExplorer's mode checks (ragwidgets/widgets/dataset/checks.py), a tab beside the
// failure modes: from a mode to a check. Pick a mode and a rule (a filter expression, the modes'
// columns `mode: <tag>` included, or a built-in signal); the kernel answers with the check's words
// ("catches 8 of 10 tagged (80%, 44%–97%) · right on 8 of 9 flagged …"), its precision and recall
// with 95% intervals and examples (caught, false alarms, missed), each of which opens in the
// drill-down. "Save as slice" keeps an expression's check as a named slice (a signal has no
// expression form: the kernel says so).
import { useState } from "preact/hooks";
import { html } from "../incremental.js";
import { showId } from "../text.js";
import { rateText } from "./modes.js";

const fail = () => null; // a failed request's error shows in the explorer's alert
const SAID = { caught: "caught (tagged, flagged)", false_alarm: "false alarms (read, not tagged, flagged)", missed: "missed (tagged, not flagged)" };

function Checks({ part: c, request, set }) {
  const last = c.check;
  const [mode, setMode] = useState(last ? last.mode : c.modes[0] || "");
  const [kind, setKind] = useState(last && last.signal ? "signal" : "expression");
  const [expression, setExpression] = useState(last ? last.expression : "");
  const [signal, setSignal] = useState(last && last.signal ? last.signal : (c.signals[0] || {}).name || "");
  const [name, setName] = useState("");
  const chosen = c.modes.includes(mode) ? mode : c.modes[0] || "";
  const check = () => request("mode_check", { mode: chosen, run: c.run, ...(kind === "signal" ? { signal } : { expression }) }).catch(fail);
  const open = (qid) => request("mode_row", { query_id: qid, run: last.run }).then((r) => set({ selected: r.row }), fail);
  const sig = c.signals.find((s) => s.name === signal);
  return html`<div class="rw-ds-panel rw-ds-modes rw-ds-modes-check" data-testid="checks">
    <p class="rw-ds-modes-rule">
      <label>mode <select data-testid="check-mode" value=${chosen} onChange=${(e) => setMode(e.target.value)}>
        ${c.modes.map((m) => html`<option value=${m}>${m}</option>`)}</select></label>
      <label><input type="radio" name="rw-ds-modes-kind" checked=${kind === "expression"} onChange=${() => setKind("expression")} /> expression</label>
      <label><input type="radio" name="rw-ds-modes-kind" checked=${kind === "signal"} onChange=${() => setKind("signal")} data-testid="check-kind-signal" /> signal</label>
      ${kind === "expression"
        ? html`<input class="rw-ds-expr" data-testid="check-expression" placeholder="faithfulness < 0.5 and n_passages > 3" value=${expression}
            onInput=${(e) => setExpression(e.target.value)} onKeyDown=${(e) => e.key === "Enter" && check()} />`
        : html`<select data-testid="check-signal" value=${signal} onChange=${(e) => setSignal(e.target.value)} title=${sig ? sig.description : ""}>
            ${c.signals.map((s) => html`<option value=${s.name} title=${s.description}>${s.label}</option>`)}</select>`}
      <button type="button" data-testid="check-run" disabled=${!chosen || (kind === "expression" && !expression.trim())} onClick=${check}>Check</button>
    </p>
    ${kind === "signal" && sig ? html`<p class="rw-hint">${sig.label}: ${sig.description}.</p>` : ""}
    ${!c.modes.length ? html`<p class="rw-hint">No mode yet: tag notes first.</p>` : ""}
    ${last && c.stale ? html`<p class="rw-hint" data-testid="check-stale"><b>The notes changed since this check${c.modes.includes(last.mode) ? "" : ` (no note carries ${last.mode} now)`}:
      its figures are those of the notes then.</b> ${c.modes.includes(last.mode) ? html`<button type="button" data-testid="check-again"
        onClick=${() => request("mode_check", { mode: last.mode, run: last.run, ...(last.signal ? { signal: last.signal } : { expression: last.expression }) }).catch(fail)}>Check again</button>` : ""}</p>` : ""}
    ${last ? html`<div data-testid="check-result">
      <p><b>${last.mode}</b> ← ${last.expression ? html`<code>${last.expression}</code>` : last.label}${c.run ? ` (run ${showId(last.run)})` : ""}</p>
      <p data-testid="check-words">${last.words}</p>
      <p>precision <b data-testid="check-precision">${rateText(last.precision, last.precision_lo, last.precision_hi)}</b> ·
        recall <b data-testid="check-recall">${rateText(last.recall, last.recall_lo, last.recall_hi)}</b>
        <span class="rw-hint"> (95% intervals, among the samples read)</span></p>
      ${Object.entries(SAID).map(([k, words]) => (last.examples[k].length ? html`<p class="rw-ds-modes-examples">${words}:
        ${last.examples[k].map((q) => html` <button type="button" class="rw-idlink" data-testid="check-example" onClick=${() => open(q)}
          title="Open in the drill-down">${showId(q)}</button>`)}</p>` : ""))}
      <p>${last.expression ? html`<input placeholder="slice name" value=${name} onInput=${(e) => setName(e.target.value)} data-testid="slice-name" />
        <button type="button" data-testid="slice-save" disabled=${!name.trim()}
          onClick=${() => request("mode_slice", { name }).then(() => setName(""), fail)}>Save as slice</button>`
        : html`<span class="rw-hint">A signal has no filter expression, so it cannot be a slice: write the rule as an expression to keep it.</span>`}</p>
    </div>` : ""}
  </div>`;
}

export const panel = {
  key: "checks", title: "Mode checks", place: "tab", shows: (view) => !!view.checks,
  part: (view) => view.checks,
  traits: ["selected"],
  Panel: Checks,
};
