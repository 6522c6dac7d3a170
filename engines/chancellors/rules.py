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
from engines.chancellors import control, present
from engines.chancellors import events as ev
from engines.chancellors.cards import EXCUSE, SERVICE_IDS, SERVICES, deck
from engines.chancellors.listing import legal_commands
from engines.chancellors.plays import cards_value, controlled_suits, matches_control, part_violation
from engines.chancellors.state import (
    CHOOSE,
    CONTROL,
    DISCARD,
    DRAW,
    ESCALATE,
    HAND_LIMIT,
    HELP,
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
from engines.chancellors.turns import flow, places

REVEAL = "reveal"  # transient: between CardsRevealed and the last service event
CHANCE_COMMANDS = ("RollDice", "DrawCards")


def _seat_tuple(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(v + delta if i == seat else v for i, v in enumerate(values))


def _without(cards: tuple[str, ...], taken: Sequence[str]) -> tuple[str, ...]:
    gone = set(taken)
    return tuple(c for c in cards if c not in gone)


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
        handler = self._handlers().get(kind)  # type: ignore[arg-type]
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
            "ChooseCard": self._choose_card,
            "SolveProblem": self._solve_problem,
            "SolvePart": self._solve_part,
            "Pass": self._pass,
            "DiscardDown": self._discard_down,
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
                    ev.GAME_ENDED,
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
                    ev.GAME_ENDED,
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
        if command.get("problem") != problem:
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
        if any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
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
        if command.get("player") != player:
            raise RuleViolation(
                "wrong-player", f"The cards to draw now are seat {player}'s.", {"player": player}
            )
        cards = command.get("cards")
        if not isinstance(cards, list | tuple) or len(cards) != request.draw:
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
    def _choose_card(self, state: ChancellorsState, command: Command) -> list[Event]:
        seat = command["seat"]
        if state.phase != CHOOSE:
            raise RuleViolation(
                "not-choosing-now", "Cards for control are chosen only at the start of a turn."
            )
        if state.chosen[seat] is not None:
            raise RuleViolation("already-chosen", "You have already chosen your card this turn.")
        card = command.get("card")
        if card not in state.hands[seat]:
            raise RuleViolation(
                "card-not-in-hand", "You can only choose a card from your hand.", {"card": card}
            )
        return [Event(ev.CARD_CHOSEN, {"seat": seat, "card": card})]

    def actor(self, state: ChancellorsState) -> int | None:
        """The seat that must solve or pass now, in steps (B) and (C)."""
        if state.phase == CONTROL:
            return state.services[state.acting]
        if state.phase == HELP:
            return state.queue[0]
        return None

    def _check_actor(self, state: ChancellorsState, seat: int) -> None:
        if state.phase not in (CONTROL, HELP):
            raise RuleViolation("not-solving-now", "Problems are solved only after control is settled.")
        actor = self.actor(state)
        if seat != actor:
            raise RuleViolation("not-your-turn", f"It is seat {actor}'s turn to solve.", {"turn": actor})

    def _check_problem(self, state: ChancellorsState, command: Command) -> int:
        index = command.get("problem")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(state.problems):
            raise RuleViolation("no-such-problem", f"There is no problem {index!r}.", {"problem": index})
        if state.problems[index].status != OPEN:
            raise RuleViolation(
                "problem-already-solved",
                "That problem was solved, wholly or in part, this turn and cannot be solved again.",
                {"problem": index},
            )
        return index

    def _check_excuse(self, state: ChancellorsState, seat: int, command: Command) -> bool:
        if not command.get("excuse", False):
            return False
        if state.phase == CONTROL:
            raise RuleViolation(
                "excuse-only-without-services", "The Excuse is used only on a turn you control no service."
            )
        if state.excuse_holder != seat:
            raise RuleViolation("no-excuse", "You do not have the Excuse in front of you.")
        if state.excuse_used:
            raise RuleViolation("excuse-already-used", "The Excuse has already been used this turn.")
        return True

    def _check_suits(self, state: ChancellorsState, seat: int, cards: Sequence[str]) -> None:
        suits = controlled_suits(state, seat)
        wrong = [c for c in cards if not matches_control(c, suits)]
        if wrong:
            raise RuleViolation(
                "suit-does-not-match-service",
                "With control, you can only play cards that share a suit with a service you control.",
                {"cards": wrong},
            )

    def _solving_fields(self, state: ChancellorsState, seat: int) -> dict[str, Any]:
        service = SERVICE_IDS[state.acting] if state.phase == CONTROL else None
        return {"seat": seat, "service": service}

    def _excuse_passes(self, state: ChancellorsState, seat: int) -> Event:
        return Event(ev.EXCUSE_PASSED, {"seat": seat, "to": (seat + 1) % state.seats})

    def _solve_problem(self, state: ChancellorsState, command: Command) -> list[Event]:
        seat = command["seat"]
        self._check_actor(state, seat)
        index = self._check_problem(state, command)
        excuse = self._check_excuse(state, seat, command)
        cards = command.get("cards")
        if not isinstance(cards, list | tuple) or not cards:
            raise RuleViolation("no-cards", "Solving a problem takes at least one card.")
        if len(set(cards)) != len(cards):
            raise RuleViolation("duplicate-card", "Each card can be played once.", {"cards": list(cards)})
        missing = [c for c in cards if c not in state.hands[seat]]
        if missing:
            raise RuleViolation(
                "card-not-in-hand", "You can only play cards from your hand.", {"cards": missing}
            )
        problem = state.problems[index]
        if state.phase == CONTROL:
            self._check_suits(state, seat, cards)
        unaided = state.phase == HELP and not excuse
        need = 2 * problem.total if unaided else problem.total
        value = cards_value(cards, problem.dice)
        if value < need:
            why = "twice the sum of the dice, without control" if unaided else "the sum of the dice"
            raise RuleViolation(
                "cards-too-low",
                f"The cards add up to {value}; solving this problem takes at least {need} ({why}).",
                {"value": value, "need": need},
            )
        events = [
            Event(
                ev.PROBLEM_SOLVED,
                {
                    **self._solving_fields(state, seat),
                    "problem": index,
                    "cards": list(cards),
                    "dice": list(problem.dice),
                    "points": problem.total,
                    "excuse": excuse,
                },
            )
        ]
        if excuse:
            events.append(self._excuse_passes(state, seat))
        return events

    def _solve_part(self, state: ChancellorsState, command: Command) -> list[Event]:
        seat = command["seat"]
        self._check_actor(state, seat)
        index = self._check_problem(state, command)
        excuse = self._check_excuse(state, seat, command)
        if state.phase == HELP and not excuse:
            raise RuleViolation(
                "part-needs-a-service", "Without control of a service you may only solve a whole problem."
            )
        card = command.get("card")
        if card not in state.hands[seat]:
            raise RuleViolation("card-not-in-hand", "You can only play cards from your hand.", {"card": card})
        if state.phase == CONTROL:
            self._check_suits(state, seat, [card])
        problem = state.problems[index]
        violation = part_violation(card, problem.dice)
        if violation is not None:
            raise violation
        set_aside = command.get("set_aside")
        if set_aside not in problem.dice:
            raise RuleViolation(
                "no-such-die", "Set aside one of the two dice of the problem.", {"dice": list(problem.dice)}
            )
        dice = list(problem.dice)
        dice.remove(set_aside)
        events = [
            Event(
                ev.PROBLEM_PARTLY_SOLVED,
                {
                    **self._solving_fields(state, seat),
                    "problem": index,
                    "card": card,
                    "dice": list(problem.dice),
                    "set_aside": set_aside,
                    "kept": dice[0],
                    "points": (problem.total + 1) // 2,
                    "excuse": excuse,
                },
            )
        ]
        if excuse:
            events.append(self._excuse_passes(state, seat))
        return events

    def _pass(self, state: ChancellorsState, command: Command) -> list[Event]:
        seat = command["seat"]
        self._check_actor(state, seat)
        abdicate = bool(command.get("abdicate", False))
        if state.phase == HELP:
            if abdicate:
                raise RuleViolation("nothing-to-abdicate", "You control no service to abdicate.")
            return [Event(ev.SOLVING_PASSED, {"seat": seat})]
        kind = ev.SERVICE_ABDICATED if abdicate else ev.SERVICE_PASSED
        return [Event(kind, {"seat": seat, "service": SERVICE_IDS[state.acting]})]

    def _discard_down(self, state: ChancellorsState, command: Command) -> list[Event]:
        seat = command["seat"]
        if state.phase != DISCARD:
            raise RuleViolation("not-discarding-now", "Cards are discarded down only after drawing.")
        hand = state.hands[seat]
        excess = len(hand) - HAND_LIMIT
        if excess <= 0:
            raise RuleViolation("hand-within-limit", f"Your hand has no more than {HAND_LIMIT} cards.")
        cards = command.get("cards")
        if not isinstance(cards, list | tuple) or len(set(cards)) != len(cards) or len(cards) != excess:
            raise RuleViolation(
                "wrong-discard-count",
                f"Discard exactly {excess} different cards, down to six.",
                {"count": excess},
            )
        missing = [c for c in cards if c not in hand]
        if missing:
            raise RuleViolation(
                "card-not-in-hand", "You can only discard cards from your hand.", {"cards": missing}
            )
        return [Event(ev.CARDS_DISCARDED, {"seat": seat, "cards": list(cards)})]

    # ---------------------------------------------------------------- evolve
    def evolve(self, state: ChancellorsState, event: Event) -> ChancellorsState:
        d = event.data
        apply = _EVOLVERS.get(event.type)
        if apply is None:
            raise ValueError(f"unknown event {event.type}")
        return flow(apply(state, d))

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

    def load_state(self, data: dict[str, Any]) -> ChancellorsState:
        return load_state(data)

    def luck(self, state: ChancellorsState, event: Event) -> dict[int, float]:
        return present.luck(state, event)

    def statistics(self, state: ChancellorsState) -> dict[str, Any]:
        return present.statistics(state)


# ------------------------------------------------------------------ evolvers
def _game_started(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s


def _problem_rolled(s: ChancellorsState, d: Any) -> ChancellorsState:
    problems = list(s.problems)
    problems[d["problem"]] = Problem(tuple(d["dice"]), OPEN)
    return s.with_(problems=tuple(problems))


def _cards_drawn(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat, cards = d["player"], d["cards"]
    to_hand = tuple(c for c in cards if c != EXCUSE)
    hands = list(s.hands)
    hands[seat] = hands[seat] + to_hand
    holder = seat if EXCUSE in cards else s.excuse_holder
    return s.with_(
        pile=_without(s.pile, cards), hands=tuple(hands), owed=s.owed - len(cards), excuse_holder=holder
    )


def _reshuffled(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s.with_(pile=tuple(sorted(s.pile + s.discards)), discards=())


def _turn_began(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s.with_(turn=d["turn"], phase=CHOOSE, chosen=(None,) * s.seats, excuse_used=False, acting=0)


def _card_chosen(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat, card = d["seat"], d["card"]
    hands = list(s.hands)
    hands[seat] = _without(hands[seat], [card])
    chosen = list(s.chosen)
    chosen[seat] = card
    return s.with_(hands=tuple(hands), chosen=tuple(chosen))


def _cards_revealed(s: ChancellorsState, d: Any) -> ChancellorsState:
    played = tuple(c for c in d["cards"] if c is not None)
    return s.with_(phase=REVEAL, chosen=(None,) * s.seats, discards=s.discards + played)


def _service_settled(s: ChancellorsState, d: Any, holder: int | None) -> ChancellorsState:
    index = SERVICE_IDS.index(d["service"])
    services = list(s.services)
    services[index] = holder
    s = s.with_(services=tuple(services))
    if index == len(SERVICES) - 1:
        s = s.with_(phase=CONTROL, acting=0)
    return s


def _service_taken(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat = d["seat"]
    if d["previous"] != seat:
        s = s.with_(services_won=_seat_tuple(s.services_won, seat, 1))
    return _service_settled(s, d, seat)


def _service_deadlocked(s: ChancellorsState, d: Any) -> ChancellorsState:
    return _service_settled(s, d, None)


def _service_uncontested(s: ChancellorsState, d: Any) -> ChancellorsState:
    return _service_settled(s, d, s.services[SERVICE_IDS.index(d["service"])])


def _next_actor(s: ChancellorsState) -> ChancellorsState:
    if s.phase == CONTROL:
        return s.with_(acting=s.acting + 1)
    return s.with_(queue=s.queue[1:])


def _play(s: ChancellorsState, seat: int, cards: Sequence[str], points: int) -> ChancellorsState:
    hands = list(s.hands)
    hands[seat] = _without(hands[seat], cards)
    return s.with_(
        hands=tuple(hands),
        discards=s.discards + tuple(cards),
        scores=_seat_tuple(s.scores, seat, points),
        last_solver=seat,
    )


def _problem_solved(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat = d["seat"]
    s = _play(s, seat, d["cards"], d["points"])
    problems = list(s.problems)
    problems[d["problem"]] = Problem(tuple(d["dice"]), SOLVED)
    s = s.with_(problems=tuple(problems), solved_whole=_seat_tuple(s.solved_whole, seat, 1))
    if d["service"] is None and not d["excuse"]:
        s = s.with_(solved_unaided=_seat_tuple(s.solved_unaided, seat, 1))
    return _next_actor(s)


def _problem_partly_solved(s: ChancellorsState, d: Any) -> ChancellorsState:
    seat = d["seat"]
    s = _play(s, seat, [d["card"]], d["points"])
    problems = list(s.problems)
    problems[d["problem"]] = Problem((d["kept"], d["set_aside"]), PART)
    s = s.with_(problems=tuple(problems), solved_part=_seat_tuple(s.solved_part, seat, 1))
    return _next_actor(s)


def _service_passed(s: ChancellorsState, d: Any) -> ChancellorsState:
    return _next_actor(s)


def _service_abdicated(s: ChancellorsState, d: Any) -> ChancellorsState:
    services = list(s.services)
    services[SERVICE_IDS.index(d["service"])] = None
    s = s.with_(services=tuple(services), abdications=_seat_tuple(s.abdications, d["seat"], 1))
    return _next_actor(s)


def _excuse_passed(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s.with_(
        excuse_holder=d["to"], excuse_used=True, excuse_uses=_seat_tuple(s.excuse_uses, d["seat"], 1)
    )


def _problem_unfolded(s: ChancellorsState, d: Any) -> ChancellorsState:
    problems = list(s.problems)
    problems[d["problem"]] = Problem(tuple(d["dice"]), OPEN)
    return s.with_(problems=tuple(problems))


def _problems_escalated(s: ChancellorsState, d: Any) -> ChancellorsState:
    problems = list(s.problems)
    for change in d["changes"]:
        problems[change["problem"]] = Problem(tuple(change["dice"]), OPEN)
    return s.with_(problems=tuple(problems), phase=RENEW)


def _catastrophe(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s


def _cards_discarded(s: ChancellorsState, d: Any) -> ChancellorsState:
    hands = list(s.hands)
    hands[d["seat"]] = _without(hands[d["seat"]], d["cards"])
    return s.with_(hands=tuple(hands), discards=s.discards + tuple(d["cards"]))


def _game_ended(s: ChancellorsState, d: Any) -> ChancellorsState:
    return s.with_(phase=OVER, ended_by=d["ended_by"], places=tuple(d["places"]))


_EVOLVERS = {
    ev.GAME_STARTED: _game_started,
    ev.PROBLEM_ROLLED: _problem_rolled,
    ev.CARDS_DEALT: _cards_drawn,
    ev.CARDS_DRAWN: _cards_drawn,
    ev.DISCARDS_RESHUFFLED: _reshuffled,
    ev.TURN_BEGAN: _turn_began,
    ev.CARD_CHOSEN: _card_chosen,
    ev.CARDS_REVEALED: _cards_revealed,
    ev.SERVICE_TAKEN: _service_taken,
    ev.SERVICE_DEADLOCKED: _service_deadlocked,
    ev.SERVICE_UNCONTESTED: _service_uncontested,
    ev.PROBLEM_SOLVED: _problem_solved,
    ev.PROBLEM_PARTLY_SOLVED: _problem_partly_solved,
    ev.SERVICE_PASSED: _service_passed,
    ev.SERVICE_ABDICATED: _service_abdicated,
    ev.SOLVING_PASSED: _service_passed,
    ev.EXCUSE_PASSED: _excuse_passed,
    ev.PROBLEM_UNFOLDED: _problem_unfolded,
    ev.PROBLEMS_ESCALATED: _problems_escalated,
    ev.CATASTROPHE_STRUCK: _catastrophe,
    ev.CARDS_DISCARDED: _cards_discarded,
    ev.GAME_ENDED: _game_ended,
}

ENGINE = Chancellors()
