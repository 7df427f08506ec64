// How a view reaches the front end: one trait per view (Python's `view_trait`), whose value is
// {json, cells, patch, base}: the view state as JSON text and the entailment matrix's cells as a
// binary buffer of the same message (a DataView in JupyterLab, marimo, Voila and a saved
// notebook's widget state). A view Python sends as changes (`patch` true) is read over the base
// view in the trait `<name>_base` whose `base` number it names (patch.js). `typed` is the one
// conversion of a binary buffer to a typed array.
import { patched } from "./patch.js";

/** `data` (a DataView, ArrayBuffer, typed array, plain array or nothing) as a `Type` array: a
 * view on the same bytes where they are aligned for `Type`, else a copy. */
export function typed(data, Type = Int8Array) {
  if (data instanceof Type) return data;
  const size = Type.BYTES_PER_ELEMENT;
  if (data instanceof ArrayBuffer) data = new Uint8Array(data);
  if (ArrayBuffer.isView(data)) {
    if (data.byteOffset % size === 0 && data.byteLength % size === 0) {
      return new Type(data.buffer, data.byteOffset, data.byteLength / size);
    }
    return new Type(new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice().buffer);
  }
  return Type.from(data || []);
}

const parsedBases = new WeakMap(); // a base trait's value -> its view state, parsed once, never changed
const lastViews = new WeakMap(); // a model -> {trait name: {value, base, view}}, the view last read

function baseState(value) {
  let state = parsedBases.get(value);
  if (state === undefined) {
    state = JSON.parse(value.json);
    parsedBases.set(value, state);
  }
  return state;
}

/** The view state trait `name` holds now, with its matrix's cells as an Int8Array; null when
 * the trait holds no view. The same trait values give the same object (read again, nothing is
 * parsed); a patch whose base has not arrived yet (a host that applies one trait at a time)
 * gives the view last read, until it has. Callers never change what they get. */
export function viewOf(model, name = "_view") {
  const value = model.get(name);
  const base = value && value.patch ? model.get(`${name}_base`) : null;
  let seen = lastViews.get(model);
  if (!seen) lastViews.set(model, (seen = {}));
  const last = seen[name];
  if (last && last.value === value && last.base === base) return last.view;
  let view = null;
  if (value && value.json) {
    if (value.patch) {
      if (!base || !base.json || base.base !== value.base) return last ? last.view : null;
      view = patched(baseState(base), JSON.parse(value.json));
    } else view = JSON.parse(value.json);
    if (view.matrix) view = { ...view, matrix: { ...view.matrix, cells: typed(value.cells, Int8Array) } };
  }
  seen[name] = { value, base, view };
  return view;
}
