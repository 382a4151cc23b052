"""Typed records shared by the scorers, the cache and the result writers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SentenceInput:
    """What a scorer sees: the exact text to score (lower-cased for uncased models) and the
    suite's orthographic word spans (character offsets into `text`)."""

    text: str
    words: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class TokenScores:
    """Per-token natural-log probabilities of one sentence, with character offsets."""

    tokens: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    logprobs: tuple[float, ...]

    def __len__(self) -> int:
        return len(self.tokens)

    def to_json(self) -> dict[str, Any]:
        return {"tokens": list(self.tokens), "starts": list(self.starts),
                "ends": list(self.ends), "logprobs": list(self.logprobs)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TokenScores":
        return cls(tuple(data["tokens"]), tuple(data["starts"]), tuple(data["ends"]),
                   tuple(float(x) for x in data["logprobs"]))
