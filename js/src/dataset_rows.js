// The DatasetExplorer's rows on demand. The kernel owns the frame; this store asks it for windows
// of the filtered order ({type: "rows", start, count, request}) and keeps what came back for the
// current `version` of the order. A reply is a header (positions, run, query_id, query, the names of the
// numeric and status columns) with one binary buffer per numeric column (float64, NaN = not
// defined) then one per metric status (int8: 0 defined, 1 Undefined, 2 not computable).

import { typed } from "./view_trait.js";

export const WINDOW = 200;

/** Rows of one reply: [{position, run, query_id, query, values: {col: number}, status: {metric: code}}]. */
export function decodeRows(header, buffers) {
  const numeric = header.numeric.map((_, i) => typed(buffers[i], Float64Array));
  const status = header.status.map((_, i) => typed(buffers[header.numeric.length + i], Int8Array));
  return header.positions.map((position, r) => ({
    position,
    run: header.run[r],
    query_id: header.query_id[r],
    query: header.query[r],
    values: Object.fromEntries(header.numeric.map((name, c) => [name, numeric[c][r]])),
    status: Object.fromEntries(header.status.map((name, c) => [name, status[c][r]])),
  }));
}

/** Requests to the kernel: each message carries a `request` number, and the kernel answers every
 * one with a message carrying it back (with `error` when it failed). `error` is the last failed
 * request's message, until a later one succeeds; `onReply` runs after each reply. */
export class Requests {
  constructor(model, onReply) {
    this.model = model;
    this.onReply = onReply;
    this.next = 0;
    this.waiting = new Map();
    this.error = "";
    this.listener = (msg, buffers) => {
      const done = msg && this.waiting.get(msg.request);
      if (!done) return;
      this.waiting.delete(msg.request);
      this.error = msg.error || "";
      done(msg, buffers || []);
      this.onReply();
    };
    model.on("msg:custom", this.listener);
  }

  /** Send `msg`; `done(reply, buffers)` runs when its reply comes. */
  send(msg, done = () => {}) {
    this.next += 1;
    this.waiting.set(this.next, done);
    this.model.send({ ...msg, request: this.next });
  }

  destroy() {
    this.model.off("msg:custom", this.listener);
  }
}

export class RowStore {
  constructor(model, onRows) {
    this.onRows = onRows;
    this.requests = new Requests(model, () => this.onRows());
    this.version = -1;
    this.rows = new Map();
    this.pending = new Set(); // windows asked for (or refused) in this version
  }

  /** A new order (filter, sort): forget the rows of the old one. */
  reset(version) {
    if (version === this.version) return;
    this.version = version;
    this.rows.clear();
    this.pending.clear();
  }

  get(index) {
    return this.rows.get(index);
  }

  /** Ask for the windows that hold rows first..last that are not here yet (a refused window is
   * not asked again in this version: its error shows instead). */
  ensure(first, last, count) {
    if (count <= 0) return;
    for (let start = Math.floor(first / WINDOW) * WINDOW; start <= last && start < count; start += WINDOW) {
      if (this.pending.has(start) || this.rows.has(start)) continue;
      this.pending.add(start);
      const version = this.version;
      this.requests.send({ type: "rows", start, count: WINDOW }, (msg, buffers) => {
        if (msg.error || msg.version !== this.version || version !== this.version) return;
        this.pending.delete(start);
        decodeRows(msg, buffers).forEach((row, i) => this.rows.set(msg.start + i, row));
      });
    }
  }

  destroy() {
    this.requests.destroy();
  }
}
