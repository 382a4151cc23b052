"""Score cache: one SQLite file per (model, revision, scorer, dtype, ...), one row per sentence.

Scorers hand back finished chunks of sentences; each chunk is committed at once, so an
interrupted run resumes without recomputing what was finished. Several processes may share
one cache file (two runs of the same model, or the ranks of one run): the file is in WAL
mode, waits for another writer's lock instead of failing, and retries a write that still
finds the database locked. Rows are immutable (same sentence, same scores), so concurrent
writers cannot disagree. A file that is not a readable SQLite database is set aside (renamed
`*.corrupt-N`) with a one-line message, and a new cache is started."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from pathlib import Path

from benchmark.errors import BenchError
from benchmark.faults import pause
from benchmark.gemma import cache_root
from benchmark.records import SentenceInput, TokenScores

FORMAT = 1
BUSY_TIMEOUT_S = 60.0     # how long one statement waits for another process's lock
LOCKED_RETRIES = 20       # then a locked write is retried this many times, with growing pauses


def cache_key(**parts: object) -> str:
    blob = json.dumps({"format": FORMAT, **parts}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def sentence_key(s: SentenceInput, with_words: bool) -> str:
    return json.dumps([s.text, [list(w) for w in s.words]] if with_words else s.text, ensure_ascii=False)


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


def _retry_locked(action):
    """Run `action()`, retrying while SQLite reports the database locked or busy."""
    for attempt in range(LOCKED_RETRIES + 1):
        try:
            return action()
        except sqlite3.OperationalError as exc:
            text = str(exc).lower()
            if ("locked" not in text and "busy" not in text) or attempt == LOCKED_RETRIES:
                raise
            time.sleep(min(0.05 * 2 ** attempt, 2.0))


class ScoreCache:
    def __init__(self, key: str, root: Path | None = None, with_words: bool = False, enabled: bool = True):
        self.with_words, self.enabled = with_words, enabled
        self.path = (root or cache_root() / "scores") / f"{key}.sqlite"
        self._db = None
        if enabled:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise BenchError(f"score cache folder {self.path.parent}: cannot be created ({exc.strerror}); "
                                 "set ISOLE_CACHE_DIR to a writable folder or pass --no-cache") from None
            self._db = self._open()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        _retry_locked(lambda: db.execute("PRAGMA journal_mode = WAL"))
        check = _retry_locked(lambda: db.execute("PRAGMA quick_check").fetchone())
        if not check or check[0] != "ok":
            db.close()
            raise sqlite3.DatabaseError(f"quick_check: {check[0] if check else 'no answer'}")
        _retry_locked(lambda: db.execute(
            "CREATE TABLE IF NOT EXISTS scores (sentence TEXT PRIMARY KEY, data TEXT NOT NULL)"))
        return db

    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "unable to open" in str(exc):
                raise BenchError(f"score cache {self.path}: cannot be opened ({exc}); set ISOLE_CACHE_DIR "
                                 "to a writable folder or pass --no-cache") from None
            if isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc)):
                raise BenchError(f"score cache {self.path}: still locked by another process after "
                                 f"{BUSY_TIMEOUT_S:.0f} s; try again when it has finished") from None
            aside = self._set_aside()
            _warn(f"score cache {self.path.name} was not a readable database ({exc}); moved it to "
                  f"{aside.name} and started a new one")
            return self._connect()

    def _set_aside(self) -> Path:
        n = 1
        while (aside := self.path.with_name(f"{self.path.name}.corrupt-{n}")).exists():
            n += 1
        os.replace(self.path, aside)
        for suffix in ("-wal", "-shm"):   # the old file's journal must not be applied to the new one
            extra = self.path.with_name(self.path.name + suffix)
            if extra.exists():
                os.replace(extra, aside.with_name(aside.name + suffix))
        return aside

    def get_many(self, inputs: list[SentenceInput]) -> dict[SentenceInput, TokenScores]:
        if self._db is None:
            return {}
        keys = {sentence_key(s, self.with_words): s for s in inputs}
        found, names = {}, list(keys)
        for a in range(0, len(names), 500):
            part = names[a:a + 500]
            rows = _retry_locked(lambda: self._db.execute(
                f"SELECT sentence, data FROM scores WHERE sentence IN ({','.join('?' * len(part))})", part).fetchall())
            for key, data in rows:
                try:
                    found[keys[key]] = TokenScores.from_json(json.loads(data))
                except (ValueError, KeyError, TypeError):   # a damaged row: score it again
                    continue
        return found

    def put_many(self, pairs: list[tuple[SentenceInput, TokenScores]]) -> None:
        if self._db is None:
            return
        rows = [(sentence_key(s, self.with_words), json.dumps(t.to_json())) for s, t in pairs]

        def commit() -> None:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # A row another process committed first holds the same scores; replacing it
                # also repairs a damaged row.
                self._db.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?)", rows)
                pause("cache-commit")
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        _retry_locked(commit)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
