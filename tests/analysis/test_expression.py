"""The filter expression language: what it admits, what it refuses (and says why), and that no
refused text runs anything. Filters, slices, the picker and the cluster explorer all use it."""

import ast
import json
import os

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.analysis import load_slices
from ragwidgets.analysis.expression import MAX_LENGTH, ExpressionError, parse
from ragwidgets.analysis.filtering import expression_mask
from ragwidgets.errors import InputError
from ragwidgets.widgets._picker import SampleIndex

NAN = np.nan
FRAME = pd.DataFrame({"precision": [0.1, NAN, 0.9, 0.5], "recall": [1.0, 0.0, NAN, 0.5],
                      "n_response_claims": [3, 0, 2, 1], "system": ["a", None, "b", "a"],
                      "my metric": [1.0, 2.0, 3.0, 4.0]})


@pytest.mark.parametrize("expression, expected", [
    ("precision < 0.5", [1, 0, 0, 0]),
    ("precision >= 0.5", [0, 0, 1, 1]),
    ("precision != 0.1", [0, 0, 1, 1]),  # Undefined never passes a comparison, != included
    ("precision == None", [0, 1, 0, 0]),
    ("None != precision", [1, 0, 1, 1]),
    ("isna(precision) or isna(recall)", [0, 1, 1, 0]),
    ("precision.notna() & (recall > 0)", [1, 0, 0, 1]),
    ("0.1 < precision <= 0.9", [0, 0, 1, 1]),
    ("not precision > 0.5", [1, 1, 0, 1]),
    ("~(n_response_claims > 0) | (recall == 0)", [0, 1, 0, 0]),
    ("abs(precision - recall) > 0.5", [1, 0, 0, 0]),
    ("(precision - recall).abs() < 0.1", [0, 0, 0, 1]),
    ("precision * 2 + 1 > 1.5 and -recall < 0", [0, 0, 0, 1]),
    ("n_response_claims / 0 > 1", [1, 0, 1, 1]),  # x / 0 is inf (0 / 0 is NaN)
    ('system == "a"', [1, 0, 0, 1]),
    ("system != 'a'", [0, 0, 1, 0]),
    ("system == None", [0, 1, 0, 0]),
    ("`my metric` > 2", [0, 0, 1, 1]),
    ("True", [1, 1, 1, 1]),
    ("1_000 > n_response_claims", [1, 1, 1, 1]),
])
def test_admitted(expression, expected):
    assert expression_mask(FRAME, expression).tolist() == [bool(x) for x in expected]


SENTINEL = "rw_expression_sentinel"


@pytest.mark.parametrize("expression, why, part", [
    ("precison < 0.5", "unknown column 'precison'; columns: ", "precison"),
    ("@os.system('touch x') or precision > 0", "not a valid expression", ""),
    ("precision.__class__.__init__.__globals__['os'] > 0", "indexing is not allowed", None),
    ("precision.__class__.__init__ > 0", "attribute 'precision.__class__.__init__' is not allowed", None),
    ("precision.to_csv('out.csv')", "is not allowed; allowed: isna(x)", "precision.to_csv('out.csv')"),
    ("__import__('os').system('true')", "is not allowed; allowed: isna(x)", "__import__('os').system('true')"),
    ("precision > 9**9**9", "operator ** is not allowed", "9**9**9"),
    ("precision % 2 == 0", "operator % is not allowed", "precision % 2"),
    ("precision in [1, 2]", "operator in is not allowed", None),
    ("precision is None", "operator is is not allowed", None),
    ("precision > 1e999", "not finite", "1e999"),
    ("precision > " + "9" * 40, "too long", None),
    ("system == '" + "x" * 600 + "'", "a string of 600 characters", None),
    ("[c for c in ()] == 1", "a comprehension is not allowed", None),
    ("(lambda: 1)() > 0", "call", None),
    ("precision if recall else recall", "if/else is not allowed", None),
    ("precision[0] > 0", "indexing is not allowed", "precision[0]"),
    ("precision < 0.5 & recall > 0", "bind tighter than comparisons", "0.5"),
    ("precision + 1", "one true/false per sample", ""),
    ("system > 1", "is text and cannot be compared with a number", "system"),
    ("system < 'b'", "text compares only with == and !=", None),
    ("precision < None", "only == and != compare with None", None),
    ("precision and recall", "needs true/false", "precision"),
    ("isna(precision, recall)", "call", None),
    ("x" * (MAX_LENGTH + 1), f"the limit is {MAX_LENGTH:,}", ""),
    ("-" * 300 + "precision > 0", "parts; the limit", ""),
    ("(" * 70 + "precision" + ")" * 70 + " > 0", None, None),  # parentheses add no nesting
    ("f'{precision}' == 'x'", "an f-string is not allowed", None),
    ("precision > 0\x00", "NUL", ""),
])
def test_refused_with_the_part_named(expression, why, part):
    if why is None:
        assert expression_mask(FRAME, expression).tolist() == [True, False, True, True]
        return
    with pytest.raises(ExpressionError) as err:
        expression_mask(FRAME, expression)
    assert str(err.value).startswith("filter expression ") and why in str(err.value)
    if part is not None:
        assert err.value.part == part


