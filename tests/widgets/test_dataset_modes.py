"""The DatasetExplorer's failure-modes and mode-checks panels (widgets/dataset/modes.py,
checks.py): every request's happy path against a count made here by hand from the notes, and bad
input from the front end (unknown mode, bad tag, bad expression, too much input) refused with
nothing written. Intervals are checked against Clopper–Pearson written out with scipy's beta."""

import json
from pathlib import Path

import pytest
from scipy.stats import beta

import ragwidgets as rw
from ragwidgets.analysis.groupings import Proposal
from ragwidgets.analysis.runs import open_run
from ragwidgets.errors import InputError
from ragwidgets.notes import Note, NoteLog
from ragwidgets.widgets.dataset import modes as modes_module
from ragwidgets.widgets.dataset.checks import ChecksPanel
from ragwidgets.widgets.dataset.common import Context
from ragwidgets.widgets.dataset.modes import ModesPanel

N = 40
DATE = set("012345")  # "date wrong" on these samples' own notes (and on claim 0 of sample 10)
UNSUPPORTED = set("3456789")


def notes_of():
    """20 samples read: tagged "date wrong" / "unsupported" (3, 4, 5 both), a claim note, 8 untagged notes."""
    out = []
    for i in range(10):
        q = str(i)
        tags = tuple(t for t, on in (("date wrong", q in DATE), ("unsupported", q in UNSUPPORTED)) if on)
        out.append(Note(q, f"note on {q}", tags, author="ann"))
    out.append(Note("10", "", claim=0, tags=("date wrong",)))
    out.append(Note("11", ""))  # read, nothing to note
    for i, text in enumerate(["the year is wrong", "wrong year given", "answer cites the wrong year",
                              "retrieval missed the passage", "passage missing from retrieval",
                              "no passage retrieved", "too long", "rambles"]):
        out.append(Note(str(12 + i), text))
    return out


def setup(tmp_path, run="", judge=None):
    """A panel pair over a 40-sample run whose notes are a file in ``tmp_path``, and its Context."""
    path = tmp_path / "notes.jsonl"
    NoteLog(path).extend(notes_of())
    model = open_run(rw.datasets.synthetic_run(N, seed=3), notes=path)
    ctx = Context({"run": run}, -1, tmp_path, False, "ann", judge)
    return model, ModesPanel(model), ChecksPanel(model), ctx, path


def ask(panel, ctx, type, **message):
    return getattr(panel, f"on_{type}")(ctx, message)


def shown(modes, ctx):
    """The modes' part of the view once the front end has asked for the table."""
    ask(modes, ctx, "modes_table")
    return modes.part(ctx, {})["modes"]


def lines(path):
    return Path(path).read_text().splitlines()


def cp(x, n):
    """Clopper–Pearson 95% by its beta quantiles."""
    return (0.0 if x == 0 else beta.ppf(0.025, x, n - x + 1), 1.0 if x == n else beta.ppf(0.975, x + 1, n - x))


def test_the_view_counts_each_mode_of_the_samples_read(tmp_path):
    model, modes, _, ctx, _ = setup(tmp_path)
    m = shown(modes, ctx)
    read = 20  # samples 0 ... 19
    assert m["read"] == {"run": read} and m["untagged"] == 8 and m["runs"] == ["run"]
    by_mode = {x["mode"]: x["runs"]["run"] for x in m["modes"]}
    assert [x["mode"] for x in m["modes"]] == ["date wrong", "unsupported"]  # 7 then 7: by name
    for mode, tagged in (("date wrong", len(DATE) + 1), ("unsupported", len(UNSUPPORTED))):
        c = by_mode[mode]
        assert (c["tagged"], c["read"]) == (tagged, read)
        assert c["rate"] == pytest.approx(tagged / read, abs=1e-4)
        assert (c["lo"], c["hi"]) == pytest.approx(cp(tagged, read), abs=1e-4)
        assert c["run_rate"] is None  # no design: no estimate over the run
    assert "no design" in m["basis"]["run"] and m["files"] == ["notes.jsonl"]
    json.dumps(m)  # the view is JSON


