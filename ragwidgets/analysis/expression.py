"""A filter expression language of its own, parsed with :mod:`ast` and evaluated over columns.

An expression is text from anyone (a slices file, the widget's box, a front-end message), so
nothing in it is ever handed to ``eval``: it is parsed and every node is checked against a
whitelist before anything is computed. Admitted:

- the frame's column names (a name that is not a column is refused; ```a column``` in backticks
  for a name that is not an identifier);
- constants: numbers (finite, at most ``MAX_DIGITS`` digits), strings (at most ``MAX_STRING``
  characters), ``None`` (Undefined), ``True`` / ``False``;
- comparisons ``< <= > >= == !=`` (chained too: ``0.2 < precision <= 0.5``), ``and`` / ``or`` /
  ``not``, ``& | ~``, ``+ - * /``, unary ``-`` / ``+``, parentheses;
- the calls ``isna(x)``, ``notna(x)``, ``abs(x)`` and their method forms ``x.isna()``,
  ``x.notna()``, ``x.abs()``.

Everything else (attributes, subscripts, ``**``, ``%``, lambdas, ``@`` names, any other call) is
refused with an :class:`ExpressionError` naming the part at fault. Semantics: a comparison with
an Undefined value (NaN, None) is false whatever the operator, so Undefined samples never pass a
threshold by accident; ``x == None`` and ``isna(x)`` select them. Arithmetic follows IEEE
(``x / 0`` is inf or NaN).
"""

from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import pandas as pd

MAX_LENGTH = 2000  # characters of an expression
MAX_NODES = 500  # parsed nodes of an expression
MAX_DEPTH = 60  # nesting of an expression's parts
MAX_STRING = 500  # characters of a string constant
MAX_DIGITS = 30  # characters of a number constant

_COMPARE = {ast.Lt: ("<", operator.lt), ast.LtE: ("<=", operator.le), ast.Gt: (">", operator.gt),
            ast.GtE: (">=", operator.ge), ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne)}
_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_LOGIC = {ast.BitAnd: operator.and_, ast.BitOr: operator.or_}
_CALLS = ("isna", "notna", "abs")
_BACKTICK = re.compile(r"`([^`]*)`")
_QUOTED = "_quoted_column_"


class ExpressionError(ValueError):
    """An expression refused or failed: ``part`` is the piece of its text at fault ('' for all)."""

    def __init__(self, expression: str, message: str, part: str = ""):
        self.expression = expression
        self.part = part
        super().__init__(f"filter expression {_short(expression)!r}: {message}")


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass(frozen=True)
class _Value:
    """An evaluated node: a column (array) or a constant (scalar) of one kind."""

    data: object
    kind: str  # "number", "bool", "text" or "none"


@dataclass(frozen=True)
class Expression:
    """A checked expression: parse once with :func:`parse`, evaluate on any frame with the columns."""

    text: str
    source: str  # the text as parsed: stripped, backticked names replaced by placeholders
    tree: ast.expr
    columns: tuple[str, ...]  # the column names it reads
    quoted: tuple[tuple[str, str], ...] = ()  # (placeholder, backticked column name)

    def mask(self, frame: pd.DataFrame) -> np.ndarray:
        """One bool per row of ``frame``: where the expression holds."""
        missing = [c for c in self.columns if c not in frame.columns]
        if missing:
            raise ExpressionError(self.text, f"no column {missing[0]!r} here", missing[0])
        result = _Evaluator(self, frame).value(self.tree)
        if result.kind != "bool":
            raise ExpressionError(self.text, "must give one true/false per sample (a comparison such as "
                                  f"'precision < 0.5'), not {_kind(result)}")
        data = np.asarray(result.data, dtype=bool)
        return np.broadcast_to(data, (len(frame),)).copy() if data.ndim == 0 else data

    def segment(self, node: ast.AST) -> str:
        """The text of ``node``, backticked names as written."""
        part = ast.get_source_segment(self.source, node) or type(node).__name__
        for key, name in self.quoted:
            part = part.replace(key, f"`{name}`")
        return _short(part, 80)


