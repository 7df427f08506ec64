// One sample's views, mountable by any widget: the drawing half of ragwidgets.widgets.sample_view.
//
//   const sv = mountSampleView(el, { view, send });  sv.update(view);  sv.destroy();
//
// `view`: the dict SampleView.view() builds (or an Explorer's view), with view.matrix.cells the
// claims x passages labels as a DataView / ArrayBuffer / typed array / plain array (int8,
// row-major: response rows then ground-truth rows). `send(patch)`: called once per user action
// with the state fields it changes, e.g. {selected: "claim:R3"} or {retrieved: ["P1", "P2"]};
// the holder applies it (SampleView.apply in Python) and calls update() with the new view.
import { renderView } from "./render.js";

/** view.matrix.cells as an Int8Array, whatever form it arrived in. */
export function matrixCells(cells) {
  if (cells instanceof Int8Array) return cells;
  if (ArrayBuffer.isView(cells)) return new Int8Array(cells.buffer, cells.byteOffset, cells.byteLength);
  if (cells instanceof ArrayBuffer) return new Int8Array(cells);
  return Int8Array.from(cells || []);
}

export function mountSampleView(el, { view, send }) {
  const ui = { open: {} }; // this view's folded sections, kept across updates
  let current = view;
  const act = { get: (name) => (current ? current[name] : undefined), set: (patch) => send(patch) };
  const draw = () => el.replaceChildren(renderView(current, act, ui));
  draw();
  return {
    update(next) {
      current = next;
      draw();
    },
    destroy() {
      el.replaceChildren();
    },
  };
}