def test_the_panels_stay_hidden_without_notes(tmp_path):
    model = open_run(rw.datasets.synthetic_run(10, seed=3))
    ctx = Context({"run": ""}, -1, tmp_path, False, "", None)
    assert ModesPanel(model).part(ctx, {}) == {"modes": None}
    assert ChecksPanel(model).part(ctx, {}) == {"checks": None}
    with_file = open_run(rw.datasets.synthetic_run(10, seed=3), notes=tmp_path / "new.jsonl")
    assert shown(ModesPanel(with_file), ctx)["modes"] == []  # a notes file, none written yet


def test_picking_a_mode_names_its_samples(tmp_path):
    model, modes, _, ctx, _ = setup(tmp_path)
    got = ask(modes, ctx, "modes_pick", mode="date wrong")
    assert sorted(got["query_ids"], key=int) == sorted(DATE | {"10"}, key=int)
    assert got["label"] == "mode: date wrong (7 samples)" and got["run"] == ""
    with pytest.raises(ValueError, match="mode must be one of the modes .*'date wrong'"):
        ask(modes, ctx, "modes_pick", mode="no such mode")
    with pytest.raises(ValueError, match="run must be one of"):
        ask(modes, ctx, "modes_pick", mode="date wrong", run="other")


def test_rename_appends_new_versions_and_a_fresh_log_sees_them(tmp_path):
    model, modes, _, ctx, path = setup(tmp_path)
    before = lines(path)
    assert ask(modes, ctx, "modes_rename", mode="date wrong", new="  wrong   date ") == {"written": 7}
    after = lines(path)
    assert after[:len(before)] == before and len(after) == len(before) + 7  # nothing rewritten
    assert model.notes["run"].tags["wrong date"] == 7 and "date wrong" not in model.notes["run"].tags
    assert NoteLog(path).notes.tags == model.notes["run"].tags
    assert model.frame["mode: wrong date"].sum() == 7  # the mode's column follows
    assert [x["mode"] for x in modes.part(ctx, {})["modes"]["modes"]] == ["unsupported", "wrong date"]  # found at once


def test_a_rename_is_computed_from_the_file_so_another_writer_s_note_is_not_undone(tmp_path):
    """Review 37 finding 3: a second writer (another explorer, a notebook's NoteLog) rewrites
    sample 0's note and tags sample 30 after this explorer opened the file. A rename here must
    retag what the file holds now: sample 0's new text kept (not this explorer's older version
    written back over it), sample 30 renamed too; the mode's old column goes."""
    model, modes, _, ctx, path = setup(tmp_path)
    other = NoteLog(path)
    other.extend([Note("0", "rewritten by another writer", ("date wrong",), author="bob"),
                  Note("30", "seen elsewhere", ("date wrong",), author="bob")])
    assert ask(modes, ctx, "modes_rename", mode="date wrong", new="wrong date")["written"] == 8
    latest = NoteLog(path).notes
    assert latest.for_sample("0")[None].note == "rewritten by another writer"
    assert latest.for_sample("0")[None].tags == ("wrong date",) and latest.for_sample("30")[None].tags == ("wrong date",)
    assert model.notes["run"].tags == latest.tags and "date wrong" not in latest.tags
    assert model.frame["mode: wrong date"].sum() == 8 and "mode: date wrong" not in model.frame
    assert "mode: date wrong" not in dict(model.columns())


@pytest.mark.parametrize("new", ["", "   ", "a\x00b", "x" * 81, 3, None])
def test_a_bad_tag_from_the_front_end_writes_nothing(tmp_path, new):
    model, modes, _, ctx, path = setup(tmp_path)
    before = lines(path)
    for request, message in (("modes_rename", {"mode": "date wrong"}),
                             ("modes_merge", {"modes": ["date wrong", "unsupported"]}),
                             ("modes_split", {"mode": "unsupported", "keys": [["run", "3", None]]})):
        with pytest.raises(InputError, match="field 'new'"):
            ask(modes, ctx, request, **message, new=new)
    assert lines(path) == before


