"""Figures in members' words: plurals, rounding, recording time, and the
engines' own figures labelled in words with players by name."""

from __future__ import annotations

from service.records.pages.figure_words import amount, duration, engine_figures, figure, plural


def test_counts_take_their_plural():
    assert [plural(n, "finished game") for n in (0, 1, 2)] == [
        "0 finished games",
        "1 finished game",
        "2 finished games",
    ]


def test_figures_are_rounded_as_people_round_them():
    assert [amount(v) for v in (3.6666666666666665, 3.0, 12.4, 1234.5, None)] == [
        "3.7",
        "3",
        "12",
        "1,234",
        "–",
    ]


def test_recording_time_reads_in_minutes_and_hours():
    assert [duration(m) for m in (0.2, 12.4, 60, 80, None)] == [
        "under a minute",
        "12 min",
        "1 h",
        "1 h 20 min",
        "–",
    ]


def test_a_merged_number_says_its_mean_and_total():
    assert figure({"total": 11, "mean": 3.6666666666666665, "games": 3}) == "3.7 a game (11 in 3 games)"
    assert figure({"counts": {"treasury": 2, "army": 1}}) == "Treasury (2×), Army (1×)"


def test_the_engine_s_figures_are_labelled_in_words_and_players_by_name():
    merged = {
        "turns": {"total": 20, "mean": 10.0, "games": 2},
        "ended_by": {"counts": {"target-score": 2}},
        "seats": {
            "all": {"solved_whole": {"total": 3, "mean": 0.75, "games": 4}},
            "by_player": {"a1": {"solved_whole": {"total": 1, "mean": 0.5, "games": 2}}},
        },
    }
    shown = engine_figures(merged, {"a1": "Ada"})
    assert shown["games"] == [
        {"label": "Turns", "value": "10 a game (20 in 2 games)"},
        {"label": "Ended by", "value": "Target-score (2×)"},
    ]
    assert shown["seats"] == [{"label": "Solved whole", "value": "0.8 a game (3 in 4 games)"}]
    assert shown["players"] == [
        {
            "player": "a1",
            "name": "Ada",
            "lines": [{"label": "Solved whole", "value": "0.5 a game (1 in 2 games)"}],
        }
    ]