def test_a_refused_text_runs_nothing_and_leaks_nothing(tmp_path, monkeypatch):
    """The audit's attacks: a command, a file write, an environment variable in the error text."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RW_SECRET_FOR_TEST", "s3cr3t-value")
    attacks = [
        f"@__builtins__['__import__']('os').system('touch {SENTINEL}') > 0",
        f"precision.__class__.__init__.__globals__['os'].system('touch {SENTINEL}')",
        f"precision.to_csv('{SENTINEL}')",
        f"__import__('os').system('touch {SENTINEL}')",
        "__import__('os').environ['RW_SECRET_FOR_TEST'] > 0",
        "precision.__class__.__init__.__globals__['os'].environ['RW_SECRET_FOR_TEST'] > 0",
        f"open('{SENTINEL}', 'w').write('x') > 0",
        "precision > 9**9**9",
    ]
    for attack in attacks:
        with pytest.raises(ExpressionError) as err:
            expression_mask(FRAME, attack)
        assert "s3cr3t-value" not in str(err.value)
    assert not (tmp_path / SENTINEL).exists() and os.listdir(tmp_path) == []


def test_a_slices_file_from_someone_else_is_checked_when_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "slices.json"
    path.write_text(json.dumps({"slices": [
        {"name": "ok", "expression": "precision < 0.5"},
        {"name": "harmless looking", "expression": f"@pd.io.common.os.system('touch {SENTINEL}') > 0"}]}))
    with pytest.raises(InputError, match=r"slice 1 \('harmless looking'\), field 'expression'.*not a valid"):
        load_slices(path)
    with pytest.raises(InputError, match="slice 1"):
        rw.DatasetExplorer(rw.datasets.synthetic_run(20, seed=1), slices=path)
    assert not (tmp_path / SENTINEL).exists()


def test_a_slices_file_may_not_rename_a_builtin_slice(tmp_path):
    path = tmp_path / "slices.json"
    path.write_text(json.dumps({"slices": [{"name": "hallucinated", "expression": "precision >= 0"}]}))
    with pytest.raises(InputError, match="'hallucinated' is a built-in slice"):
        load_slices(path)
    path.write_text(json.dumps({"slices": [{"name": "hallucinated", "expression": "hallucination > 0"}]}))
    assert load_slices(path)[0].expression == "hallucination > 0"  # the built-in itself, as saved
    explorer = rw.DatasetExplorer(rw.datasets.synthetic_run(20, seed=1))
    with pytest.raises(InputError, match="'hallucinated' is a built-in slice"):
        explorer.add_slices([rw.analysis.Slice("hallucinated", "precision >= 0")])
    explorer.add_slices([rw.analysis.Slice("mine", "precision >= 0")])
    explorer.add_slices([rw.analysis.Slice("mine", "precision > 0.5")])  # a user's slice may be replaced
    assert [s.expression for s in explorer.slices if s.name == "mine"] == ["precision > 0.5"]


def test_picker_conditions_use_the_same_evaluator():
    frame = pd.DataFrame({"f1": [0.2, NAN, 0.8], "precision": [1.0, 0.5, NAN]})
    index = SampleIndex(["a", "b", "c"], ["q a", "q b", "q c"], frame=frame)
    assert [r["query_id"] for r in index.search("f1<0.5")["rows"]] == ["a"]  # a digit in the name
    assert [r["query_id"] for r in index.search("f1=undefined")["rows"]] == ["b"]
    assert [r["query_id"] for r in index.search("precision!=1")["rows"]] == ["b"]  # Undefined c: not !=


# -- properties -------------------------------------------------------------------------------

COLUMNS = ["precision", "recall", "n_response_claims"]
TOKENS = st.sampled_from(COLUMNS + [
    "os", "__class__", "eval", "isna", "abs", "notna", "to_csv", "(", ")", "[", "]", ".", ",", "@", "'a'", '"',
    "0", "0.5", "1e999", "-", "+", "*", "/", "**", "%", "<", "<=", "==", "!=", ">", "and", "or", "not", "&",
    "|", "~", "None", "True", "lambda", ":", "if", "else", "`", "x", "in", " "])


def _names(tree: ast.AST) -> set[str]:
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in calls}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TOKENS, min_size=1, max_size=14).map(" ".join))
def test_any_text_is_admitted_reading_only_columns_or_refused_saying_why(text):
    frame = FRAME[COLUMNS]
    try:
        expression = parse(text, COLUMNS)
    except ExpressionError as err:
        assert str(err).startswith("filter expression ") and len(str(err)) > len("filter expression ''") + 5
        return
    assert _names(ast.Expression(expression.tree)) <= set(COLUMNS)  # never a name that is not a column
    assert set(expression.columns) <= set(COLUMNS)
    try:
        mask = expression.mask(frame)
    except ExpressionError as err:
        assert str(err).startswith("filter expression ")
        return
    assert mask.dtype == bool and mask.shape == (len(frame),)


def _arith(depth):
    leaf = st.sampled_from(COLUMNS) | st.integers(-3, 3).map(str) | st.sampled_from(["0.5", "2.25"])
    if depth == 0:
        return leaf
    sub = _arith(depth - 1)
    return leaf | st.tuples(sub, st.sampled_from("+-*"), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})")


def _boolean(depth):
    """Comparisons that read a column (pandas' ``not`` of a constant is ``~True``, -2: true), combined;
    no division (0 / 0 is NaN, which no comparison passes here and ``!=`` passes in pandas)."""
    column = st.sampled_from(COLUMNS) | st.tuples(st.sampled_from(COLUMNS), st.sampled_from("+-*"), _arith(1)).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})")
    compare = st.tuples(column, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), _arith(2)).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})")
    if depth == 0:
        return compare
    sub = _boolean(depth - 1)
    return (compare | st.tuples(sub, st.sampled_from(["and", "or", "&", "|"]), sub).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})") | sub.map(lambda b: f"(not {b})"))


FRAMES = st.lists(st.tuples(*[st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0, -1.0])] * 3), min_size=1, max_size=8).map(
    lambda rows: pd.DataFrame(rows, columns=COLUMNS))


@settings(max_examples=200, deadline=None)
@given(_boolean(2), FRAMES)
def test_agrees_with_pandas_on_defined_values(expression, frame):
    """Without Undefined values the language means what pandas' own expressions mean."""
    with np.errstate(all="ignore"):
        expected = np.asarray(frame.eval(expression, engine="python"), dtype=bool)
    assert expression_mask(frame, expression).tolist() == expected.tolist()
