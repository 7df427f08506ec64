// The anywidget module shared by Explorer and SampleExplorer: it draws the `_view` trait (the
// whole view state as JSON) and writes user actions back as trait changes. All metrics are
// recomputed in Python.
import { renderView } from "./render.js";

function render({ model, el }) {
  const act = {
    get: (name) => model.get(name),
    set: (patch) => {
      for (const [name, value] of Object.entries(patch)) model.set(name, value);
      model.save_changes();
    },
  };
  const ui = { open: {} }; // this view's folded sections, kept across redraws
  const draw = () => {
    const json = model.get("_view");
    const root = renderView(json ? JSON.parse(json) : null, act, ui);
    el.replaceChildren(root);
  };
  el.classList.add("rw-widget");
  draw();
  model.on("change:_view", draw);
  return () => model.off("change:_view", draw);
}

export default { render };