def parse(text: str, columns=None) -> Expression:
    """Check ``text`` against the whitelist and the ``columns`` it may read (None: any name, for
    checking an expression before its data is known); ExpressionError if refused."""
    return _parse(str(text), None if columns is None else tuple(str(c) for c in columns))


@lru_cache(maxsize=256)
def _parse(text: str, columns: tuple[str, ...] | None) -> Expression:
    if len(text) > MAX_LENGTH:
        raise ExpressionError(text, f"is {len(text):,} characters long; the limit is {MAX_LENGTH:,}")
    if "\x00" in text:
        raise ExpressionError(text, "holds a NUL character")
    quoted: dict[str, str] = {}

    def placeholder(match: re.Match) -> str:
        quoted[f"{_QUOTED}{len(quoted)}"] = match.group(1)
        return f"{_QUOTED}{len(quoted) - 1}"

    source = _BACKTICK.sub(placeholder, text.strip())
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
        why = f" ({err.msg} at character {err.offset})" if isinstance(err, SyntaxError) and err.offset else ""
        raise ExpressionError(text, f"is not a valid expression{why}") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise ExpressionError(text, f"has {len(nodes)} parts; the limit is {MAX_NODES}")
    if _depth(tree) > MAX_DEPTH:
        raise ExpressionError(text, f"nests deeper than {MAX_DEPTH} levels")
    expression = Expression(text, source, tree.body, (), tuple(quoted.items()))
    known, read = (None if columns is None else set(columns)), []
    methods = {id(n.func) for n in nodes if isinstance(n, ast.Call) and _call_name(n)}
    for node in nodes:
        _check(expression, node, known, read, methods)
    return replace(expression, columns=tuple(dict.fromkeys(read)))


def _depth(tree: ast.AST) -> int:
    """How deep the tree nests (walked without recursion)."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


_REFUSED = {ast.Subscript: "indexing", ast.Lambda: "lambda", ast.IfExp: "if/else", ast.List: "a list",
            ast.Tuple: "a tuple", ast.Dict: "a dict", ast.Set: "a set", ast.Starred: "*", ast.NamedExpr: ":=",
            ast.JoinedStr: "an f-string", ast.FormattedValue: "an f-string", ast.ListComp: "a comprehension",
            ast.GeneratorExp: "a comprehension", ast.SetComp: "a comprehension", ast.DictComp: "a comprehension",
            ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield", ast.Slice: "a slice"}
_SIGNS = {ast.Pow: "**", ast.Mod: "%", ast.FloorDiv: "//", ast.MatMult: "@", ast.BitXor: "^",
          ast.LShift: "<<", ast.RShift: ">>", ast.Is: "is", ast.IsNot: "is not", ast.In: "in",
          ast.NotIn: "not in"}
_ADMITTED = (ast.Expression, ast.Load, ast.And, ast.Or, ast.Not, ast.Invert, ast.USub, ast.UAdd, ast.BoolOp, ast.UnaryOp,
             *_COMPARE, *_ARITHMETIC, *_LOGIC)


def _check(expression: Expression, node: ast.AST, known: set | None, read: list, methods: set) -> None:
    """Refuse ``node`` unless the whitelist admits it; a column read is added to ``read``; ``methods``:
    the ids of the nodes naming an admitted call (``isna`` in ``isna(x)``, ``x.isna`` in ``x.isna()``)."""
    text, part = expression.text, expression.segment(node)
    if isinstance(node, _ADMITTED) or id(node) in methods:
        return
    if isinstance(node, ast.BinOp) and type(node.op) not in _ARITHMETIC and type(node.op) not in _LOGIC:
        raise ExpressionError(text, f"operator {_SIGNS.get(type(node.op), '?')} is not allowed (in {part!r}); "
                              "allowed: + - * / & | ~ and or not < <= > >= == !=", part)
    if isinstance(node, ast.Compare):
        refused = [op for op in node.ops if type(op) not in _COMPARE]
        if refused:
            raise ExpressionError(text, f"operator {_SIGNS.get(type(refused[0]), '?')} is not allowed "
                                  f"(in {part!r}); compare with < <= > >= == !=", part)
        return
    if isinstance(node, ast.BinOp):
        return
    if isinstance(node, ast.Name):
        column = dict(expression.quoted).get(node.id, node.id)
        if known is not None and column not in known:
            raise ExpressionError(text, f"unknown column {column!r}; columns: {', '.join(sorted(known))}",
                                  column)
        read.append(column)
        return
    if isinstance(node, ast.Constant):
        _check_constant(expression, node, part)
        return
    if isinstance(node, ast.Call):
        if _call_name(node) is None:
            raise ExpressionError(text, f"call {part!r} is not allowed; allowed: isna(x), notna(x), abs(x), "
                                  "x.isna(), x.notna(), x.abs()", part)
        return
    if isinstance(node, ast.Attribute):
        raise ExpressionError(text, f"attribute {part!r} is not allowed; only .isna(), .notna(), .abs() "
                              "may follow a column", part)
    raise ExpressionError(text, f"{_REFUSED.get(type(node), type(node).__name__)} is not allowed "
                          f"(in {part!r})", part)


def _check_constant(expression: Expression, node: ast.Constant, part: str) -> None:
    value, text = node.value, expression.text
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise ExpressionError(text, f"a string of {len(value):,} characters; the limit is {MAX_STRING}",
                                  _short(part, 40))
        return
    if isinstance(value, (int, float)):
        if len(part) > MAX_DIGITS or not math.isfinite(float(value)):
            raise ExpressionError(text, f"number {_short(part, 40)!r} is too long or not finite "
                                  f"(at most {MAX_DIGITS} characters)", _short(part, 40))
        return
    raise ExpressionError(text, f"constant {part!r} is not allowed (numbers, strings, None, True, False)", part)


def _call_name(node: ast.Call) -> str | None:
    """The admitted call's name, or None: ``f(x)`` or ``x.f()`` with f one of ``_CALLS``."""
    if node.keywords:
        return None
    if isinstance(node.func, ast.Name) and node.func.id in _CALLS and len(node.args) == 1:
        return node.func.id
    if isinstance(node.func, ast.Attribute) and node.func.attr in _CALLS and not node.args:
        return node.func.attr
    return None


