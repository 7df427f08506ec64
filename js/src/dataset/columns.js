// The DatasetExplorer's Columns tab: which of the table's columns show, in which order (the
// `table_columns` trait; empty: all, in the default order).
import { html } from "../incremental.js";

function Columns({ part, set }) {
  const { columns, all } = part;
  const shown = columns.map((col) => col.key);
  const save = (keys) => set({ table_columns: keys });
  const move = (key, by) => {
    const keys = [...shown];
    const i = keys.indexOf(key);
    const j = i + by;
    if (j < 0 || j >= keys.length) return;
    [keys[i], keys[j]] = [keys[j], keys[i]];
    save(keys);
  };
  const toggle = (key, on) => save(on ? [...shown, key] : shown.filter((k) => k !== key));
  const order = [...columns, ...all.filter((col) => !shown.includes(col.key))];
  return html`<div class="rw-ds-panel" data-testid="columns">
    <p class="rw-hint">Choose the table's columns and their order (kept with the widget: <code>explorer.table_columns</code>).
      <button onClick=${() => save([])} data-testid="columns-reset">All, in the default order</button></p>
    <ol class="rw-ds-columns">${order.map((col) => {
      const on = shown.includes(col.key);
      return html`<li key=${col.key} data-column=${col.key}>
        <label><input type="checkbox" checked=${on} disabled=${on && shown.length === 1}
          onChange=${(e) => toggle(col.key, e.target.checked)} /> ${col.label}</label>
        ${on ? html`<button title="Move left" aria-label=${`Move ${col.label} left`} onClick=${() => move(col.key, -1)}>↑</button>
          <button title="Move right" aria-label=${`Move ${col.label} right`} onClick=${() => move(col.key, 1)}>↓</button>` : ""}
      </li>`;
    })}</ol>
  </div>`;
}

export const panel = {
  key: "columns", title: "Columns", place: "tab", shows: () => true,
  part: (view) => ({ columns: view.columns, all: view.all_columns }),
  traits: ["table_columns"],
  Panel: Columns,
};
