"""Failure notes written as JSONL / CSV / Parquet by suffix (engine.claims.write_notes, through the
one table writer write_frame): each read back gives the same notes; CSV quotes a cell a spreadsheet
would run and joins the tags by "; ", Parquet keeps tags a list column."""

import csv
import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from ragwidgets.engine.claims import write_frame, write_notes
from ragwidgets.notes import Note, NoteLog, Notes, as_notes

NOTES = Notes([
    Note("q1", "answer cites the wrong year", ("wrong date", "citation"), author="ana", time="2026-01-02T10:00:00Z"),
    Note("q1", "", ("unsupported",), claim=2, claim_text="The bridge opened in 1932.", time="2026-01-02T10:01:00Z"),
    Note("q2"),  # read, nothing to note
    Note("007", "ünïcode · \"quoted\", comma\nand a new line", ("retrieval miss",)),
    Note("q1", "answer cites the wrong year (again)", ("wrong date",), author="ben"),  # a later line wins
])


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".csv"])
def test_written_notes_read_back_equal(tmp_path, suffix):
    path = tmp_path / f"notes{suffix}"
    assert write_notes(NOTES, path) == len(NOTES) == 4
    back = as_notes(path)  # a notes file (Notes.read), or the exported table read back
    assert list(back) == list(NOTES)
    assert back.sample_tags() == NOTES.sample_tags()


def test_write_notes_takes_any_notes_like(tmp_path):
    log = NoteLog(tmp_path / "log.jsonl")
    log.extend(NOTES.history)
    for source in (log, tmp_path / "log.jsonl", str(tmp_path / "log.jsonl"), list(NOTES), NOTES.to_frame()):
        write_notes(source, tmp_path / "out.jsonl")
        assert list(as_notes(tmp_path / "out.jsonl")) == list(NOTES)


def test_parquet_keeps_tags_a_list_and_claim_a_whole_number(tmp_path):
    write_notes(NOTES, tmp_path / "n.parquet")
    schema = pq.read_schema(tmp_path / "n.parquet")
    assert str(schema.field("tags").type) in ("list<item: large_string>", "list<element: large_string>",
                                              "list<item: string>", "list<element: string>")
    assert str(schema.field("claim").type) == "int64"
    untagged = Notes([Note("a", "no tag"), Note("b")])  # every tags list empty: still a list of strings
    write_notes(untagged, tmp_path / "u.parquet")
    assert "string" in str(pq.read_schema(tmp_path / "u.parquet").field("tags").type)
    assert list(as_notes(pd.read_parquet(tmp_path / "u.parquet"))) == list(untagged)


def test_jsonl_lines_are_note_objects(tmp_path):
    write_notes(NOTES, tmp_path / "n.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "n.jsonl").read_text("utf-8").splitlines()]
    assert [Note.from_json(d, "line") for d in lines] == list(NOTES)
    assert lines[0]["tags"] == ["wrong date"] and lines[0]["author"] == "ben"  # the note in force
    assert lines[0]["claim"] is None and lines[1]["claim"] == 2


HOSTILE = ['=HYPERLINK("http://evil.example/","x")', "+1+cmd|' /C calc'!A0", "@SUM(A1:A9)", "-2+3"]


def test_csv_quotes_formulas_in_notes_and_tags_and_joins_tags(tmp_path):
    notes = Notes([Note(f"q{i}", text, (text, "plain tag")) for i, text in enumerate(HOSTILE)]
                  + [Note("-5", "a = b + c", ("x",))])
    write_notes(notes, tmp_path / "n.csv")
    with open(tmp_path / "n.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row, text in zip(rows, HOSTILE):
        assert row["note"] == "'" + text
        assert row["tags"] == f"'{text}; plain tag"  # the joined cell starts with the formula: quoted once
    assert rows[-1]["query_id"] == "-5" and rows[-1]["note"] == "a = b + c"  # a plain number, a formula further in
    assert list(as_notes(tmp_path / "n.csv")) == list(notes)  # read back: the guard taken off, the tags split
    write_notes(notes, tmp_path / "n.parquet")
    assert list(as_notes(pd.read_parquet(tmp_path / "n.parquet"))) == list(notes)  # Parquet: unchanged


def test_another_suffix_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"write the notes as \.csv, \.parquet, \.jsonl"):
        write_notes(NOTES, tmp_path / "n.xlsx")
    assert not (tmp_path / "n.xlsx").exists()


MODE_COLUMNS = ["run", "group", "mode", "tagged", "read", "rate", "lo", "hi", "population", "population_rate",
                "population_lo", "population_hi", "run_size", "run_rate", "run_lo", "run_hi", "basis"]


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".csv"])
def test_a_mode_table_is_written_by_suffix(tmp_path, suffix):
    nan = float("nan")
    table = pd.DataFrame([["run A", "", "=wrong date", 3, 10, 0.3, 0.1, 0.6, 40, 0.3, 0.12, 0.55, 100, 0.12, 0.05,
                           0.22, "a random sample of 40 failing samples"],
                          ["run A", "", "retrieval miss", 0, 10, 0.0, 0.0, 0.28, 40, nan, nan, nan, 100, nan, nan,
                           nan, ""]], columns=MODE_COLUMNS)
    path = tmp_path / f"modes{suffix}"
    write_frame(table, path, what="failure-mode table")
    back = {".jsonl": lambda: pd.read_json(path, lines=True), ".parquet": lambda: pd.read_parquet(path),
            ".csv": lambda: pd.read_csv(path, keep_default_na=False, na_values={c: [""] for c in MODE_COLUMNS[3:16]})
            }[suffix]()
    assert list(back.columns) == MODE_COLUMNS
    expected = table.copy()
    if suffix == ".csv":
        expected.loc[0, "mode"] = "'=wrong date"
    pd.testing.assert_frame_equal(back, expected, check_dtype=False)
