"""A view state as the changes from an earlier one (``js/src/patch.js`` applies them, as
:func:`patched` does here).

A patch is a list of operations, applied in order: ``[path, value]`` sets the value at ``path``
(a list of object keys and array indices; ``[]`` is the whole view), ``[path]`` deletes the key
at ``path``, and ``[path, start, end, items]`` replaces the items ``start:end`` of the array at
``path`` with ``items`` (an array that grew or shrank: its common head and tail stay). Equal parts produce no operation, so a passage toggle of a large sample sends
the few fields it changes (flags, counts, cards), not its texts again. Values compare as Python
compares them: a path keeps its JSON type from one view to the next (a field that is ``true`` is
never ``1`` in another view), which the views built here satisfy and the tests check.
"""

from __future__ import annotations

import json
from typing import Any

Op = list  # [path, value] sets, [path] deletes, [path, start, end, items] splices an array


def view_patch(base: Any, new: Any) -> list[Op]:
    """The operations that turn ``base`` into ``new`` (both JSON-ready); [] when they are equal.
    Objects are compared key by key, arrays of the same length item by item, arrays of different
    lengths by their common head and tail (the rest spliced in whole); anything else that differs
    is replaced whole."""
    ops: list[Op] = []
    if base != new:
        _diff(base, new, [], ops)
    return ops


def _keys(d: dict) -> dict:
    """``d`` with its keys as JSON writes them (1 -> "1", True -> "true"): a base read back from
    JSON has only string keys, and in the front end 1 and "1" are one key."""
    return d if all(type(k) is str for k in d) else {k if type(k) is str else json.dumps(k): v for k, v in d.items()}


def _diff(a, b, path: list, ops: list[Op]) -> None:
    """Append the operations for ``a != b`` at ``path``."""
    if isinstance(a, dict) and isinstance(b, dict):
        a, b = _keys(a), _keys(b)
        for k, v in b.items():
            if k not in a:
                ops.append([[*path, k], v])
            elif a[k] != v:
                _diff(a[k], v, [*path, k], ops)
        ops.extend([[*path, k]] for k in a if k not in b)
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    _diff(x, y, [*path, i], ops)
            return
        head, most = 0, min(len(a), len(b))
        while head < most and a[head] == b[head]:
            head += 1
        tail = 0
        while tail < most - head and a[-1 - tail] == b[-1 - tail]:
            tail += 1
        ops.append([path, head, len(a) - tail, list(b[head:len(b) - tail])])
    else:
        ops.append([path, b])


def patched(base: Any, ops: list[Op]) -> Any:
    """``base`` with ``ops`` applied, ``base`` itself unchanged: each object or array on a changed
    path is copied once, every other part is the base's own."""
    fresh: dict[int, Any] = {}  # the copies made here, by id (held, so no id is reused): changed again in place

    def own(node):
        if id(node) in fresh:
            return node
        copy = list(node) if isinstance(node, (list, tuple)) else dict(node)
        fresh[id(copy)] = copy
        return copy

    def at(node, op):
        if len(op) == 4:
            out = own(node)
            out[op[1]:op[2]] = op[3]
            return out
        return op[1]

    def change(node, path, i, op):
        out = own(node)
        key = path[i]
        if i < len(path) - 1:
            out[key] = change(node[key], path, i + 1, op)
        elif len(op) == 4:
            out[key] = at(node[key], op)
        elif len(op) == 2:
            out[key] = op[1]
        else:
            del out[key]
        return out

    view = base
    for op in ops:
        view = change(view, op[0], 0, op) if op[0] else at(view, op)
    return view
