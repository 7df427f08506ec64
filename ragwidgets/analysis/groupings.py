"""Proposed groupings of untagged failure notes (error analysis's axial coding): which notes seem
to describe the same failure mode, each group with a name the analyst may accept as a tag.

Two sources: :func:`propose_groupings` (offline: TF-IDF of the notes' words and agglomerative
clustering) and :func:`propose_with_judge` (an LLM judge asked to group the numbered notes). A
:class:`Proposal` never changes a note: accepting one is ``NoteLog.tag(proposal.keys, name)``
(or ``Notes.tagged`` for the new versions to append), with its name or another.
"""

from __future__ import annotations

import math
import re
import warnings
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from scipy import sparse
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from ..engine.metrics import format_value
from ..errors import InputError
from ..judges.answers import find_json
from ..judges.errors import AnswerParseError
from ..notes import MAX_TAG, Note, as_notes, clean_tag

MAX_NOTES = 5_000  # notes clustered at most (a seeded random subset of them above)
MAX_CHARS = 4_000  # characters of a note's text read
THRESHOLD = 0.95  # cosine distance (average linkage) at which the tree is cut
TERMS = 6  # top terms kept per proposal
JUDGE_NOTES = 200  # notes sent to a judge at most
JUDGE_NOTE_CHARS = 400  # characters of a note's text sent to a judge
JUDGE_CHARS = 40_000  # characters of notes' text sent to a judge in all
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
STOP_WORDS = frozenset("""
a about above after again against all almost also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
during each either else even ever every few for from further get gets got had hadn't has hasn't have haven't
having he her here hers herself him himself his how however i i'm if in into is isn't it it's its itself
just least less let let's like many may me might more most much must mustn't my myself neither no nor not
now of off often on once one only or other others otherwise ought our ours ourselves out over own per quite
rather really same she should shouldn't since so some still such than that that's the their theirs them
themselves then there there's these they they're this those though through thus to too under until up upon
us very via was wasn't we we're were weren't what what's when where whether which while who whom whose why
will with within without won't would wouldn't yet you your yours yourself yourselves
""".split())
DOMAIN_WORDS = frozenset({"answer", "question", "response", "model", "sample", "say", "give"})  # in any note on a
# RAG failure: binding notes by them merged distinct modes in benchmarks/groupings.py


@dataclass(frozen=True)
class Proposal:
    """A proposed failure mode: ``name`` (a clean tag), ``keys`` the (query_id, claim) keys of the
    notes it groups (in the notes' order), ``terms`` the words that bind them (TF-IDF's top terms;
    the judge's: none), ``source`` "text" or "judge", ``why`` one line saying why."""

    name: str
    keys: tuple[tuple[str, int | None], ...]
    terms: tuple[str, ...]
    source: str
    why: str