class _Evaluator:
    """Evaluates a checked tree over one frame's columns (numpy arrays)."""

    def __init__(self, expression: Expression, frame: pd.DataFrame):
        self.expression = expression
        self.frame = frame
        self.quoted = dict(expression.quoted)

    def fail(self, node: ast.AST, message: str):
        """Raise ``message`` about ``node`` (``{part}`` / ``{part!r}`` in it: the node's text)."""
        part = self.expression.segment(node)
        message = message.replace("{part!r}", repr(part)).replace("{part}", part)
        raise ExpressionError(self.expression.text, message, part)

    def value(self, node: ast.expr) -> _Value:
        method = getattr(self, "_" + type(node).__name__)
        return method(node)

    def _Name(self, node: ast.Name) -> _Value:
        series = self.frame[self.quoted.get(node.id, node.id)]
        if pd.api.types.is_bool_dtype(series.dtype):
            return _Value(series.to_numpy(dtype=bool, na_value=False), "bool")
        if pd.api.types.is_numeric_dtype(series.dtype):
            return _Value(series.to_numpy(dtype=float, na_value=np.nan), "number")
        return _Value(series.reset_index(drop=True), "text")  # compared by pandas (Arrow strings: fast)

    def _Constant(self, node: ast.Constant) -> _Value:
        v = node.value
        if v is None:
            return _Value(None, "none")
        if isinstance(v, bool):
            return _Value(np.bool_(v), "bool")
        if isinstance(v, str):
            return _Value(v, "text")
        return _Value(float(v), "number")

    def _number(self, node: ast.expr, what: str) -> np.ndarray | float:
        v = self.value(node)
        if v.kind != "number":
            self.fail(node, f"{what} needs a number; {{part!r}} is {_kind(v)}")
        return v.data

    def _truth(self, node: ast.expr, what: str) -> np.ndarray:
        v = self.value(node)
        if v.kind != "bool":
            self.fail(node, f"{what} needs true/false; {{part!r}} is {_kind(v)} (compare it: e.g. '{{part}} > 0')")
        return np.asarray(v.data, dtype=bool)

    def _UnaryOp(self, node: ast.UnaryOp) -> _Value:
        if isinstance(node.op, (ast.Not, ast.Invert)):
            return _Value(~self._truth(node.operand, "not / ~"), "bool")
        data = self._number(node.operand, "a sign")
        return _Value(-data if isinstance(node.op, ast.USub) else +data, "number")

    def _BinOp(self, node: ast.BinOp) -> _Value:
        if type(node.op) in _LOGIC:
            operands = [self.value(node.left), self.value(node.right)]
            for side, v in zip((node.left, node.right), operands):
                if v.kind != "bool":
                    self.fail(side, "& and | need true/false on each side; {part!r} is " + _kind(v) + ". They bind "
                              "tighter than comparisons: write (precision < 0.5) & (recall > 0.2), or use and / or")
            return _Value(_LOGIC[type(node.op)](*(np.asarray(v.data, dtype=bool) for v in operands)), "bool")
        left, right = self._number(node.left, "arithmetic"), self._number(node.right, "arithmetic")
        with np.errstate(all="ignore"):
            return _Value(np.asarray(_ARITHMETIC[type(node.op)](np.float64(left) if np.isscalar(left) else left,
                                                                right), dtype=float), "number")

    def _BoolOp(self, node: ast.BoolOp) -> _Value:
        combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
        what = "and" if isinstance(node.op, ast.And) else "or"
        out = self._truth(node.values[0], what)
        for operand in node.values[1:]:
            out = combine(out, self._truth(operand, what))
        return _Value(out, "bool")

    def _Compare(self, node: ast.Compare) -> _Value:
        out = None
        left_node, left = node.left, self.value(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.value(right_node)
            hit = self._compare(node, op, left_node, left, right_node, right)
            out = hit if out is None else out & hit
            left_node, left = right_node, right
        return _Value(out, "bool")

    def _compare(self, node, op, left_node, left: _Value, right_node, right: _Value) -> np.ndarray:
        sign, fn = _COMPARE[type(op)]
        if "none" in (left.kind, right.kind):
            if sign not in ("==", "!="):
                self.fail(node, "only == and != compare with None (Undefined), in {part!r}")
            other = right if left.kind == "none" else left
            missing = _missing(other)
            return missing if sign == "==" else ~missing
        kinds = {left.kind, right.kind}
        if kinds <= {"number", "bool"}:
            a, b = (np.asarray(v.data, dtype=float) for v in (left, right))
            with np.errstate(invalid="ignore"):
                return np.asarray(fn(a, b) & ~np.isnan(a) & ~np.isnan(b), dtype=bool)
        if kinds == {"text"}:
            if sign not in ("==", "!="):
                self.fail(node, "text compares only with == and !=, in {part!r}")
            hit = np.asarray(fn(left.data, right.data), dtype=bool)
            return hit & ~_missing(left) & ~_missing(right)
        text_node = left_node if left.kind == "text" else right_node
        self.fail(text_node, f"{{part!r}} is text and cannot be compared with a number (in "
                  f"{self.expression.segment(node)!r}); quote a value to compare text")

    def _Call(self, node: ast.Call) -> _Value:
        name = _call_name(node)
        arg = node.args[0] if isinstance(node.func, ast.Name) else node.func.value
        if name == "abs":
            return _Value(np.abs(self._number(arg, "abs()")), "number")
        missing = _missing(self.value(arg))
        return _Value(missing if name == "isna" else ~missing, "bool")


def _missing(value: _Value) -> np.ndarray:
    """Where a value is Undefined: NaN for numbers, None / NaN for text, never for true/false."""
    if value.kind == "none":
        return np.bool_(True)
    if value.kind == "number":
        return np.isnan(np.asarray(value.data, dtype=float))
    if value.kind == "text":
        return np.asarray(pd.isna(value.data), dtype=bool)
    return np.zeros(np.shape(value.data), dtype=bool)


def _kind(value: _Value) -> str:
    return {"number": "a number", "bool": "true/false", "text": "text", "none": "None"}[value.kind]
