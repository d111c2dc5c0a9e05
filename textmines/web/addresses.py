"""Where a ``--serve`` host can be reached: the lines it prints when it starts, and this
machine's addresses."""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

# ----------------------------------------------------------------------- what to tell the player


def serving_text(host: str, port: int, max_tabs: int) -> str:
    """What ``--serve`` says when it starts: where to play, and, when other machines can
    reach it, that they can and what that gives them."""
    listening = _listening_address(host, port)
    lines: list[str]
    if listening.is_loopback:
        lines = [f"textmines: play at {_url(host, port)} (this machine only)."]
    elif listening.is_unspecified:
        others = [
            address
            for address in interface_addresses(ipv6=listening.version == 6)
            if not address.is_loopback
        ]
        lines = ["textmines: serving on every address of this machine:"]
        lines.append(f"  on this machine:     {_url('127.0.0.1', port)}")
        if others:
            shown = ", ".join(_url(str(address), port) for address in others)
            lines.append(f"  from other machines: {shown}")
        else:
            lines.append("  (this machine has no network address other than its own loopback)")
    else:
        lines = [f"textmines: play at {_url(host, port)}"]
    if not listening.is_loopback:
        lines.append(network_warning(port, max_tabs))
    lines.append(f"At most {games_text(max_tabs)} at once (--max-tabs). Ctrl+C stops.")
    return "\n".join(lines)


def network_warning(port: int, max_tabs: int) -> str:
    """What anyone who can reach the port can do: play, as a player of their own, with this
    account's reach to replay files."""
    return textwrap.fill(
        f"WARNING: anyone who can reach this machine at port {port} can play here "
        f"({games_text(max_tabs)} at once), with no password: each browser as a player of its "
        "own (its statistics, settings and saved game, in your data folder; yours are out "
        "of its reach), and any of them can open replay files anywhere this account can "
        "read (Game > Open replay). The traffic is plain HTTP: whoever sees it can play as "
        "that browser. Serve beyond 127.0.0.1 only on a network whose people you trust.",
        width=88,
        subsequent_indent="  ",
    )


def games_text(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _listening_address(host: str, port: int) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The address a server at ``host`` listens on (the one ``check_address`` bound)."""
    address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][4][0]
    return ipaddress.ip_address(str(address).split("%")[0])


def interface_addresses(
    *, ipv6: bool = False
) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """This machine's own addresses, asked of the system alone (no name looked up, nothing
    sent): IPv4, and IPv6 too when ``ipv6``. Link-local addresses are left out (a browser
    needs the interface named to use them)."""
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = list(_ipv4_addresses())
    if ipv6:
        found += _ipv6_addresses()
    unique = dict.fromkeys(address for address in found if not address.is_link_local)
    return sorted(unique, key=lambda address: (address.version, address.is_loopback, address))


def _ipv4_addresses() -> Iterator[ipaddress.IPv4Address]:
    if sys.platform.startswith("linux"):
        import fcntl

        # SIOCGIFADDR: each interface's IPv4 address, as `ip addr` reads it.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                request = struct.pack("256s", name.encode()[:15])
                try:
                    answer = fcntl.ioctl(probe.fileno(), 0x8915, request)
                except OSError:
                    continue  # an interface without an IPv4 address
                yield ipaddress.IPv4Address(answer[20:24])
        return
    # Elsewhere: the address that would carry traffic to the outside. Connecting a UDP socket
    # only chooses a route; nothing is sent (192.0.2.1 is a documentation address).
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return
        yield ipaddress.IPv4Address(probe.getsockname()[0])


def _ipv6_addresses() -> list[ipaddress.IPv6Address]:
    try:
        lines = Path("/proc/net/if_inet6").read_text().splitlines()
    except OSError:
        return []
    return [ipaddress.IPv6Address(int(line.split()[0], 16)) for line in lines if line.strip()]
