"""The columnar run: a plain RAGChecker file read by the fast path keeps texts as Arrow columns and
each sample's JSON where it lies (a JSONL file's line, read again from the file), and builds Samples
on demand. Sample by sample it gives what the validator gives on the same records: the Samples,
Scores.samples[i], explain(qid), the texts, the claims table; the vectorised text search finds the
rows a Python substring loop finds."""

import gzip
import json
import os
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets._fastload import Lines
from ragwidgets.analysis.filtering import TextIndex
from ragwidgets.analysis.runs import InMemoryRun, Query
from strategies import ragchecker_records, same_sample

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.function_scoped_fixture])
TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\n\r\x00"), max_size=12)


@st.composite
def plain_runs(draw):
    """(records, file name, file bytes): 1-6 plain records with their own texts, as JSONL, a list or
    ``{"results": ...}``, maybe gzipped, maybe with a byte order mark and blank lines."""
    records = draw(st.lists(ragchecker_records(max_claims=3, max_passages=3), min_size=1, max_size=6))
    for i, r in enumerate(records):
        r.update(query_id=f"q{i}", query=draw(TEXT), response=draw(TEXT), gt_answer=draw(TEXT))
        if draw(st.booleans()):
            del r["gt_answer"]
    form = draw(st.sampled_from(["jsonl", "list", "object"]))
    if form == "jsonl":
        text = "\n".join(json.dumps(r, ensure_ascii=draw(st.booleans())) for r in records)
        text += draw(st.sampled_from(["", "\n", "\n  \n"]))
    else:
        text = json.dumps(records if form == "list" else {"results": records}, indent=draw(st.sampled_from([None, 1])))
    data = (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode()
    zipped = draw(st.booleans())
    name = "run." + ("jsonl" if form == "jsonl" else "json") + (".gz" if zipped else "")
    return records, name, gzip.compress(data) if zipped else data


@SETTINGS
@given(run=plain_runs())
def test_the_columnar_run_gives_the_validators_samples_and_values(tmp_path, run):
    records, name, data = run
    path = tmp_path / name
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.InputWarning)
        loaded, want = rw.load_samples(path), rw.load_samples(records)
        fast, slow = rw.evaluate(path), rw.evaluate(records)
    assert loaded.flat is not None and want.flat is None  # the fast path took the file, not the records
    lines = loaded.flat.source
    if isinstance(lines, Lines):  # JSONL: a plain file's lines are read again from it, a gzipped one's kept
        assert (lines.data is None) == (not name.endswith(".gz"))
    assert len(loaded.samples) == len(want.samples)
    for i, sample in enumerate(want.samples):
        assert same_sample(loaded.samples[i], sample)
        assert same_sample(fast.samples[i], sample)
        assert repr(fast.explain(sample.query_id)) == repr(slow.explain(sample.query_id))
    for field in ("query", "gt_answer", "response"):
        assert loaded.samples.texts(field) == [getattr(s, field) for s in want.samples]
        assert fast.batch.text_column(field).to_pylist() == slow.batch.text_column(field).to_pylist()
    assert fast.frame.equals(slow.frame)
    assert fast.claims().equals(slow.claims())


def test_a_file_changed_after_loading_is_refused_by_name(tmp_path):
    path = tmp_path / "run.jsonl"
    records = [dict(r, query_id=f"q{i}") for i, r in enumerate(rw.datasets.synthetic_run(3, seed=1))]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    scores = rw.evaluate(path)
    assert scores.samples[2].query == records[2]["query"]  # read again from the file
    path.write_text("".join(json.dumps(r) + "\n" for r in records[::-1]))
    with pytest.raises(rw.InputError, match="run.jsonl has changed"):
        scores.samples[2]


@pytest.mark.parametrize("order", [slice(None, None, -1), [1, 0, 2]])
def test_a_file_rewritten_with_its_size_and_time_kept_is_refused_not_misread(tmp_path, order):
    path = tmp_path / "run.jsonl"
    records = [dict(r, query_id=f"q{i}") for i, r in enumerate(rw.datasets.synthetic_run(3, seed=1))]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    scores = rw.evaluate(path)
    before = os.stat(path)
    shuffled = records[order] if isinstance(order, slice) else [records[k] for k in order]
    path.write_text("".join(json.dumps(r) + "\n" for r in shuffled))  # the same bytes in another order
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # as cp -p / rsync -t keep the time
    refused = 0
    for i in range(3):  # each sample reads back as itself, or is refused: never another record's texts
        try:
            sample = scores.samples[i]
        except rw.InputError as err:
            assert f"sample {i} (query_id 'q{i}') reads back as another record" in str(err)
            refused += 1
        else:
            assert (sample.query_id, sample.query, sample.response) == \
                (f"q{i}", records[i]["query"], records[i]["response"])
    assert refused >= 2  # the moved records at least


