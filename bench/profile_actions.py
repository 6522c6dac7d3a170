"""Where an action's time goes: ``python -m bench.profile_actions [N]`` posts
N Pig actions in-process (the Flask test client, one game) under
pyinstrument and prints the profile. Not part of ``make bench``."""

from __future__ import annotations

import sys
from dataclasses import replace

from pyinstrument import Profiler

from bench.support import bench_database
from service.app import create_app
from service.config import Settings
from service.records.log.db import make_pool


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with bench_database() as url:
        pool = make_pool(url, max_size=2)
        settings = replace(Settings.from_env(), database_url=url, broker_url=None, rate_limit_enabled=False)
        client = create_app(settings, pool=pool).test_client()
        club = client.post("/clubs", json={"name": "profile"}).get_json()
        auth = {"Authorization": f"Bearer {club['admin_token']}"}
        players = [
            client.post(f"/clubs/{club['id']}/players", json={"name": f"p{i}"}, headers=auth).get_json()["id"]
            for i in range(2)
        ]
        game = client.post(
            f"/clubs/{club['id']}/games",
            json={"engine": "pig", "seats": players, "options": {"target": 10_000}},
            headers=auth,
        ).get_json()
        seat, total = 0, 0
        profiler = Profiler(interval=0.0005)
        profiler.start()
        for _ in range(n):
            kind = "Hold" if total >= 12 else "Roll"
            body = client.post(
                f"/games/{game['id']}/actions", json={"seat": seat, "command": {"type": kind}}, headers=auth
            ).get_json()
            types = [e["type"] for e in body["events"]]
            if "TurnBusted" in types or "TurnHeld" in types:
                seat, total = 1 - seat, 0
            else:
                total += next(e["data"]["value"] for e in body["events"] if e["type"] == "DieRolled")
        profiler.stop()
        pool.close()
    print(profiler.output_text(unicode=False, color=False, show_all=False))


if __name__ == "__main__":
    main()
