"""Offline grouping proposals for untagged notes: the obvious groups found, tagged notes left out,
the TF-IDF and the cohesion checked against computations written out here, bad arguments named."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from ragwidgets.analysis import groupings
from ragwidgets.analysis.groupings import Proposal, propose_groupings, propose_merges, terms_of, tfidf, tokens
from ragwidgets.errors import InputError
from ragwidgets.notes import Note, NoteLog, Notes

DATES = ["The date is wrong, off by one year", "wrong date: the year is 2019, not 2018",
         "gives the wrong year for the date"]
PASSAGES = ["retrieved passages are irrelevant to the question", "the passage retrieved is irrelevant",
            "irrelevant passages retrieved, nothing about the question"]
REFUSALS = ["model refuses although the context has it", "the model refuses", "refuses: model says it cannot tell"]


def notes_of(*groups, tagged=()) -> Notes:
    """One sample's note per text, query_ids 'g<group>-<i>', then the ``tagged`` notes (tag 'done')."""
    items = [Note(f"g{k}-{i}", text) for k, texts in enumerate(groups) for i, text in enumerate(texts)]
    items += [Note(f"t{i}", text, tags=("done",)) for i, text in enumerate(tagged)]
    return Notes(items)


def as_sets(proposals):
    return sorted(sorted(qid for qid, _ in p.keys) for p in proposals)


def test_the_obvious_groups_are_proposed_with_names_terms_and_why():
    shuffled = [(k, t) for k, g in enumerate([DATES, PASSAGES, REFUSALS]) for t in g]
    random.Random(3).shuffle(shuffled)
    notes = Notes([Note(f"g{k}-{t[:12]}", t) for k, t in shuffled])
    proposals = propose_groupings(notes)
    assert len(proposals) == 3
    assert sorted(sorted({qid[:2] for qid, _ in p.keys}) for p in proposals) == [["g0"], ["g1"], ["g2"]]
    assert all(len(p.keys) == 3 and p.source == "text" for p in proposals)
    by_group = {p.keys[0][0][:2]: p for p in proposals}
    assert {"date", "year", "wrong"} <= set(by_group["g0"].terms)
    assert set(by_group["g0"].name.split(" / ")) <= set(by_group["g0"].terms)
    assert {"irrelevant", "passage", "retrieved"} <= set(by_group["g1"].terms)
    assert "refuse" in by_group["g2"].name
    assert by_group["g1"].why.startswith("3 notes share 'irrelevant'") and "(cohesion 0." in by_group["g1"].why
    order = [qid for qid, _ in by_group["g0"].keys]
    assert order == [n.query_id for n in notes if n.query_id in order]  # keys in the notes' order


def test_tagged_and_empty_notes_are_never_proposed_and_claim_keys_are_kept():
    notes = notes_of(DATES, tagged=DATES) + Notes([Note("e1", ""), Note("e2", "  ", tags=())])
    notes = notes + Notes([Note("c", "the year of the date is wrong", claim=2)])
    (proposal,) = propose_groupings(notes)
    assert sorted(proposal.keys, key=str) == sorted([("g0-0", None), ("g0-1", None), ("g0-2", None), ("c", 2)],
                                                    key=str)


@pytest.mark.parametrize("notes", [Notes(), Notes([Note("a", "the date is wrong")]), notes_of(tagged=DATES),
                                   [], [{"query_id": "a", "note": "the date is wrong"}]])
def test_no_notes_or_one_note_proposes_nothing(notes):
    assert propose_groupings(notes) == []


def test_notes_sharing_no_word_are_not_grouped():
    assert propose_groupings(notes_of(["apple pie", "blue whale", "quantum field", "the and of"])) == []


def test_it_is_deterministic_and_max_groups_and_min_size_bound_it():
    notes = notes_of(DATES, PASSAGES, REFUSALS[:2])
    first = propose_groupings(notes)
    assert propose_groupings(notes) == first
    assert [len(p.keys) for p in first] == [3, 3, 2]
    orders = {tuple(p.name for p in propose_groupings(notes, seed=seed)) for seed in range(10)}
    assert len(orders) == 2 and {o[2] for o in orders} == {first[2].name}  # the seed orders the two tied
    assert propose_groupings(notes, max_groups=2) == first[:2]
    assert as_sets(propose_groupings(notes, min_size=3)) == as_sets(first[:2])


