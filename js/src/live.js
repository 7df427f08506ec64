// Whether a view has a kernel behind it. A notebook reopened with a fresh kernel (or none)
// draws each widget from its saved state, with live-looking controls that reach nothing: the
// comm is not live, so `model.send` goes nowhere. anywidget's model contract does not expose
// `comm_live`, so the view pings (every ragwidgets widget answers `{type: "ping"}` with
// `{type: "pong"}` in Python, widgets/base.py) and, without an answer within `wait` ms, says
// that it is a snapshot until the cell runs again. Any message from the kernel takes the note
// away (a busy kernel answers late). A page drawn by the export's snapshot renderer says so
// itself (`.rw-snapshot-view`): no note there. The host says what it found in `data-rw-live`:
// "answered" once the kernel answered, "snapshot" while the note is up.

export const NOTE = "Snapshot: no kernel answers this view, so its controls do nothing. Run the cell again to use them.";

/** Ping the kernel through `model`; a note in `host` until something answers. Returns a stop. */
export function watchLive(model, host, { wait = 3000 } = {}) {
  let note = null;
  const stop = () => {
    clearTimeout(timer);
    note?.remove();
    note = null;
    model.off("msg:custom", answered);
  };
  const answered = () => {
    stop();
    host.dataset.rwLive = "answered";
  };
  const timer = setTimeout(() => {
    if (host.closest?.(".rw-snapshot-view")) return;
    host.dataset.rwLive = "snapshot";
    note = host.ownerDocument.createElement("p");
    note.className = "rw-live-note";
    note.setAttribute("role", "status");
    note.textContent = NOTE;
    host.prepend(note);
  }, wait);
  model.on("msg:custom", answered);
  model.send({ type: "ping" });
  return stop;
}

/** A widget module (`{initialize?, render}`) whose every view watches its kernel: the view
 * draws into an inner element, the note goes above it. */
export function withLive(widget) {
  return {
    ...widget,
    async render({ model, el, ...rest }) {
      const inner = el.ownerDocument.createElement("div");
      inner.className = "rw-live-root";
      el.append(inner);
      const stop = watchLive(model, el);
      const cleanup = await widget.render({ model, el: inner, ...rest });
      return () => {
        stop();
        if (typeof cleanup === "function") cleanup();
      };
    },
  };
}
