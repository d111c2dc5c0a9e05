"""Fixtures for the UI tests; the shared helpers live in tests/helpers.py."""

from __future__ import annotations

import pytest

#: Tests as slow as those marked ``@pytest.mark.slow`` (0.17-0.56 s of CPU each, measured
#: under load; issue 36) in modules that do not import pytest, where the decorator would need
#: an import too: marked here, by module and name. Move a mark onto its test (and drop it
#: here) once its module imports pytest; a name no longer found here marks nothing.
SLOW_IN_MODULES_WITHOUT_PYTEST: dict[str, frozenset[str]] = {
    "test_board_ids.py": frozenset(
        {
            "test_a_second_try_of_the_daily_board_is_practice",
            "test_restarting_the_daily_board_keeps_its_day_rules_and_id",
            "test_board_info_names_the_board_once_and_breaks_a_long_id_at_its_dashes",
            "test_the_game_over_box_copies_the_board_id",
            "test_autoplay_plays_a_board_whose_first_click_was_made_for_you",
        }
    ),
    "test_game_screen.py": frozenset({"test_the_games_keys_do_nothing_under_a_dialog"}),
    "test_menu.py": frozenset({"test_long_menu_scrolls_in_tiny_terminal"}),
    "test_profiles.py": frozenset({"test_the_players_name_is_saved_and_shown_over_the_statistics"}),
    "test_review_ui.py": frozenset(
        {
            "test_a_recorded_game_is_reviewed_and_the_statistics_show_it",
            "test_the_viewer_marks_the_risky_clicks_and_goes_from_one_to_the_next",
            "test_play_on_from_a_moment_of_the_replay_of_a_game_just_played",
            "test_the_box_says_how_a_won_games_clicks_went",
            "test_the_box_names_the_click_that_lost",
        }
    ),
    "test_tiles_and_face.py": frozenset(
        {
            "test_the_face_is_a_picture_that_changes_with_the_game",
            "test_a_wrong_flag_after_a_loss_is_a_crossed_out_mine_on_an_opened_cell",
        }
    ),
}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = SLOW_IN_MODULES_WITHOUT_PYTEST.get(item.path.name)
        if names and getattr(item, "originalname", item.name) in names:
            item.add_marker(pytest.mark.slow)
