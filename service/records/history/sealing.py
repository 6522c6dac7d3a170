"""The hidden parts of a club's backup, sealed for the service alone.

A live game whose recorder sees only public information (``admin_spectator``)
is still in its club's backup, but its commands, outcome and seed (every
hand, draw and sealed bid) travel sealed: encrypted and authenticated with
Fernet (``cryptography``) under the deployment's backup seal key, so the
organiser who downloads the file reads none of it and cannot alter it
unnoticed, and a restore into a deployment holding the key brings it back.

The keys are the deployment's ``BACKUP_SEAL_KEY``: one or more Fernet keys,
comma-separated. The first seals; every one unseals, so a key can rotate (put
the new key first, keep the old one after it while its backups matter). A
sealed part names its key by an id (the start of the key's SHA-256), never the
key itself, so a restore knows at once whether it holds the key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from cryptography.fernet import Fernet, InvalidToken

from service.records.errors import Conflict, Invalid


def key_id(key: str) -> str:
    """A key's public name: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(key.strip().encode()).hexdigest()[:16]


def keys_of(setting: str | None) -> tuple[str, ...]:
    """The keys of a ``BACKUP_SEAL_KEY`` setting (comma-separated), first the
    one that seals; ``ValueError`` for one that is not a Fernet key, so that a
    service given a broken key does not start."""
    keys = tuple(k.strip() for k in (setting or "").split(",") if k.strip())
    for key in keys:
        Fernet(key.encode())
    return keys


def seal(keys: Sequence[str], hidden: str) -> dict[str, str]:
    """``hidden`` (a JSON object's text) sealed under the first key: ``{"key": id, "sealed": token}``."""
    if not keys:
        raise Conflict(
            "backup-seal-key-missing",
            "This club has a live game whose recorder sees only public information, and this"
            " service has no backup seal key (BACKUP_SEAL_KEY) to seal its hands with.",
        )
    token = Fernet(keys[0].encode()).encrypt(hidden.encode())
    return {"key": key_id(keys[0]), "sealed": token.decode()}


def known(keys: Sequence[str], box: Any) -> bool:
    """Whether ``box`` is sealed under one of ``keys``."""
    return isinstance(box, dict) and any(key_id(k) == box.get("key") for k in keys)


def unknown_key() -> Invalid:
    """The refusal of a part sealed under a key this service does not hold."""
    return Invalid(
        "backup-seal-key-unknown",
        "It holds a game sealed under a backup seal key this service does not hold"
        " (BACKUP_SEAL_KEY); restore it where that key is, or give this service that key.",
    )


def unseal(keys: Sequence[str], box: Any) -> dict[str, Any]:
    """What ``seal`` sealed; refused (``backup-seal-key-unknown``) when no key
    of ``keys`` has its id, and (``backup-seal-broken``) when it was altered."""
    if not known(keys, box):
        raise unknown_key()
    key = next(k for k in keys if key_id(k) == box["key"])
    try:
        hidden = json.loads(Fernet(key.encode()).decrypt(str(box.get("sealed", "")).encode()))
    except (InvalidToken, ValueError) as error:
        raise Invalid("backup-seal-broken", "Its sealed part was altered or cut.") from error
    if not isinstance(hidden, dict):
        raise Invalid("backup-seal-broken", "Its sealed part was altered or cut.")
    return hidden
