"""Other programs' replay files under attack (issue 46: 12, 15, 19, 24): names kept through
an export, a Minesweeper Clone version said, millions of pointer moves read cheaply, a file
name that is not UTF-8.

ms-toollib runs in child processes only: it aborts its process on input it dislikes.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from tests.factories import played_game
from textmines.replays.evf import export_evf
from textmines.replays.foreign import ReplayFileError, read_replay_file
from textmines.replays.recording import Recording

needs_toollib = pytest.mark.skipif(
    importlib.util.find_spec("ms_toollib") is None, reason="needs ms-toollib"
)


@needs_toollib
def test_a_replay_whose_file_name_is_not_utf8_is_read(tmp_path: Path) -> None:
    # Issue 46.24: ms-toollib takes a file name as UTF-8 text; such a file was "damaged".
    recording = Recording.of(played_game(9, 9, 10, 1))
    path = tmp_path / os.fsdecode(b"game-\xff.evf")
    path.write_bytes(export_evf(recording))
    replay = read_replay_file(path)
    assert replay.recording.game().view_text() == recording.game().view_text()
    assert replay.path == path


@pytest.mark.slow  # three readings by ms-toollib in child processes
@needs_toollib
def test_exporting_another_programs_replay_keeps_its_player_and_program(tmp_path: Path) -> None:
    # Issue 46.12: `e` in the viewer wrote the .evf without them.
    from textmines.replays.evf import EvfInfo, evf_bytes

    recording = Recording.of(played_game(9, 9, 10, 1))
    info = EvfInfo(bbbv=1, won=False, no_flags=False, software="Viennasweeper 3.1", player="Zoë")
    original = tmp_path / "theirs.evf"
    original.write_bytes(evf_bytes(recording, info))
    foreign = read_replay_file(original).recording
    exported = tmp_path / "exported.evf"
    exported.write_bytes(export_evf(foreign))  # what the viewer's `e` writes
    again = read_replay_file(exported)  # read by ms-toollib
    assert again.player == "Zoë"
    assert again.software.startswith("Viennasweeper 3.1 via textmines ")
    # Exported once more, the program is still the one the game was played in.
    exported.unlink()
    exported.write_bytes(export_evf(again.recording))
    assert read_replay_file(exported).software == again.software


def clone_file(head: bytes) -> bytes:
    """A .mvf file that begins with ``head``, long enough for any header."""
    return head + bytes(300 - len(head))


#: The first bytes of each Minesweeper Clone version, as the format's readers tell them.
CLONE = {
    "2007": clone_file(b"\x11\x4d" + bytes(25) + b"7" + bytes(25) + b"\x0a2007 beta1"),
    "2006": clone_file(b"\x11\x4d" + bytes(25) + b"6" + bytes(25) + b"\x00"),
    "0.97 beta (the Funny Mode hack)": clone_file(b"\x11\x4d" + bytes(25) + b"8"),
    "0.97 beta (an unknown hack)": clone_file(b"\x00\x00\x05"),
    "0.96 beta or earlier": clone_file(bytes([16, 16, 0, 40])),
}


@pytest.mark.parametrize(("version", "data"), CLONE.items(), ids=CLONE.keys())
def test_a_minesweeper_clone_file_of_another_version_is_refused_for_its_version(
    tmp_path: Path, version: str, data: bytes
) -> None:
    # Issue 46.15: they were "damaged or another format" (ms-toollib reads 0.97 only).
    path = tmp_path / "old.mvf"
    path.write_bytes(data)
    shown = "2007 beta1" if version == "2007" else version
    with pytest.raises(ReplayFileError) as refused:
        read_replay_file(path)
    assert str(refused.value) == (
        f"{path}: Minesweeper Clone {shown} replays are not supported; textmines reads those "
        "of Minesweeper Clone 0.97 beta only"
    )


def test_a_mvf_file_of_no_version_is_not_a_clone_replay(tmp_path: Path) -> None:
    path = tmp_path / "noise.mvf"
    path.write_bytes(clone_file(b"\x11\x4d" + bytes(25) + b"x"))
    with pytest.raises(ReplayFileError, match="not a readable Minesweeper Clone replay"):
        read_replay_file(path)
    path.write_bytes(b"PK\x03\x04 not a replay at all" * 20)
    with pytest.raises(ReplayFileError, match="not a readable Minesweeper Clone replay"):
        read_replay_file(path)


# ------------------------------------------------------------------ 19: millions of moves
def with_moves(plain: bytes, moves: int, step: int, gap_ms: int = 0) -> bytes:
    """The .evf file ``plain`` with ``moves`` pointer moves after its first click,
    ``gap_ms`` apart, ``step`` pixels right then back left again (within its cell, or from
    cell to cell), each 6 bytes, as an attacker's 19.8 MB of 3.3 million."""
    import struct

    from textmines.replays.evf_moves import _events_start

    start = _events_start(plain)
    assert start is not None
    # Past the first event (6 bytes) and two more (6 bytes each, when no pause is between).
    at = start + 18
    assert plain[at - 6] in (1, 2, 3, 4, 5)
    jitter = b"".join(
        struct.pack(">BBhh", 1, gap_ms, step if n % 2 == 0 else -step, 0) for n in range(moves)
    )
    if moves % 2:
        jitter += struct.pack(">BBhh", 1, 0, -step, 0)  # back where it was
    return plain[:at] + jitter + plain[at:]


