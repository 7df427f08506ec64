"""``ragwidgets compare`` as CI runs it: every exit code (0, 1, 2, 4), every format (the table, JSON
with the gate's own numbers, JUnit XML parsed back, markdown rendered to HTML with hostile text
kept as text), margins, several NEW runs, runs carrying the judge's repeats, the A/A check, and
one real process."""

import copy
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import mistune
import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis import gate
from ragwidgets.cli import main
from ragwidgets.compare_cli import ROW_KEYS, md
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.history_store import History
from ragwidgets.judges.repeats import combine

N = 300
HOSTILE = "q|`tick`<script>alert(1)</script>**b**"  # a query_id, a claim's text and a file name carry it


def _write(path, records):
    path.write_text(json.dumps({"results": records}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """base; worse (labels of quality 0.3 instead of 0.4: every metric falls) whose first query, named
    HOSTILE, falls from precision 1 to 0; same (base's copy); few (20 queries); other (no shared id)."""
    folder = tmp_path_factory.mktemp("compare_cli")
    base, worse = synthetic_run(N, seed=1, quality=0.4), synthetic_run(N, seed=1, quality=0.3)
    for run, label in ((base, "Entailment"), (worse, "Contradiction")):
        first = run[0]
        first["query_id"] = HOSTILE
        first["response_claims"] = [[HOSTILE, "is", "claimed"], ["the <b>museum</b>", "has", "|a|b|"]]
        first["answer2response"] = [label, label]
        first["retrieved2response"] = [[], []]
        first["retrieved2answer"] = [[] for _ in first["gt_answer_claims"]]
        first["retrieved_context"] = []
    other = [dict(r, query_id=f"other-{r['query_id']}") for r in synthetic_run(40, seed=2)]
    paths = {name: _write(folder / f"{name}.json", records) for name, records in
             (("base", base), ("worse", worse), ("same", copy.deepcopy(base)), ("few", base[:20]),
              ("other", other))}
    paths["odd name"] = _write(folder / 'we<ird>&"name.json', worse)
    return paths


def run_cli(capsys, *args):
    status = main(["compare", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def test_table_and_the_exit_codes_of_a_regression(runs, capsys):
    status, out, err = run_cli(capsys, runs["base"], runs["worse"], "--metrics", "precision,recall,hallucination")
    assert status == 0  # reported, not failed, without --fail-on-regression
    lines = out.splitlines()
    assert lines[0].startswith(f"{runs['worse']} vs BASE {runs['base']}: 3 worse")
    assert lines[1].split() == ["metric", "verdict", "difference", "[lo,", "hi]", "MDE", "why"]
    assert [line.split()[:2] for line in lines[2:5]] == [["precision", "worse"], ["recall", "worse"],
                                                         ["hallucination", "worse"]]
    assert run_cli(capsys, runs["base"], runs["worse"], "--fail-on-regression")[0] == 1
    assert run_cli(capsys, runs["base"], runs["worse"], "--fail-on-regression", "--strict")[0] == 1  # 1 before 4


def test_no_regression_exits_0_even_strict(runs, capsys):
    status, out, _ = run_cli(capsys, runs["base"], runs["same"], "--fail-on-regression", "--strict", "--max-mde", "0.5")
    assert status == 0
    assert "11 no detectable change of 11 metrics" in out.splitlines()[0]


def test_strict_needs_a_tolerance_and_fails_a_regression_alone(runs, capsys):
    """Without --margin or --max-mde nothing says how small a fall the data must rule out: an
    unchanged run cannot be told (exit 4 with --strict, 0 without); --strict alone exits 1 on a
    regression (it used to exit 0 without --fail-on-regression)."""
    status, out, _ = run_cli(capsys, runs["base"], runs["same"], "--metrics", "precision", "--strict")
    assert status == 4 and "no tolerance was given" in out
    assert run_cli(capsys, runs["base"], runs["same"], "--metrics", "precision")[0] == 0
    assert run_cli(capsys, runs["base"], runs["worse"], "--metrics", "precision", "--strict")[0] == 1
    status, _, err = run_cli(capsys, runs["base"], runs["same"], "--max-mde", "0")
    assert status == 2 and "--max-mde: a fall of more than 0" in err


def test_cannot_tell_exits_4_only_when_strict(runs, capsys):
    status, out, _ = run_cli(capsys, runs["base"], runs["few"], "--metrics", "precision", "--fail-on-regression")
    assert status == 0 and "cannot tell" in out and "fewer than min_shared = 30" in out
    assert run_cli(capsys, runs["base"], runs["few"], "--metrics", "precision", "--strict")[0] == 4


def test_several_new_runs_each_gated_against_base(runs, capsys):
    status, out, _ = run_cli(capsys, runs["base"], runs["same"], runs["worse"], "--metrics", "recall",
                             "--fail-on-regression", "--format", "json", "--max-mde", "0.3")
    doc = json.loads(out)
    assert status == 1 and doc["exit_code"] == 1
    assert [(r["new"]["source"], r["metrics"][0]["verdict"]) for r in doc["runs"]] == [
        (str(runs["same"]), "no detectable change"), (str(runs["worse"]), "worse")]


@pytest.mark.parametrize("args, said", [
    (["nope.json"], "NEW nope.json: no such file: nope.json"),
    (["{base}", "--metrics", "precison"], "--metrics: unknown metric(s) 'precison'"),
    (["{base}", "--margin", "-0.1"], "--margin: a margin is a number of at least 0"),
    (["{base}", "--margin", "precision=x"], "--margin precision: 'x' is not a number"),
    (["{base}", "--margin", "nope=0.1"], "--margin: unknown metric(s) 'nope'"),
    (["{base}", "--metrics", "recall", "--margin", "precision=0.1"], "--margin names precision, which --metrics"),
    (["{base}", "--level", "95"], "--level: a confidence level between 0 and 1"),
    (["{other}"], "share no query_id"),
    (["{bad}"], "NEW {bad}: sample 1 (query_id '1'), field 'answer2response'"),
    (["history:latest", "{base}", "--history", "{missing}"], "BASE history:latest: no run history at {missing}"),
    ([], "give a NEW run after BASE"),
])
def test_bad_input_is_one_line_and_exit_2(runs, capsys, tmp_path, args, said):
    bad = synthetic_run(3, seed=0)
    bad[1]["answer2response"] = 7
    names = {"base": runs["base"], "other": runs["other"], "bad": _write(tmp_path / "bad.json", bad),
             "missing": tmp_path / "none.sqlite"}
    first = [] if args[:1] == ["history:latest"] else [runs["base"]]
    status, out, err = run_cli(capsys, *first, *[a.format(**names) for a in args])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("ragwidgets: error: ") and said.format(**names) in err
    assert "Traceback" not in err


def test_nothing_to_compare_is_bad_input(capsys):
    status, _, err = run_cli(capsys)
    assert status == 2 and "give BASE and at least one NEW run (or --aa RUN)" in err


def test_json_holds_the_gate_s_own_numbers(runs, capsys):
    status, out, _ = run_cli(capsys, runs["base"], runs["worse"], "--format", "json", "--level", "0.9",
                             "--metrics", "precision,faithfulness", "--margin", "precision=0.2,faithfulness=0.01")
    doc = json.loads(out)
    assert list(doc) == ["format", "level", "exit_code", "base", "runs", "aa"]
    assert doc["format"] == 1 and doc["level"] == 0.9 and doc["exit_code"] == 0 and doc["aa"] is None
    assert doc["base"] == {"source": str(runs["base"]), "samples": N, "repeats": None, "judge": None}
    run = doc["runs"][0]
    assert list(run) == ["new", "said", "regressed", "cannot_tell", "metrics"]
    expected = gate(rw.evaluate(str(runs["base"])), rw.evaluate(str(runs["worse"])),
                    metrics=["precision", "faithfulness"], margin={"precision": 0.2, "faithfulness": 0.01},
                    level=0.9).frame
    assert [list(row) for row in run["metrics"]] == [list(ROW_KEYS)] * 2
    for row, (_, want) in zip(run["metrics"], expected.iterrows()):
        for key in ROW_KEYS:
            assert row[key] == (pytest.approx(want[key]) if isinstance(want[key], float) else want[key]), key
    # precision's fall (about 0.09) is within its margin 0.2: not a regression; faithfulness' is not
    assert [r["verdict"] for r in run["metrics"]] == ["no detectable change", "worse"]
    assert run["regressed"] == ["faithfulness"] and run["cannot_tell"] == []


def test_any_run_source_gives_the_same_verdicts(runs, capsys, tmp_path):
    """Parquet and gzipped JSONL, read by score's loaders, give the JSON files' numbers."""
    import gzip

    import pyarrow as pa
    import pyarrow.parquet as pq

    base = json.loads(runs["base"].read_text(encoding="utf-8"))["results"]
    worse = json.loads(runs["worse"].read_text(encoding="utf-8"))["results"]
    pq.write_table(pa.Table.from_pylist(base), tmp_path / "base.parquet")
    with gzip.open(tmp_path / "worse.jsonl.gz", "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in worse)
    args = ("--metrics", "precision,recall,faithfulness", "--format", "json")
    as_files = json.loads(run_cli(capsys, runs["base"], runs["worse"], *args)[1])["runs"][0]["metrics"]
    status, out, _ = run_cli(capsys, tmp_path / "base.parquet", tmp_path / "worse.jsonl.gz", *args)
    assert status == 0 and json.loads(out)["runs"][0]["metrics"] == as_files


def test_one_margin_for_every_metric(runs, capsys):
    status, out, _ = run_cli(capsys, runs["base"], runs["worse"], "--metrics", "precision,recall", "--margin", "0.3",
                             "--fail-on-regression", "--format", "json")
    doc = json.loads(out)
    assert status == 0 and {r["margin"] for r in doc["runs"][0]["metrics"]} == {0.3}
    assert {r["verdict"] for r in doc["runs"][0]["metrics"]} == {"no detectable change"}


def test_junit_parses_one_testcase_per_metric_and_run(runs, capsys):
    status, out, _ = run_cli(capsys, runs["base"], runs["odd name"], runs["few"], "--metrics", "precision,recall",
                             "--format", "junit")
    root = ET.fromstring(out.encode("utf-8"))
    assert root.tag == "testsuites" and status == 0
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [f"{runs[name]} vs {runs['base']}" for name in ("odd name", "few")]
    assert [(s.get("tests"), s.get("failures"), s.get("skipped")) for s in suites] == [("2", "2", "0"), ("2", "0", "2")]
    worse, few = (s.findall("testcase") for s in suites)
    assert [c.get("name") for c in worse] == ["precision", "recall"]
    assert worse[0].get("classname") == f"ragwidgets.compare.{runs['odd name']}"
    assert worse[0].find("failure").get("message").startswith("worse: -")
    assert "fewer than min_shared" in few[0].find("skipped").get("message")


def test_junit_stays_xml_with_a_control_character_in_a_name(runs, capsys, tmp_path):
    named = tmp_path / "run\x1b[31m.json"
    named.write_bytes(runs["worse"].read_bytes())
    status, out, _ = run_cli(capsys, runs["base"], named, "--metrics", "recall", "--format", "junit")
    suite = ET.fromstring(out.encode("utf-8")).find("testsuite")
    assert status == 0 and "\ufffd" in suite.get("name") and suite.get("failures") == "1"


def _html(markdown: str) -> str:
    return mistune.create_markdown(plugins=["table"], escape=False)(markdown)


def test_markdown_verdicts_fallen_queries_and_claims_rendered_as_text(runs, capsys):
    status, out, _ = run_cli(capsys, runs["base"], runs["odd name"], "--metrics", "precision,self_knowledge",
                             "--format", "markdown")
    assert status == 0 and out.startswith("## ragwidgets compare\n")
    assert "| precision | ❌ worse |" in out
    html = _html(out)
    assert "<script" not in html and "<b>" not in html and "<strong>" not in html and "<code>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown as text
    assert "**b**" in html and "`tick`" in html and "we&lt;ird&gt;&amp;&quot;name.json" in html
    # every table row keeps its five columns, a | in the data notwithstanding
    for table in html.split("<table>")[1:]:
        body = table.split("</table>")[0]
        for row in body.split("<tr>")[1:]:
            assert row.count("<td") + row.count("<th") == 5, row
    # the fallen query first, with the claims whose labels changed
    fallen = out.split("precision: the queries that fell most")[1].split("</details>")[0]
    first = [line for line in fallen.splitlines() if line.startswith("| ") and "query" not in line][0]
    assert first.startswith(f"| {md(HOSTILE)} | 1 | 0 | -1 |")
    assert "entailed → contradicted, by the ground-truth answer" in first


def test_md_escapes_what_could_start_markup():
    assert md("a|b") == "a\\|b" and md("- item") == "\\- item" and md("1. item") == "1\\. item"
    assert md("line\nnext\x1b[31m") == "line next⟨U+001B⟩\\[31m"
    assert md("plain 0.5 - 0.3, fine.") == "plain 0.5 - 0.3, fine."
    linked = mistune.create_markdown(plugins=["url"], escape=False)  # GitHub links bare URLs
    for url in ("see https://evil.example/x now", "www.evil.example", "ftp://x.example"):
        assert "<a " not in linked(md(url)) and url in linked(md(url))


def test_output_file_gets_the_format_stdout_the_table(runs, capsys, tmp_path):
    target = tmp_path / "comment.md"
    status, out, _ = run_cli(capsys, runs["base"], runs["worse"], "--metrics", "recall", "--format", "markdown",
                             "--output", target, "--fail-on-regression")
    assert status == 1 and target.read_text(encoding="utf-8").startswith("## ragwidgets compare")
    assert out.splitlines()[1].startswith("metric") and out.rstrip().endswith(f"wrote markdown to {target}")


def _repeat_run(n, seed, p_entailed, k=4):
    """Records of ``n`` queries judged ``k`` times (label_repeats), each label flipped by the judge 10% of the time."""
    rng = np.random.default_rng(seed)
    truth = rng.random((n, 4)) < p_entailed
    sets = [[{"query_id": f"s{i}", "query": f"question {i}?", "response": "r.", "gt_answer": "g.",
              "response_claims": [["s", "p", str(j)] for j in range(4)],
              "answer2response": ["Entailment" if t ^ (rng.random() < .1) else "Neutral" for t in row]}
             for i, row in enumerate(truth)] for _ in range(k)]
    return combine(sets)


def test_history_runs_as_base(runs, capsys, tmp_path):
    """history:accepted / latest / NAME from a run history, judged as it says; another judge: cannot tell."""
    db = tmp_path / "history.sqlite"
    history = History(db)
    history.add(runs["base"], "main-1", judge="gpt-4o", accepted=True)
    history.add(runs["worse"], "pr-7", judge="gpt-4o")
    history.add(runs["base"], "other-judge", judge="llama-3")
    args = ("--metrics", "recall", "--fail-on-regression", "--format", "json", "--history", db)
    status, out, _ = run_cli(capsys, "history:accepted", runs["worse"], *args)
    doc = json.loads(out)
    assert status == 1 and doc["base"] == {"source": "history:accepted", "samples": N, "repeats": None,
                                           "judge": "gpt-4o"}
    assert run_cli(capsys, "history:main-1", "history:pr-7", *args)[0] == 1
    assert run_cli(capsys, "history:pr-7", runs["worse"], *args)[0] == 0
    status, out, _ = run_cli(capsys, "history:main-1", "history:other-judge", *args, "--strict")
    row = json.loads(out)["runs"][0]["metrics"][0]
    assert status == 4 and row["verdict"] == "cannot tell" and "judged differently" in row["why"]
    status, out, _ = run_cli(capsys, "history:latest", "history:main-1", *args[:-2], "--db", db)  # the alias
    assert status == 0
    status, _, err = run_cli(capsys, "history:nope", runs["worse"], *args)
    assert status == 2 and err.startswith("ragwidgets: error: BASE history:nope: ") and "nope" in err


def test_runs_with_the_judge_s_repeats_and_the_aa_check(tmp_path, capsys):
    base = _write(tmp_path / "base.json", _repeat_run(80, 0, 0.7))
    new = _write(tmp_path / "new.json", _repeat_run(80, 0, 0.7))
    status, out, _ = run_cli(capsys, base, new, "--metrics", "precision", "--format", "json", "--aa", base,
                             "--aa-draws", "20")
    doc = json.loads(out)
    assert status == 0 and doc["base"]["repeats"] == 4 and doc["runs"][0]["new"]["repeats"] == 4
    assert doc["base"]["judge"] is None
    assert "judge's variance included" in doc["runs"][0]["metrics"][0]["why"]
    aa = doc["aa"]
    assert aa["source"] == str(base) and aa["mode"] == "repeats" and aa["draws"] == 20
    assert 0 <= aa["rate"] <= 1 and aa["se"] == pytest.approx((aa["rate"] * (1 - aa["rate"]) / 20) ** 0.5)
    # one side without repeats: the plain interval (no judge's part)
    plain = _write(tmp_path / "plain.json", [{k: v for k, v in r.items() if k != "label_repeats"}
                                             for r in json.loads(new.read_text())["results"]])
    status, out, _ = run_cli(capsys, base, plain, "--metrics", "precision", "--format", "json")
    assert "judge's variance" not in json.loads(out)["runs"][0]["metrics"][0]["why"]


def test_parquet_with_the_judge_s_repeats_keeps_them(tmp_path, capsys):
    """A Parquet run with a label_repeats column gates with the judge's variance as its JSON does
    (it used to drop them silently); a CSV with that column is an error, not a silent drop."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    base, new = _repeat_run(60, 0, 0.7), _repeat_run(60, 1, 0.7)
    as_json = _write(tmp_path / "base.json", base), _write(tmp_path / "new.json", new)
    for name, records in (("base", base), ("new", new)):
        pq.write_table(pa.Table.from_pylist(records), tmp_path / f"{name}.parquet")
    args = ("--metrics", "precision", "--format", "json")
    want = json.loads(run_cli(capsys, *as_json, *args)[1])["runs"][0]
    status, out, _ = run_cli(capsys, tmp_path / "base.parquet", tmp_path / "new.parquet", *args)
    doc = json.loads(out)
    assert status == 0 and doc["base"]["repeats"] == 4 and doc["runs"][0]["new"]["repeats"] == 4
    assert doc["runs"][0]["metrics"] == want["metrics"] and "judge's variance" in want["metrics"][0]["why"]
    (tmp_path / "new.csv").write_text("query_id,label_repeats\ns0,x\n", encoding="utf-8")
    status, _, err = run_cli(capsys, as_json[0], tmp_path / "new.csv", *args)
    assert status == 2 and "label_repeats column in a CSV is not read" in err


def test_the_judges_are_named_or_said_unknown(runs, capsys, tmp_path):
    """Files do not say who judged them: the table says so; --base-judge / --new-judge name them,
    and runs named as judged differently cannot be told; a flag against a history's judge is an error."""
    out = run_cli(capsys, runs["base"], runs["worse"], "--metrics", "recall")[1]
    assert "judge unknown for BASE and NEW" in out
    status, out, _ = run_cli(capsys, runs["base"], runs["same"], "--metrics", "recall", "--base-judge", "gpt-4o",
                             "--new-judge", "llama-3", "--strict", "--format", "json")
    doc = json.loads(out)
    assert status == 4 and doc["base"]["judge"] == "gpt-4o" and doc["runs"][0]["new"]["judge"] == "llama-3"
    assert "judged differently" in doc["runs"][0]["metrics"][0]["why"]
    same = run_cli(capsys, runs["base"], runs["same"], "--metrics", "recall", "--base-judge", "gpt-4o",
                   "--new-judge", "gpt-4o", "--format", "markdown")[1]
    assert "judge unknown" not in same
    db = tmp_path / "h.sqlite"
    History(db).add(runs["base"], "main-1", judge="gpt-4o")
    status, _, err = run_cli(capsys, "history:main-1", runs["same"], "--history", db, "--base-judge", "llama-3")
    assert status == 2 and "judged by gpt-4o, as its history says" in err


def test_aa_alone_says_the_rate_and_what_it_means(runs, capsys):
    status, out, _ = run_cli(capsys, "--aa", runs["base"], "--metrics", "precision,recall", "--aa-draws", "20")
    assert status == 0
    assert out.startswith(f"A/A check on {runs['base']}: the gate said 'worse' on ")
    assert "(Monte-Carlo standard error), nominal 2.5%" in out and "split in two halves of 150" in out
    assert "Not shown above the nominal" in out.splitlines()[-1] or "Above the nominal" in out.splitlines()[-1]
    status, out, _ = run_cli(capsys, "--aa", runs["base"], "--metrics", "precision", "--aa-draws", "10",
                             "--format", "junit")
    case = ET.fromstring(out.encode()).find("testsuite/testcase")
    assert case.get("name") == "false alarm rate"


def test_an_aa_rate_above_nominal_fails_with_fail_on_regression(runs, capsys, monkeypatch):
    """Above: the rate less twice its Monte-Carlo error still above the nominal rate."""
    gate_module = sys.modules["ragwidgets.analysis.gate"]  # the module (ragwidgets.analysis.gate is its function)
    found = {"rate": 0.1, "se": 0.02, "any_rate": 0.12, "any_se": 0.02, "cannot_tell_rate": 0.0, "nominal": 0.025,
             "any_nominal": 0.05, "draws": 200, "splits": None, "pairs": 150, "mode": "queries", "how": "by hand"}
    monkeypatch.setattr(gate_module, "aa_false_alarms", lambda run, **options: dict(found))
    status, out, _ = run_cli(capsys, "--aa", runs["base"], "--fail-on-regression")
    assert status == 1 and "on 20 of 200 A/A pairs" in out and "Above the nominal 2.5%" in out
    assert run_cli(capsys, "--aa", runs["base"])[0] == 0
    found["rate"] = 0.06  # 0.06 - 2 x 0.02 = 0.02: within the noise of the nominal rate
    status, out, _ = run_cli(capsys, "--aa", runs["base"], "--fail-on-regression")
    assert status == 0 and "Not shown above the nominal 2.5% by 200 draws (the rate may be up to 10%" in out


def test_refchecker_systems_with_human_labels(tmp_path, capsys):
    """Real data: RefChecker's human labels (noisy context). GPT-4 as the base, Alpaca 7B as the new
    run is a regression on faithfulness; Claude 2 is not told from GPT-4 (no detectable change or
    cannot tell, never worse); each verdict is in the JUnit XML."""
    from ragwidgets.datasets.refchecker import refchecker_human

    systems = refchecker_human("noisy_context")
    paths = {name: _write(tmp_path / f"{name}.json", systems[name]) for name in ("gpt4", "alpaca_7B", "claude2")}
    status, out, _ = run_cli(capsys, paths["gpt4"], paths["alpaca_7B"], paths["claude2"], "--metrics", "faithfulness",
                             "--fail-on-regression", "--format", "junit")
    assert status == 1
    alpaca, claude = (s.find("testcase") for s in ET.fromstring(out.encode("utf-8")).findall("testsuite"))
    assert alpaca.find("failure") is not None and claude.find("failure") is None


def test_a_real_process(runs):
    done = subprocess.run([sys.executable, "-m", "ragwidgets.cli", "compare", str(runs["base"]), str(runs["worse"]),
                           "--metrics", "recall", "--fail-on-regression", "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["runs"][0]["regressed"] == ["recall"]
    help_text = subprocess.run([sys.executable, "-m", "ragwidgets.cli", "compare", "--help"], capture_output=True,
                               text=True, timeout=120).stdout
    said = " ".join(help_text.split())
    assert "0 no regression; 1 a metric is worse" in said and "4 a metric cannot be told (with --strict)" in said
