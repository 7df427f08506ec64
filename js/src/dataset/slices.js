// The DatasetExplorer's failure slices, above the table: a button per named slice (its size;
// a click filters to it, again clears it) and "+ slice from filter", which names the filter
// expression in force as a new slice (an "add_slice" request).
import { html } from "../incremental.js";

function Slices({ part, set, request }) {
  const { slices, active, expression } = part;
  const save = () => {
    const name = (globalThis.prompt && globalThis.prompt("Name this slice")) || "";
    if (name.trim() && expression.trim()) request("add_slice", { name, expression }).catch(() => null);
  };
  return html`<div class="rw-ds-slices" data-testid="slices"><span class="rw-hint">Failure slices</span>
    ${slices.map((s) => html`<button title=${`${s.description}\n${s.expression}`}
        class=${active === s.name ? "rw-active" : ""} onClick=${() => set({ slice: active === s.name ? "" : s.name })}>
        ${s.name} <span class="rw-ds-count">${s.size}</span></button>`)}
      <button disabled=${!expression.trim()} onClick=${save} title="Save the filter expression as a named slice">+ slice from filter</button>
    </div>`;
}

export const panel = {
  key: "slices", place: "master", shows: (view) => !view.cluster,
  part: (view) => ({ slices: view.slices, active: view.controls.slice, expression: view.controls.expression }),
  traits: ["slice"],
  Panel: Slices,
};