def test_merge_and_split(tmp_path):
    model, modes, _, ctx, path = setup(tmp_path)
    assert ask(modes, ctx, "modes_merge", modes=["date wrong", "unsupported"], new="facts")["written"] == 11
    assert dict(model.notes["run"].tags) == {"facts": 11}  # 3, 4, 5 carried both: one tag now
    n = len(lines(path))
    keys = [["run", "3", None], ["run", "10", 0]]
    assert ask(modes, ctx, "modes_split", mode="facts", new="date", keys=keys)["written"] == 2
    assert model.notes["run"].with_tag("date") == ["3", "10"] and model.notes["run"].tags["facts"] == 9
    assert len(lines(path)) == n + 2
    listed = ask(modes, ctx, "modes_notes", mode="date")
    assert [(x["query_id"], x["claim"]) for x in listed["notes"]] == [("3", None), ("10", 0)] and listed["more"] == 0


def test_bad_merges_and_splits_are_refused(tmp_path):
    model, modes, _, ctx, path = setup(tmp_path)
    before = lines(path)
    with pytest.raises(ValueError, match="2 to 100 modes"):
        ask(modes, ctx, "modes_merge", modes=["date wrong"], new="x")
    with pytest.raises(ValueError, match="mode must be one of the modes"):
        ask(modes, ctx, "modes_merge", modes=["date wrong", "nope"], new="x")
    with pytest.raises(ValueError, match="does not carry 'unsupported'"):
        ask(modes, ctx, "modes_split", mode="unsupported", new="x", keys=[["run", "0", None]])
    with pytest.raises(ValueError, match=r"\[run, query_id, claim\]"):
        ask(modes, ctx, "modes_split", mode="unsupported", new="x", keys=[["run", 3, None]])
    with pytest.raises(ValueError, match="at most 5,000"):
        ask(modes, ctx, "modes_split", mode="unsupported", new="x", keys=[["run", "3", None]] * 5001)
    with pytest.raises(ValueError, match="at least one note"):
        ask(modes, ctx, "modes_split", mode="unsupported", new="x", keys=[])
    assert lines(path) == before


def test_proposals_are_kept_until_accepted_or_rejected(tmp_path):
    model, modes, _, ctx, path = setup(tmp_path)
    before = lines(path)
    assert ask(modes, ctx, "modes_propose") is None
    shown = modes.part(ctx, {})["modes"]
    assert shown["proposals"] and lines(path) == before  # proposed: nothing written
    assert shown["proposed"].endswith("over 8 untagged notes")
    first = modes.proposals[0]
    assert shown["proposals"][0]["notes"][0]["note"] == model.notes["run"].latest[first.keys[0]].note
    ask(modes, ctx, "modes_accept", index=0, name="year wrong")
    assert sorted(model.notes["run"].with_tag("year wrong")) == sorted(k[0] for k in first.keys)
    assert len(lines(path)) == len(before) + len(first.keys)
    n, left = len(lines(path)), len(modes.proposals)
    if left:
        ask(modes, ctx, "modes_reject", index=0)
        assert len(modes.proposals) == left - 1 and len(lines(path)) == n
    with pytest.raises(ValueError, match="index must be a whole number|no proposal"):
        ask(modes, ctx, "modes_accept", index=99, name="x")


