"""ragwidgets score 'glob' --scheduler ADDRESS --output DIR: partitioned JSONL.gz and summary.json."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pandas as pd

import ragwidgets as rw

from ragwidgets.cli import main
from ragwidgets.datasets.synthetic import synthetic_run


def test_score_on_a_cluster_writes_the_single_process_lines_and_aggregates(client, parts_writer, tmp_path, capsys):
    records = synthetic_run(900, seed=5)
    parts_writer(tmp_path, records, [300, 0, 600])
    whole = tmp_path / "whole.jsonl"
    whole.write_text("".join(json.dumps(r) + "\n" for r in records))
    args = ["--mode", "all_claims", "--undefined", "zero", "--scores", "precision,recall,f1,citation_support"]
    assert main(["score", str(whole), "--format", "jsonl", *args]) == 0
    expected_lines = capsys.readouterr().out.splitlines()
    assert main(["score", str(whole), "--format", "json", *args]) == 0
    expected = json.loads(capsys.readouterr().out)

    out = tmp_path / "scored"
    assert main(["score", str(tmp_path / "part-*.jsonl.gz"), "--scheduler", client.scheduler.address,
                 "--output", str(out), *args]) == 0
    printed = json.loads(capsys.readouterr().out)
    summary = json.loads((out / "summary.json").read_text())
    assert [p["output"] for p in summary["parts"]] == ["part-00000.jsonl.gz", "part-00001.jsonl.gz",
                                                       "part-00002.jsonl.gz"]
    lines = [line for p in summary["parts"] for line in gzip.decompress((out / p["output"]).read_bytes())
             .decode().splitlines()]
    assert lines == expected_lines
    assert summary["samples"] == printed["samples"] == 900
    assert printed["ragchecker_metrics"] == expected["ragchecker_metrics"]
    for name, agg in expected["metrics"].items():
        mine = summary["metrics"][name]
        assert {k: mine[k] for k in ("defined", "undefined", "not_computable")} == \
            {k: agg[k] for k in ("defined", "undefined", "not_computable")}
        assert (mine["mean"] is None) == (agg["mean"] is None)
        if agg["mean"] is not None:
            assert abs(mine["mean"] - agg["mean"]) <= 1e-12 * abs(agg["mean"])


def test_score_on_a_cluster_says_what_is_missing(capsys, tmp_path):
    assert main(["score", str(tmp_path / "*.jsonl"), "--workers", "2"]) == 2
    assert "--output DIR" in capsys.readouterr().err
    assert main(["score", str(tmp_path / "*.jsonl"), "--workers", "2", "--output", str(tmp_path / "o")]) == 2
    assert "no file matches" in capsys.readouterr().err
    assert main(["score", "--example", "ragchecker", "--output", str(tmp_path / "o")]) == 2
    assert "--workers/--scheduler" in capsys.readouterr().err


def test_parquet_parts_hold_the_per_sample_values_and_statuses(client, parts_writer, tmp_path, capsys):
    records = synthetic_run(300, seed=12)
    records[7]["answer2response"] = "Entailment"
    parts_writer(tmp_path, records, [100, 200])
    out = tmp_path / "scored"
    status = main(["score", str(tmp_path / "part-*.jsonl.gz"), "--scheduler", client.scheduler.address,
                   "--output", str(out), "--output-format", "parquet", "--on-error", "report"])
    captured = capsys.readouterr()
    assert status == 1 and "skipped file" in captured.err and "answer2response" in captured.err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["samples"] == 299 and summary["status_codes"] == {"defined": 0, "undefined": 1,
                                                                      "not computable": 2}
    assert summary["errors"][0]["field"] == "answer2response" and "part-000" in summary["errors"][0]["sample"]
    frame = pd.concat([pd.read_parquet(out / p["output"]) for p in summary["parts"]], ignore_index=True)
    good = [r for i, r in enumerate(records) if i != 7]
    single = rw.evaluate(good)
    assert frame["query_id"].tolist() == [r["query_id"] for r in good]
    for part in single.parts:
        for shown, value, _, name in part.columns():
            np.testing.assert_array_equal(frame[shown].to_numpy(), value)
            np.testing.assert_array_equal(frame[shown + "_status"].to_numpy(), part.code[name])


def test_a_query_id_repeated_across_files_stops_the_command(client, parts_writer, tmp_path, capsys):
    records = synthetic_run(20, seed=13)
    records[15]["query_id"] = records[0]["query_id"]
    parts_writer(tmp_path, records, [10, 10])
    assert main(["score", str(tmp_path / "part-*.jsonl.gz"), "--scheduler", client.scheduler.address,
                 "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert f"query_id {records[0]['query_id']!r} is used 2 times" in err and "part-001.jsonl.gz" in err


def test_a_run_owns_its_output_folder(client, parts_writer, tmp_path, capsys):
    records = synthetic_run(60, seed=21)
    parts_writer(tmp_path, records, [20, 20, 20])
    out = tmp_path / "scored"
    run = ["score", "--scheduler", client.scheduler.address, "--output", str(out)]
    assert main([*run[:1], str(tmp_path / "part-*.jsonl.gz"), *run[1:]]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["part-00000.jsonl.gz", "part-00001.jsonl.gz",
                                                     "part-00002.jsonl.gz", "summary.json"]
    fewer = [*run[:1], str(tmp_path / "part-00[01].jsonl.gz"), *run[1:]]
    capsys.readouterr()
    assert main(fewer) == 2  # a second run into the same folder is refused, naming it, and removes nothing
    err = capsys.readouterr().err
    assert f"--output {out} is not empty" in err and "--overwrite" in err and "Traceback" not in err
    assert len(list(out.iterdir())) == 4

    (out / ".part-00002.jsonl.gz.0123456789abcdef.tmp").write_bytes(b"a kill left this")
    assert main([*fewer, "--overwrite"]) == 0  # the earlier parts, summary and temporary files go first
    summary = json.loads((out / "summary.json").read_text())
    assert [p["output"] for p in summary["parts"]] == ["part-00000.jsonl.gz", "part-00001.jsonl.gz"]
    assert summary["samples"] == 40
    assert sorted(p.name for p in out.iterdir()) == ["part-00000.jsonl.gz", "part-00001.jsonl.gz", "summary.json"]

    (out / "notes.txt").write_text("mine")
    capsys.readouterr()
    assert main([*fewer, "--overwrite"]) == 2  # not only this command's files: nothing is removed
    err = capsys.readouterr().err
    assert f"--output {out} holds files this command does not write (notes.txt)" in err
    assert len(list(out.iterdir())) == 4
    (out / "notes.txt").unlink()
    assert main(["score", str(out / "part-*.jsonl.gz"), *run[1:], "--overwrite"]) == 2
    assert "holds this run's input part-00000.jsonl.gz" in capsys.readouterr().err
    assert len(list(out.iterdir())) == 3


def test_a_summary_that_cannot_be_written_is_not_left_cut_short(client, parts_writer, tmp_path, monkeypatch,
                                                                capsys):
    from faults import full_disk

    parts_writer(tmp_path, synthetic_run(20, seed=22), [10, 10])
    out = tmp_path / "scored"
    out.mkdir()
    full_disk(monkeypatch, out)  # in this process only: the workers write their parts as usual
    assert main(["score", str(tmp_path / "part-*.jsonl.gz"), "--scheduler", client.scheduler.address,
                 "--output", str(out)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["part-00000.jsonl.gz", "part-00001.jsonl.gz"]


def test_a_part_path_is_read_as_a_path_even_when_it_looks_like_json(tmp_path, monkeypatch):
    from ragwidgets.dask.cli import write_part
    from ragwidgets.dask.evaluate import Settings

    monkeypatch.chdir(tmp_path)
    records = synthetic_run(3, seed=23)
    (tmp_path / "[run].jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    part = write_part("[run].jsonl", 0, str(tmp_path / "part-00000.jsonl.gz"), Settings(("precision",)), "jsonl.gz")
    assert part.frame["query_id"].tolist() == [r["query_id"] for r in records]
