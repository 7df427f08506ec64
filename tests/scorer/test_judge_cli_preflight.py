"""``ragwidgets judge`` refuses what cannot work before its first request: a base URL no request can
reach (a port out of range), an ``--output`` that cannot be written. One line, exit status 2."""

from __future__ import annotations

import json

import pytest

from ragwidgets.cli import main


def judge(base_url, rows, tmp_path, *extra):
    return main(["judge", str(rows), "--base-url", base_url, "--model", "m", "--cache", str(tmp_path / "c.sqlite"),
                 "--no-progress", *extra])


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("url, why", [
    ("http://127.0.0.1:99999/v1", "out of range"),
    ("http://user:pa55word-x@127.0.0.1:99999/v1", "out of range"),
    ("http://127.0.0.1:port/v1", "port"),
    ("http://[::1/v1", "IPv6"),
])
def test_a_base_url_with_a_port_no_request_can_use_is_one_line_naming_it(url, why, rows, tmp_path, capsys):
    assert judge(url, rows, tmp_path) == 2
    err = one_line_error(capsys)
    assert "base_url" in err and why in err and "pa55word-x" not in err


@pytest.mark.parametrize("url", ["http://user:Sup3r/SecretPw@localhost:8000/v1", "http://user:1234/5678abcd@host:8000/v1",
                                 "http:/u:Sup3rSecretPw@host/v1", "http:u:Sup3rSecretPw@host/v1"])
def test_a_password_with_an_unescaped_slash_is_refused_without_showing_it(url, rows, tmp_path, capsys):
    assert judge(url, rows, tmp_path) == 2
    err = one_line_error(capsys)
    assert "percent-encode" in err and "SecretPw" not in err and "5678abcd" not in err


@pytest.mark.parametrize("where", ["a folder", "in a missing folder", "under a file"])
def test_an_output_that_cannot_be_written_is_refused_before_any_request(where, chat_server, rows, tmp_path, capsys):
    target = {"a folder": tmp_path, "in a missing folder": tmp_path / "missing" / "out.json",
              "under a file": rows / "out.json"}[where]
    assert judge(chat_server.base_url, rows, tmp_path, "--output", str(target)) == 2
    err = one_line_error(capsys)
    assert "--output" in err and str(target) in err
    assert chat_server.script.requests == 0  # nothing was sent (or paid for)
    assert [p.name for p in tmp_path.rglob(".*.tmp")] == []  # the check left no file behind


def test_a_writable_output_is_written_and_the_check_leaves_nothing_beside_it(chat_server, rows, tmp_path, capsys):
    target = tmp_path / "out" / "scored.json"
    target.parent.mkdir()
    assert judge(chat_server.base_url, rows, tmp_path, "--output", str(target)) == 0
    assert sorted(p.name for p in target.parent.iterdir()) == ["scored.json"]
    assert json.loads(target.read_text())["results"][0]["query_id"] == "q1"