def test_a_proposal_request_is_bounded_and_a_bad_name_writes_nothing(tmp_path, monkeypatch):
    model, modes, _, ctx, path = setup(tmp_path)
    seen = []
    monkeypatch.setattr(modes_module, "MAX_PROPOSE", 3)
    monkeypatch.setattr(modes_module, "propose_groupings", lambda notes: seen.append(len(notes)) or [
        Proposal("year", tuple(n.key for n in notes), ("year",), "text", "3 notes share 'year'")])
    ask(modes, ctx, "modes_propose")
    assert seen == [3] and "(the first 3; 5 left out)" in modes.proposed
    before = lines(path)
    with pytest.raises(InputError, match="field 'name'"):
        ask(modes, ctx, "modes_accept", index=0, name="bad\ttag\x01")
    assert lines(path) == before and len(modes.proposals) == 1


def test_the_judge_proposes_only_when_there_is_one(tmp_path, monkeypatch):
    _, modes, _, ctx, _ = setup(tmp_path)
    with pytest.raises(ValueError, match="no judge"):
        ask(modes, ctx, "modes_propose", judge=True)
    judge = object()
    (tmp_path / "j").mkdir()
    _, modes, _, ctx, _ = setup(tmp_path / "j", judge=judge)
    asked = []
    monkeypatch.setattr(modes_module, "propose_with_judge", lambda notes, j: asked.append(j) or [])
    assert modes.part(ctx, {})["modes"]["judge"] is True
    ask(modes, ctx, "modes_propose", judge=True)
    assert asked == [judge] and modes.proposed.startswith("0 proposals by the judge")


def by_hand(model, mode, flags):
    """tp, fp, fn among the samples read (a sample is positive when it carries ``mode``)."""
    tags = model.notes["run"].sample_tags()
    ids = model.scores["run"].batch.query_ids
    tp = sum(1 for q, f in zip(ids, flags) if f and q in tags and mode in tags[q])
    fp = sum(1 for q, f in zip(ids, flags) if f and q in tags and mode not in tags[q])
    fn = sum(1 for q, f in zip(ids, flags) if not f and q in tags and mode in tags[q])
    return tp, fp, fn


def test_a_check_of_an_expression_and_its_slice(tmp_path):
    model, _, checks, ctx, _ = setup(tmp_path)
    expression = "faithfulness < 0.8"
    words = ask(checks, ctx, "mode_check", mode="unsupported", expression=expression)["words"]
    c = checks.check
    flags = (model.frame["faithfulness"] < 0.8).to_numpy()
    tp, fp, fn = by_hand(model, "unsupported", flags)
    assert (c["tp"], c["fp"], c["fn"], c["flagged"]) == (tp, fp, fn, int(flags.sum()))
    assert c["words"] == words and f"flags {int(flags.sum())} of {N} samples" in words
    if tp + fp:
        assert c["precision"] == pytest.approx(tp / (tp + fp), abs=1e-4)
        assert (c["precision_lo"], c["precision_hi"]) == pytest.approx(cp(tp, tp + fp), abs=1e-4)
    assert c["recall"] == pytest.approx(tp / (tp + fn), abs=1e-4)
    assert set(c["examples"]["caught"]) <= set(UNSUPPORTED)
    shown = checks.part(ctx, {})["checks"]
    assert shown["check"] == c and shown["modes"] == ["date wrong", "unsupported"]
    ask(checks, ctx, "mode_slice", name=" low faithfulness ")
    s = next(s for s in model.slices if s.name == "low faithfulness")
    assert s.expression == expression and "unsupported" in s.description


def test_a_check_may_read_the_modes_columns_and_a_signal(tmp_path):
    model, _, checks, ctx, _ = setup(tmp_path)
    ask(checks, ctx, "mode_check", mode="unsupported", expression="`mode: date wrong` == 1")
    assert (checks.check["tp"], checks.check["fp"]) == (3, 4)  # 3, 4, 5 carry both; 0, 1, 2, 10 only the date
    ask(checks, ctx, "mode_check", mode="unsupported", signal="unsupported_claim")
    flags = rw.analysis.failure_modes.signal_mask(model.scores["run"], "unsupported_claim")
    tp, fp, fn = by_hand(model, "unsupported", flags)
    assert (checks.check["tp"], checks.check["fp"], checks.check["fn"]) == (tp, fp, fn)
    with pytest.raises(ValueError, match="cannot be a slice"):
        ask(checks, ctx, "mode_slice", name="x")


