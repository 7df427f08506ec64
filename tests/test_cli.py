"""The command line, as a user runs it."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ragwidgets as rw
from ragwidgets.cli import main
from ragwidgets.errors import RagWidgetsError


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


def test_tutorial_command_serves_the_copy_s_folder_on_one_port_and_opens_the_notebook(tmp_path):
    from ragwidgets import cli

    notebook = tmp_path / "01_harbor_museum.ipynb"
    command = cli.tutorial_command(notebook, no_browser=True, port=8899)
    assert command[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={tmp_path}" in command
    assert "--port=8899" in command and "--ServerApp.port_retries=0" in command  # the printed port holds
    assert "--LabApp.default_url=/lab/tree/01_harbor_museum.ipynb" in command  # the notebook, not the Launcher
    assert "--no-browser" in command and not any("token" in part.lower() for part in command)
    import os
    assert ("--allow-root" in command) == (os.geteuid() == 0)


def test_every_tutorial_ships_in_the_package_and_is_copied_never_overwritten(tmp_path, capsys):
    """The notebooks are package data (a wheel carries them); a copy is made once: a file of that
    name already there (the user's edits) is opened as it is, never overwritten."""
    import nbformat

    from ragwidgets import tutorials

    assert main(["tutorial", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == list(tutorials.TUTORIALS) and len(listed) == 7
    for name, t in tutorials.TUTORIALS.items():
        nbformat.validate(nbformat.reads(tutorials.notebook(name).decode("utf-8"), as_version=4))
        path, done = tutorials.copy_to(name, tmp_path / "work")
        assert done == "copied" and path.read_bytes() == tutorials.notebook(name) and path.name == t.file
    path, done = tutorials.copy_to("harbor-museum", tmp_path / "work")
    assert done == "kept"
    path.write_text(path.read_text() + " ")  # the user's edit
    edited = path.read_bytes()
    assert tutorials.copy_to("harbor-museum", tmp_path / "work")[1] == "kept yours" and path.read_bytes() == edited
    with pytest.raises(RagWidgetsError, match="no tutorial 'nope'"):
        tutorials.notebook("nope")
    (tmp_path / "file").write_text("x")
    with pytest.raises(RagWidgetsError, match="cannot make the folder"):
        tutorials.copy_to("scoring", tmp_path / "file" / "sub")



def start_tutorial(tmp_path, port, **popen):
    """The real ``ragwidgets tutorial --no-browser`` on ``port``, run in ``tmp_path`` with its own
    Jupyter folders there, its output piped."""
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt")}
    return subprocess.Popen([sys.executable, "-m", "ragwidgets.cli", "tutorial", "--no-browser", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path, **popen)


def stop_tutorial(process, port, signum, timeout):
    """Sends ``signum``: the command exits 0 without a traceback, says JupyterLab stopped and leaves
    the port closed. Returns its remaining (stdout, stderr)."""
    process.send_signal(signum)
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert "JupyterLab stopped." in out
    with socket.socket() as probe:
        assert probe.connect_ex(("localhost", port)) != 0
    return out, err


def wait_until_serving(process):
    """Reads the command's output until it prints the address (180 s at most: a loaded machine)."""
    deadline = time.monotonic() + 180
    while "Open http" not in process.stdout.readline():
        assert process.poll() is None and time.monotonic() < deadline

def test_tutorial_prints_one_address_that_works_and_stops_cleanly_on_ctrl_c(tmp_path):
    """The real command: the printed address (with the token) serves the notebook's page; SIGINT
    (Ctrl+C) stops JupyterLab, exit status 0, no traceback, the port closed again."""
    pytest.importorskip("jupyterlab")
    import re
    import urllib.request

    from ragwidgets import cli
    port = cli.free_port(18888)
    process = start_tutorial(tmp_path, port)
    address, lines = None, []
    deadline = time.monotonic() + 180
    while address is None and time.monotonic() < deadline:
        line = process.stdout.readline()
        assert line or process.poll() is None, (lines, process.stderr.read())
        lines.append(line)
        found = re.search(r"http://\S+", line)
        address = found and found.group(0)
    assert address == f"http://localhost:{port}/lab/tree/01_harbor_museum.ipynb?token=" + address.split("token=")[1]
    with urllib.request.urlopen(address, timeout=30) as reply:
        assert reply.status == 200 and "JupyterLab" in reply.read().decode()
    bad = address.split("?")[0] + "?token=wrong"
    with urllib.request.urlopen(urllib.request.Request(bad), timeout=30) as reply:
        assert "/login" in reply.url  # the token is what lets the printed address in
    out, err = stop_tutorial(process, port, signal.SIGINT, timeout=60)
    assert "KeyboardInterrupt" not in err, err
    assert (tmp_path / "01_harbor_museum.ipynb").exists()  # the copy, here
    assert sum("http://" in line for line in lines + out.splitlines() + err.splitlines()) == 1  # one address



def test_tutorial_stops_jupyterlab_when_it_is_terminated(tmp_path):
    """SIGTERM (or a closed terminal's SIGHUP) to the command stops JupyterLab as Ctrl+C does:
    JupyterLab runs in its own session, so it would otherwise be left running."""
    pytest.importorskip("jupyterlab")
    from ragwidgets import cli
    port = cli.free_port(18898)
    process = start_tutorial(tmp_path, port)
    wait_until_serving(process)
    stop_tutorial(process, port, signal.SIGTERM, timeout=60)


def test_tutorial_stops_on_sigint_even_when_started_with_sigint_ignored(tmp_path):
    """A command started from a script's background job inherits SIGINT ignored (and Python keeps
    it so): a SIGINT must still stop JupyterLab (it left it running, holding the caller's pipes:
    .ci/wheel's smoke test hung on them under issue 41's loaded runs)."""
    pytest.importorskip("jupyterlab")
    from ragwidgets import cli
    port = cli.free_port(18908)
    process = start_tutorial(tmp_path, port, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    wait_until_serving(process)
    stop_tutorial(process, port, signal.SIGINT, timeout=120)


def test_the_engine_and_cli_import_no_widget_library_and_no_http_client():
    code = ("import sys, ragwidgets, ragwidgets.engine, ragwidgets.cli; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'anywidget', 'ipywidgets', 'altair', 'traitlets', 'httpx'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_version_and_help_for_every_option(capsys):
    import argparse

    from ragwidgets import cli

    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"ragwidgets {rw.__version__}"
    parser = cli.build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {"score", "sweep", "explain", "tutorial", "examples", "judge", "export"} <= set(subparsers.choices)
    for name, sub in subparsers.choices.items():
        text = sub.format_help()
        assert "``" not in text and "`" not in text, name
        for action in sub._actions:
            assert action.help, f"{name} {action.dest} has no help"
    assert "`" not in parser.format_help()


def test_table_footnote_follows_the_undefined_policy(capsys):
    assert main(["score", "--example", "ragchecker"]) == 0
    assert "never counted as 0" in capsys.readouterr().out
    assert main(["score", "--example", "ragchecker", "--undefined", "zero"]) == 0
    out = capsys.readouterr().out
    assert "never counted as 0" not in out and "reported as 0, as ragchecker 0.1.9 does" in out


def test_json_keeps_undefined_and_not_computable_reasons_apart(capsys, tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"results": [
        {"query_id": "e", "response_claims": [], "retrieved_context": [], "gt_answer_claims": [["a", "b", "c"]]}]}))
    out = run_json(capsys, "score", str(path), "--format", "json")
    result = out["results"][0]
    assert result["undefined"]["precision"] == "no response claims"
    assert result["not_computable"]["recall"] == "needs response2answer labels"
    assert set(result["undefined"]).isdisjoint(result["not_computable"])
    assert "recall" not in result["metrics"] and result["metrics"]["precision"] is None


def test_jsonl_output_is_one_sample_per_line(capsys):
    assert main(["score", "--example", "ragchecker", "--format", "jsonl", "--undefined", "zero"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(x)["query_id"] for x in lines] == ["0", "1"]
    assert json.loads(lines[1])["metrics"]["precision"] == 0.8


def test_every_line_of_the_readme_tour_runs_as_written(tmp_path, monkeypatch, capsys):
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    start = readme.index("## A short tour")
    tour = readme[start:readme.index("\n## ", start)]  # also the docs' getting-started page (a snippet)
    shell, python = re.findall(r"```(?:bash|python)\n(.*?)```", tour, re.S)
    monkeypatch.chdir(tmp_path)
    commands = [shlex.split(line, comments=True) for line in shell.splitlines() if line.strip()]
    assert commands[0] == ["ragwidgets", "examples"]
    for command in commands:
        status = main(command[1:])
        captured = capsys.readouterr()
        assert status == (1 if "--on-error" in command else 0), (command, captured.err)
        assert "Traceback" not in captured.err
        if "--on-error" in command:
            assert "skipped" in captured.err and "line 3" in captured.err
    exec(compile(python, "README tour", "exec"), {})


def test_required_only_scores_only_the_required_claims(capsys):
    from pathlib import Path

    path = str(Path(rw.__path__[0]) / "data" / "tour_results.json")
    every = run_json(capsys, "score", path, "--format", "json", "--scores", "precision")
    required = run_json(capsys, "score", path, "--format", "json", "--scores", "precision", "--mode", "required_only")
    sample = json.loads(Path(path).read_text())["results"][1]
    kept = [label for label, flag in zip(sample["answer2response"], sample["response_claim_labels"])
            if flag == "REQUIRED"]
    assert required["results"][1]["metrics"]["precision"] == kept.count("Entailment") / len(kept)
    assert every["results"][1]["metrics"]["precision"] == 0.8


def test_explain_report_mode_says_what_it_skipped(capsys, tmp_path):
    from pathlib import Path

    path = str(Path(rw.__path__[0]) / "data" / "tour_results.jsonl")
    assert main(["explain", path, "--on-error", "report", "--sample", "1"]) == 1
    captured = capsys.readouterr()
    assert "precision = 4/5 = 0.8" in captured.out
    assert "skipped" in captured.err and "line 3" in captured.err and "sample 2 (query_id '2')" in captured.err
    broken = tmp_path / "r.jsonl"
    broken.write_text("{broken\n")
    assert main(["explain", str(broken), "--on-error", "report"]) == 2
    assert "no sample could be scored (every one was skipped)" in capsys.readouterr().err
    assert main(["explain", "--example", "ragchecker", "--sample", "nope"]) == 2
    assert "no sample with query_id 'nope'" in capsys.readouterr().err
    assert main(["score", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_piping_into_head_is_not_an_error(tmp_path):
    path = tmp_path / "big.jsonl"
    record = {"retrieved_context": [], "response_claims": [["a", "b", "c"]], "answer2response": ["Entailment"]}
    path.write_text("".join(json.dumps(dict(record, query_id=str(i))) + "\n" for i in range(3000)))
    for command in (["score", str(path), "--format", "json"], ["sweep", "--example", "harbor-museum"]):
        process = subprocess.Popen([sys.executable, "-m", "ragwidgets.cli", *command],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        process.stdout.read(10)
        process.stdout.close()
        err = process.stderr.read().decode()
        assert process.wait() == 0 and err == "", err


def test_tutorial_says_when_jupyterlab_is_missing(monkeypatch, capsys, tmp_path):
    from ragwidgets import cli

    real = cli.importlib.util.find_spec
    monkeypatch.setattr(cli.importlib.util, "find_spec", lambda name: None if name == "jupyterlab" else real(name))
    assert main(["tutorial", "--dir", str(tmp_path)]) == 2
    assert "JupyterLab is not installed: pip install jupyterlab" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # no copy that nothing would open


@pytest.mark.parametrize("mode", ["all_claims", "required_and_optional"])
def test_json_results_are_the_scores_per_sample(capsys, tmp_path, monkeypatch, mode):
    """Many metric columns (required_and_optional: 30) and mixed statuses, written chunk by chunk."""
    from pathlib import Path

    from ragwidgets import output

    records = json.loads((Path(rw.__path__[0]) / "data" / "tour_results.json").read_text())["results"]
    lesson = {"query_id": "L", "response_claims": [], "retrieved_context": [], "reference_facts": ["f"],
              "response_claim_labels": [], "gt_answer_claims": [], "gt_answer_claim_labels": []}
    records = [dict(r, query_id=f"{n}-{r['query_id']}") for n in range(3) for r in records] + [lesson]
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"results": records}))
    scores = rw.evaluate(path, mode=mode)
    monkeypatch.setattr(output, "CHUNK", 4)
    for fmt in ("json", "jsonl"):
        assert main(["score", str(path), "--mode", mode, "--format", fmt]) == 0
        text = capsys.readouterr().out
        got = json.loads(text)["results"] if fmt == "json" else [json.loads(x) for x in text.splitlines()]
        assert [r["query_id"] for r in got] == scores.batch.query_ids
        for i, result in enumerate(got):
            assert result["metrics"] == scores.metrics(i)
            assert {**result["undefined"], **result["not_computable"]} == scores.reasons(i)
            assert set(result["undefined"]) == {k for k, v in scores.metrics(i).items() if v is None}


def test_a_lone_surrogate_in_the_data_is_written_as_the_replacement_character(capsys, tmp_path):
    record = {"query_id": "q\ud800", "response_claims": [["a\udfff", "b", "c"]], "answer2response": ["Entailment"],
              "retrieved_context": []}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"results": [record, dict(record, query_id="r")]}))  # JSON text: "q\\ud800"
    for fmt in ("json", "jsonl", "table"):
        assert main(["score", str(path), "--format", fmt, "--scores", "precision"]) == 0, fmt
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err and "\ud800" not in captured.out
        if fmt == "json":
            assert json.loads(captured.out)["results"][0]["query_id"] == "q\ufffd"
        elif fmt == "jsonl":
            assert [json.loads(line)["query_id"] for line in captured.out.splitlines()] == ["q\ufffd", "r"]
        else:
            assert "q\ufffd" in captured.out
    assert main(["explain", str(path)]) == 0
    assert "query_id q\ufffd" in capsys.readouterr().out


def test_an_internal_error_shows_its_traceback_and_says_it_is_a_bug(capsys, monkeypatch):
    from ragwidgets import cli

    for error in (KeyError("precision"), IndexError("list index out of range"), ValueError("bad cast")):
        def broken(*args, **kwargs):
            raise error
        monkeypatch.setattr(cli, "evaluate", broken)
        assert main(["score", "--example", "ragchecker"]) == cli.BUG == 70
        err = capsys.readouterr().err
        assert "Traceback" in err and type(error).__name__ in err and "a bug in ragwidgets" in err
    monkeypatch.undo()
    assert main(["score", "--example", "ragchecker", "--scores", "nope"]) == 2  # bad input: one line
    err = capsys.readouterr().err
    assert err.startswith("ragwidgets: error: --scores: unknown metric(s) 'nope'") and "Traceback" not in err
    assert main(["explain", "--example", "ragchecker", "--sample", "q9"]) == 2
    assert capsys.readouterr().err == "ragwidgets: error: no sample with query_id 'q9'\n"


def test_a_path_that_looks_like_json_is_a_path(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    results = (Path(rw.__path__[0]) / "data" / "ragchecker_example.json").read_text()
    for name in ("[run 1].json", "{run}.json"):
        (tmp_path / name).write_text(results)
        assert [r["query_id"] for r in run_json(capsys, "score", name, "--format", "json")["results"]] == ["0", "1"]
    assert main(["score", "[1]"]) == 2
    assert "no such file: [1]" in capsys.readouterr().err


def test_the_readmes_two_commands_agree_with_ci_and_the_extras():
    """README: the first command installs the lab extra and opens the tutorial; the second is
    .ci/run, which installs the dev extra itself; both extras carry what their command needs."""
    import re
    import tomllib

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    block = re.search(r"## Two commands\n\n```bash\n(.*?)```", readme, re.S).group(1).splitlines()
    assert block == ['pip install -e ".[lab]" && ragwidgets tutorial', ".ci/run"]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {k: {re.match(r"[A-Za-z0-9_.-]+", d).group(0).lower() for d in v} for k, v in extras.items()}
    assert {"jupyterlab", "ipykernel"} <= names["lab"] and names["lab"] <= names["dev"]
    ci = (root / ".ci" / "run").read_text()
    install = re.search(r'pip install -e "\.\[dev[^"]*\]"', readme).group(0)  # what the README says .ci/run installs
    assert install in ci and "python -m pytest -q" in ci and os.access(root / ".ci" / "run", os.X_OK)
