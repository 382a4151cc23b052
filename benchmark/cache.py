"""Score cache: one SQLite file per (model, revision, scorer, dtype, ...), one row per sentence.

Scorers hand back finished chunks of sentences; each chunk is committed at once, so an
interrupted run resumes without recomputing what was finished."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from benchmark.gemma import cache_root
from benchmark.records import SentenceInput, TokenScores

FORMAT = 1


def cache_key(**parts: object) -> str:
    blob = json.dumps({"format": FORMAT, **parts}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def sentence_key(s: SentenceInput, with_words: bool) -> str:
    return json.dumps([s.text, [list(w) for w in s.words]] if with_words else s.text, ensure_ascii=False)


class ScoreCache:
    def __init__(self, key: str, root: Path | None = None, with_words: bool = False, enabled: bool = True):
        self.with_words, self.enabled = with_words, enabled
        self.path = (root or cache_root() / "scores") / f"{key}.sqlite"
        self._db = None
        if enabled:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path)
            self._db.execute("CREATE TABLE IF NOT EXISTS scores (sentence TEXT PRIMARY KEY, data TEXT NOT NULL)")

    def get_many(self, inputs: list[SentenceInput]) -> dict[SentenceInput, TokenScores]:
        if self._db is None:
            return {}
        keys = {sentence_key(s, self.with_words): s for s in inputs}
        found, names = {}, list(keys)
        for a in range(0, len(names), 500):
            part = names[a:a + 500]
            rows = self._db.execute(
                f"SELECT sentence, data FROM scores WHERE sentence IN ({','.join('?' * len(part))})", part)
            for key, data in rows:
                found[keys[key]] = TokenScores.from_json(json.loads(data))
        return found

    def put_many(self, pairs: list[tuple[SentenceInput, TokenScores]]) -> None:
        if self._db is None:
            return
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO scores VALUES (?, ?)",
                [(sentence_key(s, self.with_words), json.dumps(t.to_json())) for s, t in pairs])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
