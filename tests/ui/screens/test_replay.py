"""The replay viewer: a recorded game on the board and panel as it was at each moment."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.factories import played_game
from tests.helpers import FakeClock, Play, make_app, new_stats, wait_until, win_by_clicks
from textmines.engine import ActionKind
from textmines.replays.evf import export_evf
from textmines.replays.foreign import ReplayFileError, read_replay_file
from textmines.replays.recording import Recording
from textmines.ui.app import TextminesApp
from textmines.ui.screens.replay import ProgressLine, ReplayScreen


async def open_replay(pilot: Pilot[None], recording: Recording, title: str) -> ReplayScreen:
    """The viewer on ``recording``, opened over the game."""
    app = pilot.app
    assert isinstance(app, TextminesApp)
    app.replays.view(recording, title)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


@pytest.mark.slow
async def test_watch_the_game_just_won_from_start_to_end(play: Play) -> None:
    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 35))
    await win_by_clicks(pilot, clock, 3)
    final = app.game.view_text()
    await pilot.press("w")  # from the game-over box
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    assert screen.game.view_text().count("#") == 81, "it starts before the first click"
    await pilot.press("right")
    assert screen.done == 1 and screen.game.status == "playing"
    assert screen.board.hint == (4, 4), "the cell acted on is marked"
    await pilot.press("end")
    assert screen.game.view_text() == final and screen.game.status == "won"
    assert screen.header.face == "won" and screen.header.seconds == 4
    await pilot.press("left")
    assert screen.game.status == "playing"
    await pilot.press("escape")
    assert not isinstance(app.screen, ReplayScreen)
    assert app.game.view_text() == final, "the game itself is as it was"


@pytest.mark.slow
async def test_a_lost_game_ends_on_its_red_mine_not_on_the_mark_of_the_cell_acted_on(
    play: Play,
) -> None:
    from textmines.engine import Board, Game

    game = Game.from_board(Board.from_text("*..\n...\n..*"), clock=FakeClock())
    game.reveal(2, 0)
    game.reveal(0, 0)  # the mine
    _, pilot = await play(size=(100, 35))
    screen = await open_replay(pilot, Recording.of(game), "lost")
    await pilot.press("right")
    assert screen.board.hint == (2, 0)
    await pilot.press("end")
    assert screen.game.status == "lost" and screen.board.hint is None
    # The cursor is on the fatal cell (issue 34.22: it stayed on the first click's), drawn
    # as the exploded mine, underlined.
    assert screen.board.cursor == (0, 0)
    # A game that took no time: the bar goes by the actions (it was full at the start).
    bar = screen.query_one(ProgressLine)
    assert "░" not in str(bar.render())
    await pilot.press("home")
    assert screen.done == 0 and "█" not in str(bar.render())


@pytest.mark.slow
async def test_a_terminal_too_small_for_the_replay_says_what_it_needs(play: Play) -> None:
    # Found by a player: at 40x12 the board was cropped, with pieces of scroll bars.
    recording = Recording.of(played_game(9, 9, 10, 4))
    _, pilot = await play(size=(100, 35))
    screen = await open_replay(pilot, recording, "test")
    assert not screen.query("#too-small") and screen.board.display
    await pilot.resize_terminal(40, 12)
    await pilot.pause()
    notice = screen.query_one("#too-small", Static)
    assert "needs at least 22x17 (this one is 40x12)" in str(notice.render())
    assert screen.board.region.area == 0, "the board is not drawn at all"
    await pilot.resize_terminal(100, 35)
    await pilot.pause()
    assert not screen.query("#too-small") and screen.board.region.area > 0


@pytest.mark.slow
async def test_playing_follows_the_recorded_times_at_the_chosen_speed(play: Play) -> None:
    game = played_game(9, 9, 10, 4)
    recording = Recording.of(game)
    _, pilot = await play(size=(100, 35))
    screen = await open_replay(pilot, recording, "test")
    await pilot.press("plus", "plus", "plus", "plus", "plus")
    assert screen.speed == 10.0, "x10 at most"
    await pilot.press("minus", "minus", "minus", "minus", "minus", "minus", "minus")
    assert screen.speed == 0.25, "x0.25 at least"
    screen.seek_ms(recording.elapsed_ms // 2)
    halfway = [a for a in recording.actions if a.t_ms <= recording.elapsed_ms // 2]
    assert screen.done == len(halfway)
    moves = [a for a in halfway if a.kind != ActionKind.CURSOR]
    assert screen.game.view_text() == recording.game(len(halfway)).view_text()
    assert moves, "the sample game has moves in its first half"
    screen.seek_fraction(1.0)
    assert screen.game.view_text() == game.view_text()


@pytest.mark.slow
async def test_a_click_on_the_progress_bar_seeks_there(play: Play) -> None:
    recording = Recording.of(played_game(16, 16, 40, 2))
    _, pilot = await play(size=(100, 40))
    screen = await open_replay(pilot, recording, "test")
    bar = screen.query_one("#progress")
    start, width = bar._bar
    await pilot.click(bar, offset=(start + width // 2, 0))
    assert abs(screen.at_ms - recording.elapsed_ms / 2) <= recording.elapsed_ms / width + 1


async def test_no_game_to_watch_yet_says_so(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("w")
    assert not isinstance(app.screen, ReplayScreen)
    assert any("No game to watch" in n.message for n in app.toasts)


# ---------------------------------------------------------------------------- files
def test_an_evf_file_reads_back_as_the_game_it_recorded(tmp_path: Path) -> None:
    pytest.importorskip("ms_toollib")
    game = played_game(16, 16, 40, 6)
    path = tmp_path / "game.evf"
    path.write_bytes(export_evf(Recording.of(game), unique_id="x"))
    replay = read_replay_file(path)
    assert replay.software.startswith("textmines")
    replayed = replay.recording.game()
    assert replayed.status == game.status
    assert replay.recording.elapsed_ms == game.elapsed_ms
    # A question mark is no flag in the .evf: the boards agree once marks are read as covered.
    assert replayed.view_text() == game.view_text().replace("?", "#")


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("empty.evf", b"", "not a Metasweeper replay (0 bytes)"),
        ("noise.evf", b"\x04" + bytes(range(200)), "not a readable Metasweeper replay"),
        ("noise.avf", b"garbage" * 20, "not a readable Minesweeper Arbiter replay"),
        ("noise.rmv", b"*RMV" + b"\x00" * 50, "not a readable Viennasweeper replay"),
        ("noise.mvf", b"\x11" * 300, "not a readable Minesweeper Clone replay"),
        ("notes.txt", b"hello", "not a replay file textmines reads"),
    ],
)
def test_a_damaged_or_mislabelled_file_is_one_line_and_the_game_lives_on(
    tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    """ms-toollib aborts its process on such files: it runs in a child, which may die."""
    pytest.importorskip("ms_toollib")
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ReplayFileError, match=re.escape(message)) as raised:
        read_replay_file(path)
    assert "\n" not in str(raised.value)
    assert not (tmp_path / "crash.log").exists(), "the reader's crash log stays in its folder"


def test_a_truncated_export_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("ms_toollib")
    data = export_evf(Recording.of(played_game(9, 9, 10, 1)))
    path = tmp_path / "cut.evf"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ReplayFileError, match="not a readable Metasweeper replay"):
        read_replay_file(path)


# ---------------------------------------------------------------------------- from elsewhere
@pytest.mark.slow
async def test_a_best_time_opens_its_replay_from_the_statistics(tmp_path: Path, play: Play) -> None:
    from textmines.ui.screens.statistics import StatisticsScreen

    stats = new_stats(tmp_path)
    clock = FakeClock()
    app, pilot = await play(clock, stats=stats, size=(120, 40))
    await win_by_clicks(pilot, clock, 4)
    final = app.game.view_text()
    await pilot.press("escape", "f4")
    assert isinstance(app.screen, StatisticsScreen)
    await pilot.click(".watch")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    screen.seek_fraction(1.0)
    assert screen.game.view_text() == final
    await pilot.press("escape")
    assert isinstance(app.screen, StatisticsScreen), "back where the player was"


@pytest.mark.slow
async def test_e_exports_the_replay_as_a_new_evf_file(tmp_path: Path, play: Play) -> None:
    app, pilot = await play(replays_dir=tmp_path / "replays", size=(100, 35))
    await win_by_clicks(pilot)
    await pilot.press("w", "e")
    await pilot.pause()
    files = list((tmp_path / "replays").glob("*.evf"))
    assert len(files) == 1 and files[0].read_bytes() == export_evf(Recording.of(app.game))
    assert any("Replay written to" in n.message for n in app.toasts)
    await pilot.press("q")  # the viewer's toasts go with it, off the game's face and timer
    await pilot.pause()
    assert not any("Replay written to" in n.message for n in app.toasts)


@pytest.mark.slow
async def test_in_a_browser_an_export_says_the_browser_downloads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    # Issue 35.10: in a browser the message named the server's file, not the download.
    from textual.widgets._toast import Toast

    delivered: list[str] = []
    monkeypatch.setattr(TextminesApp, "is_web", property(lambda self: True))
    monkeypatch.setattr(
        TextminesApp,
        "deliver_binary",
        lambda self, data, *, save_filename, mime_type: delivered.append(save_filename),
    )
    app, pilot = await play(replays_dir=tmp_path / "replays", size=(100, 35), notifications=True)
    await win_by_clicks(pilot)
    await pilot.press("w", "e")

    def said() -> str:
        return " ".join(str(toast.render()) for toast in app.screen.query(Toast))

    await wait_until(pilot, lambda: "downloads" in said(), "the message")
    assert len(delivered) == 1 and delivered[0] in said()
    assert str(tmp_path) not in said()  # the server's folder means nothing in a browser


@pytest.mark.slow
async def test_f1_lists_the_viewers_keys_and_playback_waits_behind_it(play: Play) -> None:
    from rich.console import Console
    from textual.widgets import Static

    from textmines.ui.screens.info import InfoScreen

    recording = Recording.of(played_game(9, 9, 10, 4))
    app, pilot = await play(size=(100, 35))
    app.notify("A hint from the game")
    await pilot.pause()
    app.replays.view(recording, "test")
    await pilot.pause()
    viewer = app.screen
    assert isinstance(viewer, ReplayScreen)
    assert not app.toasts, "the game's toasts stay with the game"
    title = str(viewer.query_one("#title", Static).render())
    assert title.startswith("test   Space play/pause · ←/→ step · +/- speed · F1 keys")
    await pilot.press("space")
    assert viewer.playing
    await pilot.press("f1")
    await pilot.pause()
    assert isinstance(app.screen, InfoScreen) and not viewer.playing
    console = Console(record=True, width=100)
    console.print(app.screen.body)
    body = console.export_text()
    for words in ("Play / pause", "Step back", "Export .evf", "go to that moment"):
        assert words in body
    at = viewer.at_ms
    await pilot.pause(0.2)
    assert viewer.at_ms == at, "nothing plays unseen"
    await pilot.press("escape")
    assert app.screen is viewer


@pytest.mark.slow
async def test_d_shows_the_competitive_figures_in_the_game_over_box(play: Play) -> None:
    from textual.widgets import Static

    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 35))
    await win_by_clicks(pilot, clock, 5)
    figures = app.screen.query_one("#figures", Static)
    assert "Time" in str(figures.render())
    await pilot.press("d")
    await app.workers.wait_for_complete()  # ZiNi comes from ms-toollib, in a child
    await pilot.pause()
    shown = str(figures.render())
    assert "Time         5.000 s" in shown  # to the millisecond, as Arbiter gives it
    labels = (
        "Clicks",
        "Effective",
        "IOE",
        "Correctness",
        "Throughput",
        "STNB",
        "Flags",
        "ZiNi",
    )
    for label in labels:
        assert label in shown
    await pilot.press("d")
    assert "Time" in str(figures.render())


@pytest.mark.slow
async def test_open_replay_reads_a_file_and_a_bad_one_leaves_the_game_alone(
    tmp_path: Path,
    play: Play,
) -> None:
    pytest.importorskip("ms_toollib")
    from textual.widgets import Input, Static

    from textmines.ui.screens.open_replay import OpenReplayScreen

    bad = tmp_path / "bad.avf"
    bad.write_bytes(b"\x00" * 64)
    good = tmp_path / "good.evf"
    game = played_game(9, 9, 10, 5)
    good.write_bytes(export_evf(Recording.of(game)))
    app, pilot = await play(size=(100, 35))
    await pilot.press("space")
    before = app.game.view_text()
    app.action_open_replay()
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, OpenReplayScreen)
    dialog.query_one(Input).value = str(bad)
    await pilot.press("enter")
    message = dialog.query_one("#message", Static)
    await wait_until(pilot, lambda: "not a readable" in str(message.render()), "the message")
    assert "not a readable Minesweeper Arbiter replay" in str(message.render())
    assert app.screen is dialog and app.game.view_text() == before
    dialog.query_one(Input).value = str(good)
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    assert isinstance(app.screen, ReplayScreen)
    assert app.screen.recording.board == game.board


@pytest.mark.slow
async def test_in_a_browser_open_replay_names_paths_from_the_profiles_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    # Issue 48.6: a network player was shown the server's absolute data path (the account's
    # name in it), in the box and in its errors; the terminal keeps its own.
    pytest.importorskip("ms_toollib")
    from textual.widgets import Input

    from textmines.store.paths import profile_folder_name
    from textmines.ui.screens.open_replay import OpenReplayScreen

    profile = tmp_path / "home" / "profiles" / profile_folder_name("ab" * 16)
    replays = profile / "replays"
    replays.mkdir(parents=True)
    game = played_game(9, 9, 10, 5)
    (replays / "good.evf").write_bytes(export_evf(Recording.of(game)))
    app, pilot = await play(replays_dir=replays, size=(100, 35))

    async def box() -> OpenReplayScreen:
        app.action_open_replay()
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, OpenReplayScreen) and app.screen.query(Input),
            "the box",
        )
        assert isinstance(app.screen, OpenReplayScreen)
        return app.screen

    def shown(dialog: OpenReplayScreen) -> str:
        return str(dialog.query_one("#message", Static).render())

    async def say(dialog: OpenReplayScreen, typed: str) -> str:
        dialog.query_one(Input).value = typed
        await pilot.press("enter")
        await wait_until(pilot, lambda: ": " in shown(dialog), f"the message on {typed!r}")
        return shown(dialog)

    terminal = await box()
    assert terminal.query_one(Input).value == f"{replays}/", "the terminal's path as before"
    await pilot.press("escape")

    monkeypatch.setattr(TextminesApp, "is_web", property(lambda self: True))
    dialog = await box()
    assert dialog.query_one(Input).value == "replays/"
    assert "profile's folder" in shown(dialog)
    said = [await say(dialog, typed) for typed in ("replays/none.evf", "~/x.evf", "a\0b.evf")]
    assert said == [
        "replays/none.evf: cannot be read (No such file or directory)",
        "~/x.evf: cannot be read (No such file or directory)",
        "a\0b.evf: cannot be read (no file has that name)",
    ]
    assert not any(str(tmp_path) in text or str(Path.home()) in text for text in said)
    dialog.query_one(Input).value = "replays/good.evf"  # from the profile, not the server's
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    assert isinstance(app.screen, ReplayScreen)
    assert app.screen.recording.board == game.board


def test_a_fifo_is_refused_at_once_never_waited_on(tmp_path: Path) -> None:
    # Issue 34.6: `textmines --replay fifo.evf` blocked forever (opening a FIFO waits for a
    # writer), and so did Game > Open replay ("Reading..." until killed). A writer that comes
    # after 5 s unblocks a regression, which then fails instead of hanging.
    import os
    import threading

    fifo = tmp_path / "fifo.evf"
    os.mkfifo(fifo)

    def unblock() -> None:
        with open(fifo, "wb"):
            pass

    rescue = threading.Timer(5.0, unblock)
    rescue.start()
    try:
        with pytest.raises(ReplayFileError, match="not a regular file"):
            read_replay_file(fifo)
        assert rescue.is_alive(), "it waited on the FIFO"
    finally:
        rescue.cancel()


def test_a_game_too_long_for_an_evf_is_refused_in_one_line() -> None:
    # Issue 34.3: a game over 2^32 ms (a save may hold one) raised struct.error on export,
    # and `e` in the replay viewer ended the app; _export says "Not exported: <why>".
    game = played_game(9, 9, 10, 5)
    recording = Recording.of(game)
    long = Recording(recording.board, recording.actions, 2**32, question_marks=False)
    with pytest.raises(ValueError, match="up to 4,294,967,295 ms"):
        export_evf(long)


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from textmines.replays.foreign import MAX_BYTES

    path = tmp_path / "huge.avf"
    with path.open("wb") as file:
        file.truncate(MAX_BYTES + 1)  # sparse: no disk used
    with pytest.raises(ReplayFileError, match=re.escape(f"({MAX_BYTES + 1} bytes)")):
        read_replay_file(path)


@pytest.mark.slow
def test_snapshot_of_the_viewer(snap_compare: Any) -> None:
    recording = Recording.of(played_game(9, 9, 10, 4))

    async def halfway(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, TextminesApp)
        screen = await open_replay(pilot, recording, "Replay: Beginner")
        await app.workers.wait_for_complete()  # the ZiNi (ms-toollib, in a child) is shown
        screen.seek_fraction(0.5)
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(100, 35), run_before=halfway)


@pytest.mark.slow
def test_snapshot_of_the_details(snap_compare: Any) -> None:
    clock = FakeClock()

    async def won_with_details(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, TextminesApp)
        await win_by_clicks(pilot, clock, 7.5)
        await pilot.press("d")
        await app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(make_app(clock), terminal_size=(100, 35), run_before=won_with_details)


@pytest.mark.slow
async def test_export_best_writes_the_best_times_game_from_the_statistics(
    tmp_path: Path,
    play: Play,
) -> None:
    from textmines.records import stored_evf

    stats = new_stats(tmp_path)
    clock = FakeClock()
    app, pilot = await play(clock, stats=stats, replays_dir=tmp_path / "replays", size=(120, 40))
    await win_by_clicks(pilot, clock, 4)
    await pilot.press("escape", "f4")
    await pilot.click(".export")
    await pilot.pause()
    stored = stats.stored_replay()
    assert stored is not None
    target = tmp_path / "replays" / f"textmines-{stored.game_id}.evf"
    assert target.read_bytes() == stored_evf(stored)
    # Again, once the button's press effect is over (it ignores clicks while it lasts).
    export = app.screen.query_one(".export")
    await wait_until(pilot, lambda: not export.has_class("-active"), "the press effect's end")
    await pilot.click(".export")
    await pilot.pause()
    assert any("Already exported" in n.message for n in app.toasts)
    # Found by a player: after Reset all, a game gets the number of one exported before,
    # and the export said "Already exported" of the file holding the old game.
    target.write_bytes(b"another game's replay")
    await wait_until(pilot, lambda: not export.has_class("-active"), "the press effect's end")
    await pilot.click(".export")
    await pilot.pause()
    beside = target.with_name(f"textmines-{stored.game_id}-2.evf")
    assert beside.read_bytes() == stored_evf(stored)
    assert any(f"Replay written to {beside}" in n.message for n in app.toasts)


@pytest.mark.slow
async def test_a_mouse_press_is_recorded_and_the_replay_shows_the_pressed_face(play: Play) -> None:
    from tests.helpers import cell_offset

    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 35))
    await pilot.press("space")  # the first reveal, by key
    board = app.board
    x, y = next(
        (x, y)
        for y in range(9)
        for x in range(9)
        if app.game.cell(x, y) == "#" and not app.game.board.is_mine(x, y)
    )  # type: ignore[union-attr]
    clock.advance(1)
    await pilot.mouse_down(board, offset=cell_offset(board, x, y))
    clock.advance(0.25)
    await pilot.mouse_up(board, offset=cell_offset(board, x, y))
    kinds = [(a.kind, a.t_ms) for a in app.game.actions if a.kind != ActionKind.CURSOR]
    assert kinds[-2:] == [(ActionKind.PRESS, 1000), (ActionKind.REVEAL, 1250)]
    screen = await open_replay(pilot, Recording.of(app.game), "test")
    press = next(i for i, a in enumerate(screen.recording.actions) if a.kind == "press")
    screen.go_to(press + 1)
    assert screen.header.face == "pressed"
    screen.go_to(press + 2)
    assert screen.header.face == "normal" or screen.game.status.is_over


@pytest.mark.slow
async def test_the_viewer_draws_led_digits_only_where_the_header_is_wide_enough(
    play: Play,
) -> None:
    recording = Recording.of(played_game(9, 9, 10, 4))
    for size, led in (((80, 24), False), ((200, 60), True)):
        app, pilot = await play(size=size)
        app.replays.view(recording, "test")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.header.led is led, size
        await play.close()


async def test_closing_the_viewer_of_replay_file_ends_textmines(play: Play) -> None:
    # Issue 34.22: `textmines --replay FILE` then Escape dropped into the saved game instead
    # of back to the shell.
    recording = Recording.of(played_game(9, 9, 10, 4))
    app, pilot = await play(replay=(recording, "game.evf"), size=(100, 35))
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    await pilot.press("escape")
    await wait_until(pilot, lambda: app.return_code is not None, "textmines to end")
    await play.close()
    assert app.return_code == 0


async def test_a_title_with_markup_in_its_names_is_shown_as_written(play: Play) -> None:
    # Issue 46.18: a replay whose player or program name held "[/]", "[/bold]" or '[a="]'
    # crashed the viewer with a MarkupError (from --replay and from Game > Open replay).
    app, pilot = await play(size=(100, 35))
    title = 'Replay: [/] by [/bold]x[a="] (Viennasweeper [b])'
    viewer = await open_replay(pilot, Recording.of(played_game(9, 9, 10, 3)), title)
    await pilot.press("e")  # the export names the replay by its title too
    await pilot.pause()
    assert str(viewer.query_one("#title", Static).render()).startswith(title)
    assert app.screen is viewer
