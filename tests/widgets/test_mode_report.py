"""Failure modes out: the modes × runs chart (its spec's data is mode_table's, offline SVG) and the
static report's "Failure modes" section (counts, rates and intervals, the run-level share when a
design is given, example notes, every text escaped)."""

import html
import json
import re
import warnings

import pytest
import vl_convert

import ragwidgets as rw
from ragwidgets.analysis.failure_modes import declared_design, mode_table
from ragwidgets.notes import Note, Notes
from ragwidgets.analysis.failure_modes import percent
from ragwidgets.widgets.mode_charts import mode_chart

HOSTILE = "<script>alert('x')</script> & <img src=x onerror=alert(1)>"


def notes_on(ids, tags_by_index: dict) -> Notes:
    """A note on each of ``ids`` (read), tagged as ``tags_by_index`` says."""
    return Notes([Note(q, f"note on {q}", tuple(tags_by_index.get(i, ()))) for i, q in enumerate(ids)])


@pytest.fixture(scope="module")
def runs():
    """Two runs of 80 samples; the first 20 of each read, tagged differently."""
    a, b = rw.datasets.synthetic_run(80, seed=1), rw.datasets.synthetic_run(80, seed=2)
    ids_a = [r["query_id"] for r in a][:20]
    ids_b = [r["query_id"] for r in b][:20]
    notes_a = notes_on(ids_a, {i: ["wrong date"] for i in range(6)} | {i: ["retrieval miss"] for i in range(6, 8)})
    notes_b = notes_on(ids_b, {i: ["retrieval miss"] for i in range(9)} | {19: ["wrong date"]})
    notes_a = notes_a + [Note(ids_a[2], HOSTILE, (HOSTILE,)), Note(ids_a[8], "", ("retrieval miss",), claim=0)]
    return {"A": rw.evaluate(a, notes=notes_a), "B": rw.evaluate(b, notes=notes_b)}


def spec_data(chart) -> list[dict]:
    spec = chart.to_dict()
    (values,) = spec["datasets"].values()
    return values


def encodings(spec: dict) -> list[dict]:
    """Every layer's encoding of a (layered, maybe faceted) spec."""
    inner = spec.get("spec", spec)
    return [layer["encoding"] for layer in inner["layer"]]


def test_the_chart_draws_each_run_and_mode_with_its_interval(runs):
    table = mode_table(runs)
    chart = mode_chart(table)
    rows = spec_data(chart)
    assert {(r["run"], r["mode"]) for r in rows} == {(r, m) for r, m in zip(table["run"], table["mode"])}
    for r in rows:
        want = table[(table["run"] == r["run"]) & (table["mode"] == r["mode"])].iloc[0]
        assert (r["tagged"], r["read"]) == (want["tagged"], want["read"])
        assert r["rate"] == pytest.approx(want["rate"])
        assert (r["lo"], r["hi"]) == pytest.approx((want["lo"], want["hi"]))
    spec = chart.to_dict()
    y = encodings(spec)[0]["y"]
    totals = table.groupby("mode")["tagged"].sum()
    assert y["sort"] == sorted(totals.index, key=lambda m: -totals[m])  # most tagged first
    assert all(e["color"]["field"] == "run" and e["yOffset"]["field"] == "run" for e in encodings(spec))
    assert encodings(spec)[0]["x"]["field"] == "lo" and encodings(spec)[0]["x2"]["field"] == "hi"  # the interval
    assert "http" not in json.dumps(spec["datasets"])  # the data is inline, nothing loaded
    svg = vl_convert.vegalite_to_svg(chart.to_json())
    assert "<script" not in svg and html.escape(HOSTILE, quote=False)[:20] in svg  # the tag drawn as text


def test_one_run_is_a_bar_per_mode_and_the_run_estimate_leaves_out_what_is_not_estimable(runs):
    one = {"A": runs["A"]}
    table = mode_table(one)
    spec = mode_chart(table).to_dict()
    assert spec["layer"][0]["mark"]["type"] == "bar" and "color" not in encodings(spec)[0]
    assert [r["mode"] for r in spec_data(mode_chart(table))] == list(table["mode"])
    design = declared_design(runs["A"], where="", strategy="random")
    estimated = mode_table(runs["A"], design=design)
    rows = spec_data(mode_chart(estimated, estimate="run"))
    assert [r["rate"] for r in rows] == pytest.approx(list(estimated["run_rate"]))
    assert spec_data(mode_chart(table, estimate="run")) == []  # no design: no share of the run to draw
    with pytest.raises(ValueError, match="estimate"):
        mode_chart(table, estimate="population")


def test_groups_are_rows_of_the_chart(runs):
    table = mode_table(runs["A"], by="n_passages")
    spec = mode_chart(table).to_dict()
    assert spec["facet"]["row"]["field"] == "group"
    vl_convert.vegalite_to_svg(json.dumps(spec))  # draws offline


