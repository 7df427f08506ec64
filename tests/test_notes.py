"""Failure notes as data (ragwidgets.notes): the fields and their checks, a later line per
(query_id, claim) wins, tags renamed / merged / split / added by appending new versions (nothing
rewritten), and the notes log under faults: loading gives exactly the notes it acknowledged."""

import json
import os
import tempfile
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.errors import InputError, InputWarning
from ragwidgets.notes import MAX_TAG, Note, NoteLog, Notes, as_notes, clean_tag, read_noting

from faults import full_disk

T = "2026-12-01T10:00:00Z"


def line(n: Note) -> bytes:
    return (json.dumps(n.to_json(), ensure_ascii=False) + "\n").encode("utf-8")


def test_a_note_s_json_names_a_claim_only_for_a_claim_s_note():
    assert Note("q1", "wrong year", ("temporal",), time=T).to_json() == {
        "query_id": "q1", "note": "wrong year", "tags": ["temporal"], "author": "", "time": T}
    assert Note("q1", "x", claim=2, claim_text="It opened in 1990.").to_json() == {
        "query_id": "q1", "claim": 2, "note": "x", "tags": [], "author": "", "time": "",
        "claim_text": "It opened in 1990."}
    n = Note("q1", "x", ("a", "b"), claim=0)
    assert Note.from_json(json.loads(json.dumps(n.to_json()))) == n
    assert next(iter(line(n).split(b","))).startswith(b'{"query_id"')  # every line starts with the log's mark


def test_tags_are_cleaned_and_duplicates_dropped_in_order():
    assert Note("q", tags=["  wrong\t date ", "x", "wrong date"]).tags == ("wrong date", "x")
    assert clean_tag("a  b") == "a b"


@pytest.mark.parametrize("fields, field, match", [
    ({"tags": "temporal"}, "tags", "list of strings"),
    ({"tags": [3]}, "tags", "a tag is a string"),
    ({"tags": ["  "]}, "tags", "1 to 80"),
    ({"tags": ["x" * (MAX_TAG + 1)]}, "tags", "1 to 80"),
    ({"tags": ["a\x00b"]}, "tags", "control"),
    ({"claim": -1}, "claim", ">= 0"),
    ({"claim": True}, "claim", ">= 0"),
    ({"claim_text": "x"}, "claim_text", "no claim"),
    ({"note": 5}, "note", "string"),
    ({"time": "yesterday"}, "time", "ISO 8601"),
    ({"colour": "red"}, "colour", "unknown key"),
])
def test_a_bad_field_is_an_input_error_naming_the_line_and_field(fields, field, match):
    with pytest.raises(InputError, match=match) as err:
        Note.from_json({"query_id": "q1", **fields}, "notes.jsonl line 3")
    assert err.value.field == field and "notes.jsonl line 3" in str(err.value)


def test_a_missing_query_id_is_named():
    with pytest.raises(InputError, match="missing") as err:
        Note.from_json({"note": "x"}, "notes.jsonl line 1")
    assert err.value.field == "query_id"


def test_a_later_line_wins_per_sample_and_claim_and_read_samples_are_counted():
    notes = Notes([Note("q1", "first", ("a",)), Note("q1", "claim", ("b",), claim=0), Note("q2", ""),
                   Note("q1", "second", ("c",))])
    assert len(notes) == 3 and len(notes.history) == 4
    assert notes.for_sample("q1")[None].note == "second"
    assert notes.query_ids == ["q1", "q2"]  # q2: read, nothing to note
    assert notes.sample_tags() == {"q1": ("c", "b"), "q2": ()}
    assert notes.tags == {"c": 1, "b": 1}
    assert notes.with_tag("b") == ["q1"]
    assert Note("q2", "").empty and not Note("q2", " ", ("a",)).empty


def test_untagged_notes_are_those_with_text_and_no_tag():
    notes = Notes([Note("q1", "date wrong"), Note("q2", ""), Note("q3", "x", ("a",))])
    assert [n.query_id for n in notes.untagged()] == ["q1"]


def test_renaming_merging_splitting_and_tagging_append_new_versions(tmp_path):
    path = tmp_path / "notes.jsonl"
    log = NoteLog(path)
    log.extend([Note("q1", "year wrong", ("wrong year",), time=T), Note("q2", "number off", ("wrong number",), time=T),
                Note("q3", "count off", ("wrong number", "extra"), time=T), Note("q4", "made up", time=T)])
    before = path.read_bytes()
    assert [n.query_id for n in log.merge(["wrong year", "wrong number"], "wrong fact")] == ["q1", "q2", "q3"]
    assert path.read_bytes().startswith(before)  # appended, nothing rewritten
    assert log.notes.tags == {"wrong fact": 3, "extra": 1}
    assert [n.query_id for n in log.split("wrong fact", "wrong number", [("q2", None), ("q3", None)])] == ["q2", "q3"]
    assert log.notes.sample_tags()["q3"] == ("wrong number", "extra")
    assert log.rename("extra", "extra detail")[0].tags == ("wrong number", "extra detail")
    assert [n.query_id for n in log.tag([("q4", None)], "invented")] == ["q4"]
    assert log.tag([("q4", None)], "invented") == []  # already tagged: nothing written
    with pytest.raises(InputError, match="no note on"):
        log.tag([("q9", None)], "x")
    again = Notes.read(path)
    assert again.sample_tags() == log.notes.sample_tags()
    assert len(again.history) == 4 + 3 + 2 + 1 + 1
    assert again.latest[("q1", None)].note == "year wrong"  # the text kept


