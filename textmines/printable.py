"""Text from files and the player (names, paths, a replay's player) made safe to print.

A terminal takes an escape character for the start of a command (colours, the title, the
cursor, even the clipboard), and a newline in a file name would turn a one-line message into
two. What the command line prints of such text shows every character that is not printable
escaped, as Python writes it in a string ('\\x1b', '\\n', '\\u202e'); a byte of a file name that
is not UTF-8 shows as that byte ('\\xff'), not as the stand-in Python decodes it to.
"""

from __future__ import annotations

#: Python decodes a file name's bytes that are not UTF-8 to these lone surrogates
#: (surrogateescape): U+DC80 to U+DCFF stand for the bytes 0x80 to 0xFF.
_ESCAPED_BYTES = range(0xDC80, 0xDD00)


def printable(text: str) -> str:
    """``text`` on one line, each character that is not printable shown escaped."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escaped(char) for char in text)


def printable_lines(text: str) -> str:
    """``text`` with each of its lines made ``printable``: its newlines stay, nothing else
    that is not printable does (a carriage return would write over the line)."""
    return "\n".join(printable(line) for line in text.split("\n"))


def _escaped(char: str) -> str:
    code = ord(char)
    if code in _ESCAPED_BYTES:
        return f"\\x{code - 0xDC00:02x}"
    return repr(char)[1:-1]
