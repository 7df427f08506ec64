"""``ragwidgets judge``: the RagChecker scorer from the command line, against the loopback server."""

from __future__ import annotations

import json

import pytest

from ragwidgets.cli import main


def judge(chat_server, rows, tmp_path, *extra):
    return main(["judge", str(rows), "--base-url", chat_server.base_url, "--model", "m", "--cache",
                 str(tmp_path / "c.sqlite"), "--no-progress", *extra])


def test_dry_run_prints_the_cost_table_and_sends_nothing(chat_server, rows, tmp_path, capsys):
    assert judge(chat_server, rows, tmp_path, "--dry-run", "--price-input", "1e-6", "--price-output", "4e-6") == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0].split()
    assert header == ["calls", "judgements", "cached", "prompt_tokens", "completion_tokens", "cost"]
    assert [line.split()[0] for line in out.splitlines()[2:5]] == ["extract", "check", "total"]
    assert "Nothing was sent" in out and chat_server.script.requests == 0
    total = out.splitlines()[4].split()
    assert judge(chat_server, rows, tmp_path) == 0
    assert chat_server.script.requests == int(total[1])  # the dry run counted the run's requests


def test_a_run_prints_the_metrics_writes_rescorable_results_and_a_rerun_is_free(chat_server, rows, tmp_path, capsys):
    out_path = tmp_path / "scored.json"
    assert judge(chat_server, rows, tmp_path, "--output", str(out_path)) == 0
    captured = capsys.readouterr()
    assert "mean_faithfulness" in captured.out and "never counted as 0" in captured.out
    spent = chat_server.script.requests
    assert f"judge: {spent} calls, {spent} requests (0 retries), 0 cache hits, 0 failures" in captured.err
    saved = json.loads(out_path.read_text())["results"]
    assert saved[0]["metrics"]["faithfulness"] == 0.5 and saved[0]["response_claims"][0] == ["Paris", "is",
                                                                                               "the capital of France"]
    assert main(["score", str(out_path)]) == 0  # the saved results are RAGChecker's format
    assert "faithfulness" in capsys.readouterr().out

    assert judge(chat_server, rows, tmp_path, "--format", "json") == 0
    result = json.loads(capsys.readouterr().out)
    assert chat_server.script.requests == spent and result["usage"]["calls"] == 0
    assert result["results"][1]["undefined"] == {} and result["metrics"]["mean_recall"]["defined"] == 2


def test_a_refused_row_is_undefined_with_its_reason_and_max_failures_stops_the_run(chat_server, rows, tmp_path,
                                                                                   capsys):
    chat_server.script.reject_marker = "Seine flows"
    assert judge(chat_server, rows, tmp_path, "--format", "json", "--scores", "faithfulness") == 0
    result = json.loads(capsys.readouterr().out)["results"]
    assert result[0]["metrics"]["faithfulness"] == 0.5 and result[1]["metrics"]["faithfulness"] is None
    assert "HTTP 400" in result[1]["undefined"]["faithfulness"]

    partial = tmp_path / "partial.json"
    # one call at a time, so q1's extraction has finished when q2's is refused (with 8 in flight the
    # refusal could stop the run before q1's reply arrived, and q1 had nothing to keep)
    assert judge(chat_server, rows, tmp_path, "--max-failures", "0", "--no-cache", "--max-concurrency", "1",
                 "--output", str(partial)) == 3
    err = capsys.readouterr().err
    kept = json.loads(partial.read_text())["results"]  # the extractions that finished; no check had started
    assert kept[0]["response_claims"][0] == ["Paris", "is", "the capital of France"] and kept[1]["unjudged"]
    assert "the run stopped: 1 calls failed, more than max_failures=0" in err and "sample 'q2'" in err


