// The anywidget module shared by Explorer and SampleExplorer: it draws the `_view` trait (the
// view state as JSON with the entailment matrix's cells as a binary buffer, view_trait.js)
// through the mountable sample view, and writes each user action back as trait changes. All
// metrics are recomputed in Python.
import { mountSampleView } from "./sample_view.js";
import { viewOf } from "./view_trait.js";

/** ask(msg): a custom message to Python, answered by one with the same request number (a
 * search's "results", a trace's "trace"). */
function asker(model) {
  let request = 0;
  const waiting = new Map();
  const answer = (msg) => {
    if (msg && (msg.type === "results" || msg.type === "trace") && waiting.has(msg.request)) {
      waiting.get(msg.request)(msg);
      waiting.delete(msg.request);
    }
  };
  model.on("msg:custom", answer);
  const ask = (msg) =>
    new Promise((resolve) => {
      request += 1;
      waiting.set(request, resolve);
      model.send({ ...msg, request });
    });
  return { ask, stop: () => model.off("msg:custom", answer) };
}

function render({ model, el }) {
  const send = (patch) => {
    for (const [name, value] of Object.entries(patch)) model.set(name, value);
    model.save_changes();
  };
  el.classList.add("rw-widget");
  const { ask, stop } = asker(model);
  const search = (text) => ask({ type: "search", text });
  const review = (action) => model.send({ type: "review", ...action });
  const trace = (target) => ask({ type: "trace", ...target });
  const queue = (step) => model.send({ type: "queue", step });
  const sv = mountSampleView(el, { view: viewOf(model, "_view"), send, search, review, trace, queue });
  const redraw = () => sv.update(viewOf(model, "_view"));
  model.on("change:_view", redraw);
  return () => {
    model.off("change:_view", redraw);
    stop();
    sv.destroy();
  };
}

export default { render };
