"""Every file the package writes is written whole or not at all: a write that fails midway (a full
disk, a serialiser raising) leaves the old file as it was and no temporary file behind."""

from __future__ import annotations

import ast
import errno
import json
import os
import stat
from pathlib import Path

import pytest

import ragwidgets as rw
from ragwidgets import atomic
from ragwidgets.atomic import atomic_write
from ragwidgets.cli import main

from faults import full_disk

EXAMPLE = Path(rw.__path__[0]) / "data" / "ragchecker_example.json"


def old_file(folder: Path, name: str = "out.json", text: str = '{"good": "old"}\n') -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def assert_kept(path: Path, text: str = '{"good": "old"}\n') -> None:
    assert path.read_text() == text
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name], "a temporary file was left behind"


def test_atomic_write_replaces_the_file_whole(tmp_path):
    path = old_file(tmp_path)
    with atomic_write(path, encoding="utf-8") as out:
        out.write("new é\n")
        assert path.read_text() == '{"good": "old"}\n'  # not yet: the old file until the block ends
    assert path.read_text(encoding="utf-8") == "new é\n"
    with atomic_write(tmp_path / "b.bin", "wb") as out:
        out.write(b"\x00\x01")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    with pytest.raises(ValueError, match="mode 'w' or 'wb'"):
        with atomic_write(path, "a"):
            pass


def test_a_serialiser_raising_midway_leaves_the_old_file(tmp_path):
    path = old_file(tmp_path)
    with pytest.raises(TypeError):
        with atomic_write(path) as out:
            json.dump({"half": "written", "then": object()}, out)
    assert_kept(path)


@pytest.mark.parametrize("where", ["write", "fsync"])
def test_a_full_disk_leaves_the_old_file(tmp_path, monkeypatch, where):
    path = old_file(tmp_path)
    if where == "write":
        full_disk(monkeypatch, tmp_path)
    else:
        def no_space(fd):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(atomic.os, "fsync", no_space)
    with pytest.raises(OSError, match="No space left"):
        with atomic_write(path) as out:
            out.write('{"new": "' + "x" * 10_000 + '"}')
    assert_kept(path)


def test_permissions_are_the_replaced_file_s_or_the_umask_s(tmp_path):
    path = old_file(tmp_path)
    path.chmod(0o640)
    with atomic_write(path) as out:
        out.write("new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    umask = os.umask(0o022)
    os.umask(umask)
    with atomic_write(tmp_path / "new.json") as out:
        out.write("new")
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o666 & ~umask


def test_a_symbolic_link_is_followed(tmp_path):
    target = old_file(tmp_path / "data")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with atomic_write(link) as out:
        out.write("new")
    assert link.is_symlink() and target.read_text() == "new"


def test_the_helper_imports_nothing_from_the_package():
    tree = ast.parse(Path(atomic.__file__).read_text())
    imported = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert all(isinstance(node, ast.Import) or node.level == 0 for node in imported)
    assert not [alias.name for node in imported for alias in node.names if alias.name.startswith("ragwidgets")]
    assert not [node.module for node in imported if isinstance(node, ast.ImportFrom)
                and (node.module or "").startswith("ragwidgets")]


def test_judge_output_on_a_full_disk_keeps_the_earlier_results(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    out.mkdir()
    command = ["judge", str(EXAMPLE), "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--no-cache",
               "--no-progress", "--output", str(out / "scored.json")]  # every label is there: no request
    assert main(command) == 0
    good = (out / "scored.json").read_text()
    assert json.loads(good)["results"]
    capsys.readouterr()
    full_disk(monkeypatch, out)
    assert main(command) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    assert_kept(out / "scored.json", good)


def test_export_on_a_full_disk_keeps_the_earlier_page(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbconvert")
    from ragwidgets.export import export_notebook

    notebook = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# a page " + "x" * 5000)]),
                   notebook)
    page = export_notebook(notebook, tmp_path / "out" / "nb.html", execute=False)
    good = page.read_text()
    full_disk(monkeypatch, page.parent)
    with pytest.raises(OSError, match="No space left"):
        export_notebook(notebook, page, execute=False)
    assert_kept(page, good)


def test_a_report_on_a_full_disk_keeps_the_earlier_report(tmp_path, monkeypatch):
    pytest.importorskip("vl_convert")
    explorer = rw.DatasetExplorer(str(EXAMPLE))
    (tmp_path / "out").mkdir()
    report = explorer.to_html(tmp_path / "out" / "report.html")
    good = report.read_text()
    full_disk(monkeypatch, report.parent)
    with pytest.raises(OSError, match="No space left"):
        explorer.to_html(report)
    assert_kept(report, good)


def test_examples_on_a_full_disk_leave_no_file_cut_short(tmp_path, monkeypatch, capsys):
    full_disk(monkeypatch, tmp_path)
    assert main(["examples", str(tmp_path)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing that a second run would keep as "already there"


@pytest.mark.parametrize("fmt", ["jsonl.gz", "parquet"])
def test_a_dask_part_on_a_full_disk_keeps_the_earlier_part(tmp_path, monkeypatch, fmt):
    pytest.importorskip("distributed")
    from ragwidgets.dask.cli import write_part
    from ragwidgets.dask.evaluate import Settings
    from ragwidgets.engine.metrics import resolve

    settings = Settings(resolve(None))
    part = tmp_path / "out" / f"part-00000.{fmt}"
    part.parent.mkdir()
    write_part(str(EXAMPLE), 0, str(part), settings, fmt)
    good = part.read_bytes()
    full_disk(monkeypatch, part.parent)
    with pytest.raises(OSError, match="No space left"):
        write_part(str(EXAMPLE), 0, str(part), settings, fmt)
    assert part.read_bytes() == good and [p.name for p in part.parent.iterdir()] == [part.name]


def _left_by_a_kill(folder: Path, name: str, hex16: str, age_s: float = 3600) -> Path:
    """A temporary file as ``atomic_write`` leaves it when killed midway, unchanged for ``age_s``."""
    left = folder / f".{name}.{hex16}.tmp"
    left.write_text('{"half": ')
    os.utime(left, (left.stat().st_atime - age_s, left.stat().st_mtime - age_s))
    return left


def test_the_next_write_removes_the_temporary_files_a_kill_left(tmp_path):
    path = old_file(tmp_path)
    stale = [_left_by_a_kill(tmp_path, "out.json", h) for h in ("0123456789abcdef", "fedcba9876543210")]
    kept = [_left_by_a_kill(tmp_path, "out.json", "00112233445566aa", age_s=0),  # may be a writer's, just begun
            _left_by_a_kill(tmp_path, "other.json", "0123456789abcdef"),  # another file's
            _left_by_a_kill(tmp_path, "out.json", "not-hex"),  # not one of ours
            _left_by_a_kill(tmp_path, "x.out.json", "0123456789abcdef")]
    with atomic_write(path) as out:
        out.write("new")
    assert path.read_text() == "new" and not any(p.exists() for p in stale)
    assert all(p.exists() for p in kept)


@pytest.mark.skipif(os.name != "posix", reason="a writer's lock is an flock")
def test_a_temporary_file_a_writer_is_writing_is_kept(tmp_path):
    path = old_file(tmp_path)
    with atomic_write(path) as first:
        first.write("first, ")
        (partial,) = [p for p in tmp_path.iterdir() if p.name != path.name]
        os.utime(partial, (0, 0))  # old, yet its writer is at work
        with atomic_write(path) as second:
            second.write("second")
        assert partial.exists()
        first.write("slow")
    assert path.read_text() == "first, slow" and [p.name for p in tmp_path.iterdir()] == [path.name]
