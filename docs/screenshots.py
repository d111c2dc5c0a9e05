"""Write docs/themes/<name>.svg: the same mid-game Intermediate position, at 100x30, in every
bundled theme.

    python docs/screenshots.py

The README shows these files; run this again after changing a bundled theme.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textmines.config import GameConfig
from textmines.ui.app import TextminesApp, bundled_themes

OUT = Path(__file__).resolve().parent / "themes"


class StoppedClock:
    """Seven seconds into the game, for ever: screenshots must not depend on the time."""

    def __call__(self) -> float:
        return 7.0


async def shoot(name: str) -> Path:
    config = GameConfig(16, 16, 40, seed=1)
    app = TextminesApp(config, clock=StoppedClock(), theme=bundled_themes()[name])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "left", "left", "left", "f", "up", "up", "up", "f", "f")
        await pilot.pause(0.3)
        return Path(app.save_screenshot(filename=f"{name}.svg", path=str(OUT)))


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name in bundled_themes():
        print(await shoot(name))


if __name__ == "__main__":
    asyncio.run(main())
