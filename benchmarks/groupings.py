"""Grouping proposals for untagged notes (issue 37 item 2): the offline proposal's time and how well
it recovers the failure modes the notes were written from.

    python benchmarks/groupings.py [--n 1000] [--repeats 5] [--seed 0] [--max-groups 8]

``--n`` analyst-style notes generated (seeded) from 8 failure modes, each written in several
phrasings with synonyms, names, numbers and filler words an analyst adds ("hmm", "see passage
3"), none tagged. Timed, median of ``--repeats`` runs: ``propose_groupings(notes)`` (``--max-groups``,
min_size 2, the default threshold), from the Notes to the proposals. Quality against the
modes the notes came from, over every note (a note in no proposal counts as a cluster of its
own): the adjusted Rand index (written out below: Hubert and Arabie's formula over the
contingency table), each proposal's purity (the share of its notes from its most common mode)
and the share of notes in some proposal; then, per proposal, its name, size and modes. Then
``propose_merges`` (default min_similarity) over ``--n`` notes tagged as an analyst who named each
mode 4 ways (:func:`split_tags`), timed alike: how many merges it proposes and how many of them
join two tags of one mode, of the pairs there are.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter
from math import comb
from pathlib import Path

from ragwidgets.analysis.groupings import propose_groupings, propose_merges
from ragwidgets.notes import Note, Notes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expression import median_time  # noqa: E402 (benchmarks/ is the script's folder)

MODES = {  # mode -> phrasings; {slot} words drawn from SLOTS
    "wrong date": ["the {date} is wrong, off by a year", "wrong {date}: says {year} but the passage has {year2}",
                   "answer gives the wrong year for the {date}", "{date} mismatch, year is off",
                   "year wrong ({year} vs {year2}) in the {date}"],
    "irrelevant passages": ["retrieved {passages} are irrelevant to the question",
                            "none of the {passages} is about the question, retrieval missed",
                            "irrelevant {passages} retrieved; the retriever missed the topic",
                            "retrieval brought back off-topic {passages}", "{passages} off topic, irrelevant"],
    "refusal": ["the model refuses to answer although the passage has it", "refused: says it cannot answer",
                "model declines to answer, {passages} contain the answer", "unnecessary refusal",
                "refuses, claims not enough information"],
    "wrong entity": ["confuses {name} with {name2}", "answer names the wrong person: {name} instead of {name2}",
                     "mixed up {name} and {name2}, wrong entity", "wrong entity picked ({name2})",
                     "attributes it to {name2}, the wrong person"],
    "incomplete": ["answer is incomplete, misses the second part of the question",
                   "only answers half of the question", "incomplete: lists {k} of the {k2} items",
                   "partial answer, second part missing", "leaves out part of the question, incomplete answer"],
    "unit error": ["wrong unit: {unit} instead of {unit2}", "units mixed up, {unit} vs {unit2}",
                   "number right but the unit is wrong", "converted {unit} to {unit2} wrongly",
                   "unit conversion error in the figure"],
    "hallucinated citation": ["cites a source that does not exist", "made-up citation [{k}]",
                              "the citation [{k}] is hallucinated, no such passage",
                              "invented reference to passage {k}", "fake citation, source not in the passages"],
    "too verbose": ["answer is far too long and verbose", "verbose, rambles for {k} paragraphs",
                    "too long: the answer repeats itself", "way too wordy, should be one sentence",
                    "long-winded answer, repeats the question"],
}
SLOTS = {
    "date": ["date", "dates", "birth date", "founding date", "release date"],
    "year": [str(y) for y in range(1950, 2024)], "year2": [str(y) for y in range(1950, 2024)],
    "passages": ["passages", "documents", "chunks", "passages", "contexts"],
    "name": ["Smith", "Curie", "Lincoln", "Tesla", "Austen", "Bach"],
    "name2": ["Jones", "Edison", "Darwin", "Newton", "Bronte", "Handel"],
    "k": [str(k) for k in range(1, 9)], "k2": [str(k) for k in range(2, 12)],
    "unit": ["km", "miles", "kg", "pounds", "meters", "feet"],
    "unit2": ["km", "miles", "kg", "pounds", "meters", "feet"],
}
FILLER = ["hmm", "see passage 3", "check again later", "sample looks odd", "again", "(q from the dev set)",
          "not sure", "same as before", "typical", "!!", "minor", "serious", "also the style is fine", "cf. row 12"]


def generate(n: int, seed: int) -> tuple[Notes, dict[str, str]]:
    """``n`` untagged notes, each written from a mode picked at random (equal odds), a phrasing of it,
    its slots filled, and 0-2 filler words before or after; and each note's mode by query_id."""
    rng = random.Random(seed)
    notes, truth = [], {}
    for i in range(n):
        mode = rng.choice(list(MODES))
        text = rng.choice(MODES[mode]).format(**{k: rng.choice(v) for k, v in SLOTS.items()})
        for _ in range(rng.choice([0, 0, 1, 2])):
            text = f"{rng.choice(FILLER)} {text}" if rng.random() < 0.5 else f"{text}, {rng.choice(FILLER)}"
        if rng.random() < 0.3:
            text = text.capitalize() + "."
        qid = f"q{i}"
        notes.append(Note(qid, text))
        truth[qid] = mode
    return Notes(notes), truth


