"""Real files in: every way a results file arrives, as a table of small files and what loading them gives."""

import gzip
import json
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets._fastload import read_flat
from strategies import ragchecker_records, same_sample

GOOD = {"query_id": "a", "retrieved_context": [{"doc_id": "d1", "text": "t"}],
        "response_claims": [["x", "is", "y"]], "gt_answer_claims": [["x", "is", "y"]],
        "answer2response": ["Entailment"], "response2answer": ["Neutral"],
        "retrieved2response": [["Entailment"]], "retrieved2answer": [[None]]}


def line(record) -> str:
    return json.dumps(record, ensure_ascii=False)


def results(*records) -> str:
    return json.dumps({"results": list(records)}, indent=2)


B = dict(GOOD, query_id="b")
ODD_TEXT = dict(B, response="one\u2028two\u0085three")
DEEP = "[" * 100_000 + "]" * 100_000

# (name, file name, content: str or bytes, query_ids loaded | None, error or warning text | None)
CASES = [
    ("json", "r.json", results(GOOD, B), ["a", "b"], None),
    ("jsonl", "r.jsonl", line(GOOD) + "\n" + line(B) + "\n", ["a", "b"], None),
    ("bare list", "r.json", json.dumps([GOOD, B]), ["a", "b"], None),
    ("json.gz", "r.json.gz", gzip.compress(results(GOOD, B).encode()), ["a", "b"], None),
    ("jsonl.gz", "r.jsonl.gz", gzip.compress((line(GOOD) + "\n" + line(B)).encode()), ["a", "b"], None),
    ("gzip under a plain name", "r.json", gzip.compress(results(GOOD).encode()), ["a"], None),
    ("UTF-8 byte order mark", "r.json", b"\xef\xbb\xbf" + results(GOOD).encode(), ["a"], None),
    ("BOM on JSONL", "r.jsonl", b"\xef\xbb\xbf" + line(GOOD).encode(), ["a"], None),
    ("raw U+2028 and U+0085 in a JSONL string", "r.jsonl", line(GOOD) + "\n" + line(ODD_TEXT) + "\n", ["a", "b"], None),
    ("CRLF line ends", "r.jsonl", line(GOOD) + "\r\n" + line(B) + "\r\n", ["a", "b"], None),
    ("JSONL content in a .json file", "r.json", line(GOOD) + "\n" + line(B), ["a", "b"], None),
    ("one JSONL line holding a results object", "r.jsonl", json.dumps({"results": [GOOD, B]}), ["a", "b"], None),
    ("bad JSONL line", "r.jsonl", line(GOOD) + "\n{broken\n" + line(B), None, "r.jsonl line 2: not valid JSON"),
    ("results object among JSONL lines", "r.jsonl", line(GOOD) + "\n" + json.dumps({"results": [B]}), None,
     "line 2: holds a {'results': [...]} object"),
    ("truncated pretty JSON", "r.json", results(GOOD, B)[:200], None, "the file looks truncated"),
    ("malformed JSON", "r.json", '{"results": [}', None, "r.json is not valid JSON: Expecting value (line 1, column 14)"),
    ("UTF-16", "r.json", results(GOOD).encode("utf-16"), None, "is UTF-16 text; save it as UTF-8"),
    ("Latin-1", "r.json", json.dumps([dict(GOOD, query="café")], ensure_ascii=False).encode("latin-1"), None,
     "is not UTF-8 text (byte"),
    ("damaged gzip", "r.json.gz", gzip.compress(results(GOOD).encode())[:30], None, "damaged or truncated gzip"),
    ("deeply nested JSON", "r.json", DEEP, None, "nested too deeply"),
    ("empty records", "r.json", json.dumps({"results": [{}, {}, {}]}), None,
     "sample 0: nothing to score: the record has none of response_claims"),
    ("a record of no shape read, another tool's field in it", "r.json", json.dumps([{"context": ["c"], "output": "a"}]),
     None, "(another tool's format? 'context' -> 'retrieved_context')"),  # ragas' rows are read: tests/test_tool_rows.py
    ("no results key", "r.json", json.dumps(GOOD), None, "the key is missing (this looks like one sample"),
    ("plain file, a wrong shape", "r.json", results(GOOD, dict(B, retrieved2response=[["Entailment", "Neutral"]])),
     None, "sample 1 (query_id 'b'), field 'retrieved2response[0]': must have one label per retrieved passage: "
           "1 passages, got 2"),
    ("plain file, a duplicate query_id", "r.jsonl", line(GOOD) + "\n" + line(GOOD), None,
     "sample 1 (query_id 'a'), field 'query_id': duplicate query_id, also used by sample 0"),
    ("plain file, labels without their claims", "r.json", results(GOOD, dict(B, response_claims=None)), None,
     "sample 1 (query_id 'b'), field 'answer2response': is given but 'response_claims' is missing"),
    ("misspelt label key", "r.json", results(dict(GOOD, retrieved2responses=[["Entailment"]])), ["a"],
     "unknown field 'retrieved2responses' in 1 sample(s) (first: sample 0) is ignored; "
     "did you mean 'retrieved2response'?"),
    ("ragas key beside RAGChecker's", "r.json", results(dict(GOOD, contexts=["c"])), ["a"],
     "RAGChecker's field is 'retrieved_context'"),
    ("missing query_ids", "r.json", results({k: v for k, v in GOOD.items() if k != "query_id"},
                                            {k: v for k, v in B.items() if k != "query_id"}), ["0", "1"],
     "2 sample(s) have no query_id (first: sample 0); each is named by its position"),
    ("missing query_id colliding with a given one", "r.json",
     results(dict(GOOD, query_id="1"), {k: v for k, v in B.items() if k != "query_id"}), None,
     "duplicate query_id, also used by sample 0; sample 1 has no query_id and is named by its position"),
]
CASES = [pytest.param(*case[1:], id=case[0]) for case in CASES]


