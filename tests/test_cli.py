"""The command line, as a user runs it."""

import json
import subprocess
import sys

import ragwidgets as rw
from ragwidgets.cli import main


def run_json(capsys, *args):
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_score_example_json_zero_matches_ragchecker(capsys):
    out = run_json(capsys, "score", "--example", "ragchecker", "--format", "json", "--undefined", "zero")
    stored = json.loads(open(rw.__path__[0] + "/data/ragchecker_example.json").read())
    assert out["ragchecker_metrics"] == stored["metrics"]
    for got, want in zip(out["results"], stored["results"]):
        assert got["query_id"] == want["query_id"]
        for name, value in want["metrics"].items():
            assert got["metrics"][name] == value
        assert "citation_precision" not in got["metrics"]  # not computable: left out, not 0
    assert out["metrics"]["precision"]["defined"] == 2


def test_score_scores_and_null_output(capsys, tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"results": [{"query_id": "e", "response_claims": [], "answer2response": [],
                                             "retrieved_context": [], "retrieved2response": []}]}))
    out = run_json(capsys, "score", str(path), "--scores", "precision,faithfulness", "--format", "json")
    assert out["results"][0]["metrics"] == {"precision": None, "faithfulness": None}
    assert out["results"][0]["undefined"] == {"precision": "no response claims", "faithfulness": "no answer claims"}
    assert out["metrics"]["precision"] == {"mean": None, "defined": 0, "undefined": 1, "not_computable": 0}


def test_sweep_json(capsys):
    out = run_json(capsys, "sweep", "--example", "harbor-museum", "--format", "json")
    assert len(out["states"]) == 120
    first = out["states"][0]
    assert (first["retrieval"], first["answer"], first["citation"]) == ("Current sources", "Fully supported", "Matched")
    assert first["metrics"] == {"context_relevance": 1.0, "faithfulness": 1.0, "citation_support": 1.0,
                                "citation_precision": 1.0, "completeness": 1.0}
    no_retrieval = [s for s in out["states"] if s["retrieval"] == "No retrieval"]
    assert all(s["metrics"]["context_relevance"] is None for s in no_retrieval)


def test_tables_show_undefined(capsys):
    assert main(["sweep", "--example", "harbor-museum"]) == 0
    table = capsys.readouterr().out
    assert "120 states" in table and "Undefined" in table
    assert main(["score", "--example", "ragchecker"]) == 0
    assert "precision" in capsys.readouterr().out


def test_explain(capsys):
    assert main(["explain", "--example", "ragchecker", "--sample", "1"]) == 0
    out = capsys.readouterr().out
    assert "precision = 4/5 = 0.8" in out and "f1 = 2·0.8·0.75/(0.8 + 0.75) = 0.774" in out


def test_usage_errors(capsys):
    assert main(["score"]) == 2
    assert "give an INPUT file or --example" in capsys.readouterr().err
    assert main(["score", "--example", "ragchecker", "--scores", "nope"]) == 2
    assert "unknown metric" in capsys.readouterr().err


def test_installed_console_script():
    done = subprocess.run([sys.executable, "-m", "ragwidgets.cli", "sweep", "--example", "harbor-museum",
                           "--format", "json"], capture_output=True, text=True, check=True)
    assert len(json.loads(done.stdout)["states"]) == 120


def test_tutorial_opens_the_checkout_notebook_in_jupyterlab(monkeypatch):
    from ragwidgets import cli

    launched = []
    monkeypatch.setattr(cli.subprocess, "call", lambda command: launched.append(command) or 0)
    assert main(["tutorial", "--no-browser", "--port", "8899"]) == 0
    command = launched[0]
    assert command[1:4] == ["-m", "jupyterlab", str(cli.NOTEBOOKS / "01_harbor_museum.ipynb")]
    assert "--no-browser" in command and "--port=8899" in command
    import os
    assert ("--allow-root" in command) == (os.geteuid() == 0)
    for name in cli.TUTORIALS:
        assert (cli.NOTEBOOKS / cli.TUTORIALS[name]).exists()


def test_tutorial_outside_a_checkout_says_where_the_notebooks_are(monkeypatch, tmp_path, capsys):
    from ragwidgets import cli

    monkeypatch.setattr(cli, "NOTEBOOKS", tmp_path)
    assert main(["tutorial"]) == 2
    assert "notebooks/ folder" in capsys.readouterr().err


def test_the_engine_and_cli_import_no_widget_library_and_no_http_client():
    code = ("import sys, ragwidgets, ragwidgets.engine, ragwidgets.cli; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'anywidget', 'ipywidgets', 'altair', 'traitlets', 'httpx'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
