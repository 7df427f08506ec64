// live.js: a view with no kernel behind it says it is a snapshot; an answer takes the note away.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeModel } from "./fake_model.js";
import { NOTE, watchLive, withLive } from "./src/live.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const note = (el) => el.querySelector(".rw-live-note");

describe("watchLive", () => {
  it("pings once and shows the note when nothing answers", () => {
    const model = fakeModel();
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

  it("takes the note away when a late answer comes (a busy kernel)", () => {
    const model = fakeModel();
    const el = document.createElement("div");
    watchLive(model, el, { wait: 100 });
    vi.advanceTimersByTime(100);
    expect(note(el)).not.toBeNull();
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
    cleanup();
    expect(el.dataset.rwLive).toBe("snapshot");  // a view taken down is not an answer
    expect(calls).toEqual(["cleanup"]);
    expect(model.listeners["msg:custom"]).toEqual([]);
  });
});