@pytest.mark.parametrize("name, content, loaded, message", CASES)
def test_loading_a_file(tmp_path, name, content, loaded, message):
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    if loaded is None:
        with pytest.raises(rw.InputError) as err:
            rw.load_samples(path)
        assert message in str(err.value)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = rw.load_samples(path)
    assert [s.query_id for s in result.samples] == loaded
    shown = [str(w.message) for w in caught if issubclass(w.category, rw.InputWarning)]
    assert shown == result.warnings
    if message is None:
        assert shown == []
    else:
        assert any(message in w for w in shown), shown


def test_report_mode_skips_bad_lines_and_samples_and_scores_the_rest(tmp_path):
    path = tmp_path / "r.jsonl"
    bad_label = dict(GOOD, query_id="c", answer2response=["Entailed"])
    path.write_text("\n".join([line(GOOD), "{broken", line(bad_label), line(B), ""]), encoding="utf-8")
    loaded = rw.load_samples(path, on_error="report")
    assert [s.query_id for s in loaded.samples] == ["a", "b"]
    assert [e.sample for e in loaded.errors] == [f"{path} line 2", "sample 1 (query_id 'c')"]
    scores = rw.evaluate(path, on_error="report")
    assert scores.batch.query_ids == ["a", "b"] and len(scores.errors) == 2
    assert scores.metrics("b")["precision"] == 1.0
    with pytest.raises(rw.InputError, match="line 2"):
        rw.evaluate(path)


