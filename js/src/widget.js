// The anywidget module shared by Explorer and SampleExplorer: it draws the `_view` trait (the
// view state as JSON with the entailment matrix's cells as a binary buffer, view_trait.js)
// through the mountable sample view, and writes each user action back as trait changes. All
// metrics are recomputed in Python.
import { mountSampleView } from "./sample_view.js";
import { viewOf } from "./view_trait.js";
import { requester } from "./request.js";

function render({ model, el }) {
  const send = (patch) => {
    for (const [name, value] of Object.entries(patch)) model.set(name, value);
    model.save_changes();
  };
  el.classList.add("rw-widget");
  const { ask, stop } = requester(model);
  // a failed request shows where its answer would have: the picker's alert, the trace panel
  const search = (text) => ask({ type: "search", text }).catch((err) => ({ error: `search failed: ${err.message}` }));
  const review = (action) => model.send({ type: "review", ...action });
  const trace = (target) => ask({ type: "trace", ...target })
    .catch((err) => ({ trace: null, reason: `the trace request failed: ${err.message}` }));
  const queue = (step) => model.send({ type: "queue", step });
  const sv = mountSampleView(el, { view: viewOf(model, "_view"), send, search, review, trace, queue });
  const redraw = () => sv.update(viewOf(model, "_view"));
  model.on("change:_view", redraw);
  return () => {
    model.off("change:_view", redraw);
    sv.destroy();
    stop();
  };
}

export default { render };
