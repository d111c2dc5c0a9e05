"""The server's side of the fork server (``textmines.fork_server``): start it, ask it for
a tab's process, and hold that process as asyncio holds one it started itself (its standard
streams, its end, a kill).

The tab is not this server's child but the fork server's: its end is seen through a process
file descriptor (``os.pidfd_open``), which also makes a kill reach that process and no other
that took its number since. Where the system has no ``pidfd_open`` or no fork, there is no
fork server, and each tab is started as a program (``TabService``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Mapping, Sequence

log = logging.getLogger("textmines.serve")

#: The largest answer of the fork server (a process id, as JSON).
_MAX_ANSWER = 4096


def forking_supported() -> bool:
    return hasattr(os, "fork") and hasattr(os, "pidfd_open") and hasattr(socket, "send_fds")


class ForkedProcess:
    """A tab's process forked by the fork server, as ``asyncio.subprocess.Process`` is used by
    textual-serve: ``stdin``, ``stdout``, ``stderr``, ``pid``, ``returncode``, ``wait()``,
    ``kill()``. Its exit status is the fork server's to know: once it has ended,
    ``returncode`` is 0."""

    def __init__(
        self,
        pid: int,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
    ) -> None:
        self.pid = pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None
        self._ended = asyncio.Event()
        self._pidfd: int | None = None
        try:
            self._pidfd = os.pidfd_open(pid)
        except ProcessLookupError:  # it has ended already
            self._end()
            return
        asyncio.get_running_loop().add_reader(self._pidfd, self._end)

    def _end(self) -> None:
        if self._pidfd is not None:
            asyncio.get_running_loop().remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        self.returncode = 0
        self._ended.set()

    async def wait(self) -> int:
        await self._ended.wait()
        return 0

    def kill(self) -> None:
        if self._pidfd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)


class ForkServer:
    """The fork server this host started (``start``): ``spawn`` a tab, ``close`` it."""

    def __init__(self, process: asyncio.subprocess.Process, control: socket.socket) -> None:
        self._process = process
        self._control = control
        self._asking = asyncio.Lock()

    @classmethod
    async def start(cls, env: Mapping[str, str]) -> ForkServer | None:
        """Start the fork server with ``env`` (the tabs' environment: Textual reads some of it
        as it loads); None where forking is not supported."""
        if not forking_supported():
            return None
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "textmines.fork_server",
                str(theirs.fileno()),
                pass_fds=[theirs.fileno()],
                env=dict(env),
                stdin=asyncio.subprocess.DEVNULL,
            )
        ours.setblocking(False)
        return cls(process, ours)

    async def spawn(self, argv: Sequence[str], env: Mapping[str, str]) -> ForkedProcess:
        """A tab's process, forked with ``argv`` and ``env``; ``OSError`` when the fork server
        cannot start one (it has ended, or its fork failed)."""
        loop = asyncio.get_running_loop()
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        stderr_read, stderr_write = os.pipe()
        theirs = (stdin_read, stdout_write, stderr_write)
        ours = (stdin_write, stdout_read, stderr_read)
        request = json.dumps({"argv": list(argv), "env": dict(env)}).encode()
        try:
            async with self._asking:
                await _send(self._control, request, theirs)
                answer = await loop.sock_recv(self._control, _MAX_ANSWER)
            pid = int(json.loads(answer)["pid"]) if answer else 0
            if pid <= 0:
                raise OSError("the fork server could not start a tab" if answer else "it has ended")
        except BaseException:
            _close(ours)
            raise
        finally:
            _close(theirs)  # the tab's own ends: its process has them now
        stdin = await _writer(stdin_write)
        stdout, stderr = await _reader(stdout_read), await _reader(stderr_read)
        return ForkedProcess(pid, stdin, stdout, stderr)

    async def close(self) -> None:
        """End the fork server (its tabs go on, each until its page closes)."""
        with contextlib.suppress(OSError):
            self._control.close()
        with contextlib.suppress(asyncio.TimeoutError, ProcessLookupError):
            await asyncio.wait_for(self._process.wait(), 5)
            return
        with contextlib.suppress(ProcessLookupError):
            self._process.kill()
        await self._process.wait()


def _close(fds: Sequence[int]) -> None:
    for fd in fds:
        os.close(fd)


async def _send(control: socket.socket, request: bytes, fds: Sequence[int]) -> None:
    """Send ``request`` with ``fds`` (the socket does not block: a full one is tried again)."""
    while True:
        try:
            socket.send_fds(control, [request], list(fds))
            return
        except BlockingIOError:
            await asyncio.sleep(0.01)


async def _reader(fd: int) -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**16)
    await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", buffering=0)
    )
    return reader


async def _writer(fd: int) -> asyncio.StreamWriter:
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(fd, "wb", buffering=0)
    )
    return asyncio.StreamWriter(transport, protocol, None, loop)
