"""The scorer tests reuse the fake chat-completions server of the judge tests (tests/judges/conftest.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pandas as pd
import pytest

_NAME = "ragwidgets_tests_judges_conftest"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).parents[1] / "judges" / "conftest.py")
    sys.modules[_NAME] = _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
_judges = sys.modules[_NAME]

SECRET = _judges.SECRET
chat_server = _judges.chat_server
api_secret = _judges.api_secret
make_judge = _judges.make_judge


def raw_frame() -> pd.DataFrame:
    """Two raw RAG outputs (no claims, no labels) whose fake-server judgements are worked out in the tests."""
    return pd.DataFrame(
        {
            "query": ["What is the capital of France?", "Which river flows through Paris?"],
            "target": ["Paris is the capital of France. Paris has the Louvre.", "The Seine flows through Paris."],
            "response": ["Paris is the capital of France. Lyon never hosted the Olympics.",
                         "Seine flows through Paris."],
            "context": [
                [{"doc_id": "d1", "text": "Paris is the capital of France."},
                 {"doc_id": "d2", "text": "The Louvre is in Paris. Paris has the Louvre."}],
                ["The Seine flows through Paris in France."],
            ],
        },
        index=pd.Index(["q1", "q2"], name="qid"),
    )


@pytest.fixture
def frame() -> pd.DataFrame:
    return raw_frame()


@pytest.fixture(autouse=True)
def _cache_dir(tmp_path, monkeypatch):
    """No test writes to the user's cache directory."""
    monkeypatch.setenv("RAGWIDGETS_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def rows(tmp_path, frame):
    """The raw frame as a JSONL file of rows (query_id, query, response, context, ...)."""
    path = tmp_path / "rows.jsonl"
    frame = frame.reset_index().rename(columns={"qid": "query_id"})
    path.write_text("\n".join(json.dumps(r) for r in frame.to_dict("records")))
    return path