def test_the_key_comes_from_a_named_variable_and_never_from_a_flag(chat_server, rows, tmp_path, monkeypatch, capsys,
                                                                   api_secret):
    monkeypatch.setenv("MY_JUDGE_KEY", api_secret)
    assert judge(chat_server, rows, tmp_path, "--api-key-env", "MY_JUDGE_KEY", "--scores", "faithfulness") == 0
    assert set(chat_server.script.authorization) == {f"Bearer {api_secret}"}
    with pytest.raises(SystemExit):
        judge(chat_server, rows, tmp_path, "--api-key", api_secret)
    assert api_secret not in "".join(capsys.readouterr())


def test_bad_input_is_a_clear_error_before_any_request(chat_server, tmp_path, capsys):
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"query": "q", "target": "t", "response": "r"}))
    assert judge(chat_server, path, tmp_path) == 2
    assert "column 'context': the DataFrame has no such column" in capsys.readouterr().err
    assert chat_server.script.requests == 0


def test_a_lone_surrogate_in_the_rows_is_written_as_the_replacement_character(chat_server, frame, tmp_path, capsys):
    rows = frame.reset_index().rename(columns={"qid": "query_id"}).to_dict("records")
    rows[0]["query_id"] = "q\ud800"
    rows[0]["response"] = rows[0]["response"].replace("France.", "France\udfff.")
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))  # the JSON text holds "q\\ud800"
    out_path = tmp_path / "scored.json"
    assert judge(chat_server, path, tmp_path, "--output", str(out_path), "--format", "json") == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    printed = json.loads(captured.out)["results"]
    saved = json.loads(out_path.read_text(encoding="utf-8"))["results"]
    for results in (printed, saved):
        assert results[0]["query_id"] == "q\ufffd" and "France\ufffd" in results[0]["response"]


def test_a_cache_path_ending_in_a_slash_is_a_directory_cache(chat_server, rows, tmp_path):
    folder = tmp_path / "answers"
    assert judge(chat_server, rows, tmp_path, "--cache", f"{folder}/") == 0
    spent = chat_server.script.requests
    assert spent and folder.is_dir() and list(folder.glob("??/*.json"))
    assert not (tmp_path / "answers.sqlite").exists() and not list(tmp_path.glob("*.sqlite*"))
    assert judge(chat_server, rows, tmp_path, "--cache", str(folder)) == 0  # an existing folder: the same cache
    assert chat_server.script.requests == spent


def test_a_damaged_answer_in_a_directory_cache_is_asked_again(chat_server, rows, tmp_path, caplog, capsys):
    folder = tmp_path / "answers"
    assert judge(chat_server, rows, tmp_path, "--cache", f"{folder}/") == 0
    spent = chat_server.script.requests
    damaged = next(p for p in sorted(folder.glob("??/*.json")) if json.loads(p.read_text())["operation"] == "check")
    damaged.write_bytes(damaged.read_bytes()[:7])  # cut short, as by a full disk before atomic writes
    capsys.readouterr()  # a check's answer: the dry run knows the claims, and counts its calls exactly
    assert judge(chat_server, rows, tmp_path, "--cache", f"{folder}/", "--dry-run") == 0
    total = next(line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("total"))
    calls = int(total[1])  # the calls that need this answer
    with caplog.at_level("WARNING", logger="ragwidgets.judges"):
        assert judge(chat_server, rows, tmp_path, "--cache", f"{folder}/") == 0
    assert caplog.text.count(f"judge cache: {damaged} is damaged") >= 1
    assert calls >= 1 and chat_server.script.requests == spent + calls  # only the damaged answer is asked again
    assert json.loads(damaged.read_text())["value"]  # and stored over the damaged file


def test_a_rows_path_that_looks_like_json_is_a_path(chat_server, rows, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "[rows].jsonl").write_text(rows.read_text())
    assert judge(chat_server, "[rows].jsonl", tmp_path, "--format", "json") == 0
    assert [r["query_id"] for r in json.loads(capsys.readouterr().out)["results"]] == ["q1", "q2"]
