"""The JS tests' fixtures (js/fixtures/*.json: the views, rows and selections the widgets' front
ends are tested on) are what the Python widgets make now: ``python js/fixtures/make_fixtures.py``
writes them, and a fixture left behind by a removed case fails here too."""

import importlib.util
import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "js" / "fixtures"


def written() -> dict:
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fixtures()


def test_js_fixtures_are_what_the_widgets_make_now():
    fixtures = written()
    assert {p.stem for p in FIXTURES.glob("*.json")} == set(fixtures), \
        "js/fixtures/ holds other files than make_fixtures.py writes: python js/fixtures/make_fixtures.py"
    for name, view in fixtures.items():
        stored = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
        assert stored == json.loads(json.dumps(view)), \
            f"js/fixtures/{name}.json is stale: python js/fixtures/make_fixtures.py"
    assert {"dataset_example", "dataset_compared", "dataset_repeats", "dataset_empty", "dataset_hostile"} <= set(fixtures)
