"""Proposing a game night's tables: every present player at one table at
most, every table legal for its game and wanted by its players, a player
left waiting only when no game they want could seat them, tables of even
strength when balancing ratings, and newcomers spread when mixing."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import registry
from service.records.competitions import seating
from service.records.competitions.night_tables import Offer, propose

OFFERS = [Offer(g.id, g.min_seats, g.max_seats) for g in registry.games()]


@st.composite
def nights(draw):
    offers = draw(st.lists(st.sampled_from(OFFERS), min_size=1, max_size=len(OFFERS), unique=True))
    players = [f"P{i:02}" for i in range(draw(st.integers(0, 30)))]
    engines = [o.engine for o in offers]
    wants = {p: draw(st.lists(st.sampled_from(engines), max_size=3, unique=True)) for p in players}
    ratings = {p: draw(st.floats(800, 2200)) for p in players if draw(st.booleans())}
    newcomers = frozenset(p for p in players if draw(st.booleans()))
    return players, wants, offers, ratings, newcomers, draw(st.sampled_from(["balance", "mix"]))


@settings(max_examples=300, deadline=None)
@given(nights())
def test_every_player_present_sits_at_most_once_at_a_legal_table_of_a_game_they_want(night):
    players, wants, offers, ratings, newcomers, mode = night
    proposal = propose(players, wants, offers, ratings, newcomers, mode)
    by_engine = {o.engine: o for o in offers}
    seated = Counter(p for t in proposal.tables for p in t.players)
    assert all(n == 1 for n in seated.values())
    assert set(seated) | set(proposal.waiting) == set(players)
    assert not set(seated) & set(proposal.waiting)
    for table in proposal.tables:
        offer = by_engine[table.engine]
        assert offer.min_seats <= len(table.players) <= offer.max_seats
        assert all(table.engine in wants[p] or not wants[p] for p in table.players)
    for p in proposal.waiting:
        # Waiting only when each game they want could not seat one more.
        for engine in wants[p] or by_engine:
            at = [t for t in proposal.tables if t.engine == engine]
            n = sum(len(t.players) for t in at)
            offer = by_engine[engine]
            assert seating.table_sizes(n + 1, offer.min_seats, offer.max_seats) is None
    assert proposal == propose(players, wants, offers, ratings, newcomers, mode)


def test_balancing_deals_the_ratings_in_a_snake_so_two_tables_are_equally_strong():
    chancellors = Offer("chancellors", 2, 4)
    players = [f"P{i}" for i in range(8)]
    ratings = {p: 1000.0 + 100 * i for i, p in enumerate(players)}
    proposal = propose(players, {}, [chancellors], ratings, frozenset(), "balance")
    sums = sorted(sum(ratings[p] for p in t.players) for t in proposal.tables)
    assert [len(t.players) for t in proposal.tables] == [4, 4]
    assert sums == [sum(ratings.values()) / 2] * 2
    seeded = sorted(players, key=ratings.get, reverse=True)
    by_seed = [sum(ratings[p] for p in seeded[:4]), sum(ratings[p] for p in seeded[4:])]
    assert max(sums) - min(sums) < max(by_seed) - min(by_seed)


@settings(max_examples=200, deadline=None)
@given(st.integers(4, 24), st.data())
def test_mixing_spreads_newcomers_over_a_games_tables_within_one(n, data):
    players = [f"P{i:02}" for i in range(n)]
    newcomers = frozenset(data.draw(st.lists(st.sampled_from(players), unique=True)))
    proposal = propose(players, {}, [Offer("chancellors", 2, 4)], {}, newcomers, "mix")
    per_table = [sum(p in newcomers for p in t.players) for t in proposal.tables]
    assert max(per_table) - min(per_table) <= 1
    assert not proposal.waiting


def test_a_game_wanted_by_too_few_leaves_them_for_a_game_they_also_want():
    offers = [Offer("final_decrees", 4, 5), Offer("chancellors", 2, 4)]
    wants = {
        "A": ["final_decrees", "chancellors"],
        "B": ["final_decrees", "chancellors"],
        "C": ["chancellors"],
    }
    proposal = propose(["A", "B", "C"], wants, offers, {}, frozenset(), "balance")
    assert [(t.engine, sorted(t.players)) for t in proposal.tables] == [("chancellors", ["A", "B", "C"])]
