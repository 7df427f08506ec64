"""The two load paths agree: a file read by the fast path (``ragwidgets._fastload``) gives exactly what
the validator (``ragwidgets.loaders``) gives on the same records, on generated records and on
mutations of them (wrong arities, types, nulls, unknown labels, shapes, extra fields, claim forms)."""

import gzip
import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets._fastload import read_flat
from strategies import broken_records, ragchecker_records, results_files, same_sample

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def load(source, on_error):
    """(LoadResult or None, the InputError raised or None, the warnings' texts)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = rw.load_samples(source, on_error=on_error), None
        except rw.InputError as err:
            result, error = None, err
    return result, error, [str(w.message) for w in caught if issubclass(w.category, rw.InputWarning)]


def errors(result, error):
    found = [error] if error is not None else result.errors
    return [(e.sample, e.field, str(e)) for e in found]


def assert_same_load(got, expected):
    (result, error, shown), (want, want_error, want_shown) = got, expected
    assert errors(result, error) == errors(want, want_error)
    assert shown == want_shown
    if want is not None:
        assert len(result.samples) == len(want.samples)
        assert all(same_sample(a, b) for a, b in zip(result.samples, want.samples))
        assert (result.unnamed, result.first_unnamed) == (want.unnamed, want.first_unnamed)


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@SETTINGS
@given(file=results_files(), on_error=st.sampled_from(["raise", "report"]))
def test_a_file_loads_as_its_records_do(tmp_path_factory, file, on_error):
    name, data, records = file
    path = tmp_path_factory.mktemp("file") / name
    path.write_bytes(data)
    from_file = load(path, on_error)
    assert_same_load(from_file, load(records, on_error))
    raw = gzip.decompress(data) if name.endswith(".gz") else data
    flat = read_flat(raw, name.removesuffix(".gz").endswith(".jsonl"))
    if flat is not None:  # the fast path takes only what the validator accepts
        assert from_file[1] is None and not from_file[0].errors
        assert from_file[0].flat is not None
    if from_file[0] is not None and from_file[0].samples and not from_file[0].errors:
        for undefined in ("null", "zero"):
            fast, slow = rw.evaluate(path, undefined=undefined), rw.evaluate(records, undefined=undefined)
            assert fast.frame.equals(slow.frame)
            assert [fast.reasons(i) for i in range(len(records))] == [slow.reasons(i) for i in range(len(records))]


def _outcome(result, index: int, named: str | None):
    """What became of record ``index`` in a report-mode load: ("sample", Sample) or ("error", field, detail)."""
    for e in result.errors:
        if e.sample == f"sample {index}" or (e.sample or "").startswith(f"sample {index} ("):
            return "error", e.field, e.detail
    found = [s for s in result.samples if s.query_id == named]
    return ("sample", found[0]) if found else None


OTHER_LINES = st.one_of(
    ragchecker_records(max_claims=2, max_passages=2),  # plain
    ragchecker_records(max_claims=2, max_passages=2).map(lambda r: dict(r, corpus=[])),  # an extension
    broken_records(),
    st.sampled_from(["{broken", '{"query_id": "x",', "[1", '"a string"', "{} {}"]),  # not one JSON value
)


def _line(other, k: int) -> str:
    """Another line of the file, as text; a record gets an id of its own (unless its id is broken)."""
    if isinstance(other, str):
        return other
    if isinstance(other.get("query_id", ""), (str, int)):
        other = dict(other, query_id=f"o{k}")
    return json.dumps(other)


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@SETTINGS
@given(target=broken_records(), others=st.lists(OTHER_LINES, max_size=3), position=st.integers(0, 3))
def test_a_jsonl_line_is_read_alike_whatever_the_other_lines_hold(tmp_path_factory, target, others, position):
    folder = tmp_path_factory.mktemp("jsonl")
    others = [_line(other, k) for k, other in enumerate(others)]
    alone_path, mixed_path = folder / "alone.jsonl", folder / "mixed.jsonl"
    alone_path.write_text(json.dumps(target) + "\n")
    position = min(position, len(others))
    lines = others[:position] + [json.dumps(target)] + others[position:]
    mixed_path.write_text("\n".join(lines) + "\n")
    alone, _, _ = load(alone_path, "report")
    mixed, _, _ = load(mixed_path, "report")
    if alone is None or mixed is None:  # nothing could be scored
        return
    index = sum(1 for line in others[:position] if _is_record_line(line))
    qid = target.get("query_id")
    named = isinstance(qid, (str, int))
    first = _outcome(alone, 0, str(qid) if named else "0")
    second = _outcome(mixed, index, str(qid) if named else str(index))
    if first is None or second is None or first[0] != second[0]:
        assert first == second
    elif first[0] == "sample":
        assert same_sample(first[1], second[1], ignore=("query_id",))
    else:
        assert first[1:] == second[1:]


def _is_record_line(line: str) -> bool:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return False
    return not (isinstance(value, dict) and "results" in value)


def test_a_four_element_triple_is_refused_by_both_paths(tmp_path):
    record = {"query_id": "a", "retrieved_context": [{"doc_id": "d1", "text": "t"}],
              "response_claims": [["x", "is", "y", "and z"]], "answer2response": ["Entailment"],
              "retrieved2response": [["Entailment"]]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"results": [record]}))
    assert read_flat(path.read_bytes(), False) is None
    for source in (path, [record]):
        with pytest.raises(rw.InputError) as err:
            rw.load_samples(source)
        assert (err.value.sample, err.value.field) == ("sample 0 (query_id 'a')", "response_claims[0]")


@pytest.mark.parametrize("text, line", [('{"query_id": "a",\n"response_claims": []}\n', 1),  # a sample over two lines
                                        ('{"query_id": "a", "response_claims": []} {"query_id": "b"}\n', 1)])
def test_jsonl_is_one_json_value_a_line_on_both_paths(tmp_path, text, line):
    path = tmp_path / "r.jsonl"
    path.write_text(text)
    assert read_flat(text.encode(), True) is None
    with pytest.raises(rw.InputError, match=f"r.jsonl line {line}: not valid JSON"):
        rw.load_samples(path)


@pytest.mark.parametrize("where", ["metrics", "top-level"])
def test_text_the_fast_path_skips_is_still_utf8_checked(tmp_path, where):
    record = {"query_id": "a", "response_claims": [], "metrics": {"x\xff": 1.0}}
    top = {"results": [record]}
    if where == "top-level":
        record.pop("metrics")
        top["notes"] = "caf\xe9"
    path = tmp_path / "r.json"
    path.write_bytes(json.dumps(top, ensure_ascii=False).encode("latin-1"))
    with pytest.raises(rw.InputError, match="is not UTF-8 text"):
        rw.load_samples(path)
