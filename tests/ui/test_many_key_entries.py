"""A settings.toml with thousands of [keys] entries that cannot be used (issue 34.8): 50,000
gave one toast each, 100% CPU for over ten minutes and a SIGTERM that went unheard; 2,000
took 26 s to the first frame. Now they are one warning that says how many and where to
look, and the entries that can be used still apply."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.helpers import make_app, wait_until
from textmines.store.settings import load_settings
from textmines.ui.keymap import ENTRY_WARNINGS_SHOWN, resolve
from textmines.ui.player_keys import key_actions


def toasts(pilot: Pilot[None]) -> list[str]:
    return [str(toast.render()) for toast in pilot.app.screen.query("Toast")]


def write_keys(path: Path, count: int) -> None:
    """``count`` entries for actions that do not exist, and one that works (``i`` hints)."""
    lines = ["[keys]", '"app.hint" = "i"']
    lines += [f'"app.no_such_action_{number}" = "ctrl+{number % 10}"' for number in range(count)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("count", [2_000, 50_000])
async def test_thousands_of_bad_key_entries_are_one_warning_and_the_game_starts(
    tmp_path: Path, count: int
) -> None:
    path = tmp_path / "settings.toml"
    write_keys(path, count)
    settings, warnings = load_settings(path)
    assert warnings == [] and len(settings.keys) == count + 1
    app = make_app(settings=settings, settings_path=path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_until(pilot, lambda: toasts(pilot), "the warning")
        (warning,) = toasts(pilot)
        assert f"{path}: {count:,} entries of [keys] cannot be used" in warning
        assert "there is no action 'app.no_such_action_0'" in warning
        assert "Options > Keys shows the keys in effect" in warning
        # The entry that can be used applies, and the game plays.
        assert app.keys.keymap.keys_for("app.hint") == ("i",)
        await pilot.press("space")
        await wait_until(pilot, lambda: app.game.board is not None, "the first reveal")


def test_a_few_bad_entries_are_a_warning_each() -> None:
    overrides = [(f"app.nothing{number}", "x") for number in range(ENTRY_WARNINGS_SHOWN)]
    _, warnings = resolve(key_actions(), "default", overrides)
    assert len(warnings) == ENTRY_WARNINGS_SHOWN
    assert warnings[0] == "settings.toml: [keys] app.nothing0 = 'x': there is no action " + (
        "'app.nothing0' (did you mean 'app.hint'?)"
    )


def test_one_more_is_one_warning_that_counts_every_kind_of_problem() -> None:
    overrides = [
        ("app.nothing", "x"),
        ("app.hint", "escape"),  # kept for closing dialogs
        ("app.pause", "zzz"),  # no such key
        ("app.restart", "f"),  # the flag's key: the clash gives way
    ]
    _, warnings = resolve(key_actions(), "default", overrides, "keys.toml")
    assert warnings == [
        "keys.toml: 4 entries of [keys] cannot be used, and their actions keep their keys. "
        "The first: [keys] app.nothing = 'x': there is no action 'app.nothing' (did you mean "
        "'app.hint'?). Fix or remove them in [keys]; Options > Keys shows the keys in effect."
    ]