def test_proposals_never_change_notes_and_accepting_one_is_tagging_its_keys(tmp_path):
    log = NoteLog(tmp_path / "notes.jsonl")
    log.extend(notes_of(DATES, PASSAGES))
    before = log.notes.history
    proposals = propose_groupings(log)
    assert log.notes.history == before and NoteLog(tmp_path / "notes.jsonl").notes.history == before
    written = log.tag(proposals[0].keys, proposals[0].name)
    assert len(written) == 3
    again = NoteLog(tmp_path / "notes.jsonl").notes
    assert sorted(again.with_tag(proposals[0].name)) == sorted(qid for qid, _ in proposals[0].keys)
    assert as_sets(propose_groupings(again)) == as_sets(proposals[1:])


def test_words_lower_case_stop_words_numbers_plurals():
    assert tokens("The Passages were IRRELEVANT in 2019; queries' dates, A x status analysis") == [
        "passage", "irrelevant", "query", "date", "status", "analysis"]
    assert terms_of("wrong dates, year") == ["wrong", "date", "year", "wrong date", "date year"]
    assert tokens("date " * 10 + " " * groupings.MAX_CHARS + " year") == ["date"] * 10  # read to MAX_CHARS only
    assert tokens("x" * 41 + " " + "y" * 40) == ["y" * 40]


def test_tfidf_against_the_formula_written_out():
    texts = ["date wrong date", "wrong year", "date year", "lonely"]
    x, vocabulary = tfidf(texts)
    counts = [{t: terms_of(s).count(t) for t in set(terms_of(s))} for s in texts]
    df = {t: sum(t in c for c in counts) for c in counts for t in c}
    assert vocabulary == sorted(t for t, k in df.items() if k >= 2) == ["date", "wrong", "year"]
    for i, c in enumerate(counts):
        raw = [(1 + math.log(c[t])) * (math.log(5 / (1 + df[t])) + 1) if t in c else 0.0 for t in vocabulary]
        norm = math.sqrt(sum(v * v for v in raw)) or 1.0
        assert x[i].toarray().ravel() == pytest.approx([v / norm for v in raw])


def test_cohesion_is_the_mean_pairwise_cosine_similarity():
    x, _ = tfidf(DATES + PASSAGES + ["nothing shared here"])
    for rows in ([0, 1, 2], [3, 4, 5], [0, 3, 6], [0, 1, 2, 3, 4, 5, 6]):
        dense = x[rows].toarray()
        pairs = [float(dense[a] @ dense[b]) for a, b in itertools.combinations(range(len(rows)), 2)]
        assert groupings._cohesion(x[rows]) == pytest.approx(np.mean(pairs))


def test_above_max_notes_a_seeded_subset_is_clustered(monkeypatch):
    monkeypatch.setattr(groupings, "MAX_NOTES", 5)
    notes = notes_of(DATES + ["wrong date again", "the year is wrong"], PASSAGES)
    a, b = propose_groupings(notes, seed=1), propose_groupings(notes, seed=1)
    assert a == b and sum(len(p.keys) for p in a) <= 5


def test_two_groups_named_alike_are_numbered(monkeypatch):
    monkeypatch.setattr(groupings, "_name", lambda terms, weights: "x" * groupings.MAX_TAG)
    proposals = propose_groupings(notes_of(DATES, PASSAGES, REFUSALS))
    assert [p.name for p in proposals] == ["x" * 80, "x" * 76 + " (2)", "x" * 76 + " (3)"]


def test_a_name_is_two_or_three_top_terms_none_repeating_a_word():
    assert groupings._name(["date", "wrong date", "year", "wrong"], [1.0, 0.9, 0.6, 0.5]) == "date / year / wrong"
    assert groupings._name(["date", "year", "wrong"], [1.0, 0.9, 0.4]) == "date / year"
    assert groupings._name(["date"], [1.0]) == "date"


