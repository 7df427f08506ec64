// How a view reaches the front end: one trait per view (Python's `view_trait`), whose value is
// {json, cells}: the view state as JSON text and the entailment matrix's cells as a binary
// buffer of the same message (a DataView in JupyterLab, marimo, Voila and a saved notebook's
// widget state). `typed` is the one conversion of a binary buffer to a typed array.

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

/** The view state trait `name` holds now, with its matrix's cells as an Int8Array; null when
 * the trait holds no view. */
export function viewOf(model, name = "_view") {
  const value = model.get(name);
  if (!value || !value.json) return null;
  const view = JSON.parse(value.json);
  if (view.matrix) view.matrix.cells = typed(value.cells, Int8Array);
  return view;
}
