"""A throwaway PostgreSQL server for the tests: a cluster in a temporary folder, on a free
loopback port, run as an unprivileged user (``postgres`` when the tests run as root), stopped
at the end. Debian's ``postgresql`` package provides the programs (``.ci/run`` installs it)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def programs() -> Path | None:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl), if installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_owner(command: list[str]) -> list[str]:
    """``command`` run as an unprivileged user: PostgreSQL refuses to run as root."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def cluster(folder: Path) -> Iterator[str]:
    """A PostgreSQL server with its data in ``folder``: its URL (its ``postgres`` database,
    user ``postgres``, no password on loopback), until the end of the ``with``."""
    bin_dir = programs()
    assert bin_dir is not None
    data = folder / "data"
    data.mkdir(parents=True)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(data, "postgres")
    port = _free_port()
    run = {"check": True, "capture_output": True}
    subprocess.run(
        _as_owner([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"]),
        **run,  # type: ignore[call-overload]
    )
    options = f"-p {port} -h 127.0.0.1 -k {data} -F"
    pg_ctl = str(bin_dir / "pg_ctl")
    subprocess.run(
        _as_owner([pg_ctl, "-D", str(data), "-o", options, "-l", str(data / "log"), "-w", "start"]),
        **run,  # type: ignore[call-overload]
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_owner([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
            capture_output=True,
        )


def new_database(url: str, name: str) -> str:
    """A new, empty database on the server at ``url``: its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"
