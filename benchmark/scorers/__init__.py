"""Scorers: per-token log-probabilities of sentences under causal and masked language models."""
