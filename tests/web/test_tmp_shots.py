from tests.factories import ClubFactory, GameFactory, LeagueFactory, PlayerFactory
from tests.web.test_browser import sign_in
from tests.workers.helpers import drain, play_pig


def test_shots(page, broker_client, database_url):
    club = ClubFactory(client=broker_client)
    league = LeagueFactory(client=broker_client, club=club, public=True, min_games=3)
    names = ["Alexandra Montgomery", "Bo", "Christopher", "Di", "Evangeline"]
    m = [PlayerFactory(client=broker_client, club=club, name=n) for n in names]
    for i in range(5):
        seated = [m[(i + k) % 5] for k in range(4 if i < 4 else 2)]
        g = GameFactory(
            client=broker_client, club=club, players=seated, league=league["id"], options={"target": 12}
        )
        play_pig(broker_client, g, hold_at=3 + i)
    drain(database_url)
    sign_in(page, club["admin_token"])
    for name, path in [
        ("league", f"/league/{league['id']}"),
        ("profile", f"/player/{m[0]['id']}"),
        ("search", f"/club/{club['id']}/games"),
        ("stats", f"/league/{league['id']}/statistics"),
        ("club", f"/club/{club['id']}"),
    ]:
        page.goto(path)
        page.screenshot(path=f"/tmp/i28-{name}.png", full_page=True)
        print(name, page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]"))
