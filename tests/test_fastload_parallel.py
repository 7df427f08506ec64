"""The fast path's parallel read of a JSONL file (``read_jsonl_file``): its lines split into parts, the
first read in this process and each other one by a worker process, each a block at a time, give the
same FlatRecords as one process reading the file's bytes (``read_flat``); small chunks, blocks and
several parts, so that every part spans several chunks and lines lie over two blocks."""

import json

import numpy as np
import pytest

from ragwidgets import _fastload as fastload
from ragwidgets._fastload import read_flat, read_jsonl_file
from ragwidgets.datasets import synthetic_run
from strategies import same_sample


def write_run(path, records, blank_every: int = 0, bom: bool = False) -> bytes:
    lines = [json.dumps(r) for r in records]
    if blank_every:
        lines = [line + ("\n  " if i % blank_every == 0 else "") for i, line in enumerate(lines)]
    data = (b"\xef\xbb\xbf" if bom else b"") + ("\n".join(lines) + "\n").encode()
    path.write_bytes(data)
    return data


def assert_same_flat(a, b):
    assert a.query_ids == b.query_ids
    assert (a.n_unnamed, a.first_unnamed) == (b.n_unnamed, b.first_unnamed)
    for name in ("n_resp", "n_gt", "n_psg"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for kind in ("labels", "has"):
        x, y = getattr(a, kind), getattr(b, kind)
        assert x.keys() == y.keys()
        for name in x:
            assert x[name].dtype == y[name].dtype and np.array_equal(x[name], y[name]), (kind, name)
    assert a.texts.keys() == b.texts.keys()
    for name in a.texts:
        assert a.texts[name].to_pylist() == b.texts[name].to_pylist(), name
    assert np.array_equal(a.source.starts, b.source.starts) and np.array_equal(a.source.ends, b.source.ends)
    assert (a.source.path, a.source.stamp) == (b.source.path, b.source.stamp)
    assert all(same_sample(x, y) for x, y in zip(a.samples, b.samples))


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(fastload, "CHUNK", 7)
    monkeypatch.setattr(fastload, "BLOCK", 1000)  # lines of 400 to 3,700 bytes: most longer than a block


def test_parts_give_the_single_process_records(tmp_path, small_chunks, monkeypatch):
    finished, finish = [], fastload._finish_worker

    def counted(worker):
        done, part = finish(worker)
        finished.append(done)
        return done, part

    monkeypatch.setattr(fastload, "_finish_worker", counted)
    records = synthetic_run(120, seed=3)
    for i in (0, 5, 61, 119):  # unnamed, in the first part and in later ones: named by their position in the file
        del records[i]["query_id"]
    data = write_run(tmp_path / "run.jsonl", records, blank_every=9, bom=True)
    one = read_flat(data, True, path=str(tmp_path / "run.jsonl"))
    assert one is not None and one.n_unnamed == 4 and one.query_ids[61] == "61"
    for parts in (1, 2, 3):
        assert_same_flat(read_jsonl_file(tmp_path / "run.jsonl", parts=parts), one)
    assert finished == [True] * 3  # each later part read by its worker (one for 2 parts, two for 3)


def test_a_part_whose_worker_fails_is_read_here(tmp_path, small_chunks, monkeypatch):
    data = write_run(tmp_path / "run.jsonl", synthetic_run(40, seed=1))
    one = read_flat(data, True, path=str(tmp_path / "run.jsonl"))
    monkeypatch.setattr(fastload, "_start_worker", lambda *args: None)
    assert_same_flat(read_jsonl_file(tmp_path / "run.jsonl", parts=3), one)


@pytest.mark.parametrize("bad", ["a line that is not JSON", "a record with an unknown key",
                                 "a query_id twice", "a query_id that is an unnamed record's position"])
def test_a_later_part_that_is_not_plain_makes_the_file_not_plain(tmp_path, small_chunks, bad):
    records = synthetic_run(40, seed=2)
    lines = [json.dumps(r) for r in records]
    if bad == "a line that is not JSON":
        lines[35] = '{"query_id": "x",'
    elif bad == "a record with an unknown key":
        lines[35] = json.dumps(dict(records[35], corpus=[]))
    elif bad == "a query_id twice":
        lines[35] = json.dumps(dict(records[35], query_id="1"))
    else:
        lines[30] = json.dumps({k: v for k, v in records[30].items() if k != "query_id"})
        lines[2] = json.dumps(dict(records[2], query_id="30"))
    (tmp_path / "run.jsonl").write_text("\n".join(lines))
    data = (tmp_path / "run.jsonl").read_bytes()
    assert read_flat(data, True, path=str(tmp_path / "run.jsonl")) is None
    for parts in (1, 3):
        assert read_jsonl_file(tmp_path / "run.jsonl", parts=parts) is None, parts


def test_a_small_file_is_read_by_one_process_and_a_large_one_by_one_part_per_core(monkeypatch):
    monkeypatch.setattr(fastload, "PARTS", None)
    assert fastload._part_count(fastload.PART_MIN - 1, None) == 1
    assert 1 <= fastload._part_count(fastload.PART_MIN, None) <= fastload.MAX_PARTS
    assert fastload._part_count(10, 3) == 3


def test_a_file_changed_while_it_is_read_is_not_taken(tmp_path, small_chunks, monkeypatch):
    write_run(tmp_path / "run.jsonl", synthetic_run(40, seed=4))
    stamps = iter([(1, 1), (1, 2)])  # (size, time) before and after the read
    monkeypatch.setattr(fastload, "_stamp", lambda path: next(stamps))
    assert read_jsonl_file(tmp_path / "run.jsonl", parts=2) is None


def test_what_a_worker_prints_does_not_reach_its_result(tmp_path, small_chunks, monkeypatch):
    data = write_run(tmp_path / "run.jsonl", synthetic_run(30, seed=5))
    monkeypatch.setattr(fastload, "_WORKER", fastload._WORKER.replace("task = ", "print('noise'); task = "))
    finished, finish = [], fastload._finish_worker
    monkeypatch.setattr(fastload, "_finish_worker", lambda worker: finished.append(finish(worker)) or finished[-1])
    two = read_jsonl_file(tmp_path / "run.jsonl", parts=2)
    assert [done for done, _ in finished] == [True]
    assert_same_flat(two, read_flat(data, True, path=str(tmp_path / "run.jsonl")))