def reference_mask(frame: pd.DataFrame, text: str) -> np.ndarray:
    """The search as a Python loop: query_id, query and response joined, lowercased by str.lower."""
    rows = zip(frame.index, frame["query"], frame["response"])
    return np.array([text.lower() in "\x00".join(map(str, row)).lower() for row in rows], dtype=bool)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(TEXT, TEXT, TEXT), min_size=1, max_size=8), pick=st.integers(0, 7),
       cut=st.tuples(st.integers(0, 12), st.integers(0, 12)), extra=TEXT)
def test_the_vectorised_search_finds_what_a_python_loop_finds(rows, pick, cut, extra):
    qid, query, response = zip(*rows)
    frame = pd.DataFrame({"query": pd.array(list(query), dtype="str"), "response": list(response)},
                         index=pd.Index(list(qid), name="query_id"))
    source = "\x00".join(rows[pick % len(rows)])
    index = TextIndex(frame)  # one index, searched as a user types (each text holding the last), and fresh
    typed = [source[min(cut):k] for k in range(min(cut), max(cut) + 1)]
    for text in (*typed, source[min(cut):max(cut)].upper(), extra, "İ", "i̇", *typed[::-1]):
        assert (index.mask(text) == reference_mask(frame, text)).all(), text
        assert (TextIndex(frame).mask(text) == reference_mask(frame, text)).all(), text


@pytest.mark.parametrize("parts", [2, 3, 7])
def test_a_search_in_parts_cut_at_row_starts_finds_what_a_python_loop_finds(monkeypatch, parts):
    """A large column is scanned in parts, one thread each: forced into 2, 3 or 7 parts over rows
    of a three-letter alphabet (an occurrence at every cut, and across rows were one allowed)."""
    from ragwidgets.analysis import filtering
    monkeypatch.setattr(filtering, "_parts", lambda size: parts)
    rng = np.random.default_rng(parts)
    words = ["".join(rng.choice(list("abé"), rng.integers(0, 9))) for _ in range(3 * 60)]
    frame = pd.DataFrame({"query": pd.array(words[60:120], dtype="str"), "response": words[120:]},
                         index=pd.Index(words[:60], name="query_id"))
    index = TextIndex(frame)
    assert len(index._pieces) == min(parts, 60)
    for text in ("abc", "aba", "bab", "aaa", "éa", "bé", "abab", "ébé", "zzz"):
        assert (index.mask(text) == reference_mask(frame, text)).all(), text


def test_the_explorers_filter_sort_and_drill_down_on_a_columnar_run(tmp_path):
    path = tmp_path / "run.jsonl"
    records = [dict(r, query_id=f"q{i}") for i, r in enumerate(rw.datasets.synthetic_run(40, seed=3))]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run, slow = InMemoryRun(str(path)), InMemoryRun(records)
    assert isinstance(run.frame["query"].dtype, pd.StringDtype)
    for controls in (Query(text="MUSEUM"), Query(text="case 1", sort_by="query", descending=True),
                     Query(expression="n_passages >= 3", sort_by="precision")):
        run.update(controls)
        slow.update(controls)
        assert len(run.order) and np.array_equal(run.order, slow.order)
    row = int(run.order[0])
    assert same_sample(run.drill(row).sample, slow.drill(row).sample)


def test_a_search_of_an_empty_run_finds_nothing():
    frame = pd.DataFrame({"query": pd.array([], dtype="str"), "response": pd.array([], dtype="str")},
                         index=pd.Index([], dtype="str", name="query_id"))
    assert TextIndex(frame).mask("abc").tolist() == []


def test_the_text_index_is_built_in_a_forked_child_too():
    """The index is built on a background thread: a child forked after the parent used it (the
    parent's thread is not in the child) builds its own."""
    import os
    import signal
    records = [dict(r, query_id=f"q{i}") for i, r in enumerate(rw.datasets.synthetic_run(20, seed=1))]
    InMemoryRun(records).update(Query(text="q1"))  # the parent's executor has a thread now
    pid = os.fork()
    if pid == 0:  # the child: a hang would be the bug, so an alarm ends it
        signal.alarm(60)
        try:
            run = InMemoryRun(records)
            run.update(Query(text="q1"))
            os._exit(0 if len(run.order) else 3)
        except BaseException:
            os._exit(4)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
