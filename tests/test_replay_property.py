"""Property: whatever a recorder does to a table game — actions, dice,
retractions — the state the service serves (process cache, or the latest
snapshot plus the tail) equals a full fold of the log, and equals the state
of an in-memory game that only ever saw the actions still in force."""

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from engines.base import Event, GameConfig
from engines.pig import ENGINE as pig
from service.records.access import Principal
from service.records.errors import DomainError
from service.records.log import fold, store
from service.records.log.context import Records
from service.records.recording import acting, creation, games, recorder, states

SNAPSHOT_EVERY = 3
Step = st.one_of(
    st.tuples(st.just("act"), st.integers(1, 6)),
    st.tuples(st.just("retract"), st.integers(1, 4)),
)


def _new_table_game(pool):
    club = uuid.uuid4()
    players = [str(uuid.uuid4()), str(uuid.uuid4())]
    with pool.connection() as conn:
        conn.execute("INSERT INTO clubs (id, name) VALUES (%s, 'c')", (club,))
        for p in players:
            conn.execute("INSERT INTO players (id, club_id, name) VALUES (%s, %s, %s)", (p, club, p))
    admin = Principal(club, "admin")
    spec = {"engine": "pig", "seats": players, "dealer": "table"}
    game, _ = creation.new_game(Records(pool, SNAPSHOT_EVERY), club, admin, spec, {"target": 25}, None)
    return game.id, admin


def _next_command(state, die):
    if pig.chance(state) is not None:
        return None, {"type": "ResolveRoll", "dice": [die]}
    if state.turn_total >= 8:
        return state.turn, {"type": "Hold"}
    return state.turn, {"type": "Roll"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(Step, min_size=1, max_size=40))
def test_served_state_equals_full_replay_whatever_the_recorder_does(pool, steps):
    game_id, admin = _new_table_game(pool)
    records = Records(pool, SNAPSHOT_EVERY)
    for kind, n in steps:
        with pool.connection() as conn:
            game = games.get_game(conn, game_id)
            state = states.load_state(conn, game)
        if game.status != "active" and kind == "act":
            continue
        try:
            if kind == "act":
                seat, command = _next_command(state, n)
                acting.act(records, game_id, admin, seat, command)
            else:
                recorder.retract(records, game_id, admin, max(1, game.version - n))
                note("retracted")
        except DomainError as problem:
            assert problem.code in ("bad-retraction", "game-not-active")
            note(f"refused: {problem.code}")
        with pool.connection() as conn:
            game = games.get_game(conn, game_id)
            served = states.load_state(conn, game)
            full = states.load_state(conn, game, use_snapshots=False)
            log = store.read_stream(conn, game_id)
        assert served == full
        config = GameConfig(seats=2, options={"target": 25}, dealer="table")
        alive = [Event(e.type, e.data) for e in fold.live_line(log) if e.type not in fold.SERVICE_EVENTS]
        in_memory = pig.initial_state(config)
        for event in alive:
            in_memory = pig.evolve(in_memory, event)
        assert in_memory == full
        assert [e.version for e in log] == list(range(1, len(log) + 1))
