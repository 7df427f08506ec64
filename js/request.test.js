// The one request / reply channel (src/request.js) against a stand-in model with anywidget's
// contract: on / off with one event name, send, and the kernel's reply delivered later, on its own.
import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestError, requester, TIMEOUT_MS } from "./src/request.js";
import { fakeModel } from "./fake_model.js";

/** A model whose kernel answers each sent message asynchronously with `answer(msg)` (null: never). */
function kernel(answer) {
  const model = fakeModel();
  model.send = (msg) => {
    model.messages.push(msg);
    const reply = answer(msg);
    if (reply) setTimeout(() => model.emit("msg:custom", reply.msg, reply.buffers || []), 5);
  };
  return model;
}

afterEach(() => vi.useRealTimers());

describe("requester", () => {
  it("resolves with the reply carrying the request's number, its buffers beside it", async () => {
    const bytes = new DataView(new ArrayBuffer(8));
    const model = kernel((m) => ({ msg: { type: "rows", request: m.request, start: m.start }, buffers: [bytes] }));
    const { ask, stop, waiting } = requester(model);
    const [a, b] = await Promise.all([ask({ type: "rows", start: 0 }), ask({ type: "rows", start: 200 })]);
    expect(model.messages.map((m) => m.type)).toEqual(["rows", "rows"]);
    expect(model.messages[1].request).toBe(model.messages[0].request + 1);
    expect(a).toEqual({ type: "rows", request: model.messages[0].request, start: 0, buffers: [bytes] });
    expect(b.start).toBe(200);
    expect(waiting.size).toBe(0);
    stop();
  });

  it("ignores replies to other requests and other custom messages", async () => {
    const model = kernel(() => null);
    const { ask, stop } = requester(model);
    const answer = ask({ type: "search", text: "x" });
    const { request } = model.messages[0];
    model.emit("msg:custom", { type: "pong" });
    model.emit("msg:custom", { type: "results", request: request + 1000, matches: 9 });
    model.emit("msg:custom", { type: "results", request, matches: 1, rows: [] });
    expect((await answer).matches).toBe(1);
    stop();
  });

  it("rejects with the kernel's error, the reply kept on the Error", async () => {
    const model = kernel((m) => ({ msg: { type: "reply", request: m.request, error: "RuntimeError: disk gone" } }));
    const { ask, stop, waiting } = requester(model);
    const err = await ask({ type: "step", delta: 1 }).catch((e) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect(err.message).toBe("RuntimeError: disk gone");
    expect(err.reply.request).toBe(model.messages[0].request);
    expect(waiting.size).toBe(0);
    stop();
  });

  it("rejects when no reply comes in time, forgets the request and drops a late reply", async () => {
    vi.useFakeTimers();
    const model = kernel(() => null);
    const { ask, stop, waiting } = requester(model, { timeoutMs: 1000 });
    const settled = vi.fn();
    const slow = ask({ type: "rows", start: 0 }).then(settled, (e) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const err = await slow;
    expect(err.message).toBe('no reply to "rows" from the kernel in 1 s');
    expect(err.reply).toBeNull();
    expect(waiting.size).toBe(0);
    model.emit("msg:custom", { type: "rows", request: model.messages[0].request }); // late: nothing happens
    expect(settled).not.toHaveBeenCalled();
    const own = ask({ type: "search" }, { timeoutMs: 50 }).catch((e) => e.message); // a limit for one request
    await vi.advanceTimersByTimeAsync(50);
    expect(await own).toBe('no reply to "search" from the kernel in 0.05 s');
    stop();
  });

  it("times out after TIMEOUT_MS by default", async () => {
    vi.useFakeTimers();
    const { ask, stop } = requester(kernel(() => null));
    const err = ask({ type: "trace" }).catch((e) => e.message);
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
    expect(await err).toBe('no reply to "trace" from the kernel in 20 s');
    stop();
  });

  it("subscribes once with one event name and, stopped, unsubscribes and rejects what waits", async () => {
    vi.useFakeTimers();
    const model = kernel(() => null);
    const { ask, stop, waiting } = requester(model); // fakeModel refuses a space-separated event list
    expect(model.listeners["msg:custom"].length).toBe(1);
    const pending = ask({ type: "rows" }).catch((e) => e.message);
    stop();
    expect(model.listeners["msg:custom"].length).toBe(0);
    expect(await pending).toBe("the widget was closed");
    expect(waiting.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0); // its timeout cleared too
  });

  it("rejects at once when the message cannot be sent", async () => {
    const model = fakeModel();
    model.send = () => { throw new Error("comm closed"); };
    const { ask, stop, waiting } = requester(model);
    expect(await ask({ type: "rows" }).catch((e) => e.message)).toBe('could not send "rows": comm closed');
    expect(waiting.size).toBe(0);
    stop();
  });

  it("numbers the requests of every requester of the page apart (two views of one model)", async () => {
    const model = kernel((m) => ({ msg: { type: "reply", request: m.request, from: m.view } }));
    const one = requester(model);
    const two = requester(model);
    const [a, b] = await Promise.all([one.ask({ type: "step", view: 1 }), two.ask({ type: "step", view: 2 })]);
    expect([a.from, b.from]).toEqual([1, 2]);
    one.stop();
    two.stop();
  });
});
