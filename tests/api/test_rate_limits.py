"""Rate limits cannot be dodged: a token counts only once it authenticates,
failed authentications are limited per address, and so is creating clubs."""

import io
from dataclasses import replace
from uuid import uuid4

import pytest

from service.app import create_app
from tests.factories import ClubFactory


@pytest.fixture
def limited(settings, pool):
    def make(**limits):
        return create_app(replace(settings, **limits), pool=pool).test_client()

    return make


def _random_token() -> dict[str, str]:
    return {"Authorization": f"Bearer tr_admin_{uuid4().hex}"}


def test_made_up_tokens_count_against_the_callers_address(limited):
    client = limited(rate_limit="5 per minute")
    statuses = [client.get("/engines", headers=_random_token()).status_code for _ in range(8)]
    assert statuses == [200] * 5 + [429] * 3


def test_a_token_that_authenticates_has_its_own_allowance(limited, client):
    club = ClubFactory(client=client)
    limiter = limited(rate_limit="3 per minute")
    for _ in range(3):
        limiter.get("/engines", headers=_random_token())
    assert limiter.get("/engines", headers=_random_token()).status_code == 429
    admin = {"Authorization": f"Bearer {club['admin_token']}"}
    assert limiter.get(f"/clubs/{club['id']}", headers=admin).status_code == 200


def test_failed_authentications_are_limited_per_address(limited, client):
    club = ClubFactory(client=client)
    limiter = limited(auth_failure_limit="4 per minute")
    statuses = [limiter.get(f"/clubs/{club['id']}", headers=_random_token()).status_code for _ in range(6)]
    assert statuses == [401] * 4 + [429] * 2
    other_address = limiter.get(
        f"/clubs/{club['id']}", headers=_random_token(), environ_base={"REMOTE_ADDR": "10.0.0.9"}
    )
    assert other_address.status_code == 401


def test_requests_that_authenticate_do_not_use_up_the_failure_allowance(limited, client):
    club = ClubFactory(client=client)
    limiter = limited(auth_failure_limit="2 per minute")
    admin = {"Authorization": f"Bearer {club['admin_token']}"}
    assert all(limiter.get(f"/clubs/{club['id']}", headers=admin).status_code == 200 for _ in range(5))


