"""Chancellors (P.D. Magnus): solve the kingdom's problems, control the royal
services, and reach the target score before a problem escalates out of control.

A turn runs (A) choose a card face down for control of the services, (B)
solve with control, service by service, (C) solve without control, seat by
seat, (D) escalate, (E) draw. Readings the rulebook leaves open are listed in
``docs/rules/chancellors.md``; each is tested.

``decide`` judges one command and then adds the events that follow from it
without anyone's input (the reveal once everyone has chosen, escalation, the
end of the game, the next turn), so the state it leaves always waits for a
player or for chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import ChanceRequest, Command, Event, GameConfig, Outcome, RuleViolation
from engines.chancellors import control, judging, present
from engines.chancellors import events as ev
from engines.chancellors.cards import deck
from engines.chancellors.evolve import apply
from engines.chancellors.listing import legal_commands
from engines.chancellors.state import (
    CHOOSE,
    DRAW,
    ESCALATE,
    NEXT_TURN,
    OPEN,
    OPENING,
    OVER,
    PART,
    RENEW,
    SOLVED,
    UNFOLD,
    ChancellorsState,
    Problem,
    dump_state,
    load_state,
)
from engines.chancellors.turns import places

CHANCE_COMMANDS = ("RollDice", "DrawCards")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Chancellors:
    id = "chancellors"
    title = "Chancellors"
    version = "1"
    min_seats = 2
    max_seats = 4
    catalog_kind = None

    # ----------------------------------------------------------------- setup
    def initial_state(self, config: GameConfig) -> ChancellorsState:
        options = config.options
        extended = bool(options.get("extended_deck", False))

        def part_of_deck(name: str) -> bool:
            value = options.get(name)
            return extended if value is None else bool(value)

        pawns, courts, excuse = part_of_deck("pawns"), part_of_deck("courts"), part_of_deck("excuse")
        n = config.seats
        zero = (0,) * n
        return ChancellorsState(
            seats=n,
            target=int(options.get("target", 100)),
            pawns=pawns,
            courts=courts,
            excuse=excuse,
            scores=zero,
            hands=((),) * n,
            pile=deck(pawns, courts, excuse),
            problems=(Problem(),) * (n + 1),
            chosen=(None,) * n,
            queue=tuple(range(n)),
            solved_whole=zero,
            solved_part=zero,
            solved_unaided=zero,
            services_won=zero,
            abdications=zero,
            excuse_uses=zero,
        )

    def setup(self, config: GameConfig) -> list[Event]:
        state = self.initial_state(config)
        return [
            Event(
                ev.GAME_STARTED,
                {
                    "seats": state.seats,
                    "problems": len(state.problems),
                    "target": state.target,
                    "pawns": state.pawns,
                    "courts": state.courts,
                    "excuse": state.excuse,
                },
            )
        ]

    # ---------------------------------------------------------------- decide
    def decide(self, state: ChancellorsState, command: Command) -> list[Event]:
        kind, seat = command.get("type"), command.get("seat")
        if state.phase == OVER:
            raise RuleViolation("game-over", "The game is over.")
        handler = self._handlers().get(str(kind))
        if handler is None:
            raise RuleViolation("unknown-command", f"Chancellors has no command {kind!r}.")
        if kind in CHANCE_COMMANDS:
            if seat is not None:
                raise RuleViolation("dealer-only", "Only the dealer rolls dice and draws cards.")
        else:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
                raise RuleViolation("no-such-seat", f"There is no seat {seat!r}.", {"seat": seat})
            if self.chance(state) is not None:
                raise RuleViolation("chance-pending", "The dice or cards must be dealt first.")
        return self._settle(state, handler(state, command))

    def _handlers(self) -> dict[str, Any]:
        return {
            "RollDice": self._roll_dice,
            "DrawCards": self._draw_cards,
            "ChooseCard": judging.choose_card,
            "SolveProblem": judging.solve_problem,
            "SolvePart": judging.solve_part,
            "Pass": judging.pass_turn,
            "DiscardDown": judging.discard_down,
        }

    def _settle(self, state: ChancellorsState, events: list[Event]) -> list[Event]:
        """Append the events that follow without anyone's input."""
        for event in events:
            state = self.evolve(state, event)
        while True:
            more = self._automatic(state)
            if not more:
                return events
            for event in more:
                state = self.evolve(state, event)
            events.extend(more)

    def _automatic(self, state: ChancellorsState) -> list[Event]:
        if state.phase == CHOOSE and all(
            state.chosen[s] is not None or not state.hands[s] for s in range(state.seats)
        ):
            revealed = list(state.chosen)
            return [Event(ev.CARDS_REVEALED, {"cards": revealed}), *control.resolve(state, revealed)]
        if state.phase == ESCALATE:
            return self._escalate(state)
        if state.phase == NEXT_TURN:
            return [Event(ev.TURN_BEGAN, {"turn": state.turn + 1})]
        return []

    def _escalate(self, state: ChancellorsState) -> list[Event]:
        """(D) The lower die of every unsolved problem goes up by one; a 6 and 6 ends the game.

        Catastrophe is checked on the problems as they stand after the
        partly solved ones unfolded. The target is checked here too: the
        rerolls and draws left in the turn cannot change any score.
        """
        unsolved = [i for i, p in enumerate(state.problems) if p.status == OPEN]
        boiling = [i for i in unsolved if state.problems[i].dice == (6, 6)]
        if boiling:
            return [
                Event(ev.CATASTROPHE_STRUCK, {"problems": boiling}),
                Event(
                    ev.GAME_DECIDED,
                    {
                        "ended_by": "catastrophe",
                        "places": list(places(state.scores, lowest_wins=True)),
                        "scores": list(state.scores),
                    },
                ),
            ]
        changes = []
        for i in unsolved:
            dice = list(state.problems[i].dice)
            low = dice.index(min(dice))
            before = list(dice)
            dice[low] += 1
            changes.append({"problem": i, "before": before, "dice": dice})
        events = [Event(ev.PROBLEMS_ESCALATED, {"changes": changes})]
        if max(state.scores) >= state.target:
            events.append(
                Event(
                    ev.GAME_DECIDED,
                    {
                        "ended_by": "target-score",
                        "places": list(places(state.scores, lowest_wins=False)),
                        "scores": list(state.scores),
                    },
                )
            )
        return events

    # chance ------------------------------------------------------------
    def _roll_dice(self, state: ChancellorsState, command: Command) -> list[Event]:
        request = self.chance(state)
        if request is None or request.command != "RollDice":
            raise RuleViolation("no-roll-pending", "No dice are waiting to be rolled.")
        problem = request.fixed["problem"]
        if not _is_int(command.get("problem")) or command.get("problem") != problem:
            raise RuleViolation(
                "wrong-problem",
                f"The dice to roll now are for problem {problem + 1}.",
                {"problem": problem},
            )
        dice = command.get("dice")
        if not isinstance(dice, list | tuple) or len(dice) != request.dice:
            raise RuleViolation(
                "wrong-dice-count", f"Roll exactly {request.dice} dice.", {"dice": request.dice}
            )
        if any(not _is_int(d) or not 1 <= d <= 6 for d in dice):
            raise RuleViolation("impossible-die", "A die shows 1 to 6.", {"dice": list(dice)})
        if state.phase == UNFOLD:
            kept = state.problems[problem].dice[0]
            return [
                Event(
                    ev.PROBLEM_UNFOLDED,
                    {"problem": problem, "kept": kept, "rolled": dice[0], "dice": [kept, dice[0]]},
                )
            ]
        reason = "opening" if state.phase == OPENING else "renewed"
        return [Event(ev.PROBLEM_ROLLED, {"problem": problem, "dice": list(dice), "reason": reason})]

    def _draw_cards(self, state: ChancellorsState, command: Command) -> list[Event]:
        request = self.chance(state)
        if request is None or request.command != "DrawCards":
            raise RuleViolation("no-draw-pending", "No cards are waiting to be drawn.")
        player = request.fixed["player"]
        if not _is_int(command.get("player")) or command.get("player") != player:
            raise RuleViolation(
                "wrong-player", f"The cards to draw now are seat {player}'s.", {"player": player}
            )
        cards = judging.card_list(command.get("cards"))
        if cards is None or len(cards) != request.draw:
            raise RuleViolation(
                "wrong-card-count", f"Draw exactly {request.draw} cards.", {"draw": request.draw}
            )
        if len(set(cards)) != len(cards):
            raise RuleViolation(
                "duplicate-card", "The same card cannot be drawn twice.", {"cards": list(cards)}
            )
        missing = [c for c in cards if c not in request.pool]
        if missing:
            raise RuleViolation(
                "card-not-in-pool",
                "Only cards still in the draw pile can be drawn.",
                {"cards": missing},
            )
        events = []
        if not state.pile:
            events.append(Event(ev.DISCARDS_RESHUFFLED, {"cards": sorted(state.discards)}))
        kind = ev.CARDS_DEALT if state.phase == OPENING else ev.CARDS_DRAWN
        events.append(Event(kind, {"player": player, "cards": list(cards)}))
        return events

    # players -----------------------------------------------------------
    # ---------------------------------------------------------------- evolve
    def evolve(self, state: ChancellorsState, event: Event) -> ChancellorsState:
        return apply(state, event)

    def actor(self, state: ChancellorsState) -> int | None:
        """The seat that must solve or pass now, in steps (B) and (C)."""
        return judging.actor(state)

    # ---------------------------------------------------------------- chance
    def chance(self, state: ChancellorsState) -> ChanceRequest | None:
        if state.phase == OPENING:
            for index, problem in enumerate(state.problems):
                if not problem.dice:
                    return ChanceRequest("RollDice", dice=2, fixed={"problem": index})
            return self._draw_request(state)
        if state.phase == UNFOLD:
            for index, problem in enumerate(state.problems):
                if problem.status == PART:
                    return ChanceRequest("RollDice", dice=1, fixed={"problem": index})
        if state.phase == RENEW:
            for index, problem in enumerate(state.problems):
                if problem.status == SOLVED:
                    return ChanceRequest("RollDice", dice=2, fixed={"problem": index})
        if state.phase == DRAW:
            return self._draw_request(state)
        return None

    def _draw_request(self, state: ChancellorsState) -> ChanceRequest | None:
        if not state.queue:
            return None
        pool = state.pile or tuple(sorted(state.discards))
        player = state.queue[0]
        return ChanceRequest(
            "DrawCards", draw=min(state.owed, len(pool)), pool=pool, seat=player, fixed={"player": player}
        )

    # ------------------------------------------------------------ the rest
    def legal_commands(self, state: ChancellorsState, seat: int | None) -> list[dict[str, Any]]:
        """Concrete commands ``seat`` may post now.

        Solving lists, for each open problem, every *minimal* set of playable
        cards that reaches the threshold (sets with a card to spare are legal
        too but not listed), every single card that may solve part of it with
        each distinct die to set aside, and passing (with and without
        abdicating). For the dealer it lists a representative set of chance
        commands: every face for dice, and for draws one run of consecutive
        cards of the sorted pool starting at each of its cards.
        """
        return legal_commands(self, state, seat)

    def view(self, state: ChancellorsState, seat: int | None) -> dict[str, Any]:
        return present.view(self, state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return present.redact(event, seat)

    def outcome(self, state: ChancellorsState) -> Outcome:
        scores = tuple(float(s) for s in state.scores)
        if state.phase != OVER:
            return Outcome(False, scores=scores)
        return Outcome(True, state.places, scores, state.ended_by)

    def describe(self, event: Event, names: Sequence[str]) -> str:
        return present.describe(event, names)

    def dump_state(self, state: ChancellorsState) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: dict[str, Any], config: GameConfig) -> ChancellorsState:
        return load_state(data)

    def luck(self, state: ChancellorsState, event: Event) -> dict[int, float]:
        return present.luck(state, event)

    def statistics(self, state: ChancellorsState) -> dict[str, Any]:
        return present.statistics(state)


ENGINE = Chancellors()
