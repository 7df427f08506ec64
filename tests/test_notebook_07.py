"""notebooks/07_error_analysis.ipynb runs top to bottom (nbclient, a real kernel), offline, leaves the
shipped notes files as they were, and what it prints (the queues, the modes' rates with their
intervals, the check) is what the human labels and its working notes give when worked out here by
hand: counts from the raw JSON lines, Clopper-Pearson from beta quantiles, the population interval
by a search over every count of the failing answers (hypergeometric tails)."""

from __future__ import annotations

import ast
import hashlib
import json
import re
from importlib.resources import files

import numpy as np
import pytest
from scipy.stats import beta, hypergeom

import ragwidgets as rw
from notebooks import execute

SYSTEMS = {"alpaca_7B": 40, "davinci001": 30}
MODES = {"contradicts the passage", "wrong number", "adds what the passages don't say", "wrong passage or entity",
         "hedges when the passage answers", "not a real failure"}
SHIPPED = {s: files("ragwidgets") / "data" / f"tutorial07_notes_{s}.jsonl" for s in SYSTEMS}


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nb07")  # the working copies of the notes go there
    before = {s: digest(p) for s, p in SHIPPED.items()}
    outputs, text = execute("07_error_analysis.ipynb", tmp)
    return outputs, text, tmp, before


def in_force(path) -> dict[str, set[str]]:
    """Per sample: the union of the tags of its notes in force (its own and its claims'), from the
    raw lines, a later line per (query_id, claim) winning."""
    latest = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        latest[(d["query_id"], d.get("claim"))] = set(d["tags"])
    out: dict[str, set[str]] = {}
    for (qid, _), tags in latest.items():
        out.setdefault(qid, set()).update(tags)
    return out


@pytest.fixture(scope="module")
def by_hand():
    """Per system: each sample's human labels and whether it fails (a claim not entailed)."""
    runs = rw.datasets.refchecker_human("noisy_context")
    labels = {s: {r["query_id"]: [x[0] for x in r["retrieved2response"]] for r in runs[s]} for s in SYSTEMS}
    failing = {s: [q for q, ls in labels[s].items() if ls and any(x != "Entailment" for x in ls)] for s in SYSTEMS}
    return labels, failing


def clopper_pearson(x: float, n: float, level: float = 0.95) -> tuple[float, float]:
    a = (1 - level) / 2
    lo = 0.0 if x <= 0 else beta.ppf(a, x, n - x + 1)
    hi = 1.0 if x >= n else beta.ppf(1 - a, x + 1, n - x)
    return float(lo), float(hi)


def test_runs_offline_on_copies_and_leaves_the_shipped_notes(executed):
    outputs, _, tmp, before = executed
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert {s: digest(p) for s, p in SHIPPED.items()} == before
    copies = {p.name for p in tmp.rglob("notes_*.jsonl")}
    assert copies == {f"notes_{s}.jsonl" for s in SYSTEMS}


def test_the_notes_are_on_the_seeded_queue_of_failing_answers(executed, by_hand):
    _, text, _, _ = executed
    _, failing = by_hand
    for s, n in SYSTEMS.items():
        said = re.search(rf"{s}: queue of (\d+) from (\d+) failing; notes on (\d+) answers .*read in the queue's "
                         rf"order: (\w+)", text)
        assert said, s
        assert (int(said.group(1)), int(said.group(2)), int(said.group(3)), said.group(4)) == \
               (n, len(failing[s]), n, "True")
        shipped = {q for q in in_force(SHIPPED[s])}
        assert shipped <= set(failing[s]) and len(shipped) == n


def test_after_merging_every_tag_is_one_of_six_modes_and_the_proposals_were_accepted(executed):
    _, text, tmp, _ = executed
    for s in SYSTEMS:
        tags = in_force(next(tmp.rglob(f"notes_{s}.jsonl")))
        assert set().union(*tags.values()) <= MODES
    assert "'contradicts the passage': 5 notes tagged" in text
    alpaca = in_force(next(tmp.rglob("notes_alpaca_7B.jsonl")))
    # the notes that say the answer is the opposite of the passages, untagged when shipped
    assert {"423918", "164078", "1080229", "540432"} <= {q for q, t in alpaca.items() if "contradicts the passage" in t}
    shipped = in_force(SHIPPED["alpaca_7B"])
    assert not any(shipped[q] for q in ("423918", "164078", "1080229", "540432"))


def test_the_rates_and_intervals_it_prints_are_the_hand_counts(executed, by_hand):
    _, text, tmp, _ = executed
    _, failing = by_hand
    rows = re.findall(r"^(\S+)\s+(.+?)\s+(\d+) of (\d+)\s+([\d.]+) \[([\d.]+), ([\d.]+)\]\s+failing ([\d.]+) "
                      r"\[([\d.]+), ([\d.]+)\]\s+run ([\d.]+) \[([\d.]+), ([\d.]+)\]$", text, re.M)
    assert len(rows) == len(SYSTEMS) * len(MODES)
    for run, mode, *numbers in rows:
        tagged, read = int(numbers[0]), int(numbers[1])
        rate, lo, hi, p, plo, phi, r, rlo, rhi = map(float, numbers[2:])
        tags = in_force(next(tmp.rglob(f"notes_{run}.jsonl")))
        assert (tagged, read) == (sum(mode in t for t in tags.values()), SYSTEMS[run]), (run, mode)
        assert rate == pytest.approx(tagged / read, abs=5e-4)
        assert (lo, hi) == pytest.approx(clopper_pearson(tagged, read), abs=5e-4)
        # a simple random sample of n from the N failing: the exact interval of the count K of
        # failing answers with the mode, by a search over every K (hypergeometric tails above 2.5%)
        N, n, share = len(failing[run]), read, tagged / read
        low = min(K for K in range(N + 1) if tagged == 0 or hypergeom.sf(tagged - 1, N, K, n) > 0.025)
        high = max(K for K in range(N + 1) if tagged == n or hypergeom.cdf(tagged, N, K, n) > 0.025)
        assert p == pytest.approx(share, abs=5e-4)
        assert (plo, phi) == pytest.approx((low / N, high / N), abs=5e-4)
        scale = N / 100
        assert (r, rlo, rhi) == pytest.approx((share * scale, plo * scale, phi * scale), abs=1.5e-3)


def test_the_check_it_prints_is_the_hand_confusion(executed, by_hand):
    _, text, tmp, _ = executed
    labels, _ = by_hand
    tags = in_force(next(tmp.rglob("notes_alpaca_7B.jsonl")))
    flagged = {q for q, ls in labels["alpaca_7B"].items() if "Contradiction" in ls}
    tagged = {q for q, t in tags.items() if "contradicts the passage" in t}
    tp, fp = len(flagged & tagged), len((flagged & set(tags)) - tagged)
    said = re.search(r"contradicts the passage ← signal contradicted_claim: catches (\d+) of (\d+) tagged .* "
                     r"right on (\d+) of (\d+) flagged .* flags (\d+) of (\d+) samples", text)
    assert said
    assert tuple(map(int, said.groups())) == (tp, len(tagged), tp, tp + fp, len(flagged), 100)
    false_alarms = re.search(r"its (\d+) false alarms carry: (\{.*\})", text)
    assert false_alarms and int(false_alarms.group(1)) == fp
    counted = {}
    for q in (flagged & set(tags)) - tagged:
        for t in tags[q]:
            counted[t] = counted.get(t, 0) + 1
    assert ast.literal_eval(false_alarms.group(2)) == counted
    assert np.isclose(tp / (tp + fp), 0.5) and tp == len(tagged)  # what the notebook's words say
