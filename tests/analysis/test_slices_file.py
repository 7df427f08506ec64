"""A slices file is someone else's input, read with care: only a regular file, at most
MAX_SLICES_BYTES, not read whole blindly (a device or a named pipe is refused at once, not read
until memory runs out or a writer comes); text that is not UTF-8, JSON nested too deep and an
expression naming a column the run lacks are InputErrors naming the file and the slice."""

import json
import os
import threading
import time

import pytest

import ragwidgets as rw
from ragwidgets import analysis as A
from ragwidgets.analysis import slices as slices_module
from ragwidgets.datasets import synthetic_run
from ragwidgets.errors import InputError


def test_a_named_pipe_is_refused_at_once(tmp_path):
    fifo = tmp_path / "slices.json"
    os.mkfifo(fifo)

    def unblock():  # were the pipe opened to be read (before: the kernel waited for a writer), free it
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # no reader: nothing to free
            return
        os.close(fd)

    guard = threading.Timer(5, unblock)
    guard.start()
    clock = time.monotonic()
    try:
        with pytest.raises(InputError, match=f"cannot read slices from {fifo}: not a regular file"):
            A.load_slices(fifo)
    finally:
        guard.cancel()
    assert time.monotonic() - clock < 4


def test_a_device_is_refused_without_reading_it():
    with pytest.raises(InputError, match="cannot read slices from /dev/zero: not a regular file"):
        A.load_slices("/dev/zero")  # before: read until memory ran out


def test_a_file_over_the_size_cap_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    with open(path, "wb") as out:
        out.truncate(slices_module.MAX_SLICES_BYTES + 1)  # sparse: nothing written
    with pytest.raises(InputError, match=rf"{path}: .* is larger than 16 MiB"):
        A.load_slices(path)
    monkeypatch.setattr(slices_module, "MAX_SLICES_BYTES", 10)
    path.write_text(json.dumps({"slices": []}))  # 14 bytes
    with pytest.raises(InputError, match="larger than"):
        A.load_slices(path)


def test_text_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"slices": [{"name": "café", "expression": "precision < 1"}]}'.encode("latin-1"))
    with pytest.raises(InputError, match=f"cannot read slices from {path}: not UTF-8 text"):
        A.load_slices(path)


def test_json_nested_too_deep_is_named(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(InputError, match=f"cannot read slices from {path}: JSON nested too deep"):
        A.load_slices(path)


def test_an_expression_naming_an_unknown_column_names_the_slice_and_the_file(tmp_path):
    path = tmp_path / "slices.json"
    path.write_text(json.dumps({"slices": [{"name": "ok", "expression": "precision < 0.5"},
                                           {"name": "typo", "expression": "precison < 0.5"}]}))
    records = synthetic_run(20, seed=1)
    with pytest.raises(InputError, match=rf"slice 'typo' \(from {path}\), field 'expression': .*precison"):
        rw.DatasetExplorer(records, slices=path)
    explorer = rw.DatasetExplorer(records)
    with pytest.raises(InputError, match=rf"slice 'typo' \(from {path}\), field 'expression'"):
        explorer.load_slices(path)
    with pytest.raises(InputError, match=r"slice 'mine', field 'expression': .*precison"):
        explorer.add_slices([A.Slice("mine", "precison > 0")])  # a slice from Python: no file to name


def test_a_loaded_slice_equals_and_saves_as_before(tmp_path):
    mine = [A.Slice("long answers", "n_response_claims >= 2", "two claims or more")]
    A.save_slices(tmp_path / "a.json", mine)
    loaded = A.load_slices(tmp_path / "a.json")
    assert loaded == mine
    A.save_slices(tmp_path / "b.json", loaded)
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()  # where it came from is not saved
