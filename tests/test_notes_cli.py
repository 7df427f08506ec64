"""``ragwidgets notes summarize | export``, as a user runs it: the failure modes' counts and rates (the
numbers of analysis.failure_modes.mode_table, the counts checked by hand), the example notes, the
formats, and bad input as one line on stderr with exit status 2 (never a traceback)."""

import csv
import io
import json
import subprocess
import sys

import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.analysis.failure_modes import declared_design, mode_table
from ragwidgets.cli import main
from ragwidgets.errors import InputWarning
from ragwidgets.notes import Note, as_notes
from ragwidgets.notes_cli import shown_text

N = 60
MODE_COLUMNS = ["run", "group", "mode", "tagged", "read", "rate", "lo", "hi", "population", "population_rate",
                "population_lo", "population_hi", "run_size", "run_rate", "run_lo", "run_hi", "basis"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A run of 60 samples and notes on 12 of them: 'wrong date' on 5 (one through a claim's note
    only), 'retrieval miss' on 3, two read with nothing to note, one note naming no sample."""
    folder = tmp_path_factory.mktemp("notes_cli")
    run = folder / "run.json"
    run.write_text(json.dumps({"results": rw.datasets.synthetic_run(N, seed=5)}), encoding="utf-8")
    notes = [Note("0", "answer gives 1931, the passage says 1932", ("wrong date",), author="ana"),
             Note("1", "date off by a year", ("wrong date",)),
             Note("2", "<script>alert(1)</script> | pipes | =cmd", ("wrong date", "retrieval miss")),
             Note("3", "\x1b[31mred\x1b[0m year wrong " + "x" * 300, ("wrong date",)),
             Note("4", "", ("wrong date",), claim=0),
             Note("5", "nothing retrieved about the bridge", ("retrieval miss",)),
             Note("6", "the passage was there, the answer ignored it", ("retrieval miss",)),
             Note("7", "untagged so far"), Note("8"), Note("9"), Note("10", "fine"), Note("11", "odd", ()),
             Note("no-such-sample", "stray", ("wrong date",))]
    path = folder / "notes.jsonl"
    path.write_text("".join(json.dumps(n.to_json()) + "\n" for n in notes), encoding="utf-8")
    return run, path


def scored(run, notes):
    """The run scored with the notes (the stray note's warning expected)."""
    with pytest.warns(InputWarning, match="no-such-sample"):
        return rw.evaluate(str(run), notes=as_notes(notes))


def run_cli(capsys, *args) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def test_summarize_table_counts_rates_and_examples(files, capsys):
    run, notes = files
    status, out, err = run_cli(capsys, "notes", "summarize", run, notes, "--examples", "5")
    assert status == 0
    assert "no-such-sample" in err  # the stray note: one warning, not an error
    assert "12 of 60 samples read" in out
    lines = out.splitlines()
    wrong = next(line for line in lines if line.startswith("wrong date"))
    miss = next(line for line in lines if line.startswith("retrieval miss"))
    assert wrong.split()[2:4] == ["5", "12"] and miss.split()[2:4] == ["3", "12"]  # counted by hand
    table = mode_table(scored(run, notes)).set_index("mode")
    assert table.loc["wrong date", "tagged"] == 5 and table.loc["wrong date", "read"] == 12
    lo, hi = table.loc["wrong date", ["lo", "hi"]]
    assert f"[{lo:.0%}, {hi:.0%}]" in wrong and f"{5 / 12:.0%}" in wrong
    assert "share of the run" not in out  # no design declared: no estimate over the run
    examples = out[out.index("\nwrong date\n"):]
    assert "0: answer gives 1931" in examples and "4 · claim 1: (no text)" in examples
    assert "\x1b" not in out and "⟨U+001B⟩[31mred" in out  # a terminal escape shown, never sent
    assert "x" * 80 in examples and "x" * 120 not in examples  # a long note cut
    assert len(examples.lstrip("\n").split("\n\n")[0].splitlines()) == 1 + 5
    _, out, _ = run_cli(capsys, "notes", "summarize", run, notes)
    assert len(out[out.index("\nwrong date\n") + 1:].split("\n\n")[0].splitlines()) == 1 + 3  # default: 3 a mode


def test_summarize_estimates_the_run_when_the_design_is_declared(files, capsys):
    run, notes = files
    status, out, _ = run_cli(capsys, "notes", "summarize", run, notes, "--where", "faithfulness < 0.9",
                             "--sampled", "random", "--format", "json", "--examples", "1")
    assert status == 0
    got = json.loads(out)
    scores = scored(run, notes)
    design = declared_design(scores, where="faithfulness < 0.9", strategy="random")
    want = mode_table(scores, design=design)
    assert [m["mode"] for m in got["modes"]] == list(want["mode"])
    assert set(got["modes"][0]) == set(MODE_COLUMNS)
    for row, (_, expected) in zip(got["modes"], want.iterrows()):
        for column in MODE_COLUMNS:
            value = expected[column]
            assert row[column] == (None if isinstance(value, float) and value != value else pytest.approx(value)
                                   if isinstance(value, float) else value), column
    assert got["design"] == {"strategy": "random", "where": "faithfulness < 0.9", "population": len(design.population)}
    assert got["samples"] == N and got["read"] == 12
    assert all(len(v) <= 1 for v in got["examples"].values())
    status, text, _ = run_cli(capsys, "notes", "summarize", run, notes, "--where", "faithfulness < 0.9",
                              "--sampled", "random")
    assert "share of the run" in text and f"read at random from the {len(design.population)} failing samples where faithfulness < 0.9" in text


def test_summarize_csv_is_the_mode_table_with_formulas_quoted(files, capsys, tmp_path):
    run, _ = files
    notes = tmp_path / "n.jsonl"
    notes.write_text(json.dumps(Note("0", "x", ("=HYPERLINK(1)",)).to_json()) + "\n", encoding="utf-8")
    status, out, _ = run_cli(capsys, "notes", "summarize", run, notes, "--format", "csv")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == MODE_COLUMNS and rows[0]["mode"] == "'=HYPERLINK(1)" and rows[0]["tagged"] == "1"
    status, _, err = run_cli(capsys, "notes", "summarize", run, notes, "--output", tmp_path / "modes.parquet")
    assert status == 0 and "wrote 1 rows" in err
    assert pd.read_parquet(tmp_path / "modes.parquet")["mode"].tolist() == ["=HYPERLINK(1)"]


def test_summarize_markdown_escapes_the_notes(files, capsys):
    run, notes = files
    status, out, _ = run_cli(capsys, "notes", "summarize", run, notes, "--format", "markdown")
    assert status == 0
    assert "<script>" not in out and "&lt;script&gt;" in out and "\\| pipes \\|" in out
    assert "| mode | tagged | read | rate | 95% interval |" in out and "|---|---:|---:|---:|---:|" in out


def test_damaged_lines_warn_and_bad_input_is_one_line(files, capsys, tmp_path):
    run, notes = files
    torn = tmp_path / "torn.jsonl"
    torn.write_text(notes.read_text() + '{"query_id": "12", "no', encoding="utf-8")
    status, out, err = run_cli(capsys, "notes", "summarize", run, torn)
    assert status == 0 and f"{torn} line 14" in err and "cut short" in err and "wrong date" in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query_id": "0", "tags": ["ok"]}\n{"query_id": "1", "tags": "not a list"}\n', encoding="utf-8")
    cases = [(("summarize", run, bad), f"{bad} line 2, field 'tags'"),
             (("export", bad, tmp_path / "o.csv"), f"{bad} line 2, field 'tags'"),
             (("summarize", tmp_path / "none.json", notes), "none.json"),
             (("summarize", run, tmp_path / "none.jsonl"), "no such notes file"),
             (("summarize", run, notes, "--where", "faithfulness <", "--sampled", "random"), "--where"),
             (("summarize", run, notes, "--where", "faithfulness < 0.5"), "--sampled random"),
             (("summarize", run, notes, "--by", "no_such_column"), "no_such_column"),
             (("summarize", run, notes, "--examples", "1000"), "--examples"),
             (("summarize", run, notes, "--output", tmp_path / "m.xlsx"), "--output"),
             (("export", notes, tmp_path / "o.xlsx"), "OUT is .csv, .parquet, .jsonl")]
    for args, named in cases:
        status, _, err = run_cli(capsys, "notes", *args)
        assert status == 2, args
        last = err.splitlines()[-1]
        assert "Traceback" not in err and last.startswith("ragwidgets: error: ") and named in last, err
    assert not (tmp_path / "o.xlsx").exists() and not (tmp_path / "o.csv").exists()


def test_export_writes_the_notes_in_force(files, capsys, tmp_path):
    _, notes = files
    status, _, err = run_cli(capsys, "notes", "export", notes, tmp_path / "out.parquet")
    assert status == 0 and "wrote 13 notes" in err
    assert list(as_notes(pd.read_parquet(tmp_path / "out.parquet"))) == list(as_notes(notes))


def test_the_installed_command_runs_in_a_process(files, tmp_path):
    run, notes = files
    done = subprocess.run([sys.executable, "-m", "ragwidgets.cli", "notes", "summarize", str(run), str(notes),
                           "--examples", "0"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "wrong date" in done.stdout and "answer gives" not in done.stdout
    done = subprocess.run([sys.executable, "-m", "ragwidgets.cli", "notes", "export", str(notes),
                           str(tmp_path / "n.csv")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "wrote 13 notes" in done.stderr
    assert (tmp_path / "n.csv").read_text("utf-8").startswith('"query_id","claim","note","tags"')


def test_shown_text_is_one_bounded_line():
    assert shown_text("a\n\tb  c") == "a b c"
    assert shown_text("x" * 500, 10) == "x" * 9 + "…"
    assert shown_text("\u202eevil") == "⟨U+202E⟩evil"