PERCENTS = {0: "0%", 0.004: "<1%", 0.05: "5%", 0.123: "12%", 0.994: "99%", 0.995: ">99%", 0.99996: ">99%", 1: "100%"}


def test_percent_is_the_panel_s():
    """The CLI, the report, the chart and the check's words write a share as the panel does
    (js/modes.test.js holds the same cases for pct)."""
    assert {x: percent(x) for x in PERCENTS} == PERCENTS
    assert [percent(float("nan")), percent(None)] == ["—", "—"]


def section(page: str) -> str:
    start = page.index("<h2>Failure modes</h2>")
    return page[start:page.index("<h2>", start + 5)]


def test_the_report_shows_the_modes_with_rates_examples_and_escapes_the_notes(runs, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ex = rw.DatasetExplorer(runs)
    page = ex.to_html(tmp_path / "r.html").read_text("utf-8")
    part = section(page)
    table = mode_table(runs)
    for r in table.to_dict("records"):
        row = re.search(rf"<td class=t><bdi>{r['run']}</bdi></td><td class=t>{re.escape(html.escape(r['mode']))}</td>"
                        rf"<td>(\d+)</td><td>(\d+)</td><td>([^<]+)</td><td>([^<]+)</td>", part)
        assert row, r["mode"]
        assert (int(row[1]), int(row[2])) == (r["tagged"], r["read"])
        assert row[3] == html.escape(percent(r["rate"]))  # "<1%" escaped
        assert row[4] == html.escape(f"{percent(r['lo'])} – {percent(r['hi'])}")
    # by hand: A's samples 0-5 tagged, but sample 2's later note (the hostile one) replaced its tag
    assert (table[table["mode"] == "wrong date"].set_index("run")["tagged"].to_dict()) == {"A": 5, "B": 1}
    assert (table[table["mode"] == "retrieval miss"].set_index("run")["tagged"].to_dict()) == {"A": 3, "B": 9}
    assert "<figure data-chart='modes'><svg" in part
    assert "share of the run" not in part and "no share of the whole run is estimated" in part
    examples = part[part.index("Example notes"):]
    wrong = examples[examples.index("data-mode='wrong date'"):]
    assert wrong[:wrong.index("</div>")].count("<li>") == 3  # 2–3 a mode
    assert "<script" not in page and "<img" not in page and "&lt;script&gt;alert(" in part
    assert "claim 1: <span class=muted>(no text)</span>" in examples


def test_the_run_share_when_a_design_is_given_and_no_section_without_tags(runs, tmp_path):
    scores = runs["A"]
    design = declared_design(scores, where="faithfulness < 2", strategy="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ex = rw.DatasetExplorer(scores)
    part = section(ex.to_html(tmp_path / "d.html", design=design).read_text("utf-8"))
    table = mode_table(scores, design=design)
    assert "<th>share of the run</th>" in part and html.escape(table["basis"].iloc[0]) in part
    r = table.iloc[0]
    assert f"<td>{percent(r['run_rate'])}</td><td>{percent(r['run_lo'])} – {percent(r['run_hi'])}</td>" in part
    plain = rw.evaluate(rw.datasets.synthetic_run(30, seed=3))
    assert "Failure modes" not in rw.DatasetExplorer(plain).to_html(tmp_path / "p.html").read_text("utf-8")
    untagged = rw.evaluate(rw.datasets.synthetic_run(30, seed=3), notes=[Note("0", "read, no tag yet")])
    assert "Failure modes" not in rw.DatasetExplorer(untagged).to_html(tmp_path / "u.html").read_text("utf-8")
    given = Notes([Note("0", "passed in", ("given mode",))])
    page = rw.DatasetExplorer(plain).to_html(tmp_path / "g.html", notes=given).read_text("utf-8")
    assert "given mode" in section(page) and "passed in" in section(page)


def test_the_explorers_reading_queue_is_the_design_of_the_report(tmp_path):
    """Read at random from the explorer's queue: the report estimates each mode's share of the run
    from that queue (mode_table with the queue as design), with no design= given."""
    scores = rw.evaluate(rw.datasets.synthetic_run(60, seed=4))
    ex = rw.DatasetExplorer(scores)
    queue = ex.start_reading(12, where="faithfulness < 1")
    for i, q in enumerate(queue):
        ex.note(q, f"read {q}", tags=("wrong date",) if i % 3 == 0 else ())
    part = section(ex.to_html(tmp_path / "q.html").read_text("utf-8"))
    table = mode_table(scores, ex.notes, design=queue)
    r = table.iloc[0]
    assert r["mode"] == "wrong date" and r["tagged"] == 4 and r["read"] == 12
    assert "<th>share of the run</th>" in part and html.escape(r["basis"]) in part
    assert f"<td>{percent(r['run_rate'])}</td><td>{percent(r['run_lo'])} – {percent(r['run_hi'])}</td>" in part
