"""Arrow columns as JSON text (ragwidgets.arrow_json) against json.dumps, and Parquet runs read
through the fast path against the validator, sample by sample."""

import json
import math
import random
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
import msgspec
import numpy as np

from ragwidgets._arrowload import Unsupported, flat_from_arrow
from ragwidgets._fastload import read_flat
from ragwidgets.arrow_json import json_text, jsonl_bytes
from ragwidgets.datasets import synthetic_run
from ragwidgets.loaders import load_samples
from ragwidgets.sources import read_run
from strategies import ragchecker_records, same_sample

ODD = ['plain', 'say "hi"', 'back\\slash', 'tab\there', 'nul\x00', 'line\u2028sep', 'ünï©ødé 🙂', '', '\x1f']


def expected(value):
    """A value as json.loads gives it back: NaN and infinities are null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list):
        return [expected(v) for v in value]
    if isinstance(value, dict):
        return {k: expected(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("seed", range(5))
def test_rows_are_the_json_of_their_values(seed):
    rnd = random.Random(seed)
    n = 60
    maybe = lambda make: None if rnd.random() < 0.2 else make()  # noqa: E731
    rows = {
        "s": [maybe(lambda: rnd.choice(ODD)) for _ in range(n)],
        "i": [maybe(lambda: rnd.randint(-10**12, 10**12)) for _ in range(n)],
        "f": [maybe(lambda: rnd.choice([0.5, -1e-7, 1e300, float("nan"), float("inf"), 3.0])) for _ in range(n)],
        "b": [maybe(lambda: rnd.random() < 0.5) for _ in range(n)],
        "nested": [maybe(lambda: [maybe(lambda: [maybe(lambda: rnd.choice(ODD)) for _ in range(rnd.randint(0, 3))])
                                  for _ in range(rnd.randint(0, 3))]) for _ in range(n)],
        "structs": [maybe(lambda: [{"doc_id": rnd.choice(ODD), "text": maybe(lambda: rnd.choice(ODD))}
                                   for _ in range(rnd.randint(0, 3))]) for _ in range(n)],
    }
    table = pa.table(rows)
    table = pa.concat_tables([table.slice(7), table.slice(0, 7)])  # chunked and sliced arrays
    lines = jsonl_bytes(table).decode("utf-8").split("\n")
    assert lines[-1] == "" and len(lines) == n + 1
    for line, want in zip(lines, table.to_pylist()):
        assert json.loads(line) == expected(want)
    assert json_text(pa.array([None, None])).to_pylist() == ["null", "null"]
    with pytest.raises(TypeError, match="no JSON form"):
        json_text(pa.array([b"x"], type=pa.binary()))


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(records=st.lists(ragchecker_records(max_claims=3, max_passages=3), min_size=1, max_size=5))
def test_parquet_takes_the_fast_path_and_gives_the_validators_samples(tmp_path, records):
    for k, r in enumerate(records):
        r["query_id"] = f"q{k}"
    path = tmp_path / "run.parquet"
    pq.write_table(pa.Table.from_pylist(records), path)
    fast = load_samples(path)
    assert fast.flat is not None  # read by the fast path, not record by record
    slow = load_samples(read_run(path).records)
    assert len(fast.samples) == len(slow.samples) == len(records)
    assert all(same_sample(a, b) for a, b in zip(fast.samples, slow.samples))
    assert all(same_sample(a, b) for a, b in zip(fast.samples, load_samples(records).samples))
    assert rw.evaluate(str(path)).frame.equals(rw.evaluate(records).frame)


def test_a_parquet_run_with_other_columns_is_read_by_its_shape(tmp_path):
    records = synthetic_run(20, seed=3)
    for k, r in enumerate(records):
        r["query_id"] = f"q{k}"
    pq.write_table(pa.Table.from_pylist(records).append_column("latency", pa.array([1.0] * 20)), tmp_path / "x.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        other = load_samples(tmp_path / "x.parquet")  # a column besides RAGChecker's: read_run's path
    assert other.flat is None
    assert all(same_sample(a, b) for a, b in zip(other.samples, load_samples(records).samples))


def same_flat(a, b) -> bool:
    """Whether two FlatRecords hold the same columns (the sources differ: JSON lines either way)."""
    if a is None or b is None:
        return a is b
    arrays = all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("n_resp", "n_gt", "n_psg"))
    labels = all(np.array_equal(a.labels[k], b.labels[k]) and np.array_equal(a.has[k], b.has[k]) for k in a.labels)
    texts = all(a.texts[k].to_pylist() == b.texts[k].to_pylist() for k in a.texts)
    rows = [msgspec.structs.asdict(r) for r in a.records] == [msgspec.structs.asdict(r) for r in b.records]
    return arrays and labels and texts and rows and a.query_ids == b.query_ids and a.n_unnamed == b.n_unnamed


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(ragchecker_records(max_claims=3, max_passages=3), min_size=1, max_size=5),
       broken=st.sampled_from([None, "duplicate doc_id", "short label row", "odd spelling", "duplicate id", "no claims"]))
def test_the_arrow_columns_give_what_their_json_lines_give(records, broken):
    for k, r in enumerate(records):
        r["query_id"] = f"q{k}"
    first = records[0]
    if broken == "duplicate doc_id" and len(first.get("retrieved_context") or ()) > 1:
        first["retrieved_context"][1]["doc_id"] = first["retrieved_context"][0]["doc_id"]
    elif broken == "short label row" and first.get("retrieved2response") and first["retrieved2response"][0]:
        first["retrieved2response"][0] = first["retrieved2response"][0][:-1]
    elif broken == "odd spelling" and first.get("answer2response"):
        first["answer2response"][0] = "entailment"
    elif broken == "duplicate id" and len(records) > 1:
        records[1]["query_id"] = "q0"
    elif broken == "no claims":
        for key in ("retrieved_context", "response_claims", "gt_answer_claims"):
            first[key] = None
    table = pa.Table.from_pylist(records)
    try:
        arrow = flat_from_arrow(table)
    except Unsupported:
        return  # a column type the Arrow path leaves to the JSON lines
    assert same_flat(arrow, read_flat(jsonl_bytes(table), True))


def test_a_generated_run_takes_the_arrow_path():
    records = synthetic_run(300, seed=4)
    for k, r in enumerate(records):
        r["query_id"] = k  # integers: read as their text, as the JSON path reads them
    table = pa.Table.from_pylist(records)
    flat = flat_from_arrow(table)
    assert flat is not None and same_flat(flat, read_flat(jsonl_bytes(table), True))
    assert flat.query_ids[:2] == ["0", "1"] and len(flat.source) == 300
    assert json.loads(flat.source[7])["query_id"] == 7
