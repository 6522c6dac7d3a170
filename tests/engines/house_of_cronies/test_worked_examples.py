"""The rulebook's two worked examples, step by step."""

from engines.house_of_cronies import ENGINE
from engines.house_of_cronies.catalog import (
    DIPLOMATIC_INCIDENT,
    FLOOR_CROSSING,
    HAWKS,
    POINT_OF_ORDER,
    RESHUFFLE,
    SHEBEEN,
)
from engines.house_of_cronies.state import LAYING, Draw

from .builders import (
    BALEKA,
    JACOB,
    PRAVIN,
    THULI,
    act,
    build,
    cabinet,
    cor,
    crony,
    do,
    draw,
    inf,
    passes,
    refused,
    tactic,
)

NAMES = ["Baleka", "Thuli", "Pravin", "Jacob"]


def test_example_of_a_round():
    # Baleka, Thuli, Pravin and Jacob are playing. Baleka has the speaker token.
    mandarin, commissioner, broadcaster = (
        crony("Treasury Mandarin"),  # minimum bid 5
        crony("Police Commissioner"),  # minimum bid 4
        crony("State Broadcaster Boss"),  # minimum bid 3
    )
    loyalist, union_boss = crony("Party Loyalist"), crony("Union Boss")
    state = build(
        speaker=BALEKA,
        hands={BALEKA: [inf(5), cor(4)], JACOB: [inf(4), cor(3)], PRAVIN: [cor(3, 1)]},
        tactics={THULI: [tactic(SHEBEEN)], BALEKA: [tactic(POINT_OF_ORDER)], PRAVIN: [tactic(RESHUFFLE)]},
        cabinets={THULI: {"president": loyalist}, PRAVIN: {"president": union_boss}},
    )
    state = state.with_(stage=LAYING, turn=None, turns_done=0, pending_draws=(Draw("main", "table", 5),))

    # Baleka draws 5 cards from the main deck and lays them out.
    laid_out = [mandarin, commissioner, broadcaster, inf(2), inf(1)]
    state, events = draw(state, laid_out)
    assert events[0].type == "CardsLaidOut" and sorted(state.table) == sorted(laid_out)
    # No one plays a Motion of no confidence: every player is asked, and passes.
    state = passes(state, BALEKA, THULI, PRAVIN, JACOB)
    assert state.turn == BALEKA

    # Baleka offers a bid of 5 influence for a crony. Thuli and Pravin decide not to bid.
    state = do(state, BALEKA, "PlaceBid", card=mandarin, cards=[inf(5)])
    assert state.auction.asking == THULI
    state = do(state, THULI, "PassBid")
    state = do(state, PRAVIN, "PassBid")
    # Jacob offers a bid of 7 using a 4 influence and 3 corruption card.
    state = do(state, JACOB, "PlaceBid", card=mandarin, cards=[inf(4), cor(3)])
    # Baleka does not offer a higher bid (and neither do Thuli and Pravin, asked again).
    assert state.auction.asking == BALEKA
    state = do(state, BALEKA, "PassBid")
    state = do(state, THULI, "PassBid")
    state, events = act(state, PRAVIN, "PassBid")
    won = next(e for e in events if e.type == "BidWon")
    assert ENGINE.describe(won, NAMES) == "Jacob wins the Treasury Mandarin with a bid of 7."
    # Jacob wins the crony and places it within his cabinet.
    state = do(state, JACOB, "PlaceCrony", card=mandarin, position="finance")
    assert cabinet(state, JACOB) == {"finance": mandarin}
    assert state.players[JACOB].hand == () and state.players[BALEKA].hand == tuple(sorted([inf(5), cor(4)]))
    assert state.turn == BALEKA  # outbid, Baleka may bid on or pick up

    # Baleka then offers a bid of 4 corruption. Thuli and Pravin decide not to bid. Jacob cannot bid.
    state = do(state, BALEKA, "PlaceBid", card=commissioner, cards=[cor(4)])
    state = do(state, THULI, "PassBid")
    assert refused(state, JACOB, "PlaceBid", card=commissioner, cards=[]) == "not-asked"
    state = do(state, PRAVIN, "PassBid")
    # Baleka obtains the crony and places it within her cabinet.
    state = do(state, BALEKA, "PlaceCrony", card=commissioner, position="justice")
    state, _ = draw(state, [tactic(DIPLOMATIC_INCIDENT)])  # the Police Commissioner's free tactic
    assert cabinet(state, BALEKA) == {"justice": commissioner}
    state = do(state, BALEKA, "EndTurn")

    # Thuli picks up an influence card and uses a tactic.
    assert state.turn == THULI
    state = do(state, THULI, "PickUpCard", card=inf(2))
    state = do(state, THULI, "PlayTactic", card=tactic(SHEBEEN), crony=loyalist)
    # Baleka uses a Point of order tactic to cancel Thuli's tactic.
    state = do(state, BALEKA, "PlayTactic", card=tactic(POINT_OF_ORDER))
    # No one answers Baleka's Point of order: the others pass.
    state = passes(state, THULI, PRAVIN)
    state, events = act(state, JACOB, "PassReaction")
    assert [e.type for e in events] == ["ReactionPassed", "TacticCancelled", "TacticsDiscarded"]
    assert state.shebeens == ()
    assert sorted(state.tactic_discard) == sorted([tactic(SHEBEEN), tactic(POINT_OF_ORDER)])
    state = do(state, THULI, "EndTurn")

    # Pravin bids 3 for a crony. All other players have taken a card, so no one can bid against him.
    state, events = act(state, PRAVIN, "PlaceBid", card=broadcaster, cards=[cor(3, 1)])
    assert "BidWon" in [e.type for e in events]
    state = do(state, PRAVIN, "PlaceCrony", card=broadcaster, position="communications")
    state, _ = draw(state, [tactic(DIPLOMATIC_INCIDENT, 1)])  # the Broadcaster Boss's free tactic
    # His bid used corruption and his Union Boss could be investigated: no one does.
    assert state.window.kind == "hawks"
    state = passes(state, PRAVIN, JACOB, BALEKA, THULI)
    # Pravin then plays a tactic, and no one raises a Point of order.
    state = do(state, PRAVIN, "PlayTactic", card=tactic(RESHUFFLE), cabinet={"vice-president": union_boss})
    state = passes(state, JACOB, BALEKA, THULI)
    assert cabinet(state, PRAVIN) == {"vice-president": union_boss}
    assert state.main_discard.count(broadcaster) == 1  # left out of the new cabinet
    state = do(state, PRAVIN, "EndTurn")

    # Jacob, who already won his crony, has a turn for tactics only.
    assert state.turn == JACOB
    assert refused(state, JACOB, "PickUpCard", card=inf(1)) == "already-gained"
    state, events = act(state, JACOB, "EndTurn")

    # The round ends and Baleka passes the Speaker token to Thuli.
    ended = next(e for e in events if e.type == "RoundEnded")
    assert ended.data["discarded"] == [inf(1)]
    assert state.speaker == THULI and state.round == 2


