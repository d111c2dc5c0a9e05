// The served page's own behaviour, around textual-serve's terminal (textual.js): what a
// browser would otherwise do with the player's right clicks, zoom keys and touches, and what
// to say when the game ends or cannot start.
"use strict";

(() => {
  // A phone or a tablet (or any screen that takes touches): the page shows the flag-mode bar,
  // and tells the game, whose hints and messages then say what to tap instead of what key to
  // press (the server starts its tab with --touch).
  function onTouchScreen() {
    return navigator.maxTouchPoints > 0 || window.matchMedia("(any-pointer: coarse)").matches;
  }

  // The game's websocket address, with what the game must know of this page: a touch screen
  // (touch=1), and a leaderboard entry to watch first (the page's ?watch=ID, from the
  // leaderboard's "Watch" links).
  function gameAddress(url) {
    const address = new URL(url, window.location.href);
    if (onTouchScreen()) address.searchParams.set("touch", "1");
    const watch = new URLSearchParams(window.location.search).get("watch");
    if (watch && /^[0-9]{1,18}$/.test(watch)) address.searchParams.set("watch", watch);
    return address.toString();
  }

  // textual.js keeps its websocket to itself; the page needs it to send the game keys (the
  // zoom keys) and to know whether the game ever started. A subclass sees every socket the
  // page opens, and there is one: the game's.
  let gameSocket = null;
  let opened = false;
  let closeCode = null;
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(url, protocols) {
      super(gameAddress(url), protocols);
      gameSocket = this;
      this.addEventListener("open", () => { opened = true; });
      this.addEventListener("close", (event) => { closeCode = event.code; });
    }
  };

  function sendKeys(text) {
    if (gameSocket !== null && gameSocket.readyState === NativeWebSocket.OPEN) {
      gameSocket.send(JSON.stringify(["stdin", text]));
    }
  }

  // Ctrl (Cmd on a Mac) with plus, minus or 0 would zoom the page, and the terminal would
  // then refit to fewer or more cells of the same board. They are the game's zoom keys
  // (ctrl+plus, ctrl+minus, ctrl+0), which a browser terminal cannot pass on as such: the
  // game gets their plain twins, ] [ and =. Caught before the terminal sees them.
  const ZOOM_KEYS = { "+": "]", "=": "]", "-": "[", "_": "[", "0": "=" };
  window.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = ZOOM_KEYS[event.key];
    if (key === undefined) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    sendKeys(key);
  }, { capture: true });

  // Right click flags, so the browser's menu must not open over the game.
  document.addEventListener("contextmenu", (event) => {
    if (event.target instanceof Node && terminal()?.contains(event.target)) {
      event.preventDefault();
    }
  }, { capture: true });

  function terminal() {
    return document.getElementById("terminal");
  }

  // Touch: a tap is the browser's own (it becomes a left click); a press held HOLD_MS, or a
  // tap in flag mode, becomes a right click at that point, which the terminal turns into a
  // click at that cell. A finger that moves is not a press.
  const HOLD_MS = 500;
  const SLOP_PX = 10;
  let press = null;
  let flagMode = false;

  function rightClick(x, y) {
    const target = document.elementFromPoint(x, y);
    if (target === null || !terminal().contains(target)) return;
    const init = { bubbles: true, cancelable: true, view: window, clientX: x, clientY: y, button: 2 };
    target.dispatchEvent(new MouseEvent("mousedown", { ...init, buttons: 2 }));
    target.dispatchEvent(new MouseEvent("mouseup", { ...init, buttons: 0 }));
  }

  function endPress() {
    if (press !== null) clearTimeout(press.timer);
    press = null;
  }

  function watchTouches(element) {
    element.addEventListener("touchstart", (event) => {
      endPress();
      if (event.touches.length !== 1) return; // two fingers: a pinch, not a press
      const touch = event.touches[0];
      const started = { x: touch.clientX, y: touch.clientY, held: false, timer: 0 };
      started.timer = setTimeout(() => {
        started.held = true;
        rightClick(started.x, started.y);
        if (navigator.vibrate) navigator.vibrate(20); // the flag is under the finger
      }, HOLD_MS);
      press = started;
    }, { capture: true, passive: true });
    element.addEventListener("touchmove", (event) => {
      if (press === null || press.held) return;
      const touch = event.touches[0];
      if (Math.hypot(touch.clientX - press.x, touch.clientY - press.y) > SLOP_PX) endPress();
    }, { capture: true, passive: true });
    element.addEventListener("touchend", (event) => {
      if (press === null) return;
      const { x, y, held } = press;
      endPress();
      if (!held && !flagMode) return;
      // No left click after it: the browser makes one from a touch unless told not to.
      event.preventDefault();
      if (!held) rightClick(x, y);
    }, { capture: true, passive: false });
    element.addEventListener("touchcancel", endPress, { capture: true, passive: true });
  }

  // When the game ends, or never started, say which; a refused start is most often a server
  // whose tabs are all taken, which the page itself then says (503).
  async function explainEnd() {
    const text = document.getElementById("ended-text");
    if (opened) {
      // 1001, "going away": the server closes its games so when it stops, and each saves
      // its game in play in this browser's profile, as a closed tab's does.
      text.textContent = closeCode === 1001
        ? "The server has stopped. A game in play is saved for this browser: it comes back " +
          "when you open this page again with the server running."
        : "This game has ended.";
      return;
    }
    try {
      const response = await fetch(window.location.pathname, { cache: "no-store" });
      if (response.status === 503) {
        const most = Number(document.body.dataset.maxTabs);
        text.textContent = most === 1
          ? "The one game this server allows is being played. Close it, then play again."
          : `All ${most} games this server allows are being played. Close one, then play again.`;
      } else {
        text.textContent =
          "The game could not start (the server may have been restarted). Play again loads it anew.";
      }
    } catch {
      text.textContent = "The server is not answering: it may have stopped.";
    }
  }

  // The font's size makes the terminal's columns and rows, and so the tiles the game can draw
  // (it takes the largest at which the whole panel fits: ui/game/zoom.py). A board drawn in
  // one-row tiles is flat; from two rows a tile is raised. So the page takes the largest size
  // at which Expert's board fits in raised 3x2 tiles, and where no readable size gives that
  // (a phone), the largest at which Beginner's does; a page asked for ?fontsize= keeps it.
  // The page cannot know the board a tab will play (its profile's settings say).
  const LARGEST_FONT = 16; // textual-serve's size, the server's default
  const SMALLEST_FONT = 10;
  // Columns and rows of a board in 3x2 tiles with what surrounds it: the panel's frames and
  // header (4 columns, 5 rows: panel.py's CHROME), the menu bar and the status line (a test
  // holds them to what the game's zoom needs).
  const RAISED_BOARDS = [
    [94, 39], // Expert, 30x16: 30 * 3 + 4 columns, 16 * 2 + 5 + 2 rows (Intermediate's too)
    [31, 25], // Beginner, 9x9: 9 * 3 + 4 columns, 9 * 2 + 5 + 2 rows
  ];
  // Roboto Mono, the font the page serves: each character 1229/2048 of the size wide, a
  // line (its ascent and descent, as xterm.js measures it) 2701/2048 of it tall.
  const ADVANCE = 1229 / 2048;
  const ASCENT = 2146 / 2048;
  const DESCENT = 555 / 2048;

  function cellSize(fontSize) {
    const ratio = window.devicePixelRatio || 1;
    // As xterm.js sizes its cells in device pixels: the width rounded down, the height up
    // (the larger of the two ways a browser may round the line's ascent and descent).
    const line = Math.max(
      (ASCENT + DESCENT) * fontSize,
      Math.round(ASCENT * fontSize) + Math.round(DESCENT * fontSize),
    );
    return [
      Math.floor(ADVANCE * fontSize * ratio) / ratio,
      Math.ceil(Math.ceil(line) * ratio) / ratio,
    ];
  }

  function fontSizeFor(width, height) {
    for (const [columns, rows] of RAISED_BOARDS) {
      for (let size = LARGEST_FONT; size >= SMALLEST_FONT; size--) {
        const [cellWidth, cellHeight] = cellSize(size);
        if (Math.floor(width / cellWidth) >= columns && Math.floor(height / cellHeight) >= rows) {
          return size;
        }
      }
    }
    return LARGEST_FONT; // no board has raised tiles here: the largest text
  }

  function chooseFontSize() {
    if (new URLSearchParams(window.location.search).has("fontsize")) return; // asked for
    const element = terminal();
    const style = window.getComputedStyle(element);
    // Unknown sizes (NaN) fit nothing: the largest size, then.
    const size = fontSizeFor(parseInt(style.width, 10), parseInt(style.height, 10));
    element.dataset.fontSize = String(size);
  }

  function startAgain() {
    const url = new URL(window.location.href);
    url.searchParams.delete("delay");
    window.location.assign(url.toString());
  }

  document.addEventListener("DOMContentLoaded", () => {
    // A touch screen gets the bar with the flag-mode switch (before textual.js sizes the
    // terminal on load, so that it fits above the bar).
    if (onTouchScreen()) {
      document.body.classList.add("-touch");
    }
    chooseFontSize(); // read by textual.js on load, as it makes the terminal
    watchTouches(terminal());
    // A tap on the bar must leave the focus with the game: the terminal losing it pauses a game
    // in play (as the classic game does), hiding the board. The focus moves on a press: kept.
    document.getElementById("touch-bar").addEventListener("mousedown", (event) => {
      event.preventDefault();
    });
    const flag = document.getElementById("flag-mode");
    flag.addEventListener("click", () => {
      flagMode = !flagMode;
      flag.setAttribute("aria-pressed", String(flagMode));
      flag.textContent = flagMode ? "Flag mode: on" : "Flag mode: off";
    });
    document.getElementById("restart").addEventListener("click", startAgain);
    document.getElementById("start").addEventListener("click", startAgain);
    new MutationObserver(() => {
      if (document.body.classList.contains("-closed")) explainEnd();
    }).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  });
})();
