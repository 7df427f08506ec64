"""The JSONL file read by Arrow's JSON reader (``_arrowload.read_jsonl``) against msgspec's path
(``_fastload.read_flat``, itself held to the validator by test_load_paths_agree): generated files,
hostile lines among plain ones, blocks and parse chunks small enough that lines lie over several.
Whatever the Arrow path takes it reads exactly as the msgspec path does; what it leaves (None)
the msgspec path reads; plain files (integer and string ids, unnamed records, blank lines, a byte
order mark, escapes, text that looks like a date) are the Arrow path's own; ragchecker's per-sample
metrics and anything nested deeper than the format are msgspec's."""

import gzip
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets import _arrowload as arrowload
from ragwidgets._fastload import read_flat
from ragwidgets.datasets import synthetic_run
from strategies import broken_records, ragchecker_records
from test_fastload_parallel import assert_same_flat

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(arrowload, "JSONL_BLOCK", 2000)  # lines of 400 to 3,700 bytes: many over a block
    monkeypatch.setattr(arrowload, "PARSE_BLOCK", 900)  # several batches a block


def both(path):
    """(Arrow's read, msgspec's read) of the file at ``path``."""
    return arrowload.read_jsonl(path), read_flat(path.read_bytes(), True, path=str(path))


def agree(path, *, arrow_reads: bool):
    arrow, plain = both(path)
    if arrow is not None:
        assert plain is not None, "the Arrow path took a file the msgspec path refuses"
        assert_same_flat(arrow, plain)
    elif arrow_reads:
        raise AssertionError("a plain file left to the msgspec path")
    return arrow, plain


def write(path, lines, *, bom=False, newline="\n", last="\n"):
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + (newline.join(lines) + last).encode("utf-8", "surrogatepass"))
    return path


def test_a_generated_run_reads_alike_over_small_blocks(tmp_path, small_blocks):
    records = synthetic_run(150, seed=5)
    for i in (0, 7, 149):
        records[i].pop("query_id")  # unnamed: named by their position in the file
    lines = [json.dumps(r) for r in records]
    lines[40:40] = ["", "   ", "\t"]  # blank lines, skipped
    arrow, _ = agree(write(tmp_path / "run.jsonl", lines, bom=True, newline="\r\n"), arrow_reads=True)
    assert arrow.n_unnamed == 3 and arrow.query_ids[149] == "149"
    assert len(arrow.texts["query"].chunks) > 10  # a part per batch, over many blocks


def test_integer_ids_and_text_that_looks_like_dates_or_escapes_stay_on_the_arrow_path(tmp_path, small_blocks):
    records = synthetic_run(40, seed=6)
    for k, r in enumerate(records):
        r["query_id"] = k if k < 20 else f"s{k}"  # integer ids in the first blocks, text in the last ones
        r["query"] = "2020-01-01" if k % 2 else "caf\u00e9 \u2028 \"quoted\"\n\ttab \U0001f600 \\ \u0000"
    arrow, _ = agree(write(tmp_path / "run.jsonl", [json.dumps(r) for r in records]), arrow_reads=True)
    assert arrow.texts["query"].to_pylist()[:2] == [records[0]["query"], "2020-01-01"]
    assert arrow.query_ids[:2] == ["0", "1"] and arrow.query_ids[-1] == "s39"