def test_a_rename_onto_an_existing_tag_merges_without_a_duplicate():
    notes = Notes([Note("q1", "x", ("a", "b"))])
    assert notes.retagged({"a": "b"})[0].tags == ("b",)
    assert notes.retagged({"a": None})[0].tags == ("b",)


def test_notes_from_a_frame_and_records_round_trip():
    notes = Notes([Note("q1", "x", ("a",), claim=1, time=T), Note("q2", "y", time=T)])
    frame = notes.to_frame()
    assert list(frame.columns) == ["query_id", "claim", "note", "tags", "author", "time", "claim_text"]
    assert list(as_notes(frame)) == list(notes)
    assert list(as_notes([n.to_json() for n in notes])) == list(notes)
    with pytest.raises(TypeError, match="notes are a path"):
        as_notes(3)


def test_a_missing_file_or_a_folder_is_named(tmp_path):
    with pytest.raises(InputError, match="no such notes file"):
        Notes.read(tmp_path / "none.jsonl")
    with pytest.raises(InputError, match="a folder, not a notes file"):
        Notes.read(tmp_path)


def test_a_damaged_line_is_skipped_and_named_and_the_rest_read(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_bytes(line(Note("q1", "a")) + b'{"query_id": "q2", "no\n' + line(Note("q3", "c")))
    notes, said = read_noting(path)
    assert [n.query_id for n in notes.history] == ["q1", "q3"]
    assert len(said) == 1 and "line 2: skipped" in said[0]


def test_a_note_appended_after_a_torn_line_starts_a_fresh_line(tmp_path):
    path = tmp_path / "notes.jsonl"
    log = NoteLog(path)
    log.append(Note("q1", "a"))
    with open(path, "ab") as f:
        f.write(line(Note("q2", "torn"))[:25])
    with pytest.warns(InputWarning, match="cut off"):
        log.append(Note("q3", "c"))
    assert path.read_bytes() == line(Note("q1", "a")) + line(Note("q3", "c"))


def test_evaluate_carries_the_notes_and_warns_about_strays():
    records = rw.read_records(os.path.join(os.path.dirname(rw.__file__), "data", "ragchecker_example.json"))
    qid = rw.evaluate(records).batch.query_ids[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores = rw.evaluate(records, notes=[{"query_id": qid, "note": "x", "tags": ["a"], "claim": 0}])
    assert scores.notes.tags == {"a": 1}
    assert rw.evaluate(records, notes=[{"query_id": qid, "note": "x"}], reviews=[]).notes is not None
    with pytest.warns(InputWarning, match=r"2 note\(s\) name no sample or claim.*'nope' \(no such sample\)"):
        rw.evaluate(records, notes=[{"query_id": "nope", "note": "x"}, {"query_id": qid, "claim": 999}])
    assert scores.reviewed([]).notes is scores.notes
    noted = scores.samples[0].response_claims[0].text
    with pytest.warns(InputWarning, match="response claim 1's text is no longer the one noted"):
        rw.evaluate(records, notes=[{"query_id": qid, "claim": 0, "claim_text": noted + " (old)"}])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rw.evaluate(records, notes=[{"query_id": qid, "claim": 0, "claim_text": noted}])


# -- the property: loading gives exactly the acknowledged notes --------------------------------------

notes_ = st.builds(Note, st.sampled_from(["q1", "q2", "q3"]), st.text(max_size=10),
                   st.lists(st.sampled_from(["a", "b", "wrong date"]), max_size=2).map(tuple),
                   st.one_of(st.none(), st.integers(0, 2)))

OPS = st.one_of(
    st.tuples(st.just("extend"), st.lists(notes_, min_size=1, max_size=3)),  # acknowledged
    st.tuples(st.just("killed"), notes_, st.floats(0, 1)),  # a writer killed midway
    st.tuples(st.just("full disk"), st.lists(notes_, min_size=1, max_size=3)),  # raises: not acknowledged
    st.tuples(st.just("rename"), st.sampled_from(["a", "b"]), st.sampled_from(["b", "c"])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, max_size=8))
def test_loading_gives_exactly_the_acknowledged_notes(ops):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "notes.jsonl")
        acknowledged = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            for op, *args in ops:
                if op == "extend":
                    acknowledged += NoteLog(path).extend(args[0])
                elif op == "rename":
                    acknowledged += NoteLog(path).rename(*args)
                elif op == "killed":
                    whole = line(args[0])
                    with open(path, "ab") as f:
                        f.write(whole[:1 + int(args[1] * (len(whole) - 3))])
                else:
                    log = NoteLog(path)
                    with pytest.MonkeyPatch.context() as m:
                        full_disk(m, folder)
                        with pytest.raises(OSError):
                            log.extend(args[0])
            if os.path.exists(path):
                assert Notes.read(path).history == tuple(acknowledged)


def test_a_rename_keeps_another_writer_s_later_note(tmp_path):
    """Two logs on one file: a rename computed from what was read at opening would write back the
    old text over the other writer's newer note; it is computed from the file under its lock."""
    path = tmp_path / "notes.jsonl"
    mine = NoteLog(path)
    mine.append(Note("q0", "first look", ("made up",), time=T))
    NoteLog(path).append(Note("q0", "second look: dates", ("made up", "dates"), time=T))
    written = mine.rename("made up", "invented")
    assert [(n.note, n.tags) for n in written] == [("second look: dates", ("invented", "dates"))]
    assert Notes.read(path).latest[("q0", None)] == mine.notes.latest[("q0", None)] == written[0]
    mine.tag([("q0", None)], "x")
    assert Notes.read(path).latest[("q0", None)].tags == ("invented", "dates", "x")
