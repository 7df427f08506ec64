// Whether a view has a kernel behind it, and whether that kernel is free. A notebook reopened
// with a fresh kernel (or none) draws each widget from its saved state, with live-looking
// controls that reach nothing: the comm is not live, so `model.send` goes nowhere. anywidget's
// model contract does not expose `comm_live`, so the view pings (every ragwidgets widget answers
// `{type: "ping"}` with `{type: "pong"}` in Python, widgets/base.py). A kernel running other
// cells (Run All) answers only when it is free, so no answer within `wait` ms says nothing by
// itself: the kernel's status tells, where the host exposes it (Jupyter's widget manager:
// `model.widget_manager.kernel`, its `status` and `statusChanged`).
// - busy: the kernel is running other cells; the view answers when it is free (BUSY).
// - no kernel, or a kernel that stays free (not busy) for `wait` ms without answering: the ping
//   went nowhere; a snapshot until the cell runs again (NOTE). Decided once: a snapshot's ping is
//   lost, so a later busy kernel changes nothing.
// - a host that does not say (marimo): waiting, maybe busy (WAITING).
// Any message from the kernel takes the note away. A page drawn by the export's snapshot
// renderer says so itself (`.rw-snapshot-view`): no note there. The host says what it found in
// `data-rw-live`: "answered", "busy", "waiting" or "snapshot" (nothing before `wait` ms).

export const NOTE = "Snapshot: no kernel answers this view, so its controls do nothing. Run the cell again to use them.";
export const BUSY = "Busy: the kernel is running other cells; this view answers when it is free.";
export const WAITING = "Waiting for the kernel (busy?): this view answers when the kernel is free; if it never does, run the cell again.";

/** The kernel behind `model` as its host tells it: the kernel (`status`, `statusChanged`), null
 * for none, undefined where the host does not say (no Jupyter widget manager). */
export function kernelOf(model) {
  const manager = model.widget_manager;
  if (!manager || typeof manager !== "object" || !("kernel" in manager)) return undefined;
  return manager.kernel ?? null;
}

/** Ping the kernel through `model`; until something answers, a note in `host` (after `wait` ms)
 * says why not: busy, a snapshot, or waiting. Returns a stop. */
export function watchLive(model, host, { wait = 3000 } = {}) {
  let note = null;
  let timer = null;
  const kernel = host.closest?.(".rw-snapshot-view") ? undefined : kernelOf(model);
  const signal = kernel && kernel.statusChanged && typeof kernel.statusChanged.connect === "function" ? kernel.statusChanged : null;
  const say = (state, text) => {
    host.dataset.rwLive = state;
    if (!note) {
      note = host.ownerDocument.createElement("p");
      note.className = "rw-live-note";
      note.setAttribute("role", "status");
      host.prepend(note);
    }
    note.textContent = text;
  };
  const unwatch = () => { if (signal) signal.disconnect(changed); };
  const stop = () => {
    clearTimeout(timer);
    unwatch();
    note?.remove();
    note = null;
    model.off("msg:custom", answered);
  };
  const answered = () => {
    stop();
    host.dataset.rwLive = "answered";
  };
  const decide = () => { // no answer yet, and the kernel's status unchanged for `wait` ms
    if (host.closest?.(".rw-snapshot-view")) return;
    if (kernel === undefined) return say("waiting", WAITING);
    if (kernel && kernel.status === "busy") return say("busy", BUSY);
    unwatch(); // free, or gone, and no answer: the ping went nowhere
    say("snapshot", NOTE);
  };
  function changed() { // busy says so at once (once the first `wait` is over); anything else is judged after `wait` more
    clearTimeout(timer);
    if (kernel.status === "busy" && host.dataset.rwLive === "busy") return;
    timer = setTimeout(decide, wait);
  }
  if (signal) signal.connect(changed);
  timer = setTimeout(decide, wait);
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