def split_tags(n: int, seed: int) -> tuple[Notes, dict[str, str]]:
    """``n`` notes written as :func:`generate` writes them (no filler), tagged as an analyst who
    named the same mode several ways would: phrasings 0-2 of a mode each tagged "<mode> <k>", 3-4
    "<mode>"; and each tag's mode."""
    rng = random.Random(seed)
    notes, mode_of = [], {}
    for i in range(n):
        mode, k = rng.choice(list(MODES)), rng.randrange(5)
        tag = f"{mode} {k}" if k < 3 else mode
        mode_of[tag] = mode
        notes.append(Note(f"q{i}", MODES[mode][k].format(**{s: rng.choice(v) for s, v in SLOTS.items()}),
                          tags=(tag,)))
    return Notes(notes), mode_of


def adjusted_rand(a: list, b: list) -> float:
    """The adjusted Rand index of two labellings of the same items (Hubert and Arabie 1985):
    (sum_ij C(n_ij, 2) - E) / (((sum_i C(a_i, 2) + sum_j C(b_j, 2)) / 2) - E), E = sum_i C(a_i, 2)
    sum_j C(b_j, 2) / C(n, 2), over the contingency table n_ij and its margins a_i, b_j."""
    pairs = sum(comb(k, 2) for k in Counter(zip(a, b)).values())
    rows = sum(comb(k, 2) for k in Counter(a).values())
    cols = sum(comb(k, 2) for k in Counter(b).values())
    expected = rows * cols / comb(len(a), 2)
    top = (rows + cols) / 2 - expected
    return 1.0 if top == 0 else (pairs - expected) / top


def quality(proposals, truth: dict[str, str]) -> dict:
    """ARI over every note (a note in no proposal its own cluster), the mean purity of the
    proposals (weighted by size) and the share of notes in a proposal."""
    found = {}
    for k, p in enumerate(proposals):
        for qid, _ in p.keys:
            found[qid] = k
    qids = list(truth)
    ari = adjusted_rand([truth[q] for q in qids], [found.get(q, f"alone {q}") for q in qids])
    purest = sum(Counter(truth[q] for q, _ in p.keys).most_common(1)[0][1] for p in proposals)
    return {"ari": ari, "purity": purest / max(1, len(found)), "covered": len(found) / len(qids)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-groups", type=int, default=8)
    args = parser.parse_args()
    notes, truth = generate(args.n, args.seed)
    proposals = propose_groupings(notes, max_groups=args.max_groups)
    seconds = median_time(lambda: propose_groupings(notes, max_groups=args.max_groups), args.repeats)
    q = quality(proposals, truth)
    print(f"{args.n:,} notes, {len(MODES)} modes, load average {os.getloadavg()[0]:.1f}")
    print(f"propose_groupings: {seconds:.3f} s (median of {args.repeats})")
    print(f"adjusted Rand index {q['ari']:.3f}, purity {q['purity']:.3f}, notes in a proposal {q['covered']:.1%}")
    for p in proposals:
        modes = Counter(truth[qid] for qid, _ in p.keys).most_common(3)
        print(f"  {p.name!r:42} {len(p.keys):4}  {', '.join(f'{m} {k}' for m, k in modes)}")
    tagged, mode_of = split_tags(args.n, args.seed)
    merges = propose_merges(tagged, max_merges=100)
    seconds = median_time(lambda: propose_merges(tagged, max_merges=100), args.repeats)
    right = sum(mode_of[a] == mode_of[b] for a, b in (m.tags for m in merges))
    pairs = sum(comb(k, 2) for k in Counter(mode_of.values()).values())
    print(f"propose_merges over {len(mode_of)} tags (each mode tagged 4 ways): {seconds:.3f} s (median of "
          f"{args.repeats}); {len(merges)} merges proposed, {right} of them within one mode, of {pairs} such pairs")


if __name__ == "__main__":
    main()
