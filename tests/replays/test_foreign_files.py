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
    with pytest.raises(ReplayFileError, match="not a Minesweeper Clone replay"):
        read_replay_file(path)
    path.write_bytes(b"PK\x03\x04 not a replay at all" * 20)
    with pytest.raises(ReplayFileError, match="not a Minesweeper Clone replay"):
        read_replay_file(path)
