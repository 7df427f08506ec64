"""Each vocabulary has one home: the label table in model.py, the metrics' labels in metrics.py."""

import json

import pytest

from ragwidgets import _fastload as fastload, loaders
from ragwidgets.engine.metrics import METRICS, REQUIRED_PREFIX, metric_label, metric_of
from ragwidgets.errors import InputError
from ragwidgets.judges.answers import ENTAILMENT_SYNONYMS, IMPORTANCE_SYNONYMS
from ragwidgets.judges.results import EntailmentLabel
from ragwidgets.model import IMPORTANCE_LABELS, LABEL_CODES, LABEL_SPELLINGS, UNJUDGED
from ragwidgets.widgets._view import LOWER_IS_BETTER

WORDS = [*LABEL_SPELLINGS, *(s.upper() for s in LABEL_SPELLINGS), *(f" {s.lower()} " for s in LABEL_SPELLINGS),
         "Entailed", "Supported", "Contradicts", "neutrality", "", "1", 1, 0, True, False, None]


def record(label):
    return {"query_id": "q", "response_claims": [["a", "b", "c"]], "answer2response": [label]}


def loaded(label):
    try:
        return int(loaders.parse_sample(record(label)).answer2response[0])
    except InputError:
        return None


def fast(label):
    flat = fastload.read_flat(json.dumps([record(label)]).encode(), jsonl=False)
    return None if flat is None else int(flat.labels["answer2response"][0])


def test_the_loaders_accept_the_tables_spellings_in_any_case_and_nothing_else():
    accepted = {w: loaded(w) for w in WORDS if loaded(w) is not None}
    expected = {w: LABEL_CODES[s] for s in LABEL_SPELLINGS for w in WORDS
                if isinstance(w, str) and w.strip().lower() == s.lower()}
    assert accepted == {**expected, True: 1, False: 0, None: UNJUDGED}


def test_the_fast_loader_takes_exactly_the_tables_spellings_with_the_same_codes():
    accepted = {w: fast(w) for w in WORDS if fast(w) is not None}
    assert accepted == {**{s: LABEL_CODES[s] for s in LABEL_SPELLINGS}, None: UNJUDGED}


def test_the_judges_write_the_tables_spellings():
    assert set(EntailmentLabel.__args__) == set(LABEL_SPELLINGS)
    assert set(ENTAILMENT_SYNONYMS.values()) == set(LABEL_SPELLINGS)
    assert set(IMPORTANCE_SYNONYMS.values()) == set(IMPORTANCE_LABELS)


def test_the_fast_loader_reads_only_fields_the_loaders_know():
    assert set(fastload.PlainRecord.__struct_fields__) <= loaders.KNOWN_FIELDS


@pytest.mark.parametrize("name", list(METRICS))
def test_views_take_a_metrics_label_and_direction_from_its_definition(name):
    assert metric_label(name) == METRICS[name].label
    assert metric_label(REQUIRED_PREFIX + name) == f"{METRICS[name].label} (required)"
    assert metric_of(REQUIRED_PREFIX + name) is metric_of(name) is METRICS[name]
    assert (name in LOWER_IS_BETTER) == METRICS[name].lower_is_better



def test_a_name_that_is_no_metrics_is_its_own_label():
    assert metric_label("n_claims") == "n_claims" and metric_label("required_n_claims") == "required_n_claims"
