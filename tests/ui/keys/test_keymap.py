"""The key map on its own: presets, the [keys] entries over them, and what a bad entry says."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from textmines.ui.game.player_keys import key_actions
from textmines.ui.keys.keymap import (
    PRESETS,
    RESERVED,
    hint_texts,
    key_label,
    key_problem,
    normal_key,
    preset_keys,
    resolve,
)
from textmines.ui.widgets.status import GAME_OVER_HINTS, HINTS

ACTIONS = key_actions()
IDS = [action.id for action in ACTIONS]


def owners(keys: dict[str, tuple[str, ...]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for action_id, action_keys in keys.items():
        for key in action_keys:
            found.setdefault(key, []).append(action_id)
    return found


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_names_real_actions_and_gives_no_key_twice(preset: str) -> None:
    assert set(PRESETS[preset]) <= set(IDS)
    keys = preset_keys(ACTIONS, preset)
    assert {key: ids for key, ids in owners(keys).items() if len(ids) > 1} == {}
    for action_keys in keys.values():
        assert action_keys, "every action keeps a key"
        for key in action_keys:
            assert key_problem(key) is None, key
    assert resolve(ACTIONS, preset, []) == (resolve(ACTIONS, preset, [])[0], [])


def test_every_game_and_board_action_can_be_given_keys() -> None:
    assert "game.hint" in IDS and "board.mark" in IDS and "game.autoplay_faster" in IDS
    assert len(IDS) == len(set(IDS))


def test_key_names_are_read_as_textual_names_them() -> None:
    assert normal_key("?") == "question_mark"
    assert normal_key("+") == "plus"
    assert normal_key("ctrl++") == "ctrl+plus"
    assert normal_key("Ctrl+S") == "ctrl+s"  # Textual reports ctrl+s
    assert normal_key("ctrl+s") == "ctrl+s"
    assert normal_key("K") == "K"
    assert normal_key("F5") == "f5"
    assert normal_key("$") == "dollar_sign"


def test_bad_key_names_say_why() -> None:
    assert "did you mean 'up'" in (key_problem("upp") or "")
    assert "kept for" in (key_problem(normal_key("Ctrl+Q")) or "")
    assert "modifiers are" in (key_problem("control+x") or "")
    for key in RESERVED:
        assert "kept for" in (key_problem(key) or "")
    for key in ("x", "X", "f12", "ctrl+x", "alt+1", "question_mark", "space", "shift+home"):
        assert key_problem(key) is None, key
    # Found by a player: accepted, and then never pressed (the terminal sends another key).
    assert "reaches textmines as 'enter'" in (key_problem(normal_key("ctrl+m")) or "")
    assert "reaches textmines as 'tab'" in (key_problem(normal_key("Ctrl+I")) or "")
    assert "write 'H' instead" in (key_problem(normal_key("shift+h")) or "")
    assert "the character Shift+key types" in (key_problem(normal_key("shift+1")) or "")


def test_textual_gets_only_the_actions_whose_keys_changed() -> None:
    # Textual applies a non-empty keymap to every binding on every key press.
    assert resolve(ACTIONS, "default", [])[0].textual() == {}
    moved, _ = resolve(ACTIONS, "default", [("board.mark", "m,$")])
    assert moved.textual() == {"board.mark": "m,dollar_sign"}
    assert set(resolve(ACTIONS, "numpad", [])[0].textual()) == set(PRESETS["numpad"])


def test_an_entry_replaces_the_keys_of_its_action() -> None:
    keymap, warnings = resolve(ACTIONS, "default", [("board.mark", "m, ?"), ("app.help", "f1")])
    assert warnings == []
    assert keymap.keys_for("board.mark") == ("m", "question_mark")
    assert keymap.keys_for("app.help") == ("f1",)
    assert keymap.owner("f") is None, "f is free once the mark has moved"


def test_a_clashing_key_gives_way_alone_and_the_entrys_other_keys_apply() -> None:
    # Issue 34.15: the README's own example, "board.mark" = ["m", "?"], clashes with Help's
    # ?, and the whole entry was dropped: m did not flag either.
    keymap, warnings = resolve(ACTIONS, "default", [("board.mark", "m, ?")])
    assert keymap.keys_for("board.mark") == ("m",)
    assert keymap.keys_for("app.help") == ("f1", "question_mark")
    assert warnings == [
        "settings.toml: [keys] board.mark = 'm, ?': '?' is already 'Help' (app.help); using m"
    ]


def test_the_readmes_keys_example_applies_without_a_warning() -> None:
    import re
    import tomllib
    from pathlib import Path

    readme = Path(__file__).parents[3].joinpath("docs", "keys.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(key_preset.*?)```", readme, re.DOTALL)
    assert example is not None
    settings = tomllib.loads(example.group(1))
    entries = []
    for action, value in settings["keys"].items():
        if isinstance(value, dict):  # board.open = ... unquoted: a table
            entries += [(f"{action}.{name}", keys) for name, keys in value.items()]
        else:
            entries.append((action, value))
    entries = [(action, ",".join(v) if isinstance(v, list) else v) for action, v in entries]
    keymap, warnings = resolve(ACTIONS, settings["key_preset"], entries)
    assert warnings == [] and keymap.keys_for("board.mark") == ("m", "x")


def test_a_key_can_move_from_one_action_to_another_in_either_order() -> None:
    for entries in (
        [("game.hint", "f"), ("board.mark", "m")],
        [("board.mark", "m"), ("game.hint", "f")],
    ):
        keymap, warnings = resolve(ACTIONS, "default", entries)
        assert warnings == []
        assert keymap.keys_for("game.hint") == ("f",)


def test_a_key_bound_twice_keeps_the_defaults_for_the_later_entry() -> None:
    keymap, warnings = resolve(
        ACTIONS, "default", [("game.hint", "x"), ("game.pause", "x")], "/home/p/settings.toml"
    )
    assert keymap.keys_for("game.hint") == ("x",)
    assert keymap.keys_for("game.pause") == ("p",)
    assert warnings == [
        "/home/p/settings.toml: [keys] game.pause = 'x': 'x' is already 'Hint' (game.hint);"
        " keeping p"
    ]


def test_an_entry_clashing_with_a_default_key_gives_way() -> None:
    keymap, warnings = resolve(ACTIONS, "default", [("game.hint", "f")])
    assert keymap.keys_for("game.hint") == ("i",)
    assert keymap.keys_for("board.mark") == ("f", "plus")
    assert (
        "[keys] game.hint = 'f': 'f' is already 'Flag / ?' (board.mark); keeping i" in (warnings[0])
    )


def test_unknown_actions_keys_and_presets_are_named_and_the_rest_kept() -> None:
    keymap, warnings = resolve(
        ACTIONS,
        "vi",
        [("app.hnt", "x"), ("game.new_game", "upp"), ("game.pause", "escape"), ("game.hint", "z")],
        "s.toml",
    )
    assert len(warnings) == 4
    assert "key_preset 'vi' is unknown (did you mean 'vim'?)" in warnings[0]
    assert (
        "[keys] app.hnt = 'x': there is no action 'app.hnt' (did you mean 'game.hint'?)"
        in (warnings[1])
    )
    assert "'upp' is not a key name (did you mean 'up'?); keeping f2 / n" in warnings[2]
    assert "'escape' is kept for" in warnings[3]
    assert all(warning.startswith("s.toml: ") for warning in warnings)
    assert keymap.keys_for("game.hint") == ("z",)
    assert keymap.keys_for("game.new_game") == ("f2", "n")


@given(
    st.lists(
        st.tuples(st.sampled_from([*IDS, "app.nothing"]), st.sampled_from(["x", "f", "i", "q"])),
        max_size=6,
    )
)
def test_whatever_the_entries_no_key_is_bound_twice(entries: list[tuple[str, str]]) -> None:
    keymap, _ = resolve(ACTIONS, "default", entries)
    assert all(len(ids) == 1 for ids in owners(dict(keymap.keys)).values())
    assert all(keymap.keys_for(action_id) for action_id in IDS)


def test_hints_name_the_players_keys() -> None:
    default, _ = resolve(ACTIONS, "default", [])
    assert hint_texts(default, HINTS) == [
        "Space open",
        "f flag",
        "n new",
        "p pause",
        "F1 help",
        "F10 menu",
    ]
    assert hint_texts(default, GAME_OVER_HINTS)[:2] == ["n new", "r restart"]
    moved, _ = resolve(ACTIONS, "numpad", [("board.mark", "m")])
    assert hint_texts(moved, HINTS)[:2] == ["Space open", "m flag"]
    assert key_label("ctrl+h") == "Ctrl+H"
    assert [key_label(key) for key in ("backspace", "f12", "pageup", "ctrl+x", "ctrl+plus")] == [
        "Backspace",
        "F12",
        "PgUp",
        "Ctrl+X",
        "Ctrl++",
    ]


def test_the_readme_lists_every_action_id_and_preset() -> None:
    from pathlib import Path

    readme = (Path(__file__).parents[3] / "docs" / "keys.md").read_text(encoding="utf-8")
    assert [action_id for action_id in IDS if f"`{action_id}`" not in readme] == []
    assert [name for name in PRESETS if f"| `{name}` |" not in readme] == []


def test_a_key_the_game_over_box_keeps_is_refused_for_the_actions_it_takes() -> None:
    from textmines.ui.keys.keymap import kept_keys
    from textmines.ui.screens.game_over import GameOverScreen

    kept = kept_keys([("the game-over box", GameOverScreen.BINDINGS)])
    keymap, warnings = resolve(
        ACTIONS, "default", [("game.custom", "u"), ("game.restart", "c")], "s.toml", kept
    )
    assert keymap.keys_for("game.restart") == ("r",)
    assert warnings == [
        "s.toml: [keys] game.restart = 'c': 'c' is 'Copy the board ID' in the game-over box; "
        "keeping r"
    ]
    # An action the box does not take may have it.
    keymap, warnings = resolve(ACTIONS, "default", [("game.custom", "u"), ("game.hint", "c")])
    assert warnings == [] and keymap.keys_for("game.hint") == ("c",)


def test_an_entry_with_an_actions_old_name_still_works() -> None:
    # Issue 47.4: the game screen's actions were named app.* (where they did not live); a
    # player's [keys] entry written with such a name keeps working, and its warnings quote
    # the entry as written.
    from textmines.ui.board.board_view import BoardView
    from textmines.ui.keys.game_keys import GAME_KEYS
    from textmines.ui.keys.keymap import actions, resolve

    every = actions([("Game", GAME_KEYS), ("Board", BoardView.BINDINGS)])
    keymap, warnings = resolve(every, "default", [("app.hint", "z"), ("app.pause", "f")])
    assert keymap.keys_for("game.hint") == ("z",) == keymap.keys_for("app.hint")
    assert warnings == [
        "settings.toml: [keys] app.pause = 'f': 'f' is already 'Flag / ?' (board.mark); keeping p"
    ]
    _, typo = resolve(every, "default", [("app.hnt", "x")])
    assert "(did you mean 'game.hint'?)" in typo[0]


def test_every_binding_id_names_where_its_action_lives() -> None:
    # Issue 47.4: every id said app.*, wherever the binding's action lived.
    from textual.binding import Binding

    from textmines.ui.board.board_view import BoardView
    from textmines.ui.game.game_screen import GameScreen
    from textmines.ui.keys.game_keys import APP_KEYS

    for binding in APP_KEYS:
        assert binding.id is not None and binding.id.startswith("app."), binding
    for binding in GameScreen.BINDINGS:
        assert isinstance(binding, Binding) and binding.id is not None
        owner = "app." if binding.action.startswith("app.") else "game."
        assert binding.id.startswith(owner), binding
    for binding in BoardView.BINDINGS:
        assert isinstance(binding, Binding) and binding.id is not None
        assert binding.id.startswith("board."), binding