def test_creating_clubs_is_limited_per_address_whatever_the_token(limited):
    client = limited(club_creation_limit="3 per hour")
    statuses = [
        client.post("/clubs", json={"name": f"Club {i}"}, headers=_random_token()).status_code
        for i in range(5)
    ]
    assert statuses == [201] * 3 + [429] * 2
    elsewhere = client.post("/clubs", json={"name": "Elsewhere"}, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert elsewhere.status_code == 201


def test_failed_authentications_do_not_lock_out_tokens_that_authenticate(limited, client):
    club = ClubFactory(client=client)
    limiter = limited(auth_failure_limit="3 per minute")
    statuses = [limiter.get(f"/clubs/{club['id']}", headers=_random_token()).status_code for _ in range(5)]
    assert statuses == [401] * 3 + [429] * 2
    admin = {"Authorization": f"Bearer {club['admin_token']}"}
    assert limiter.get(f"/clubs/{club['id']}", headers=admin).status_code == 200
    assert limiter.get(f"/clubs/{club['id']}", headers=_random_token()).status_code == 429


def test_every_way_of_making_a_club_shares_one_allowance(limited):
    from tests.web.helpers import csrf_token
    from tests.workers.test_club_backup import restore

    client = limited(club_creation_limit="3 per hour")
    assert client.post("/clubs", json={"name": "By the API"}).status_code == 201
    home = client.get("/").get_data(as_text=True)
    assert (
        client.post("/new-club", data={"name": "By the page", "csrf_token": csrf_token(home)}).status_code
        == 200
    )
    header = b'{"format": "tablerecord.club/1", "club": {"name": "Restored"}, "players": [], "leagues": []}\n'
    assert restore(client, header).status_code == 201
    assert client.post("/clubs", json={"name": "One too many"}).status_code == 429
    assert restore(client, header).status_code == 429
    refused = client.post("/new-club", data={"name": "One too many", "csrf_token": csrf_token(home)})
    assert refused.status_code == 429 and refused.mimetype == "text/html"
    page = refused.get_data(as_text=True)
    assert "Too many tries" in page and "Please wait a minute and try again." in page
    assert 'href="/"' in page  # a way back


def test_the_web_form_stops_making_clubs_at_the_limit(limited):
    from tests.web.helpers import csrf_token

    client = limited(club_creation_limit="2 per hour")
    home = client.get("/").get_data(as_text=True)
    statuses = [
        client.post("/new-club", data={"name": f"Club {i}", "csrf_token": csrf_token(home)}).status_code
        for i in range(4)
    ]
    assert statuses == [200, 200, 429, 429]


def test_imports_and_restores_run_one_per_address_and_so_many_in_all(limited, client):
    """A streamed import holds its place until its answer is closed; others
    are refused at once meanwhile (429 from its address, 503 when the
    process runs as many as it takes), then admitted again."""
    from tests.workers.test_club_backup import restore

    limiter = limited(imports_at_once=2, imports_per_address=1)
    club = ClubFactory(client=client)
    admin = {"Authorization": f"Bearer {club['admin_token']}"}
    plays = b"date,game,player,score\n2024-01-01,Pig,Ann,31\n2024-01-01,Pig,Ben,3\n"

    def history(address: str, streamed: bool = False):
        return limiter.post(
            f"/clubs/{club['id']}/history",
            data={"file": (io.BytesIO(plays), "plays.csv")},
            headers={**admin, **({"Accept": "application/x-ndjson"} if streamed else {})},
            content_type="multipart/form-data",
            environ_base={"REMOTE_ADDR": address},
            buffered=not streamed,
        )

    header = b'{"format": "tablerecord.club/1", "club": {"name": "Restored"}, "players": [], "leagues": []}\n'
    first = history("10.0.0.1", streamed=True)
    assert first.status_code == 200
    refused = history("10.0.0.1")
    assert (refused.status_code, refused.get_json()["code"]) == (429, "imports-running")
    assert refused.headers["Retry-After"]
    assert restore(limiter, header).status_code == 201  # another address (the test client's)
    second = history("10.0.0.2", streamed=True)
    busy = history("10.0.0.3")
    assert (busy.status_code, busy.get_json()["code"]) == (503, "imports-busy")
    for answer in (first, second):
        assert b'"report"' in b"".join(answer.response)
        answer.close()
    assert history("10.0.0.1").status_code == 201


def test_the_history_page_shares_the_imports_allowance_and_answers_in_plain_words(limited, client):
    """An import the page starts counts as the API's do: while one from this
    address runs, the page's is refused at once, as a page with a way back."""
    from tests.web.helpers import csrf_token, sign_in

    limiter = limited(imports_at_once=2, imports_per_address=1)
    club = ClubFactory(client=client)
    plays = b"date,game,player,score\n2024-01-01,Pig,Ann,31\n2024-01-01,Pig,Ben,3\n"
    running = limiter.post(
        f"/clubs/{club['id']}/history",
        data={"file": (io.BytesIO(plays), "plays.csv")},
        headers={"Authorization": f"Bearer {club['admin_token']}", "Accept": "application/x-ndjson"},
        content_type="multipart/form-data",
        buffered=False,
    )
    assert running.status_code == 200
    sign_in(limiter, club["admin_token"])
    form = limiter.get(f"/club/{club['id']}/history").get_data(as_text=True)

    def choose():
        return limiter.post(
            f"/club/{club['id']}/history",
            data={"csrf_token": csrf_token(form), "file": (io.BytesIO(plays), "plays.csv")},
            content_type="multipart/form-data",
        )

    refused = choose()
    assert refused.status_code == 429 and refused.mimetype == "text/html"
    assert refused.headers["Retry-After"]
    assert "is still running" in refused.get_data(as_text=True)
    assert 'href="/"' in refused.get_data(as_text=True)
    assert b'"report"' in b"".join(running.response)
    running.close()
    assert choose().status_code == 200