def test_a_check_goes_stale_when_the_notes_change(tmp_path):
    """Review 37 finding 4: a check's figures are those of the notes it was found from; a note or
    a rename after it marks it stale until checked again."""
    model, modes, checks, ctx, _ = setup(tmp_path)
    ask(checks, ctx, "mode_check", mode="unsupported", signal="unsupported_claim")
    assert checks.part(ctx, {})["checks"]["stale"] is False
    model.add_notes("run", [Note("30", "also unsupported", ("unsupported",))])
    assert checks.part(ctx, {})["checks"]["stale"] is True
    ask(checks, ctx, "mode_check", mode="unsupported", signal="unsupported_claim")
    assert checks.part(ctx, {})["checks"]["stale"] is False
    ask(modes, ctx, "modes_rename", mode="unsupported", new="no support")
    part = checks.part(ctx, {})["checks"]
    assert part["stale"] is True and "unsupported" not in part["modes"]


@pytest.mark.parametrize("message, error", [
    ({"mode": "nope", "expression": "faithfulness < 1"}, "mode must be one of the modes"),
    ({"mode": "unsupported", "expression": "faithfulness <"}, None),
    ({"mode": "unsupported", "expression": "no_such_column > 1"}, "no_such_column"),
    ({"mode": "unsupported", "expression": "faithfulness < 1 or " * 200}, "at most 2,000 characters"),
    ({"mode": "unsupported"}, "one of the two"),
    ({"mode": "unsupported", "expression": "faithfulness < 1", "signal": "unsupported_claim"}, "one of the two"),
    ({"mode": "unsupported", "signal": "nope"}, "signal must be one of"),
])
def test_bad_checks_are_refused(tmp_path, message, error):
    model, _, checks, ctx, _ = setup(tmp_path)
    with pytest.raises(ValueError, match=error):
        ask(checks, ctx, "mode_check", **message)
    assert checks.check is None
    with pytest.raises(ValueError, match="no check yet"):
        ask(checks, ctx, "mode_slice", name="x")


def test_an_example_opens_its_row(tmp_path):
    model, _, checks, ctx, _ = setup(tmp_path)
    row = ask(checks, ctx, "mode_row", query_id="7")["row"]
    assert model.frame["query_id"].iloc[row] == "7"
    with pytest.raises(ValueError, match="no sample of run"):
        ask(checks, ctx, "mode_row", query_id="nope")


def test_several_runs_give_a_grid_and_edits_reach_each_run(tmp_path):
    records = rw.datasets.synthetic_run(N, seed=3)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    NoteLog(a).extend(notes_of())
    NoteLog(b).extend([Note("0", "date", ("date wrong",)), Note("1", "")])
    model = open_run({"a": records, "b": records}, notes={"a": a, "b": b})
    modes = ModesPanel(model)
    ctx = Context({"run": ""}, -1, tmp_path, False, "", None)
    m = shown(modes, ctx)
    assert m["runs"] == ["a", "b"] and m["several"]
    date = next(x for x in m["modes"] if x["mode"] == "date wrong")
    assert (date["runs"]["b"]["tagged"], date["runs"]["b"]["read"]) == (1, 2) and date["tagged"] == 8
    assert ask(modes, ctx, "modes_pick", mode="date wrong", run="b") == {
        "label": "mode: date wrong in b (1 sample)", "query_ids": ["0"], "run": "b"}
    assert ask(modes, ctx, "modes_rename", mode="date wrong", new="dates")["written"] == 8
    assert model.notes["b"].tags == {"dates": 1} and NoteLog(b).notes.tags == {"dates": 1}
    one = Context({"run": "b"}, -1, tmp_path, False, "", None)
    assert modes.part(one, {})["modes"]["runs"] == ["b"]


