// A view state from its base and the changes Python sent (ragwidgets/widgets/_patch.py): a list
// of operations, in order, `[path, value]` setting the value at `path` (object keys and array
// indices; [] is the whole view), `[path]` deleting a key and `[path, start, end, items]`
// replacing the items start..end of the array at `path` with `items`. The base is never changed: each
// object or array on a changed path is copied once, everything else is the base's own object, so
// a redraw finds the unchanged rows identical and skips them.

function put(node, key, value) { // an own property even for "__proto__", as JSON.parse makes it
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `base` with `ops` applied (`base` itself when there are none). */
export function patched(base, ops) {
  const fresh = new Set(); // the copies this patch made: changed again in place
  const own = (node) => {
    if (fresh.has(node)) return node;
    const copy = Array.isArray(node) ? node.slice() : { ...node };
    fresh.add(copy);
    return copy;
  };
  const at = (node, op) => { // the operation on `node`, the value at its path
    if (op.length === 4) {
      const out = own(node);
      out.splice(op[1], op[2] - op[1], ...op[3]);
      return out;
    }
    return op[1];
  };
  const change = (node, path, i, op) => {
    const out = own(node);
    const key = path[i];
    if (i < path.length - 1) put(out, key, change(node[key], path, i + 1, op));
    else if (op.length === 4) put(out, key, at(node[key], op));
    else if (op.length > 1) put(out, key, op[1]);
    else delete out[key];
    return out;
  };
  let view = base;
  for (const op of ops) view = op[0].length ? change(view, op[0], 0, op) : at(view, op);
  return view;
}
