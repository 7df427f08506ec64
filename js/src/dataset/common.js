// What the DatasetExplorer's core and its panels share: the number format of the tables and the
// trait <select>. Nothing here knows a panel.
import { html } from "../incremental.js";

/** A number to `digits` places; "" for none (null, undefined, NaN). */
export const fmt = (v, digits = 3) => (v === null || v === undefined || Number.isNaN(v) ? "" : Number(v).toFixed(digits));

/** A mean as text: 3 places, "Undefined" for none (null, undefined). */
export const meanText = (v) => (v === null || v === undefined ? "Undefined" : Number(v).toFixed(3));

/** {metric key: label} of the view's metrics. */
export const labelsOf = (metrics) => Object.fromEntries(metrics.map((m) => [m.key, m.label]));

/** A <select> over one trait: `value` shown, `set({[trait]: chosen})` on change. */
export function TraitSelect({ trait, value, options, labels = options, set }) {
  return html`<select value=${value} data-testid=${trait} onChange=${(e) => set({ [trait]: e.target.value })}>
    ${options.map((o, i) => html`<option value=${o}>${labels[i]}</option>`)}</select>`;
}

/** `list` with `x` added, or without it when it is there. */
export const toggled = (list, x) => (list.includes(x) ? list.filter((y) => y !== x) : [...list, x]);

/** ms without a new view before a panel asks the kernel for what costs a pass over the run (the
 * queue's interval, the trust panel's tables after a review): a reviewer at a label a second is
 * never kept waiting by it. */
export const PAUSE = 1500;
