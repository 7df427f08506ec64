// src/snapshot.js
var VIEW = "application/vnd.jupyter.widget-view+json";
var STATE = "application/vnd.jupyter.widget-state+json";
function withBuffers(state, buffers = []) {
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
function withShared(state, shared = {}) {
  const out = { ...state };
  for (const [name, value] of Object.entries(state)) {
    if (value && typeof value === "object" && typeof value.rw_shared === "string") {
      if (!(value.rw_shared in shared)) throw new Error(`${name}: shared text ${value.rw_shared} is not in the page`);
      out[name] = shared[value.rw_shared];
    }
  }
  return out;
}
function snapshotModel(state) {
  return {
    get: (name) => state[name],
    set: () => {
    },
    save_changes: () => {
    },
    send: () => {
    },
    on: () => {
    },
    off: () => {
    },
    widget_manager: { get_model: async () => {
      throw new Error("a snapshot has no other models");
    } }
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
var styled = /* @__PURE__ */ new Set();
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
async function renderSnapshot(doc = document) {
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
export {
  renderSnapshot,
  snapshotModel,
  withBuffers,
  withShared
};
