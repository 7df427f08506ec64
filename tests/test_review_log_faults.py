"""The review log under faults: a line cut short by a kill or a full disk never swallows the next
review, every whole line around a damaged one is read (each damaged line warned about), and
loading the log gives exactly the reviews ``ReviewLog.append`` acknowledged (returned)."""

import errno
import json
import os
import tempfile
import threading
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragwidgets import reviews as reviews_module
from ragwidgets.errors import InputWarning
from ragwidgets.reviews import KINDS, PASSAGE_KINDS, Review, ReviewLog, Reviews

from faults import full_disk, short_writes

fcntl = pytest.importorskip("fcntl") if os.name == "posix" else None


def review(claim=0, **kw):
    base = {"query_id": "q1", "kind": "answer2response", "claim": claim, "label": "Entailment"}
    return Review(**{**base, **kw})


def line(r: Review) -> bytes:
    return (json.dumps(r.to_json(), ensure_ascii=False) + "\n").encode("utf-8")


def read_quietly(path) -> Reviews:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        return Reviews.read(path)


def test_a_line_cut_short_after_opening_does_not_swallow_the_next_review(tmp_path):
    path = tmp_path / "reviews.jsonl"
    log = ReviewLog(path)
    log.append(review(0))
    with open(path, "ab") as f:  # another writer killed midway, after this log was opened
        f.write(line(review(1))[:30])
    with pytest.warns(InputWarning, match="last line.*cut off"):
        log.append(review(2))
    assert path.read_bytes() == line(review(0)) + line(review(2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [r.claim for r in Reviews.read(path).history] == [0, 2]
    assert [r.claim for r in log.reviews.history] == [0, 2]


def test_a_tail_cut_inside_a_character_is_cut_off(tmp_path):
    path = tmp_path / "reviews.jsonl"
    torn = line(review(1, note="déjà vu"))
    torn = torn[:torn.index("é".encode()) + 1]  # half of a two-byte character: not UTF-8
    path.write_bytes(line(review(0)) + torn)
    with pytest.warns(InputWarning, match="line 2: skipped, cut short"):
        log = ReviewLog(path)
    with pytest.warns(InputWarning, match="cut off"):
        log.append(review(2))
    assert [r.claim for r in Reviews.read(path).history] == [0, 2]


def test_every_whole_line_around_a_damaged_one_is_read(tmp_path):
    path = tmp_path / "reviews.jsonl"
    path.write_bytes(line(review(0)) + b'{"query_id": "q1", "ki\n' + b"\xff\xfe not text\n" + line(review(3)))
    with pytest.warns(InputWarning) as seen:
        read = Reviews.read(path)
    assert [r.claim for r in read.history] == [0, 3]
    messages = [str(w.message) for w in seen if issubclass(w.category, InputWarning)]
    assert len(messages) == 2
    assert f"{path} line 2: skipped" in messages[0] and f"{path} line 3: skipped" in messages[1]


def test_a_review_appended_onto_a_line_cut_short_is_read(tmp_path):
    """An earlier version appended without ending the file on a newline: the review is recovered."""
    path = tmp_path / "reviews.jsonl"
    path.write_bytes(line(review(0)) + line(review(1, note='{"query_id": "x"}'))[:50] + line(review(2))
                     + line(review(4)))
    with pytest.warns(InputWarning, match=r"line 2: its first 50 bytes skipped"):
        read = Reviews.read(path)
    assert read.history == (review(0), review(2), review(4))


@pytest.mark.parametrize("fault", ["full disk", "fsync"])
def test_an_append_that_fails_is_not_kept_and_the_next_starts_clean(tmp_path, monkeypatch, fault):
    path = tmp_path / "reviews.jsonl"
    log = ReviewLog(path)
    log.append(review(0))
    with monkeypatch.context() as m:
        if fault == "full disk":
            full_disk(m, tmp_path)
        else:
            def no_space(fd):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            m.setattr(reviews_module.os, "fsync", no_space)
        with pytest.raises(OSError, match="No space left"):
            log.append(review(1, note="x" * 1000))
    assert path.read_bytes() == line(review(0))  # the half line is cut off again
    assert [r.claim for r in log.reviews.history] == [0]  # and not acknowledged
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log.append(review(2))
        assert [r.claim for r in Reviews.read(path).history] == [0, 2]


def test_short_writes_still_write_the_whole_line(tmp_path, monkeypatch):
    path = tmp_path / "reviews.jsonl"
    log = ReviewLog(path)
    short_writes(monkeypatch, tmp_path, size=7)
    log.append(review(0, note="é" * 40))
    log.append(review(1))
    monkeypatch.undo()
    assert path.read_bytes() == line(review(0, note="é" * 40)) + line(review(1))


@pytest.mark.skipif(fcntl is None, reason="no fcntl: the log takes no lock")
def test_an_append_waits_for_another_writer_s_line(tmp_path):
    path = tmp_path / "reviews.jsonl"
    log = ReviewLog(path)
    log.append(review(0))
    other = line(review(1))
    with open(path, "ab", buffering=0) as f:  # another process's log, midway through its line
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        f.write(other[:20])
        writer = threading.Thread(target=log.append, args=(review(2),))
        writer.start()
        writer.join(0.5)
        assert writer.is_alive(), "the append did not wait for the lock"
        f.write(other[20:])
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
    writer.join(30)
    assert path.read_bytes() == line(review(0)) + other + line(review(2))


# -- the property: loading gives exactly the acknowledged reviews ---------------------------------------

@st.composite
def reviews_(draw):
    kind = draw(st.sampled_from(KINDS))
    return Review(draw(st.text(max_size=6)), kind, draw(st.integers(0, 3)),
                  draw(st.sampled_from(["Entailment", "Neutral", "Contradiction"])),
                  doc_id=draw(st.text(max_size=4)) if kind in PASSAGE_KINDS else None,
                  note=draw(st.text(max_size=12)))


OPS = st.one_of(
    st.tuples(st.just("append"), reviews_()),  # acknowledged
    st.tuples(st.just("killed"), reviews_(), st.floats(0, 1)),  # a writer killed midway: part of its line
    st.tuples(st.just("full disk"), reviews_()),  # append raises: not acknowledged
    st.tuples(st.just("old writer"), reviews_()),  # a whole line appended without mending the tail first
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, max_size=8))
def test_loading_gives_exactly_the_acknowledged_reviews(ops):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "reviews.jsonl")
        acknowledged = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            for op, r, *more in ops:
                if op == "append":
                    acknowledged.append(ReviewLog(path).append(r))
                elif op == "killed":
                    whole = line(r)
                    with open(path, "ab") as f:
                        f.write(whole[:1 + int(more[0] * (len(whole) - 3))])  # never the whole JSON text
                elif op == "full disk":
                    log = ReviewLog(path)
                    with pytest.MonkeyPatch.context() as m:
                        full_disk(m, folder)
                        with pytest.raises(OSError):
                            log.append(r)
                else:
                    with open(path, "ab") as f:
                        f.write(line(r))
                    acknowledged.append(r)
            if os.path.exists(path):
                assert Reviews.read(path).history == tuple(acknowledged)
                assert ReviewLog(path).reviews.history == tuple(acknowledged)
