// The snapshot renderer of `ragwidgets export`: draws every anywidget of an exported notebook
// from the widget state saved in the page, with the widget's own ES module and CSS, offline
// (nothing is fetched). A snapshot: the view is inert (controls disabled) and says so; where a
// widget cannot be drawn (not an anywidget, no saved state, an error) its text fallback stays.
// The page stores each distinct ES module / CSS once (the state's `rw_shared`, written by
// ragwidgets/export.py); a model's `_esm` / `_css` is then `{rw_shared: key}`.

const VIEW = "application/vnd.jupyter.widget-view+json";
const STATE = "application/vnd.jupyter.widget-state+json";

/** Saved binary buffers (base64) put back at their paths in a model's state, as DataViews. */
export function withBuffers(state, buffers = []) {
  const out = structuredClone(state);
  for (const { path, data, encoding } of buffers) {
    if (encoding !== "base64") continue;
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    let parent = out;
    for (const key of path.slice(0, -1)) parent = parent[key];
    parent[path[path.length - 1]] = new DataView(bytes.buffer);
  }
  return out;
}

/** A model's state with its `{rw_shared: key}` fields replaced by the shared texts. */
export function withShared(state, shared = {}) {
  const out = { ...state };
  for (const [name, value] of Object.entries(state)) {
    if (value && typeof value === "object" && typeof value.rw_shared === "string") {
      if (!(value.rw_shared in shared)) throw new Error(`${name}: shared text ${value.rw_shared} is not in the page`);
      out[name] = shared[value.rw_shared];
    }
  }
  return out;
}

/** A read-only stand-in for a widget model: `get` reads the saved state; `set`, `save_changes`
 * and `send` change nothing (there is no kernel), so no change event ever comes. */
export function snapshotModel(state) {
  return {
    get: (name) => state[name],
    set: () => {},
    save_changes: () => {},
    send: () => {},
    on: () => {},
    off: () => {},
    widget_manager: { get_model: async () => { throw new Error("a snapshot has no other models"); } },
  };
}

async function loadModule(esm) {
  const url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
  try {
    const mod = await import(url);
    const widget = typeof mod.default === "function" ? await mod.default() : mod.default ?? mod;
    return widget;
  } finally {
    URL.revokeObjectURL(url);
  }
}

const styled = new Set();
function addStyle(css) {
  if (!css || styled.has(css)) return;
  styled.add(css);
  const style = document.createElement("style");
  style.textContent = css;
  document.head.append(style);
}

async function draw(output, entry, shared) {
  const fallback = output.querySelector(".rw-fallback");
  const note = (text) => {
    const p = document.createElement("p");
    p.className = "rw-snapshot-note";
    p.textContent = text;
    output.prepend(p);
  };
  if (!entry) return note("Widget not saved with this notebook: its text form is shown.");
  if (entry.model_name !== "AnyModel") return note(`${entry.model_name} is not drawn in a snapshot: its text form is shown.`);
  try {
    const state = withBuffers(withShared(entry.state, shared), entry.buffers);
    addStyle(state._css);
    const widget = await loadModule(state._esm);
    const model = snapshotModel(state);
    await widget.initialize?.({ model });
    const el = document.createElement("div");
    el.className = "rw-snapshot-view";
    el.inert = true;
    el.title = "Snapshot: controls are disabled; run the notebook in Jupyter to use them.";
    await widget.render({ model, el });
    const badge = document.createElement("p");
    badge.className = "rw-snapshot-badge";
    badge.textContent = "Snapshot · controls disabled";
    fallback?.remove();
    output.append(badge, el);
  } catch (err) {
    note(`This widget could not be drawn (${err && err.message ? err.message : err}): its text form is shown.`);
  }
}

export async function renderSnapshot(doc = document) {
  const saved = doc.querySelector(`script[type="${STATE}"]`);
  const page = saved ? JSON.parse(saved.textContent) : {};
  const models = page.state ?? {};
  const views = [...doc.querySelectorAll(`script[type="${VIEW}"]`)];
  await Promise.all(views.map((script) => {
    const { model_id: id } = JSON.parse(script.textContent);
    return draw(script.closest(".jupyter-widgets") ?? script.parentElement, models[id], page.rw_shared);
  }));
  doc.body.dataset.rwSnapshot = "drawn";
}

renderSnapshot();