HOSTILE = {
    "a null query_id": '{"query_id": null, "response_claims": []}',
    "a float query_id": '{"query_id": 1.0, "response_claims": []}',
    "an id past int64": '{"query_id": 123456789012345678901234567890, "response_claims": []}',
    "a bool query_id": '{"query_id": true, "response_claims": []}',
    "another key": '{"query_id": "h", "response_claims": [], "corpus": []}',
    "ragchecker's metrics": '{"query_id": "h", "response_claims": [], "metrics": {"precision": 1.0}}',
    "another passage key": '{"query_id": "h", "retrieved_context": [{"doc_id": "d", "text": "t", "score": 1}]}',
    "a passage without text": '{"query_id": "h", "retrieved_context": [{"doc_id": "d"}]}',
    "a null passage text": '{"query_id": "h", "retrieved_context": [{"doc_id": "d", "text": null}]}',
    "a key twice": '{"query_id": "h", "query": "a", "query": "b", "response_claims": []}',
    "two values on a line": '{"query_id": "h", "response_claims": []} {"query_id": "h2", "response_claims": []}',
    "a value over two lines": '{"query_id": "h",\n"response_claims": []}',
    "not UTF-8": '{"query_id": "h", "query": "caf\udce9", "response_claims": []}',
    "a lone surrogate": '{"query_id": "h", "query": "\\ud800", "response_claims": []}',
    "NaN": '{"query_id": "h", "query": NaN, "response_claims": []}',
    "an array": '["h"]',
    "a number": "3",
    "a byte order mark inside": '\ufeff{"query_id": "h", "response_claims": []}',
    "a vertical tab line": "\x0b",
    "a number as text": '{"query_id": "h", "query": 5, "response_claims": []}',
    "a label of another spelling": '{"query_id": "h", "response_claims": [["a", "b", "c"]], "answer2response": ["entailment"]}',
    "a short triple": '{"query_id": "h", "response_claims": [["a", "b"]]}',
    "an escaped key": '{"qu\\u0065ry_id": "h", "response_claims": []}',
    "an empty object": "{}",
    "a trailing comma": '{"query_id": "h", "response_claims": [],}',
}


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@pytest.mark.parametrize("case", HOSTILE)
@pytest.mark.parametrize("where", [0, 5, 11])
def test_a_hostile_line_among_plain_ones_is_read_alike_or_left_to_msgspec(tmp_path, small_blocks, case, where):
    lines = [json.dumps(r) for r in synthetic_run(12, seed=7)]
    lines.insert(where, HOSTILE[case])
    agree(write(tmp_path / "run.jsonl", lines), arrow_reads=False)


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@pytest.mark.parametrize("separator", [" ", "\r", ""])
def test_two_values_on_a_line_beside_a_value_over_two_lines_is_left_to_msgspec(tmp_path, separator):
    # one row too many and one too few in the same block: the count alone matched (found in review)
    lines = ['{"query_id": "a", "response_claims": []}' + separator + '{"query_id": "b", "response_claims": []}',
             '{"query_id": "c", "retrieved_context": [', '{"doc_id": "d", "text": "t"}]}']
    path = write(tmp_path / "run.jsonl", lines)
    assert arrowload.read_jsonl(path) is None
    assert read_flat(path.read_bytes(), True, path=str(path)) is None
    with pytest.raises(rw.InputError, match="run.jsonl line 1: not valid JSON"):
        rw.load_samples(path)


def test_a_line_longer_than_arrow_takes_is_left_to_msgspec(tmp_path, monkeypatch):
    monkeypatch.setattr(arrowload, "MAX_PARSE_BLOCK", 2000)  # Arrow's reader takes a chunk of 2 GiB at most
    path = write(tmp_path / "run.jsonl", [json.dumps(r) for r in synthetic_run(5, seed=12)])
    assert arrowload.read_jsonl(path) is None
    assert read_flat(path.read_bytes(), True, path=str(path)) is not None


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@SETTINGS
@example(records=[{"query_id": "a", "response_claims": []}], ids="int", spacing=0)
@given(records=st.lists(st.one_of(ragchecker_records(max_claims=3, max_passages=3), broken_records()), min_size=1,
                        max_size=8),
       ids=st.sampled_from(["str", "int", "none", "kept"]), spacing=st.integers(0, 3))
def test_generated_lines_are_read_alike(tmp_path_factory, records, ids, spacing):
    for k, r in enumerate(records):
        if ids == "str":
            r["query_id"] = f"q{k}"
        elif ids == "int":
            r["query_id"] = k
        elif ids == "none":
            r.pop("query_id", None)
    lines = [json.dumps(r, ensure_ascii=bool(spacing % 2)) + " " * spacing for r in records]
    path = write(tmp_path_factory.mktemp("jsonl") / "run.jsonl", lines, last="\n" * (spacing % 2))
    arrow, plain = agree(path, arrow_reads=False)
    if plain is not None and ids != "kept" and not any("metrics" in r for r in records):  # metrics: msgspec's
        assert arrow is not None, "a plain file left to the msgspec path"


def test_load_samples_takes_the_arrow_path_and_a_sample_reads_back(tmp_path, monkeypatch):
    records = synthetic_run(30, seed=8)
    path = write(tmp_path / "run.jsonl", [json.dumps(r) for r in records])
    seen = []
    read = arrowload.read_jsonl
    monkeypatch.setattr(arrowload, "read_jsonl", lambda p: seen.append(read(p)) or seen[-1])
    result = rw.load_samples(path)
    assert seen and seen[0] is not None and result.flat is seen[0]
    expected = rw.load_samples(records).samples
    assert [s.query_id for s in result.samples] == [s.query_id for s in expected]
    assert result.samples[17].passages == expected[17].passages
    assert result.samples[17].response_claims == expected[17].response_claims


