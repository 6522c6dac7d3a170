"""A tournament run from a phone: created, nine players of Chancellors entered,
round 1 seated at three tables of three, its tables logged by their results,
the standings read, round 2 seated meeting no one again; a swap, a refusal
in words with the form kept, and the room's screen."""

from __future__ import annotations

import itertools

from playwright.sync_api import Page, expect

from tests.factories import ClubFactory, PlayerFactory
from tests.web.test_browser import click, sign_in

NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo"]


def seated_tables(page: Page) -> list[list[str]]:
    tables = page.locator("#round .tn-table")
    return [tables.nth(i).locator(".tn-name").all_inner_texts() for i in range(tables.count())]


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_tournament_of_nine_is_run_at_phone_size(page: Page, broker_client):
    club = ClubFactory(client=broker_client)
    for name in NAMES:
        PlayerFactory(client=broker_client, club=club, name=name)
    sign_in(page, club["admin_token"])
    click(page, page.locator("#tournaments"))
    page.fill("#tournament-name", "Winter Cup")
    page.select_option("#tournament-engine", label="Chancellors (2 to 4 at a table)")
    page.fill("#tournament-rounds", "3")
    click(page, page.locator("#create-tournament"))
    expect(page.locator("h1")).to_have_text("Winter Cup")
    for name in NAMES:
        page.locator(".tn-enter label", has_text=name).click()
    click(page, page.locator("#enter"))
    expect(page.locator("#players li")).to_have_count(9)

    click(page, page.locator("#seat-round"))
    expect(page.locator("#round-title")).to_have_text("Round 1")
    first = seated_tables(page)
    assert sorted(len(t) for t in first) == [3, 3, 3]
    assert sorted(n for t in first for n in t) == sorted(NAMES)
    fits_the_phone(page)

    for number, table in enumerate(first, start=1):
        page.locator(f"#log-{number}").click()
        form = page.locator(f"form[action$='/tables/{number}/result']")
        for place, name in enumerate(table, start=1):
            form.locator("fieldset", has_text=name).get_by_text(
                f"{place}{'stndrd'[2 * place - 2 : 2 * place]}", exact=True
            ).click()
        click(page, page.locator(f"#record-{number}"))
        expect(page.locator(f"#table-{number}-title + ol .tn-place")).to_have_count(3)
    expect(page.locator("#round-title")).to_have_text("Round 1 (ended)")
    expect(page.locator("#standings-title")).to_have_text("Standings after 1 round")
    rows = page.locator("#standings tbody tr:not(.tn-why) th")
    winners = {t[0] for t in first}
    assert set(rows.all_inner_texts()[:3]) == winners
    # The three winners are level on points, and on their opponents' points (a half each
    # table): they share first place, and the page says why in words.
    expect(page.locator("#standings tbody tr:not(.tn-why) td:first-child")).to_have_text(
        ["1st"] * 3 + ["4th"] * 3 + ["7th"] * 3
    )
    expect(page.locator("#standings .tn-why").first).to_contain_text("they share the place")
    fits_the_phone(page)

    click(page, page.locator("#seat-round"))
    expect(page.locator("#round-title")).to_have_text("Round 2")
    second = seated_tables(page)
    met = {frozenset(pair) for t in first for pair in itertools.combinations(t, 2)}
    assert not [pair for t in second for pair in itertools.combinations(t, 2) if frozenset(pair) in met]

    # Two players of different tables swap before their games start.
    a, b = second[0][0], second[1][0]
    page.locator("#swap-open").click()
    page.select_option("#swap-1", label=f"{a} (table 1)")
    page.select_option("#swap-2", label=f"{b} (table 2)")
    click(page, page.locator("#swap"))
    assert seated_tables(page)[0][0] == b and seated_tables(page)[1][0] == a

    # A result that leaves a player without a place is refused in words, the places kept.
    table = seated_tables(page)[0]
    page.locator("#log-1").click()
    form = page.locator("form[action$='/tables/1/result']")
    form.locator("fieldset", has_text=table[0]).get_by_text("1st", exact=True).click()
    click(page, page.locator("#record-1"))
    expect(page.locator("#problem")).to_have_text("Tap a place for every player of the table.")
    kept = page.locator("form[action$='/tables/1/result'] fieldset", has_text=table[0])
    expect(kept.locator("input[value='1']")).to_be_checked()

    click(page, page.locator("#screen"))
    expect(page.locator("h1")).to_have_text("Winter Cup: Round 2")
    expect(page.locator("#round .tn-table")).to_have_count(3)
    expect(page.locator("#standings tbody tr:not(.tn-why)")).to_have_count(9)
