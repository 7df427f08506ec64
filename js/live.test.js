// live.js: a view with no kernel behind it says it is a snapshot, one whose kernel is busy says
// so, one whose host does not tell says it is waiting; an answer takes the note away.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeModel } from "./fake_model.js";
import { BUSY, NOTE, WAITING, kernelOf, watchLive, withLive } from "./src/live.js";

/** A model whose host is Jupyter's widget manager, with a kernel in `status` (a Lumino-style
 * statusChanged signal); `model.status(s)` changes it. `kernel: null`: a manager without one. */
function jupyterModel(status = "idle", { kernel = true } = {}) {
  const model = fakeModel();
  const slots = [];
  const k = { status, statusChanged: { connect: (f) => slots.push(f), disconnect: (f) => slots.splice(slots.indexOf(f) >>> 0, 1) } };
  model.widget_manager = { kernel: kernel ? k : null };
  model.slots = slots;
  model.status = (s) => { k.status = s; [...slots].forEach((f) => f(k, s)); };
  return model;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const note = (el) => el.querySelector(".rw-live-note");

describe("watchLive", () => {
  it("pings once and, when nothing answers and the kernel is free, says it is a snapshot", () => {
    const model = jupyterModel("idle");
    const el = document.createElement("div");
    watchLive(model, el, { wait: 100 });
    expect(model.messages).toEqual([{ type: "ping" }]);
    vi.advanceTimersByTime(99);
    expect(note(el)).toBeNull();
    expect(el.dataset.rwLive).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(el.dataset.rwLive).toBe("snapshot");
    expect(note(el).textContent).toBe(NOTE);
    expect(note(el).getAttribute("role")).toBe("status");
  });

  it("shows nothing when the kernel answers in time, and stops listening", () => {
    const model = fakeModel();
    const el = document.createElement("div");
    watchLive(model, el, { wait: 100 });
    model.emit("msg:custom", { type: "pong" });
    expect(el.dataset.rwLive).toBe("answered");
    vi.advanceTimersByTime(1000);
    expect(note(el)).toBeNull();
    expect(el.dataset.rwLive).toBe("answered");
    expect(model.listeners["msg:custom"]).toEqual([]);
  });

  it("takes the note away when a late answer comes", () => {
    const model = jupyterModel("idle");
    const el = document.createElement("div");
    watchLive(model, el, { wait: 100 });
    vi.advanceTimersByTime(100);
    expect(note(el)).not.toBeNull();
    model.emit("msg:custom", { type: "pong" });
    expect(note(el)).toBeNull();
    expect(el.dataset.rwLive).toBe("answered");
  });

  it("says busy while the kernel runs other cells (Run All), never snapshot, then answers", () => {
    const model = jupyterModel("busy");
    const el = document.createElement("div");
    watchLive(model, el, { wait: 100 });
    vi.advanceTimersByTime(100);
    expect(el.dataset.rwLive).toBe("busy");
    expect(note(el).textContent).toBe(BUSY);
    for (let i = 0; i < 20; i++) { // cells one after another: idle for a moment between them
      model.status("idle");
      vi.advanceTimersByTime(10);
      model.status("busy");
      vi.advanceTimersByTime(400);
      expect(el.dataset.rwLive).toBe("busy");
    }
    model.status("idle");
    vi.advanceTimersByTime(5); // the kernel is free: the ping queued behind the cells is answered
    model.emit("msg:custom", { type: "pong" });
    expect(note(el)).toBeNull();
    expect(el.dataset.rwLive).toBe("answered");
    expect(model.slots).toEqual([]);
  });

  it("a kernel that turns busy before the first wait is over is busy, not a snapshot", () => {
    const model = jupyterModel("idle");
    const el = document.createElement("div");
    watchLive(model, el, { wait: 100 });
    vi.advanceTimersByTime(60);
    model.status("busy");
    vi.advanceTimersByTime(60);
    expect(el.dataset.rwLive).toBeUndefined(); // its status changed: judged `wait` after that
    vi.advanceTimersByTime(40);
    expect(el.dataset.rwLive).toBe("busy");
  });

  it("a busy kernel that goes free and still does not answer: a snapshot, for good", () => {
    const model = jupyterModel("busy");
    const el = document.createElement("div");
    watchLive(model, el, { wait: 100 });
    vi.advanceTimersByTime(100);
    model.status("idle");
    vi.advanceTimersByTime(99);
    expect(el.dataset.rwLive).toBe("busy");
    vi.advanceTimersByTime(1);
    expect(el.dataset.rwLive).toBe("snapshot");
    expect(note(el).textContent).toBe(NOTE);
    model.status("busy"); // another cell runs: this view's ping is lost all the same
    vi.advanceTimersByTime(1000);
    expect(el.dataset.rwLive).toBe("snapshot");
    expect(model.slots).toEqual([]);
  });

  it("no kernel at all (a manager without one, or a dead one): a snapshot", () => {
    for (const model of [jupyterModel("idle", { kernel: false }), jupyterModel("dead")]) {
      const el = document.createElement("div");
      watchLive(model, el, { wait: 100 });
      vi.advanceTimersByTime(100);
      expect(el.dataset.rwLive).toBe("snapshot");
      expect(note(el).textContent).toBe(NOTE);
    }
  });

  it("a host that does not tell its kernel's status (marimo): waiting, maybe busy; an answer takes it away", () => {
    const model = fakeModel();
    expect(kernelOf(model)).toBeUndefined();
    const el = document.createElement("div");
    watchLive(model, el, { wait: 100 });
    vi.advanceTimersByTime(100);
    expect(el.dataset.rwLive).toBe("waiting");
    expect(note(el).textContent).toBe(WAITING);
    model.emit("msg:custom", { type: "pong" });
    expect(note(el)).toBeNull();
    expect(el.dataset.rwLive).toBe("answered");
  });

  it("says nothing inside the export's snapshot renderer, which says so itself", () => {
    const model = fakeModel();
    const page = document.createElement("div");
    page.className = "rw-snapshot-view";
    const el = page.appendChild(document.createElement("div"));
    watchLive(model, el, { wait: 100 });
    vi.advanceTimersByTime(200);
    expect(note(el)).toBeNull();
    expect(el.dataset.rwLive).toBeUndefined();
  });
});

describe("withLive", () => {
  it("renders the widget into an inner element, the note above it, and cleans both up", async () => {
    const calls = [];
    const widget = withLive({ render: ({ el }) => { el.textContent = "view"; return () => calls.push("cleanup"); } });
    const model = fakeModel();
    const el = document.createElement("div");
    const cleanup = await widget.render({ model, el });
    expect(el.querySelector(".rw-live-root").textContent).toBe("view");
    vi.advanceTimersByTime(5000);
    expect(el.firstElementChild.className).toBe("rw-live-note");
    expect(el.firstElementChild.textContent).toBe(WAITING); // a host that says nothing of its kernel
    cleanup();
    expect(el.dataset.rwLive).toBe("waiting");  // a view taken down is not an answer
    expect(calls).toEqual(["cleanup"]);
    expect(model.listeners["msg:custom"]).toEqual([]);
  });
});