@pytest.mark.slow  # four readings by ms-toollib in child processes
@needs_toollib
def test_pointer_moves_within_a_cell_are_read_as_if_they_were_not_there(
    tmp_path: Path,
) -> None:
    # Issue 46.19: 3.3 million of them took 25 s and 2.3 GB; now they never reach ms-toollib.
    recording = Recording.of(played_game(9, 9, 10, 3))
    plain, jittery = tmp_path / "plain.evf", tmp_path / "jittery.evf"
    plain.write_bytes(export_evf(recording))
    jittery.write_bytes(with_moves(export_evf(recording), 5_000, 1))
    assert read_replay_file(jittery).recording == read_replay_file(plain).recording
    # 1 ms apart, the moves make what follows them 5 s later, and nothing else.
    jittery.write_bytes(with_moves(export_evf(recording), 5_000, 1, gap_ms=1))
    later, before = read_replay_file(jittery).recording, read_replay_file(plain).recording
    assert [a[:3] for a in later.actions] == [a[:3] for a in before.actions]
    assert later.actions[-1].t_ms == before.actions[-1].t_ms + 5_000


def test_the_moves_dropped_are_the_ones_within_a_cell() -> None:
    from textmines.replays.evf_moves import TooManyEvents, drop_still_moves

    recording = Recording.of(played_game(9, 9, 10, 3))
    plain = export_evf(recording)
    assert drop_still_moves(with_moves(plain, 1_000, 1), 10_000) == plain
    # Moves 1 ms apart: their time goes to the next event (in a pause, at most one more).
    later = drop_still_moves(with_moves(plain, 1_000, 1, gap_ms=1), 10_000)
    assert later is not None and len(plain) <= len(later) <= len(plain) + 3
    # From cell to cell, they stay.
    crossing = with_moves(plain, 1_000, 16)
    assert drop_still_moves(crossing, 10_000) == crossing
    with pytest.raises(TooManyEvents):
        drop_still_moves(crossing, 1_000)
    assert drop_still_moves(b"\x03" + plain[1:], 10_000) is None  # version 3: read whole
    assert drop_still_moves(plain[:60], 10_000) is None  # cut short: the library says so


@pytest.mark.slow  # ~0.5 s of CPU by ms-toollib in child processes
@needs_toollib
def test_a_replay_beyond_what_is_read_is_refused_saying_why(tmp_path: Path) -> None:
    from textmines.replays.reader import MAX_EVENTS, MAX_WHOLE_BYTES

    recording = Recording.of(played_game(9, 9, 10, 3))
    crossing = tmp_path / "crossing.evf"
    crossing.write_bytes(with_moves(export_evf(recording), MAX_EVENTS, 16))  # 1.2 MB
    with pytest.raises(ReplayFileError) as refused:
        read_replay_file(crossing)
    assert str(refused.value) == (
        f"{crossing}: more than {MAX_EVENTS:,} mouse events besides pointer moves within a "
        "cell; textmines reads replays of up to that many (a long game has some 50,000)"
    )
    large = tmp_path / "large.avf"  # read by the library whole: never past MAX_WHOLE_BYTES
    large.write_bytes(bytes(MAX_WHOLE_BYTES + 1))
    with pytest.raises(ReplayFileError, match=f"{MAX_WHOLE_BYTES + 1:,} bytes is more than"):
        read_replay_file(large)
