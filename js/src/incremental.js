// What makes an update incremental: the new view state shares every unchanged part with the
// previous one (structural sharing), and memo() components skip rendering when their props are
// the same objects. Preact then touches only the DOM of rows whose data changed. `html` (htm
// bound to Preact once) is the one template tag every component here is written with.
import { h } from "preact";
import htm from "htm";

export const html = htm.bind(h);

function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** `next` with every part deep-equal to the same place in `prev` replaced by prev's object. */
export function share(prev, next) {
  if (Object.is(prev, next)) return prev;
  if (prev === null || next === null || typeof prev !== "object" || typeof next !== "object") return next;
  if (ArrayBuffer.isView(next) || ArrayBuffer.isView(prev)) {
    return ArrayBuffer.isView(next) && ArrayBuffer.isView(prev) && sameBytes(prev, next) ? prev : next;
  }
  if (Array.isArray(next) !== Array.isArray(prev)) return next;
  if (Array.isArray(next)) {
    let same = prev.length === next.length;
    const out = next.map((x, i) => {
      const y = share(prev[i], x);
      if (y !== prev[i]) same = false;
      return y;
    });
    return same ? prev : out;
  }
  const keys = Object.keys(next);
  let same = keys.length === Object.keys(prev).length;
  const out = {};
  for (const k of keys) {
    out[k] = share(prev[k], next[k]);
    if (out[k] !== prev[k]) same = false;
  }
  return same ? prev : out;
}

function shallowEqual(a, b) {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.is(a[k], b[k]));
}

function unchangedProps(next) {
  return !shallowEqual(this.props, next);
}

/** A function component that renders `render(props)` and skips updates while its props are
 * unchanged (as preact/compat's memo: Preact calls a function component with its instance as
 * `this`; compat itself is not bundled, it rewrites event names globally). */
export function memo(render) {
  function Memo(props) {
    this.shouldComponentUpdate = unchangedProps;
    return render(props);
  }
  Memo.displayName = `memo(${render.name})`;
  return Memo;
}