def test_a_line_longer_than_a_block_is_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(arrowload, "JSONL_BLOCK", 64)
    records = synthetic_run(5, seed=9)
    agree(write(tmp_path / "run.jsonl", [json.dumps(r) for r in records]), arrow_reads=True)


@pytest.mark.parametrize("where", ["metrics", "another key", "labels", "a passage's text", "claims"])
def test_deep_nesting_is_left_to_msgspec_without_a_crash(tmp_path, where):
    deep = "[" * 100_000 + "]" * 100_000  # Arrow inferring the type of a value this deep overflows its stack
    field = {"metrics": f'"metrics": {{"precision": {deep}}}', "another key": f'"notes": {deep}',
             "labels": f'"answer2response": [{deep}]', "a passage's text": f'"retrieved_context": [{{"doc_id": "d", "text": {deep}}}]',
             "claims": f'"response_claims": [[{deep}]]'}[where]
    lines = [json.dumps(r) for r in synthetic_run(3, seed=11)] + ['{"query_id": "deep", ' + field + "}"]
    path = write(tmp_path / "run.jsonl", lines)
    assert arrowload.read_jsonl(path) is None
    assert read_flat(path.read_bytes(), True, path=str(path)) is None  # msgspec refuses it too (the validator names it)


def test_a_file_changed_while_read_is_left_to_msgspec(tmp_path, monkeypatch):
    path = write(tmp_path / "run.jsonl", [json.dumps(r) for r in synthetic_run(5, seed=10)])
    stamps = iter([(1, 1), (2, 2)])
    monkeypatch.setattr(arrowload, "_stamp", lambda p: next(stamps))
    assert arrowload.read_jsonl(path) is None


@pytest.mark.filterwarnings("ignore::ragwidgets.InputWarning")
@pytest.mark.parametrize("piece", [1, 700, 2**20])  # a piece a line, a few lines, the whole block
def test_a_gzipped_run_reads_alike_and_its_lines_come_from_its_packed_text(tmp_path, small_blocks, monkeypatch, piece):
    monkeypatch.setattr(arrowload, "PACK_PIECE", piece)
    records = synthetic_run(60, seed=13)
    records[3].pop("query_id")
    plain = write(tmp_path / "plain.jsonl", [json.dumps(r) for r in records], bom=True)
    path = tmp_path / "run.jsonl.gz"
    path.write_bytes(gzip.compress(plain.read_bytes()))
    arrow = arrowload.read_jsonl(path)
    msgspec_read = read_flat(plain.read_bytes(), True)  # what loading the gzipped file read before: its text kept whole
    assert arrow is not None and isinstance(arrow.source.data, arrowload.PackedText)
    assert len(arrow.source.data.blocks) > 5  # many blocks: lines read from several of them
    assert_same_flat(arrow, msgspec_read)
    order = np.random.default_rng(piece).permutation(60).tolist()  # any order
    assert [arrow.source[i] for i in order] == [msgspec_read.source[i] for i in order]
    rows = [2, 3, 40]
    assert [c.to_pylist() for c in arrow.samples.passage_columns(rows)] == \
        [c.to_pylist() for c in msgspec_read.samples.passage_columns(rows)]
    loaded = rw.load_samples(path)
    assert loaded.flat is not None and isinstance(loaded.flat.source.data, arrowload.PackedText)
    assert loaded.samples[3].query_id == "3"


def test_a_damaged_gzip_file_is_named_by_the_loader(tmp_path):
    data = gzip.compress(("\n".join(json.dumps(r) for r in synthetic_run(40, seed=14)) + "\n").encode())
    path = tmp_path / "run.jsonl.gz"
    path.write_bytes(data[:len(data) // 2])
    assert arrowload.read_jsonl(path) is None
    with pytest.raises(rw.InputError, match="damaged or truncated gzip"):
        rw.load_samples(path)


def test_an_unreadable_jsonl_file_is_named_by_the_loader(tmp_path):
    path = tmp_path / "run.jsonl"
    path.mkdir()  # a name that reads as JSONL but is no file
    with pytest.raises(rw.InputError, match="is a directory"):
        rw.load_samples(path)
    assert arrowload.read_jsonl(tmp_path / "gone.jsonl") is None
    with pytest.raises(rw.InputError, match="cannot read .*File name too long"):  # not a raw OSError from its stat
        rw.load_samples(tmp_path / ("x" * 300 + ".jsonl.gz"))
