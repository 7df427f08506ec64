"""ragwidgets score 'glob' --scheduler ADDRESS --output DIR: partitioned JSONL.gz and summary.json."""

from __future__ import annotations

import gzip
import json

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
