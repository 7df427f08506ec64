"""Each widget's display bundle where no widget can be drawn (issue 39 item 1): a text/html and a
text/plain summary beside the widget view, every data text escaped, no script, no URL, and bounded
for a 100,000-sample run (the first few means, saying how many there are)."""

import time
from html.parser import HTMLParser
import warnings

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.widgets.base import HEADLINE

HOSTILE = "<img src=x onerror=alert(1)>"
VIEW = "application/vnd.jupyter.widget-view+json"


def summaries(widget) -> tuple[str, str]:
    data, _ = widget._repr_mimebundle_()
    assert VIEW in data
    return data["text/html"], data["text/plain"]


class Tags(HTMLParser):
    """The elements and attribute names of a page, as a browser's parser reads them."""

    def __init__(self, page: str):
        super().__init__()
        self.tags, self.attrs = set(), set()
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)


def safe(page: str) -> None:
    """No element or attribute from the data: no script, image, handler or link (nothing fetched)."""
    read = Tags(page)
    assert not read.tags & {"script", "img", "iframe", "a", "link", "style", "object"}, read.tags
    assert not {a for a in read.attrs if a.startswith("on") or a in ("src", "href")}, read.attrs


@pytest.fixture(scope="module")
def big():
    """A 100,000-sample run under a hostile name, every text of it hostile too."""
    n = 100_000
    frame = pd.DataFrame({"user_input": [HOSTILE] * n, "response": [HOSTILE] * n,
                          "retrieved_contexts": [[HOSTILE]] * n,
                          "faithfulness": np.random.default_rng(0).random(n)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rw.DatasetExplorer({HOSTILE: frame})


def test_a_100k_sample_run_is_summarised_in_a_few_lines_with_its_name_escaped(big):
    start = time.perf_counter()
    page, text = summaries(big)
    assert time.perf_counter() - start < 1
    assert len(page) < 2_000 and len(text) < 1_000  # no per-row HTML
    assert "samples: 100000" in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in page  # the run named, as text
    assert f"run: {HOSTILE}" in text
    safe(page)


def test_more_means_than_shown_are_said_as_first_n_of_m():
    d = rw.DatasetExplorer(rw.datasets.synthetic_run(30, seed=2))
    page, text = summaries(d)
    total = len(d.view_state["summary"])
    assert total > HEADLINE
    assert f"shown: first {HEADLINE} of {total} means" in text
    assert f"first {HEADLINE} of {total} means" in page


def test_a_hostile_sample_is_escaped_in_the_sample_explorers_summary(example_samples):
    import dataclasses
    sample = example_samples[0]
    hostile = dataclasses.replace(sample, query_id=HOSTILE, query=HOSTILE) if dataclasses.is_dataclass(sample) \
        else {**sample, "query_id": HOSTILE, "query": HOSTILE}
    s = rw.SampleExplorer([hostile])
    page, text = summaries(s)
    assert HOSTILE in s._view.state["title"] or HOSTILE in text
    assert "&lt;img" in page
    safe(page)


def test_the_state_space_table_escapes_a_hostile_rule_and_has_no_script(harbor):
    harbor.scenario.citation_rules[HOSTILE] = harbor.scenario.citation_rules["None"]
    page, text = summaries(harbor.state_space("citation_precision"))
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    safe(page)
    assert "metric: Citation precision" in text
