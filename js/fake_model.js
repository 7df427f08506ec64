// A stand-in for an anywidget model, as anywidget's contract has it (and marimo implements it):
// `on(name, cb)` / `off(name, cb)` take one event name ("change:x", "msg:custom"); a
// space-separated list is Backbone's, which marimo does not honour, so it is refused here.
// `set` changes the state and `save_changes` records what was set since the last one (in
// `sent`); `send` records custom messages (in `messages`); `emit` plays an event from the host.

/** A view as a view trait holds it: {json, cells} (the matrix's cells a DataView, as ipywidgets
 * hands a binary buffer over), from a view dict whose matrix cells are an array of codes. */
export function viewTrait(view) {
  if (!view) return { json: "", cells: new DataView(new ArrayBuffer(0)) };
  if (!view.matrix) return { json: JSON.stringify(view), cells: new DataView(new ArrayBuffer(0)) };
  const { cells, ...matrix } = view.matrix;
  return { json: JSON.stringify({ ...view, matrix }), cells: new DataView(Int8Array.from(cells).buffer) };
}

export function fakeModel(state = {}) {
  const listeners = {};
  const pending = {};
  const one = (name) => {
    if (typeof name !== "string" || /\s/.test(name)) throw new Error(`one event name per call, not ${JSON.stringify(name)}`);
    return name;
  };
  const model = {
    state,
    sent: [],
    messages: [],
    listeners,
    get: (k) => model.state[k],
    set: (k, v) => {
      pending[k] = v;
      model.state[k] = v;
    },
    save_changes: () => {
      model.sent.push({ ...pending });
      for (const k of Object.keys(pending)) delete pending[k];
    },
    send: (msg) => model.messages.push(msg),
    on: (name, cb) => (listeners[one(name)] ||= []).push(cb),
    off: (name, cb) => (listeners[one(name)] = (listeners[name] || []).filter((x) => x !== cb)),
    emit: (name, ...args) => (listeners[name] || []).forEach((cb) => cb(...args)),
  };
  return model;
}
