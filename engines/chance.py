"""Turning a ChanceRequest into the chance command that answers it.

The generator is passed in: the service uses one seeded per game, tests use
their own. Nothing here reads global randomness.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import ChanceRequest


def deal(request: ChanceRequest, rng: random.Random) -> dict[str, Any]:
    command: dict[str, Any] = {"type": request.command, "seat": None, **request.fixed}
    if request.dice:
        command["dice"] = [rng.randint(1, 6) for _ in range(request.dice)]
    if request.draw:
        pool = sorted(request.pool)
        if request.draw > len(pool):
            raise ValueError(f"cannot draw {request.draw} from a pool of {len(pool)}")
        command["cards"] = rng.sample(pool, request.draw)
    return command