def test_example_of_the_final_round():
    pravin_negatives = [
        crony(n) for n in ("Tenderpreneur", "Rogue Spy Chief", "Power Utility CEO", "Troll Farm Manager")
    ]
    cabinets = {
        BALEKA: {
            "president": crony("Party Loyalist"),
            "vice-president": crony("Provincial Premier"),
            "finance": crony("Minister of Finance"),
            "justice": crony("Chief Justice Nominee"),
            "service-delivery": crony("Health Minister"),
            "communications": crony("Party Spokesperson"),
        },
        THULI: {
            "president": crony("Ethics Committee Chair"),
            "vice-president": crony("Union Boss"),
            "finance": crony("Treasury Mandarin"),
            "justice": crony("Prosecutions Boss"),
            "service-delivery": crony("Housing Minister"),
            "communications": crony("Spin Doctor"),
        },
        PRAVIN: {
            "president": pravin_negatives[0],
            "vice-president": pravin_negatives[1],
            "finance": crony("Pension Fund Raider"),
            "justice": crony("Public Protector"),
            "service-delivery": pravin_negatives[2],
            "communications": pravin_negatives[3],
        },
        JACOB: {
            "president": crony("Deputy Minister of Nothing"),
            "vice-president": crony("Youth League Firebrand"),
            "finance": crony("Reserve Bank Hopeful"),
            "justice": crony("Police Commissioner"),
            "service-delivery": crony("Water Minister"),
            "communications": crony("State Broadcaster Boss"),
        },
    }
    # The round before: Pravin was the Speaker and Thuli, last to play, ends her turn.
    state = build(
        speaker=PRAVIN,
        turn=THULI,
        gained=[PRAVIN, JACOB, BALEKA, THULI],
        cabinets=cabinets,
        hands={JACOB: [inf(5)], PRAVIN: [cor(7), inf(3)]},
        tactics={BALEKA: [tactic(FLOOR_CROSSING)], THULI: [tactic(HAWKS)]},
        table=[inf(1)],
        main_deck=[inf(2), inf(2, 1), inf(3, 1)],
    )
    state, events = act(state, THULI, "EndTurn")
    # No more cards can be drawn from the main deck: the final round; Jacob has the speaker token.
    started = next(e for e in events if e.type == "RoundStarted")
    assert started.data["final"] is True and state.speaker == JACOB
    # No one plays a Motion of no confidence at the start of the final round.
    state = passes(state, JACOB, BALEKA, THULI, PRAVIN)
    assert state.turn == JACOB

    # Jacob purchases 1 tactic using 5 influence, then plays a Saxonwold shebeen on one of his cronies.
    state = do(state, JACOB, "BuyTactics", count=1, cards=[inf(5)])
    state, _ = draw(state, [tactic(SHEBEEN)])
    state = do(state, JACOB, "PlayTactic", card=tactic(SHEBEEN), crony=crony("Reserve Bank Hopeful"))
    state = passes(state, BALEKA, THULI, PRAVIN)  # no one raises a Point of order
    assert state.shebeens == ((crony("Reserve Bank Hopeful"), tactic(SHEBEEN)),)
    state = do(state, JACOB, "EndTurn")

    # Baleka plays a Floor crossing to swap her President for Thuli's.
    state = do(state, BALEKA, "PlayTactic", card=tactic(FLOOR_CROSSING), target=THULI, position="president")
    state = passes(state, THULI, PRAVIN, JACOB)
    assert cabinet(state, BALEKA)["president"] == crony("Ethics Committee Chair")
    assert cabinet(state, THULI)["president"] == crony("Party Loyalist")
    state = do(state, BALEKA, "EndTurn")

    # Thuli chooses not to play any tactics during her last turn.
    state = do(state, THULI, "EndTurn")

    # Pravin purchases 2 tactics using 7 corruption and 3 influence.
    state = do(state, PRAVIN, "BuyTactics", count=2, cards=[cor(7), inf(3)])
    state, _ = draw(state, [tactic(RESHUFFLE), tactic(SHEBEEN, 1)])
    # Thuli plays a Hawks investigation and removes one of Pravin's cronies.
    assert state.window.kind == "hawks"
    state = do(state, THULI, "PlayTactic", card=tactic(HAWKS), crony=crony("Public Protector"))
    state = passes(state, PRAVIN, JACOB, BALEKA)
    assert crony("Public Protector") not in state.players[PRAVIN].cabinet
    # Pravin plays a Cabinet reshuffle to remove his cronies with negative votes.
    state = do(
        state, PRAVIN, "PlayTactic", card=tactic(RESHUFFLE), cabinet={"finance": crony("Pension Fund Raider")}
    )
    state = passes(state, JACOB, BALEKA)
    state, events = act(state, THULI, "PassReaction")
    reshuffled = next(e for e in events if e.type == "CabinetReshuffled")
    assert sorted(reshuffled.data["removed"]) == sorted(pravin_negatives)
    state, events = act(state, PRAVIN, "EndTurn")

    # The vote counting: all players have a full cabinet except Pravin, whose total loses 2.
    counted = next(e for e in events if e.type == "GameDecided")
    assert counted.data["penalties"] == [0, 0, 2, 0]
    assert counted.data["totals"] == [26, 14, 1 - 2, 6]
    # Baleka has the highest number of votes and therefore wins the game.
    outcome = ENGINE.outcome(state)
    assert outcome.finished and outcome.ended_by == "election"
    assert outcome.places == (1, 2, 4, 3)