def _fold(word: str) -> str:
    """Light plural folding: passages -> passage, queries -> query; -ss, -us, -is kept."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """The words of ``text`` (its first MAX_CHARS characters) a grouping compares: lower case, stop
    words, single letters, numbers and words over 40 letters dropped, plurals folded, then the words
    of DOMAIN_WORDS dropped."""
    words = _WORD.findall(text[:MAX_CHARS].lower().replace("\u2019", "'"))
    folded = [_fold(w) for w in words if w not in STOP_WORDS and 1 < len(w) <= 40 and not w.isdigit()]
    return [w for w in folded if w not in DOMAIN_WORDS]


def terms_of(text: str) -> list[str]:
    """A note's terms: its words (:func:`tokens`) and each pair of words that follow each other
    once stop words are dropped ("wrong date")."""
    words = tokens(text)
    return words + [f"{a} {b}" for a, b in zip(words, words[1:])]


def tfidf(texts: list[str]) -> tuple[sparse.csr_matrix, list[str]]:
    """The L2-normalised TF-IDF matrix of ``texts`` (a row per text; tf 1 + log count, idf
    log((1 + n) / (1 + df)) + 1) over the terms in at least two texts, and those terms (sorted)."""
    counts = [Counter(terms_of(t)) for t in texts]
    df = Counter(term for c in counts for term in c)
    vocabulary = sorted(term for term, k in df.items() if k >= 2)
    index = {term: j for j, term in enumerate(vocabulary)}
    rows, cols, vals = [], [], []
    for i, c in enumerate(counts):
        for term, k in c.items():
            j = index.get(term)
            if j is not None:
                rows.append(i)
                cols.append(j)
                vals.append(1.0 + math.log(k))
    n = len(texts)
    idf = np.array([math.log((1 + n) / (1 + df[t])) + 1.0 for t in vocabulary])
    x = sparse.csr_matrix((vals, (rows, cols)), shape=(n, len(vocabulary)), dtype=float)
    x = x.multiply(idf[None, :]).tocsr() if vocabulary else x
    norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.csr_matrix(sparse.diags(1.0 / norms) @ x), vocabulary


def clusters(x: sparse.csr_matrix, threshold: float) -> np.ndarray:
    """A cluster number per row of ``x`` (L2-normalised rows): average linkage on cosine distance,
    the tree cut at ``threshold``. A row of zeros (no shared term) is at distance 1 from every row."""
    n = x.shape[0]
    if n < 2:
        return np.ones(n, dtype=int)
    distance = (x @ x.T).toarray()
    np.clip(distance, 0.0, 1.0, out=distance)
    np.subtract(1.0, distance, out=distance)
    np.fill_diagonal(distance, 0.0)
    tree = linkage(squareform(distance, checks=False), method="average")
    return fcluster(tree, t=threshold, criterion="distance")


def _checked(name: str, value, low: int) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool) or value < low:
        raise InputError(f"must be a whole number of at least {low}, not {value!r:.80}", field=name)
    return int(value)


def _name(terms: list[str], weights: list[float]) -> str:
    """2 or 3 top terms joined by " / " (a third only when it weighs at least half the first), none
    repeating a word of an earlier one; a clean tag."""
    chosen: list[str] = []
    for term, weight in zip(terms, weights):
        if len(chosen) == 3 or (len(chosen) == 2 and weight < weights[0] / 2):
            break
        if any(set(term.split()) & set(c.split()) for c in chosen):
            continue
        chosen.append(term)
    return clean_tag(" / ".join(chosen)[:MAX_TAG].rstrip(" /"), "name")


def propose_groupings(notes, *, max_groups: int = 8, min_size: int = 2, seed: int = 0,
                      threshold: float = THRESHOLD) -> list[Proposal]:
    """Groups of the untagged notes (``notes.untagged()``: text and no tag) whose texts are alike,
    largest first, at most ``max_groups``, each of at least ``min_size`` notes.

    TF-IDF of each note's words and word pairs (:func:`terms_of`: lower case, stop words and
    DOMAIN_WORDS dropped, plurals folded; each note's first MAX_CHARS characters; terms in two
    notes or more), rows
    L2-normalised; agglomerative clustering with average linkage on cosine distance, the tree cut
    at ``threshold`` (0.95: the notes of a group are on average at least 0.05 alike). A proposal's
    ``name`` is its 2-3 top terms ("wrong date / year", a clean tag), ``terms`` its top terms by
    mean weight in the group, ``why`` e.g. "5 notes share 'wrong date', 'year' (cohesion 0.62)"
    (the terms in at least half its notes; cohesion: the mean cosine similarity of its pairs).
    Over MAX_NOTES untagged notes, a random subset of MAX_NOTES (drawn with ``seed``) is
    clustered and the others are in no proposal. Deterministic: ``seed`` draws that subset and
    breaks ties of size and cohesion in the order of proposals. Never changes a note: accept a
    proposal with ``NoteLog.tag(proposal.keys, proposal.name)``.
    """
    max_groups = _checked("max_groups", max_groups, 1)
    min_size = _checked("min_size", min_size, 2)
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or not 0 < threshold <= 1:
        raise InputError(f"must be a cosine distance above 0 and at most 1, not {threshold!r:.80}", field="threshold")
    rng = np.random.default_rng(seed)
    items = as_notes(notes).untagged()
    if len(items) > MAX_NOTES:
        items = [items[i] for i in sorted(rng.choice(len(items), MAX_NOTES, replace=False))]
    if len(items) < min_size:
        return []
    x, vocabulary = tfidf([n.note for n in items])
    labels = clusters(x, float(threshold))
    groups = [np.flatnonzero(labels == k) for k in np.unique(labels)]
    groups = [g for g in groups if len(g) >= min_size and x[g].nnz]
    cohesion = [_cohesion(x[g]) for g in groups]
    ties = rng.permutation(len(groups))
    order = sorted(range(len(groups)), key=lambda i: (-len(groups[i]), -round(cohesion[i], 9), ties[i]))[:max_groups]
    proposals, names = [], Counter()
    for i in order:
        proposal = _proposal([items[j] for j in groups[i]], x[groups[i]], vocabulary, cohesion[i])
        names[proposal.name] += 1
        if names[proposal.name] > 1:  # two groups named alike: the later one numbered
            proposal = _renamed(proposal, f"{proposal.name[:MAX_TAG - 4]} ({names[proposal.name]})")
        proposals.append(proposal)
    return proposals


def _cohesion(rows: sparse.csr_matrix) -> float:
    """The mean cosine similarity of the pairs of ``rows`` (L2-normalised or zero): from their sum s,
    (|s|^2 - rows that are not zero) / (n (n - 1))."""
    n = rows.shape[0]
    total = np.asarray(rows.sum(axis=0)).ravel()
    nonzero = int((rows.getnnz(axis=1) > 0).sum())
    return float((total @ total - nonzero) / (n * (n - 1)))


def _proposal(items: list[Note], rows: sparse.csr_matrix, vocabulary: list[str], cohesion: float) -> Proposal:
    weight = np.asarray(rows.mean(axis=0)).ravel()
    present = np.asarray((rows > 0).sum(axis=0)).ravel()
    top = [j for j in np.lexsort((np.arange(len(weight)), -weight)) if weight[j] > 0][:TERMS]
    terms = [vocabulary[j] for j in top]
    shared = [vocabulary[j] for j in top if present[j] * 2 >= len(items)][:3]
    why = (f"{len(items)} notes share {', '.join(repr(t) for t in shared)}" if shared
           else f"{len(items)} notes use alike words") + f" (cohesion {format_value(cohesion)})"
    return Proposal(_name(terms, [float(weight[j]) for j in top]), tuple(n.key for n in items), tuple(terms),
                    "text", why)


def _renamed(proposal: Proposal, name: str) -> Proposal:
    return Proposal(clean_tag(name, "name"), proposal.keys, proposal.terms, proposal.source, proposal.why)


def propose_with_judge(notes, judge, *, max_groups: int = 8) -> list[Proposal]:
    """Groups of the untagged notes (``notes.untagged()``) that an LLM judge names as failure modes,
    largest first, at most ``max_groups`` (``source`` "judge", no ``terms``).

    One request (``judge.ask("group", ...)``: an OpenAICompatibleJudge, with its retries and cache)
    numbers the notes: the first JUDGE_NOTES, each note's text on one line cut to JUDGE_NOTE_CHARS
    characters, JUDGE_CHARS in all; the notes left out are said in a warning and in each ``why``.
    The reply is validated whole (:func:`read_groups`): a reply that does not validate is asked
    again as the judge retries, then a JudgeError naming what was wrong; nothing of it is cached
    or proposed. Never changes a note: accept a proposal with ``NoteLog.tag(proposal.keys, name)``.
    """
    max_groups = _checked("max_groups", max_groups, 1)
    if not callable(getattr(judge, "ask", None)):
        raise TypeError(f"{type(judge).__name__} cannot group notes: a judge with a chat model "
                        "(OpenAICompatibleJudge) can")
    items = as_notes(notes).untagged()
    lines, total = [], 0
    for note in items[:JUDGE_NOTES]:
        text = " ".join(note.note.split())[:JUDGE_NOTE_CHARS]
        if total + len(text) > JUDGE_CHARS:
            break
        lines.append(text)
        total += len(text)
    if len(lines) < 2:
        return []
    left = len(items) - len(lines)
    if left:
        warnings.warn(f"the judge is asked about the first {len(lines)} of {len(items)} untagged notes "
                      f"({left} left out: at most {JUDGE_NOTES} notes and {JUDGE_CHARS:,} characters)",
                      stacklevel=2)
    numbered = "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
    groups = judge.ask("group", lambda content: read_groups(content, len(lines), max_groups),
                       notes=numbered, max_groups=str(max_groups))
    asked = f"of the {len(lines)} notes asked" + (f", {left} untagged notes left out" if left else "")
    model = getattr(judge, "model", "") or type(judge).__name__
    proposals = [Proposal(g["name"], tuple(items[i - 1].key for i in sorted(g["notes"])), (), "judge",
                          f"{model} put {len(g['notes'])} notes here ({asked})") for g in groups]
    return sorted(proposals, key=lambda p: -len(p.keys))


def read_groups(content: str, n: int, max_groups: int) -> list[dict]:
    """The groups of a judge's reply, validated whole: JSON ``{"groups": [{"name": ..., "notes":
    [...]}]}`` (or the list alone), at most ``max_groups`` groups, each name a clean tag
    (:func:`~ragwidgets.notes.clean_tag`; HTML in it is text) used once, each group's notes whole
    numbers 1 to ``n``, each note in one group at most. Else AnswerParseError saying what is wrong.
    Returns ``[{"name": tag, "notes": [numbers]}]``."""
    value = find_json(content)
    if isinstance(value, Mapping) and set(value) == {"groups"}:
        value = value["groups"]
    if not isinstance(value, list):
        raise AnswerParseError(f'expected {{"groups": [...]}} or a list of groups, got {type(value).__name__}')
    if len(value) > max_groups:
        raise AnswerParseError(f"{len(value)} groups, more than the {max_groups} asked for")
    out, names, seen = [], set(), {}
    for k, group in enumerate(value, start=1):
        if not isinstance(group, Mapping) or not {"name", "notes"} <= set(group):
            raise AnswerParseError(f'group {k} is not an object with "name" and "notes"')
        try:
            name = clean_tag(group["name"])
        except InputError as err:
            raise AnswerParseError(f"group {k}'s name: {err.detail}") from None
        if name in names:
            raise AnswerParseError(f"group {k}'s name {name!r} names an earlier group too")
        numbers = group["notes"]
        if not isinstance(numbers, list) or not numbers:
            raise AnswerParseError(f"group {k}'s notes are not a non-empty list of note numbers")
        for i in numbers:
            if not isinstance(i, int) or isinstance(i, bool) or not 1 <= i <= n:
                raise AnswerParseError(f"group {k} names note {i!r:.40}, not a note number 1 to {n}")
            if i in seen:
                raise AnswerParseError(f"group {k} names note {i} twice" if seen[i] == k
                                       else f"note {i} is in group {seen[i]} and group {k}")
            seen[i] = k
        names.add(name)
        out.append({"name": name, "notes": list(numbers)})
    return out


@dataclass(frozen=True)
class Merge:
    """A proposed merge of two tags whose notes read alike: ``tags`` (the two), ``into`` the one
    kept (carried by more samples), ``similarity`` the cosine similarity of their notes' mean TF-IDF
    vectors, ``why`` one line. Accepting it is ``NoteLog.merge(merge.tags, merge.into)``."""

    tags: tuple[str, str]
    into: str
    similarity: float
    why: str


def propose_merges(notes, *, min_similarity: float = 0.3, max_merges: int = 8) -> list[Merge]:
    """Pairs of tags whose notes' texts are alike, most alike first, at most ``max_merges``: per tag
    the mean of the TF-IDF rows (:func:`tfidf` over the notes in force with text and a tag, the first
    MAX_NOTES of them) of the notes that
    carry it, the pairs whose means have a cosine similarity of at least ``min_similarity``. A note
    carrying both tags counts for each. Never changes a note: accept one with
    ``NoteLog.merge(merge.tags, merge.into)``."""
    max_merges = _checked("max_merges", max_merges, 1)
    if not isinstance(min_similarity, (int, float)) or isinstance(min_similarity, bool) or not 0 < min_similarity <= 1:
        raise InputError(f"must be a cosine similarity above 0 and at most 1, not {min_similarity!r:.80}",
                         field="min_similarity")
    notes = as_notes(notes)
    items = [n for n in notes if n.note.strip() and n.tags][:MAX_NOTES]
    tags = sorted({t for n in items for t in n.tags})
    if len(tags) < 2:
        return []
    x, _ = tfidf([n.note for n in items])
    index = {t: k for k, t in enumerate(tags)}
    rows = [(index[t], i) for i, n in enumerate(items) for t in n.tags]  # (tag, note) carried
    carry = sparse.csr_matrix(([1.0] * len(rows), tuple(zip(*rows))), shape=(len(tags), len(items)))
    means = (sparse.diags(1.0 / np.asarray(carry.sum(axis=1)).ravel()) @ carry @ x).toarray()
    norms = np.linalg.norm(means, axis=1)
    norms[norms == 0] = 1.0
    similar = (means / norms[:, None]) @ (means / norms[:, None]).T
    samples = notes.tags
    pairs = sorted(((float(similar[a, b]), tags[a], tags[b]) for a in range(len(tags)) for b in range(a + 1, len(tags))
                    if similar[a, b] >= min_similarity), key=lambda p: (-round(p[0], 9), p[1], p[2]))
    out = []
    for similarity, a, b in pairs[:max_merges]:
        into = a if (samples[a], b) >= (samples[b], a) else b  # more samples; a tie: the first in order
        out.append(Merge((a, b), into, similarity, f"the notes tagged {a!r} ({samples[a]} samples) and {b!r} "
                                                    f"({samples[b]}) read alike (similarity {format_value(similarity)})"))
    return out
