"""A GGUF is converted once even when several processes ask for it at the same moment
(ranks under torchrun start together on a fresh cache)."""

import threading
import time

from benchmark import gemma


def test_concurrent_requests_convert_once(tmp_path, monkeypatch):
    calls = []

    def slow_convert(target, gguf_in, info, bos_token):
        calls.append(target)
        time.sleep(0.3)  # a reader arriving now must wait, not see a half-written folder
        target.mkdir(parents=True)
        (target / gemma.MARKER).write_text("{}", encoding="utf-8")
        return target

    monkeypatch.setattr(gemma, "_convert", slow_convert)
    target = tmp_path / "models" / "tiny"
    seen = []

    def ask():
        out = gemma.convert_gguf(target, None, {})
        seen.append((out / gemma.MARKER).is_file())

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert seen == [True] * 4
