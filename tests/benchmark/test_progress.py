"""Without a terminal (logs, CI), scoring progress is printed as plain lines."""

from benchmark.commands import _plain_progress


def test_plain_progress_prints_every_five_percent(capsys):
    advance = _plain_progress("scoring", 100)
    for _ in range(100):
        advance(1)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 20
    assert lines[0].startswith("scoring: 5/100 (5%)")
    assert lines[-1].startswith("scoring: 100/100 (100%)")