@pytest.mark.parametrize("name, value", [("max_groups", 0), ("max_groups", 2.5), ("min_size", 1),
                                         ("min_size", True), ("threshold", 0), ("threshold", 1.5),
                                         ("threshold", "0.9")])
def test_bad_arguments_are_named(name, value):
    with pytest.raises(InputError, match=f"field '{name}'"):
        propose_groupings(notes_of(DATES), **{name: value})


def test_notes_that_are_not_notes_are_refused():
    with pytest.raises(TypeError, match="notes are a path"):
        propose_groupings(42)


def test_a_proposal_is_frozen():
    p = Proposal("x", (("a", None),), ("x",), "text", "why")
    with pytest.raises(AttributeError):
        p.name = "y"


def tagged_notes(groups: dict[str, list[str]]) -> Notes:
    return Notes([Note(f"{tag}-{i}", text, tags=tuple(tag.split("+")))
                  for tag, texts in groups.items() for i, text in enumerate(texts)])


def test_tags_whose_notes_read_alike_are_proposed_for_merging():
    notes = tagged_notes({"wrong date": DATES[:2], "date error": DATES[2:] + ["wrong date: year off"],
                          "retrieval": PASSAGES, "refusal": REFUSALS})
    (merge,) = propose_merges(notes)
    assert merge.tags == ("date error", "wrong date") and merge.into == "date error"  # 2 samples against 2: first
    assert merge.why.startswith("the notes tagged 'date error' (2 samples) and 'wrong date' (2) read alike")
    notes = notes + Notes([Note("more", "the date is wrong", tags=("wrong date",))])
    assert propose_merges(notes)[0].into == "wrong date"  # 3 samples against 2


def test_a_merge_similarity_is_the_cosine_of_the_tags_mean_rows_written_out():
    groups = {"wrong date": DATES[:2], "date error": DATES[2:], "retrieval": PASSAGES, "mixed+retrieval": ["date"]}
    notes = tagged_notes(groups)
    texts = [n.note for n in notes]
    x = tfidf(texts)[0].toarray()
    carriers = {t: [i for i, n in enumerate(notes) if t in n.tags] for t in ("wrong date", "date error", "retrieval",
                                                                             "mixed")}
    mean = {t: x[rows].mean(axis=0) for t, rows in carriers.items()}
    cosine = {(a, b): float(mean[a] @ mean[b] / np.linalg.norm(mean[a]) / np.linalg.norm(mean[b]))
              for a, b in itertools.combinations(sorted(mean), 2)}
    got = {m.tags: m.similarity for m in propose_merges(notes, min_similarity=1e-9, max_merges=10)}
    assert got == pytest.approx({k: v for k, v in cosine.items() if v >= 1e-9})
    ranked = sorted(got, key=lambda k: -got[k])
    assert [m.tags for m in propose_merges(notes, min_similarity=1e-9, max_merges=2)] == ranked[:2]
    cut = got[ranked[1]] + 1e-9  # just above the second: only the first is left
    assert [m.tags for m in propose_merges(notes, min_similarity=cut)] == ranked[:1]


def test_merges_need_two_tags_and_name_bad_arguments():
    assert propose_merges(notes_of(DATES)) == [] and propose_merges(tagged_notes({"a": DATES})) == []
    with pytest.raises(InputError, match="field 'min_similarity'"):
        propose_merges(Notes(), min_similarity=0)
    with pytest.raises(InputError, match="field 'max_merges'"):
        propose_merges(Notes(), max_merges=0)


def test_accepting_a_merge_is_merging_its_tags(tmp_path):
    log = NoteLog(tmp_path / "notes.jsonl")
    log.extend(tagged_notes({"wrong date": DATES[:2], "date error": DATES[2:], "retrieval": PASSAGES}))
    (merge,) = propose_merges(log)
    log.merge(merge.tags, merge.into)
    assert dict(NoteLog(tmp_path / "notes.jsonl").notes.tags) == {merge.into: 3, "retrieval": 3}
