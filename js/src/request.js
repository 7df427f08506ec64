// The one way a widget's front end asks its kernel something. `ask(msg)` sends `{...msg, request}`
// as a custom message and returns a promise of the reply carrying the same `request` number (the
// kernel answers every request: ragwidgets/widgets/base.py). The promise rejects with an Error on
// a reply with `error`, on no reply within the timeout, and when the requester stops; a settled
// request is forgotten, so a late reply is dropped. Request numbers come from one counter for the
// module: every view of a model shares it (a model's replies reach all its views), so one view
// never takes another's reply.

export const TIMEOUT_MS = 20000;

let counter = 0;

/** A failed request: `message` is the kernel's error (or why no reply came), `reply` the reply
 * (null for a timeout or a stop). */
export class RequestError extends Error {
  constructor(message, reply = null) {
    super(message);
    this.name = "RequestError";
    this.reply = reply;
  }
}

/** `{ask, stop}` for `model` (anywidget's: `on`/`off` with one event name, `send`).
 * `ask(msg, {timeoutMs})` resolves with the reply, its binary buffers as `reply.buffers` (an
 * array, empty without); `stop()` unsubscribes and rejects what is still waiting. */
export function requester(model, { timeoutMs = TIMEOUT_MS } = {}) {
  const waiting = new Map(); // request number -> {resolve, reject, timer}
  const settle = (request) => {
    const w = waiting.get(request);
    waiting.delete(request);
    clearTimeout(w.timer);
    return w;
  };
  const listener = (msg, buffers) => {
    if (!msg || !waiting.has(msg.request)) return;
    const w = settle(msg.request);
    if (msg.error) w.reject(new RequestError(String(msg.error), msg));
    else w.resolve({ ...msg, buffers: buffers || [] });
  };
  model.on("msg:custom", listener);
  const ask = (msg, { timeoutMs: limit = timeoutMs } = {}) =>
    new Promise((resolve, reject) => {
      counter += 1;
      const request = counter;
      const timer = setTimeout(() => {
        settle(request);
        reject(new RequestError(`no reply to "${msg.type}" from the kernel in ${limit / 1000} s`));
      }, limit);
      waiting.set(request, { resolve, reject, timer });
      try {
        model.send({ ...msg, request });
      } catch (err) {
        settle(request);
        reject(new RequestError(`could not send "${msg.type}": ${err.message}`));
      }
    });
  const stop = () => {
    model.off("msg:custom", listener);
    for (const request of [...waiting.keys()]) settle(request).reject(new RequestError("the widget was closed"));
  };
  return { ask, stop, waiting };
}
