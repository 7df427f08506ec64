// The DatasetExplorer's rows on demand. The kernel owns the frame; this store asks it for windows
// of the filtered order ({type: "rows", start, count, request}) and keeps what came back for the
// current `version` of the order. A reply is a header (positions, run, query_id, query, the names of the
// numeric and status columns) with one binary buffer per numeric column (float64, NaN = not
// defined) then one per metric status (int8: 0 defined, 1 Undefined, 2 not computable).

import { requester } from "../request.js";
import { typed } from "../view_trait.js";

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

/** Requests to the kernel (request.js): `ask(msg)` a promise of the reply, rejected with an Error
 * when the kernel's reply has one or none comes in time. `error` is the last failed request's
 * message, until a later one succeeds; `onReply(reply)` runs after each request settles (null:
 * no reply came). */
export class Requests {
  constructor(model, onReply, options) {
    this.onReply = onReply;
    this.error = "";
    const { ask, stop, waiting } = requester(model, options);
    this.waiting = waiting;
    this.stop = stop;
    this.ask = (msg) => ask(msg).then(
      (reply) => { this.error = ""; this.onReply(reply); return reply; },
      (err) => { this.error = err.message; this.onReply(err.reply); throw err; });
  }

  /** `ask(msg)` whose failure only shows as `error`: a promise of the reply, or null when it failed. */
  send(msg) {
    return this.ask(msg).catch(() => null);
  }

  destroy() {
    this.stop();
  }
}

/** The first rows of the order as the `_rows` trait saves them with the notebook (JSON: the
 * header of a reply, its numeric columns with null for NaN, its status codes), decoded as rows. */
export function decodeSeed(seed) {
  if (!seed || !seed.positions) return [];
  const numeric = seed.values.map((col) => Float64Array.from(col, (v) => (v === null ? NaN : v)));
  return decodeRows(seed, [...numeric, ...seed.codes.map((col) => Int8Array.from(col))]);
}

/** The rows of the current order: those that came back from the kernel, asked for a window at a
 * time, and, before they come, the first rows saved in the state (`seed`); the rows a review
 * changed (`changes`, the `_row_changes` trait) replace theirs in place. A reply for an order
 * newer than the one shown is kept for it (the view naming that order may come a moment later),
 * and its window is not asked again meanwhile; a reply for an older order is dropped. `onRows()`
 * redraws: when rows come, and when a reply changes what is said (the first reply, an error). */
export class RowStore {
  constructor(model, onRows) {
    this.onRows = onRows;
    this.requests = new Requests(model, (reply) => {
      const news = (reply && !this.answered) || this.requests.error !== this.said;
      if (reply) this.answered = true;
      this.said = this.requests.error;
      if (news) this.onRows();
    });
    this.said = ""; // the request error last drawn
    this.answered = false; // any reply from a kernel yet
    this.changes = null; // the last `changes` taken
    this.version = -1;
    this.rows = new Map();
    this.seeded = 0; // rows here from the saved state, not (yet) from a reply
    this.loaded = new Set(); // windows that came back in this version
    this.pending = new Set(); // windows asked for (or refused) in this version
    this.failed = new Map(); // window start -> why the kernel refused it, in this version
    this.later = new Map(); // a newer version -> Map(window start -> rows)
  }

  /** A new order (filter, sort): forget the rows of the old one, take those a reply already
   * brought for this one, and the saved first rows when they are of this order. */
  reset(version, seed, changes) {
    if (changes && changes !== this.changes && changes.version === version) {
      this.changes = changes;
      if (version === this.version) this.patch(changes);
    }
    if (version === this.version) return;
    this.version = version;
    this.rows.clear();
    this.loaded.clear();
    this.pending.clear();
    this.failed.clear();
    this.seeded = 0;
    if (seed && seed.version === version) {
      decodeSeed(seed).forEach((row, i) => this.rows.set(i, row));
      this.seeded = seed.positions.length;
    }
    for (const [v, windows] of this.later) {
      if (v < version) this.later.delete(v);
      if (v !== version) continue;
      for (const [start, rows] of windows) this.take(start, rows);
      this.later.delete(v);
    }
    if (this.changes && this.changes.version === version) this.patch(this.changes);
  }

  /** The rows a review changed, each in its place (their windows stay as they were: loaded or not). */
  patch(changes) {
    for (const part of changes.rows) decodeSeed(part).forEach((row, i) => this.rows.set(part.start + i, row));
  }

  take(start, rows) {
    rows.forEach((row, i) => this.rows.set(start + i, row));
    this.loaded.add(start);
    this.pending.delete(start);
    this.failed.delete(start);
  }

  get(index) {
    return this.rows.get(index);
  }

  /** Why the window holding row `index` was refused in this version ("" when it was not). */
  failedAt(index) {
    return this.failed.get(Math.floor(index / WINDOW) * WINDOW) || "";
  }

  /** Ask for the windows that hold rows first..last that have not come yet. A window the kernel
   * refused is not asked again in this version (its error shows in its rows instead); one that got
   * no reply in time is asked again at the next draw. */
  ensure(first, last, count) {
    if (count <= 0) return;
    for (let start = Math.floor(first / WINDOW) * WINDOW; start <= last && start < count; start += WINDOW) {
      if (this.pending.has(start) || this.loaded.has(start)) continue;
      this.pending.add(start);
      const version = this.version;
      this.requests.ask({ type: "rows", start, count: WINDOW }).then((msg) => {
        if (msg.version === this.version) this.take(msg.start, decodeRows(msg, msg.buffers));
        else if (msg.version > this.version) {
          if (!this.later.has(msg.version)) this.later.set(msg.version, new Map());
          this.later.get(msg.version).set(msg.start, decodeRows(msg, msg.buffers));
        } // else: an older order's rows, dropped (this order's window was asked again at its reset)
        this.onRows();
      }, (err) => {
        if (version !== this.version) return; // the order it was asked for is gone
        if (err.reply) this.failed.set(start, err.message); // refused: stays pending in this version
        else this.pending.delete(start);
        this.onRows();
      });
    }
  }

  destroy() {
    this.requests.destroy();
  }
}
