"""Where a webhook may post: http(s) on the public internet only.

A receiver's host is resolved and every address it resolves to must be
public (not private, loopback, link-local, multicast or reserved), at
registration and again at every delivery, which then connects to an address
so checked (a name that changes its answer in between cannot send a delivery
into the operator's network). ``WEBHOOK_ALLOW_PRIVATE=1`` lifts the rule, for
tests and local use.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from service.records.errors import Invalid

MAX_URL = 2000


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with its query
    addresses: tuple[str, ...]  # every address the host resolved to, all allowed


def private_allowed() -> bool:
    return os.environ.get("WEBHOOK_ALLOW_PRIVATE", "") in ("1", "true", "yes")


def parse(url: str) -> tuple[str, str, int, str]:
    """The URL's scheme, host, port and path, or ``Invalid`` naming what is wrong."""
    if len(url) > MAX_URL:
        raise Invalid("webhook-url", f"A webhook's URL has at most {MAX_URL} characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise Invalid("webhook-url", f"The webhook's URL cannot be read: {error}.") from error
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Invalid("webhook-url", "A webhook's URL is an http:// or https:// address with a host.")
    if parts.username or parts.password:
        raise Invalid("webhook-url", "A webhook's URL carries no user name or password.")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolve(url: str, allow_private: bool | None = None) -> Target:
    """The URL's target with every address its host resolves to, or ``Invalid``
    (``webhook-address-refused``) when one of them is not public."""
    scheme, host, port, path = parse(url)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise Invalid("webhook-address-unknown", f"The webhook's host {host} cannot be found.") from error
    addresses = tuple(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise Invalid("webhook-address-unknown", f"The webhook's host {host} cannot be found.")
    allow = private_allowed() if allow_private is None else allow_private
    refused = [a for a in addresses if not is_public(a)]
    if refused and not allow:
        raise Invalid(
            "webhook-address-refused",
            f"The webhook's host {host} is a private, loopback or reserved address ({refused[0]});"
            " webhooks post to the public internet only.",
        )
    return Target(scheme, host, port, path, addresses)
