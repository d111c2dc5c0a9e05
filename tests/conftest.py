"""Suite-wide settings; the shared helpers live in tests/helpers.py."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
import textual.constants
from hypothesis import HealthCheck, settings

from tests.leaderboard.postgres import cluster, programs

# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set (as on the 2-core machine of
# issue 36): without it every process of a run (the -n auto workers, each collecting the whole
# suite) rewrote the asserts of ~170 test modules and compiled textmines again, 3 s of CPU
# each (collection: 3.9 s -> 1.0 s of CPU per process). The programs the tests start (pty,
# servers) then read textmines' bytecode too. Python checks it against the source's time and
# size, and pytest writes each file whole (a rename), so workers writing at once is safe.
sys.dont_write_bytecode = False

# Temporary folders (tmp_path) in memory where the machine has a tmpfs: the store's tests and
# every app that saves a game or its statistics sync their files to disk (fsync, SQLite's
# WAL), and on a disk the tests waited for it (tests/store: 22.8 s -> 11.2 s with -n 0; the
# CPU is the same). Numbered per run as in /tmp, so runs side by side do not meet. A root of
# one's own: export PYTEST_DEBUG_TEMPROOT.
if "PYTEST_DEBUG_TEMPROOT" not in os.environ and os.access("/dev/shm", os.W_OK | os.X_OK):
    os.environ["PYTEST_DEBUG_TEMPROOT"] = "/dev/shm"

# Textual's animations off for the apps the tests run in these processes, as
# TEXTUAL_ANIMATIONS=none sets them (the programs the tests start, in a terminal or a browser,
# keep theirs): a scroll, a tab's underline, a fade reaches its end at once, instead of after
# frames that the Pilot waits for and that are drawn for nobody. textmines animates nothing of
# its own, and every snapshot is the same. UI tests of the statistics, dialogs, keys and app:
# 23.9-28.1 s of CPU and 59-63 s of wall with -n 0 -> 22.3-24.5 s and 47-49 s. An explicit
# TEXTUAL_ANIMATIONS wins.
if "TEXTUAL_ANIMATIONS" not in os.environ:
    textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]


@pytest.hookimpl(optionalhook=True)  # pytest -p no:xdist has no such hook
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: three workers per core. A UI test spends about half its time waiting for
    Textual's event loop to go idle, so one worker per core leaves the cores half used.
    Measured on 2 cores: 4 workers 43-45 s, 6 workers 37-39 s, 8 workers 39 s (and on a
    slower 2-core machine 68-73 s with 4, 67-71 s with 6)."""
    return 3 * (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )


def pytest_collection_finish(session: pytest.Session) -> None:
    """Cheaper garbage collection for the test processes: what is alive after collection
    (Textual, hypothesis, the modules) is frozen out of every collection, and the youngest
    generation is collected every 10,000 allocations instead of 700. A UI test allocates
    Textual's many short-lived objects in bursts; with the defaults about a sixth of the
    suite's CPU went into rescanning the heap (measured: 140 s -> 121 s of CPU)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 50)


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None]:
    """Once every plugin has ended the session, and before the terminal's summary:

    - In an xdist worker, syrupy (the snapshot tests' plugin) goes: its part of the summary
      works out which snapshots no test used, matching each against every collected test,
      2-4 s of CPU a worker at the end of each run, for a summary nobody sees (under xdist
      no snapshot summary is printed). Its report is made; it is not printed.
    - pytest then collects garbage five times over to report the exceptions raised in
      finalizers, each time scanning every object still tracked (~0.1 s each in a worker).
      Collected here until a collection finds nothing, what is left is alive: frozen, those
      collections skip it and still see whatever a finalizer leaves.
    """
    yield
    if hasattr(session.config, "workerinput"):
        plugins = session.config.pluginmanager
        if plugins.get_plugin("syrupy") is not None:
            plugins.unregister(name="syrupy")
    while gc.collect():
        pass
    gc.freeze()


# Property tests: 100 examples each by default, the same ones on every run (derandomized: a
# red run is reproducible, and CI's verdict on a commit never rests on a lucky draw; random
# examples once failed CI on a real bug the local runs had not drawn). HYPOTHESIS_PROFILE=
# thorough draws 1000 fresh random examples per test: run it after touching the engine or
# the solver, and turn what it finds into fixed tests.
settings.register_profile(
    "default",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", settings.get_profile("default"), max_examples=1000, derandomize=False
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a throwaway PostgreSQL server; the test is skipped, saying why, without
    PostgreSQL's programs or psycopg. Its folder is in the system's temporary folder, which
    the server's user can reach (pytest's own may be the root's alone)."""
    pytest.importorskip("psycopg")
    if programs() is None:
        pytest.skip("no PostgreSQL on this machine (.ci/run installs Debian's postgresql)")
    with (
        tempfile.TemporaryDirectory(prefix="textmines-postgres-", dir="/tmp") as folder,
        cluster(Path(folder)) as url,
    ):
        yield url
