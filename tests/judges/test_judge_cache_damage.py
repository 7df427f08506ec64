"""A damaged cache entry is a miss, logged with its file at WARNING, never a crash."""

from __future__ import annotations

import sqlite3

import pytest

from ragwidgets.errors import RagWidgetsError
from ragwidgets.judges.cache import MISSING, DirectoryCache, JudgeCache


@pytest.mark.parametrize("damage", [b'{"operation": "check", "val', b"not json", b"\xff\xfe{}", b"[1, 2]",
                                    b'{"operation": "check"}', b'{"value": null}', b""])
def test_a_damaged_directory_cache_file_is_a_miss(tmp_path, caplog, damage):
    cache = DirectoryCache(tmp_path / "answers")
    cache.put("ab" * 32, "check", ["Entailment"])
    cache.put("cd" * 32, "check", ["Neutral"])
    file = tmp_path / "answers" / "ab" / f"{'ab' * 32}.json"
    file.write_bytes(damage)
    with caplog.at_level("WARNING", logger="ragwidgets.judges"):
        assert cache.get("ab" * 32) is MISSING
        assert cache.get_many(["ab" * 32, "cd" * 32]) == {"cd" * 32: ["Neutral"]}
        assert "ab" * 32 not in cache
    assert f"judge cache: {file} is damaged" in caplog.text
    cache.put("ab" * 32, "check", ["Contradiction"])  # asked again: stored over the damaged file
    assert cache.get("ab" * 32) == ["Contradiction"]


def test_a_damaged_sqlite_row_is_a_miss(tmp_path, caplog):
    cache = JudgeCache(tmp_path / "c.sqlite")
    cache.put("k1", "check", ["Entailment"])
    cache.put("k2", "check", ["Neutral"])
    cache.close()
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:  # edited by hand, or by another tool
        conn.execute("UPDATE judgements SET value = '[\"Entail' WHERE key = 'k1'")
    with caplog.at_level("WARNING", logger="ragwidgets.judges"):
        assert cache.get("k1") is MISSING
        assert cache.get_many(["k1", "k2"]) == {"k2": ["Neutral"]}
    assert f"judge cache: {tmp_path / 'c.sqlite'}, key k1 is damaged" in caplog.text
    cache.put("k1", "check", ["Entailment"])
    assert cache.get("k1") == ["Entailment"]


def test_a_file_that_is_no_database_is_named_not_a_crash(tmp_path):
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"this is not a sqlite file" * 100)
    with pytest.raises(RagWidgetsError, match=f"judge cache {path} cannot be used .*move it aside"):
        JudgeCache(path).get("k1")
