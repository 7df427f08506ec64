"""``ragwidgets history add | list | accept``, as a user runs it: runs stored with their metrics (the
numbers of a direct evaluation), listed as a table and as JSON, accepted, and bad input as one line
on stderr naming the field, exit status 2."""

import json
import subprocess
import sys

import pytest

import ragwidgets as rw
from ragwidgets.cli import main
from ragwidgets.datasets import refchecker_human
from ragwidgets.history_store import History


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("history_cli")
    systems = refchecker_human("noisy_context")
    for name in ("gpt4", "alpaca_7B"):
        (folder / f"{name}.json").write_text(json.dumps({"results": systems[name]}), encoding="utf-8")
    return folder, systems


def test_add_list_accept(files, tmp_path, capsys, monkeypatch):
    folder, systems = files
    monkeypatch.chdir(tmp_path)
    assert main(["history", "add", str(folder / "gpt4.json"), "--name", "base", "--commit", "abc1234",
                 "--judge", "gpt-4o", "--accept"]) == 0
    faithfulness = rw.evaluate(systems["gpt4"]).aggregate()["faithfulness"]["mean"]
    said = capsys.readouterr().out
    assert said.startswith("added base (100 samples) to ragwidgets-history.sqlite: faithfulness ")
    assert f"faithfulness {rw.engine.metrics.format_value(faithfulness)} [" in said
    assert main(["history", "add", str(folder / "alpaca_7B.json"), "--name", "pr-7"]) == 0
    capsys.readouterr()
    assert (tmp_path / "ragwidgets-history.sqlite").is_file()

    assert main(["history", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["name", "added", "commit", "judge", "accepted", "n", "faithfulness"]
    assert lines[1].split()[:1] + lines[1].split()[2:6] == ["base", "abc1234", "gpt-4o", "yes", "100"]
    assert lines[2].split()[0] == "pr-7" and "yes" not in lines[2]

    assert main(["history", "list", "--format", "json"]) == 0
    runs = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in runs] == ["base", "pr-7"] and [r["accepted"] for r in runs] == [True, False]
    assert runs[0]["metrics"]["faithfulness"]["mean"] == pytest.approx(faithfulness, abs=1e-12)
    assert runs[0]["source"] == str(folder / "gpt4.json") and runs[1]["commit"] is None
    aggregate = rw.evaluate(systems["alpaca_7B"]).aggregate()["faithfulness"]
    assert {k: runs[1]["metrics"]["faithfulness"][k] for k in ("defined", "undefined", "not_computable")} == \
        {k: aggregate[k] for k in ("defined", "undefined", "not_computable")}

    assert main(["history", "accept", "pr-7"]) == 0
    assert capsys.readouterr().out.startswith("accepted pr-7 (")
    assert History().latest(accepted=True).name == "pr-7"


def test_another_file_and_replace(files, tmp_path, capsys):
    folder, systems = files
    db = str(tmp_path / "team" / "eval" / "runs.sqlite")  # the folders made by the first add
    for run in ("gpt4", "alpaca_7B"):
        assert main(["history", "add", str(folder / f"{run}.json"), "--name", "main", "--db", db,
                     *(["--replace"] if run == "alpaca_7B" else [])]) == 0
    capsys.readouterr()
    assert History(db).get("main") == systems["alpaca_7B"]


@pytest.mark.parametrize("argv, said", [
    (["add", "RUN", "--name", ""], "field 'name'"),
    (["add", "RUN", "--name", "latest"], "field 'name'"),
    (["add", "RUN", "--name", "x", "--commit", " "], "field 'commit'"),
    (["add", "missing.json", "--name", "x"], "no such file: missing.json"),
    (["list", "--db", "nowhere.sqlite"], "no run history at nowhere.sqlite"),
    (["accept", "ghost", "--db", "DB"], "field 'name': no run named 'ghost'"),
])
def test_bad_input_is_one_line_exit_2(files, tmp_path, capsys, monkeypatch, argv, said):
    folder, _ = files
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "db.sqlite")
    History(db).add(folder / "gpt4.json", "base")
    argv = [str(folder / "gpt4.json") if a == "RUN" else db if a == "DB" else a for a in argv]
    assert main(["history", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ragwidgets: error: ") and said in err and len(err.splitlines()) == 1


def test_a_name_clash_and_a_bad_file_from_the_shell(files, tmp_path):
    folder, _ = files
    not_a_db = tmp_path / "x.sqlite"
    not_a_db.write_text("plain text, no database " * 50)
    run = subprocess.run([sys.executable, "-m", "ragwidgets.cli", "history", "add", str(folder / "gpt4.json"),
                          "--name", "a", "--db", str(not_a_db)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stderr.startswith("ragwidgets: error: ") and "not a run history" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_run_history_page_runs_as_written(tmp_path, monkeypatch, capsys):
    import re
    import shlex
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "howto" / "history.md").read_text(encoding="utf-8")
    section = page[page.index("# Run history"):]
    shell, python = re.findall(r"```(?:bash|python)\n(.*?)```", section, re.S)[:2]
    monkeypatch.chdir(tmp_path)
    assert main(["examples"]) == 0
    for line in shell.replace('"$(git rev-parse HEAD)"', "4f2c9e1").splitlines():
        command = shlex.split(line, comments=True)
        assert main(command[1:]) == 0, (command, capsys.readouterr().err)
    exec(compile(python, "docs/howto/history.md", "exec"), {})
    assert History().runs()["name"].tolist() == ["pr-412", "pr-413"]
