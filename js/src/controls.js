// The header and the controls. Each control reports its action through `send(patch)`.
import { html, memo } from "./incremental.js";
import { Picker } from "./picker.js";
import { LongText } from "./text.js";

export const Header = memo(function Header({ title, question, state, kind }) {
  // a sample always has a question field: an empty one (RefChecker's runs) is said, never left blank
  const none = !question && kind === "sample" ? html`<span class="rw-hint">none in this sample</span>` : null;
  return html`<header class="rw-header">
    <h3 class="rw-title"><${LongText} text=${title} /></h3>
    ${question || none ? html`<p class="rw-question"><b>Question: </b>${none || html`<${LongText} text=${question} />`}</p>` : null}
    <p class="rw-state" data-testid="state"><b>State: </b><${LongText} text=${state} /></p>
  </header>`;
});

/** A control: a row of buttons when there are few options, else a <select>. */
function Choice({ s, send }) {
  const labels = s.option_labels || s.options;
  const valueOf = (i) => (s.numeric ? i : s.options[i]);
  const current = s.numeric ? s.value : s.options.indexOf(s.value);
  const labelId = `rw-label-${s.trait}`;
  const label = html`<span class="rw-control-label" id=${labelId}>${s.label}</span>`;
  if (s.options.length > 8) {
    return html`<div class="rw-control">
      ${label}
      <select aria-labelledby=${labelId} data-trait=${s.trait} value=${String(current)}
        onChange=${(e) => send({ [s.trait]: valueOf(Number(e.target.value)) })}>
        ${labels.map((text, i) => html`<option key=${i} value=${String(i)}>${text}</option>`)}
      </select>
    </div>`;
  }
  return html`<div class="rw-control" role="radiogroup" aria-labelledby=${labelId} data-trait=${s.trait}>
    ${label}
    ${labels.map(
      (text, i) => html`<button key=${s.options[i]} type="button" role="radio"
        class=${i === current ? "rw-option rw-active" : "rw-option"}
        aria-checked=${i === current ? "true" : "false"} data-option=${s.options[i]}
        onClick=${() => send({ [s.trait]: valueOf(i) })}>${text}</button>`,
    )}
  </div>`;
}

/** "Top k passages": one number control; the first k passages in rank order go in play. */
function TopK({ t, ids, inPlay, send }) {
  const commit = (e) => {
    const k = Math.round(Number(e.target.value));
    if (e.target.value === "" || !Number.isFinite(k)) return;
    const clamped = Math.max(0, Math.min(t.max, k));
    if (clamped !== t.value) send({ retrieved: ids.slice(0, clamped) });
  };
  return html`<div class="rw-control" data-trait="top_k">
    <label class="rw-control-label" for="rw-top-k">Top k passages</label>
    <input type="range" min="0" max=${String(t.max)} value=${String(t.value ?? inPlay)}
      aria-label="Top k passages (slider)" data-testid="top-k-range" onChange=${commit} />
    <input type="number" id="rw-top-k" class="rw-top-k" min="0" max=${String(t.max)}
      value=${t.value === null ? "" : String(t.value)} placeholder="custom" data-testid="top-k"
      onChange=${commit} />
    <span class="rw-top-k-note">${t.value === null ? `custom set of ${inPlay}` : `of ${t.max}`}</span>
  </div>`;
}

export const Controls = memo(function Controls({ c, predict, ids, inPlay, send, search }) {
  return html`<section class="rw-controls" data-testid="controls">
    ${c.picker && search ? html`<${Picker} p=${c.picker} send=${send} search=${search} />` : null}
    ${c.selects.map((s) => html`<${Choice} key=${s.trait} s=${s} send=${send} />`)}
    ${c.top_k ? html`<${TopK} t=${c.top_k} ids=${ids} inPlay=${inPlay} send=${send} />` : null}
    <div class="rw-presets" role="group" aria-label="Presets">
      <span class="rw-control-label">Presets</span>
      ${c.presets.map(
        (p) => html`<button key=${p.name} type="button" class=${p.active ? "rw-preset rw-active" : "rw-preset"}
          title=${p.note} aria-pressed=${p.active ? "true" : "false"} data-preset=${p.name}
          onClick=${() => send(p.set)}>${p.name}</button>`,
      )}
    </div>
    <div class="rw-tools">
      <button type="button" class="rw-reset" data-testid="reset" onClick=${() => send(c.reset)}>↺ Reset</button>
      <label class="rw-predict-toggle">
        <input type="checkbox" checked=${predict} data-testid="predict"
          onChange=${(e) => send({ predict: e.target.checked })} /> Predict before reveal
      </label>
      ${c.edited ? html`<span class="rw-edited">Passages edited: ${c.edited}</span>` : null}
    </div>
  </section>`;
});