def test_every_sample_bad_is_an_error_not_an_empty_result(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("{broken\n[1\n", encoding="utf-8")
    with pytest.raises(rw.InputError, match="no sample could be scored; the first error: .*line 1"):
        rw.evaluate(path, on_error="report")


def test_json_text_and_unreadable_paths():
    scores = rw.evaluate(results(GOOD))
    assert scores.metrics("a")["precision"] == 1.0
    with pytest.raises(rw.InputError, match="cannot read"):
        rw.evaluate("x" * 5000 + ".json")  # too long a name for the file system: no raw OSError


def test_an_empty_answer_without_passages_is_undefined_not_uncomputable():
    """The lesson's empty answer: no claims, no passages, no corpus, reference facts known."""
    record = {"query_id": "e", "response": "", "response_claims": [], "retrieved_context": [],
              "reference_facts": ["f1", "f2"]}
    scores = rw.evaluate(record)
    assert scores.metrics("e") == {"faithfulness": None, "citation_support": None, "citation_precision": None,
                                   "completeness": 0.0, "context_relevance": None, "precision": None,
                                   "hallucination": None, "self_knowledge": None}
    assert scores.reasons("e")["faithfulness"] == "no answer claims"
    assert scores.reasons("e")["citation_precision"] == "no citations"


def test_label_arrays_complete_by_shape_need_no_labels():
    claims_no_passages = {"query_id": "n", "retrieved_context": [], "response_claims": [["a", "b", "c"]],
                          "answer2response": ["Entailment"]}
    m = rw.evaluate(claims_no_passages).metrics("n")
    assert m["faithfulness"] == 0.0 and m["self_knowledge"] == 1.0 and m["hallucination"] == 0.0
    passages_unknown = {k: v for k, v in claims_no_passages.items() if k != "retrieved_context"}
    assert "faithfulness" not in rw.evaluate(passages_unknown).metrics("n")  # not given: not computable
    no_claims = {"query_id": "z", "response_claims": [], "gt_answer_claims": []}
    m = rw.evaluate(no_claims).metrics("z")
    assert m["precision"] is None and m["recall"] is None and m["faithfulness"] is None


def test_required_and_optional_errors_name_the_mode_asked_for():
    with pytest.raises(rw.InputError, match="mode 'required_and_optional' needs a REQUIRED/OPTIONAL label"):
        rw.evaluate(GOOD, mode="required_and_optional")


def test_the_fast_path_takes_plain_files_and_leaves_the_rest_to_the_validator(tmp_path):
    assert read_flat(results(GOOD, B).encode(), False) is not None
    for other in (dict(GOOD, answer2response=[True]),  # a boolean label
                  dict(GOOD, answer2response=["entailment"]),  # another spelling
                  dict(GOOD, query_id=None),  # null query_id: an error, below
                  dict(GOOD, response_claims=[{"text": "x"}]),  # a claim object
                  dict(GOOD, retrieved2response=[["Entailment", "Neutral"]]),  # a wrong shape
                  dict(GOOD, corpus=[]),  # an extension
                  dict(GOOD, answer2response="Entailment"),  # a label, not a list of labels
                  dict(GOOD, answer2response=[["Entailment"]]),  # a list nested too deep
                  dict(GOOD, retrieved2response=["Entailment"]),  # a matrix that is a list
                  dict(GOOD, retrieved2response=[[["Entailment"]]]),  # nested too deep
                  dict(GOOD, answer2response=["Entail ment"]),  # a label with a space inside
                  dict(GOOD, answer2response=["Entailment|"]),  # the records' separator inside a label
                  dict(GOOD, answer2response=['"Entailment"']),  # a label quoted twice
                  dict(GOOD, answer2response=["nullity"]),  # null inside a string
                  dict(GOOD, answer2response=[1]),  # a number
                  dict(GOOD, answer2response=[{}])):  # an object
        assert read_flat(results(GOOD, other).encode(), False) is None, other
    assert read_flat(results(GOOD, GOOD).encode(), False) is None  # duplicate query_id
    spaced = json.dumps({"results": [GOOD, dict(B, answer2response=None, retrieved2answer=[[None]])]},
                        indent="\t", separators=(" ,\r\n", " :  "))
    flat = read_flat(spaced.encode(), False)  # any JSON whitespace; an explicit null is an absent list
    assert flat is not None and flat.has["answer2response"].tolist() == [True, False]
    assert flat.labels["retrieved2answer"].tolist() == [-1, -1]
    path = tmp_path / "r.json"
    path.write_text(results(GOOD, dict(B, query_id=None)))
    with pytest.raises(rw.InputError, match="sample 1, field 'query_id': must be a string"):
        rw.load_samples(path)


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@settings(max_examples=40, deadline=None)
@given(st.lists(ragchecker_records(), min_size=1, max_size=6), st.sets(st.sampled_from(
    ["answer2response", "response2answer", "retrieved2response", "retrieved2answer", "retrieved_context",
     "response_claims", "query_id"])))
def test_fast_path_samples_and_scores_equal_the_validators(records, drop):
    records = [dict({k: v for k, v in r.items() if k not in drop or k == "query_id"}, query_id=str(i))
               for i, r in enumerate(records)]
    if "query_id" in drop:
        for r in records:
            del r["query_id"]
    text = results(*records).encode()
    flat = read_flat(text, False)
    try:
        precise = rw.load_samples(records).samples
    except rw.InputError:
        assert flat is None
        return
    assert flat is not None
    assert len(flat.samples) == len(precise)
    assert all(same_sample(f, p) for f, p in zip(flat.samples, precise))
    fast, slow = rw.evaluate(text, undefined="zero"), rw.evaluate(records, undefined="zero")
    assert fast.frame.equals(slow.frame)
    assert [fast.reasons(i) for i in range(len(precise))] == [slow.reasons(i) for i in range(len(precise))]


def test_a_file_read_by_the_fast_path_explains_like_records(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(results(GOOD, dict(B, answer2response=["Neutral"])))
    from_file, from_records = rw.evaluate(path), rw.evaluate([GOOD, dict(B, answer2response=["Neutral"])])
    assert rw.load_samples(path).flat is not None  # the fast path read it
    for qid in ("a", "b"):
        assert [m.text for m in from_file.explain(qid).metrics.values()] == \
            [m.text for m in from_records.explain(qid).metrics.values()]
    assert [s.query_id for s in from_file.samples] == ["a", "b"]
