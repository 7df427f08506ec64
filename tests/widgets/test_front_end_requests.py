"""The DatasetExplorer's requests from the front end treated as untrusted (a dashboard viewer may
send any message): a what-if pattern holds the kernel at most its budget, and the files the
front end names are confined to the folder Python chose, never overwritten unless Python allows."""

import logging
import time

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.datasets import synthetic_run
from ragwidgets.widgets.dataset import whatif


def ask(x, **message):
    x.replies = []
    x.send = lambda content, buffers=None: x.replies.append(content)
    x._handle_custom_msg({**message, "request": 1}, [])
    assert len(x.replies) == 1  # one reply, whatever happened
    return x.replies[0]


def test_a_costly_what_if_pattern_is_answered_with_an_error_within_the_panels_budget(monkeypatch):
    rng = np.random.default_rng(1)
    alphabet = np.array(list("abcdefghijklmnopqrstuvwxyz "))
    records = synthetic_run(300, seed=3)
    for r in records:
        for p in r["retrieved_context"]:
            p["text"] = "".join(alphabet[rng.integers(0, 27, 2500)])  # ~3 MB: ~90 s for this pattern, before
    x = rw.DatasetExplorer(records)
    monkeypatch.setattr(whatif, "WHATIF_SECONDS", 0.5)
    clock = time.monotonic()
    reply = ask(x, type="whatif", text="(?:[a-z][a-z ]{1,9}){100}!")
    assert time.monotonic() - clock < 15
    assert reply["error"].startswith("PatternTooCostly: the text pattern is too costly: stopped after 0.5 s, "
                                     "having matched ")
    assert reply["error"].split(" of ")[1].startswith("300 samples")
    assert "error" not in ask(x, type="whatif", text="^abc")  # a cheap pattern still answers


@pytest.fixture
def confined(tmp_path):
    root = tmp_path / "work"
    root.mkdir()
    x = rw.DatasetExplorer(synthetic_run(40, seed=2), files_root=root)
    x.add_slices([rw.analysis.Slice("long answers", "n_response_claims >= 8")])
    return x, root


WRITES = [{"type": "save_slices"}, {"type": "export", "format": "csv"}, {"type": "export", "format": "parquet"},
          {"type": "export_claims"}]


@pytest.mark.parametrize("message", WRITES, ids=lambda m: m["type"] + m.get("format", ""))
def test_a_write_from_the_front_end_stays_in_the_files_root(confined, tmp_path, message):
    x, root = confined
    suffix = {"csv": ".csv", "parquet": ".parquet"}.get(message.get("format"), ".csv" if message["type"] ==
                                                          "export_claims" else ".json")
    outside = tmp_path / f"victim{suffix}"
    outside.write_text("keep me")
    (root / "sub").mkdir()
    (root / "link").symlink_to(tmp_path)  # a folder link out of the root
    (root / f"escape{suffix}").symlink_to(outside)  # a file link out of the root
    for path, why in [(str(outside), "is an absolute path"), (f"../victim{suffix}", "has a '..' part"),
                      (f"sub/../../victim{suffix}", "has a '..' part"), (f"link/victim{suffix}", "leads out of"),
                      (f"escape{suffix}", "leads out of"), ("", "must be a non-empty string"),
                      (None, "must be a non-empty string"), (f"C:\\victim{suffix}", "is an absolute path")]:
        reply = ask(x, **message, path=path)
        assert reply["error"].startswith("PathRefused: ") and why in reply["error"], (path, reply)
    assert outside.read_text() == "keep me"
    reply = ask(x, **message, path=f"sub/mine{suffix}")  # a new file inside: written
    assert "error" not in reply and (root / "sub" / f"mine{suffix}").stat().st_size > 0
    before = (root / "sub" / f"mine{suffix}").read_bytes()
    reply = ask(x, **message, path=f"sub/mine{suffix}")  # again: not overwritten unless Python said so
    assert "exists in" in reply["error"] and "overwrite=True" in reply["error"]
    assert (root / "sub" / f"mine{suffix}").read_bytes() == before
    x.overwrite = True
    assert "error" not in ask(x, **message, path=f"sub/mine{suffix}")
    assert "error" in ask(x, **message, path=f"escape{suffix}")  # overwrite never lets a path out
    assert outside.read_text() == "keep me"


@pytest.mark.parametrize("message", WRITES, ids=lambda m: m["type"] + m.get("format", ""))
def test_a_write_from_the_front_end_names_a_file_not_a_folder_nor_a_link(confined, tmp_path, message, caplog):
    # Before, with overwrite=True, "." had the export written to <root's parent>/.work.<hex>.tmp and
    # failed renaming it onto the root (IsADirectoryError, logged with its traceback); "new/" wrote
    # a file named new; a link inside the root, even a dangling one, was written through.
    x, root = confined
    x.overwrite = True
    (root / "sub").mkdir()
    (root / "kept.txt").write_text("keep me")
    (root / "to_kept").symlink_to(root / "kept.txt")
    (root / "dangling").symlink_to(root / "made_through_a_link")
    (root / "sub" / "up").symlink_to(root)
    before = sorted(tmp_path.rglob("*"))
    for path, why in [(".", "names a folder"), ("./", "names a folder"), ("sub", "names a folder"),
                      ("sub/", "names a folder"), ("sub/.", "names a folder"), ("sub/up", "is a symbolic link"),
                      ("new/", "names a folder"), ("new\\", "names a folder"), ("to_kept", "is a symbolic link"),
                      ("dangling", "is a symbolic link"), ("sub/up/x.csv/", "names a folder")]:
        reply = ask(x, **message, path=path)
        assert reply.get("error", "").startswith("PathRefused: ") and why in reply["error"], (path, reply)
    assert sorted(tmp_path.rglob("*")) == before  # nothing written, inside the root or out of it
    assert (root / "kept.txt").read_text() == "keep me"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "error" not in ask(x, **message, path="sub/up/fine.csv")  # a link to a folder inside, then a name
    assert (root / "fine.csv").stat().st_size > 0


def test_slices_are_loaded_only_from_inside_the_files_root(confined, tmp_path):
    x, root = confined
    outside = tmp_path / "theirs.json"
    rw.analysis.save_slices(outside, [rw.analysis.Slice("theirs", "precision < 0.1")])
    (root / "in.json").symlink_to(outside)
    for path in [str(outside), "../theirs.json", "in.json"]:
        assert ask(x, type="load_slices", path=path)["error"].startswith("PathRefused: ")
    assert "theirs" not in {s.name for s in x.slices}
    rw.analysis.save_slices(root / "mine.json", [rw.analysis.Slice("mine", "precision < 0.1")])
    reply = ask(x, type="load_slices", path="mine.json")  # reading an existing file is what loading is
    assert reply["said"] == f"Loaded 1 slices from {root.resolve() / 'mine.json'}"
    assert "mine" in {s.name for s in x.slices}


def test_the_default_root_is_the_working_folder_and_python_calls_are_not_confined(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    victim = tmp_path / "victim.csv"
    victim.write_text("keep me")
    x = rw.DatasetExplorer(synthetic_run(20, seed=2))
    for path in [str(victim), "../victim.csv"]:  # before: written wherever the kernel could write
        assert "error" in ask(x, type="export", format="csv", path=path)
    assert victim.read_text() == "keep me"
    assert x.files_root == work and x.overwrite is False
    assert "error" not in ask(x, type="save_slices", path="s.json") and (work / "s.json").exists()
    x.save_slices(tmp_path / "py.json")  # the user's own code writes where it says, and may overwrite
    x.save_slices(tmp_path / "py.json")
    assert (tmp_path / "py.json").exists()