def test_the_explorer_shows_the_panels_and_the_reading_queue_is_the_design(tmp_path):
    path = tmp_path / "notes.jsonl"
    NoteLog(path).extend(notes_of())
    x = rw.DatasetExplorer(rw.datasets.synthetic_run(N, seed=3), notes=path, files_root=tmp_path)
    assert x.view_state["modes"]["stale"] and x.view_state["modes"]["modes"] == []  # not counted until asked
    sent = []
    x.send = lambda msg, buffers=None: sent.append(msg)
    x._handle_custom_msg({"request": 0, "type": "modes_table"}, [])
    m = x.view_state["modes"]
    assert not m["stale"] and [r["mode"] for r in m["modes"]] == ["date wrong", "unsupported"]
    assert x.view_state["checks"]["modes"]
    assert m["modes"][0]["runs"]["run"]["run_rate"] is None
    x._handle_custom_msg({"request": 1, "type": "modes_pick", "mode": "unsupported"}, [])
    assert "error" not in sent[-1] and sorted(sent[-1]["query_ids"], key=int) == sorted(UNSUPPORTED, key=int)
    x.samples = {"label": sent[-1]["label"], "query_ids": sent[-1]["query_ids"]}
    assert sorted(x.filtered["query_id"], key=int) == sorted(UNSUPPORTED, key=int)  # the table shows exactly them
    x._handle_custom_msg({"request": 2, "type": "modes_rename", "mode": "bad", "new": "x"}, [])
    assert "mode must be one of the modes" in sent[-1]["error"]
    x.start_reading(10)  # a random reading queue over every sample: the design of the rates over the run
    assert x.view_state["modes"]["stale"]
    x._handle_custom_msg({"request": 3, "type": "modes_table"}, [])
    shown = x.view_state["modes"]
    assert "no design" not in shown["basis"]["run"] and shown["modes"][0]["runs"]["run"]["run_rate"] is not None


def test_a_note_costs_no_count_until_the_front_end_asks(tmp_path, monkeypatch):
    """The keyboard path (a note, the next sample) never waits on the modes' table: a note marks
    it stale, the old figures stay shown, and it is found again when the front end asks."""
    model, modes, _, ctx, _ = setup(tmp_path)
    before = shown(modes, ctx)
    found = []
    real = modes_module.mode_table
    monkeypatch.setattr(modes_module, "mode_table", lambda *a, **k: found.append(1) or real(*a, **k))
    model.add_notes("run", [Note("30", "", ("unsupported",))])
    after = modes.part(ctx, {})["modes"]
    assert found == [] and after["stale"] and after["modes"] == before["modes"] and after["read"] == {"run": 21}
    counted = {m["mode"]: m["tagged"] for m in shown(modes, ctx)["modes"]}
    assert counted == {"unsupported": len(UNSUPPORTED) + 1, "date wrong": len(DATE) + 1} and found == [1]
    modes.part(ctx, {})
    assert found == [1]  # the same notes: kept


class NoNotes:
    """A run model that cannot take notes (as a Dask-scored run's)."""

    capabilities = frozenset({"slices", "samples"})
    where = "a Dask-scored run"
    runs = ["run"]


@pytest.mark.parametrize("request_, message", [
    ("modes_table", {}), ("modes_pick", {"mode": "x"}), ("modes_rename", {"mode": "x", "new": "y"}),
    ("modes_propose", {}), ("mode_check", {"mode": "x", "expression": "faithfulness < 1"})])
def test_a_run_that_cannot_take_notes_says_so(tmp_path, request_, message):
    ctx = Context({"run": ""}, -1, tmp_path, False, "", None)
    modes, checks = ModesPanel(NoNotes()), ChecksPanel(NoNotes())
    assert modes.part(ctx, {}) == {"modes": None} and checks.part(ctx, {}) == {"checks": None}
    with pytest.raises(ValueError, match="failure notes are not available on a Dask-scored run"):
        ask(checks if request_ == "mode_check" else modes, ctx, request_, **message)
