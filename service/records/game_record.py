"""``Game``: one stored game as the domain reads it (a row of ``games``).

It imports nothing of the domain, so that every domain module (access rules
included) may name it without an import loop."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from engines import registry
from engines.base import Engine


@dataclass(frozen=True)
class Game:
    id: UUID
    club_id: UUID
    league_id: UUID | None
    engine_id: str
    seats: list[str]
    options: dict[str, Any]
    dealer: str
    seed: str
    public: bool
    catalog: tuple[str, str, int] | None
    status: str
    version: int
    catalog_club: UUID | None = None  # the catalog's owner; None: a shipped default
    #: The club's admin token only watches this server-dealt game (see ``access``).
    admin_spectator: bool = False

    @property
    def engine(self) -> Engine:
        return registry.get(self.engine_id)

    @property
    def catalog_ref(self) -> dict[str, Any] | None:
        """The catalog as events and answers name it: kind, id, version and the
        club that owns it (null: a shipped default)."""
        if not self.catalog:
            return None
        kind, catalog_id, version = self.catalog
        club = str(self.catalog_club) if self.catalog_club else None
        return {"kind": kind, "id": catalog_id, "version": version, "club": club}
