"""The garbage collector as the `hunter` command sets it: off while hunter loads, what loaded
frozen, a one-shot command collecting rarely but still collecting, and the service back on
Python's own thresholds. Each case runs in a Python of its own: the collector is the process's."""

from __future__ import annotations

from tests.support.cli import run_python


def python(code: str) -> str:
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_what_loads_is_frozen_and_a_one_shot_command_still_collects_its_cycles() -> None:
    out = python(
        """
        import gc
        from hunter.app import collector

        with collector.loading():
            assert not gc.isenabled()
            import hunter.app.cli  # noqa: F401
        assert gc.isenabled() and gc.get_freeze_count() > 10_000
        for _ in range(1_000_000):  # a million cycles: garbage only the collector can free
            cycle = []
            cycle.append(cycle)
        print(len(gc.get_objects()))
        """
    )
    assert int(out) < 2 * 50_000  # collected along the way, never a million held


def test_the_service_collects_as_python_does() -> None:
    out = python(
        """
        import gc
        defaults = gc.get_threshold()
        from hunter.app import collector

        with collector.loading():
            pass
        one_shot = gc.get_threshold()
        collector.serving()
        print(one_shot[0], gc.get_threshold() == defaults)
        """
    )
    assert out == "50000 True"
