"""What the player reads after an unexpected error: where the details went, for the owner of
the machine; for a browser's player on a host, neither the error's words nor the owner's
folders."""

from __future__ import annotations

from pathlib import Path

from textmines.crash import background_failure_message, crash_message

SECRET = "/home/owner/.local/share/textmines"


def test_the_owner_is_told_the_error_and_where_its_details_are(tmp_path: Path) -> None:
    log = tmp_path / "crash.log"
    said = crash_message(OSError(f"{SECRET}/stats.db: disk full"), log, None, "Saved.")
    assert said == (
        f"textmines stopped on an unexpected error (OSError: {SECRET}/stats.db: disk full). "
        f"Saved. Details: {log} (please attach it to a bug report)."
    )


def test_a_browsers_player_on_a_host_reads_nothing_of_the_owners_folders(
    tmp_path: Path,
) -> None:
    log = tmp_path / "crash.log"
    said = crash_message(OSError(f"{SECRET}/stats.db"), log, None, "Saved.", public=True)
    assert said == (
        "textmines stopped on an unexpected error (OSError). Saved. The details are in the "
        "host's crash log: tell whoever runs this server."
    )
    failed = background_failure_message("A review", OSError(SECRET), log, public=True)
    assert SECRET not in failed and str(tmp_path) not in failed
    assert failed.startswith("A review failed (OSError); the game plays on. The details are")
    assert SECRET in log.read_text(encoding="utf-8"), "the owner's log has it all"
