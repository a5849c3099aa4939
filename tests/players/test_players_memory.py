"""Every memo of the players and the engine stays within its bound, however many games a process plays.

Counts of entries, not timings: the box keeps the strong player in-process
for weeks (hints and box seats), so nothing may grow with the games played.
"""

from engine import COLUMNS, Rules
from engine import game as engine_game
from engine.players import StrongPlayer, Tuning, game_rng, make_player, play_game
from engine.players import strong, turn

# Fewer than 126 distinct rolls x 5**3 results of their (at most three) pairings.
FINITE_KEYS = 126 * 5 ** 3


def bits(*columns):
    return sum(1 << (c - 2) for c in columns)


def test_memory_outcomes_memo_stays_within_its_bound_when_keys_keep_coming():
    # One runner placed and climbing, one free: thousands of distinct keys,
    # more than the memo may keep (the old memo kept every one).
    seen = 0
    for runner in (5, 7, 9):
        others = [c for c in COLUMNS if c != runner]
        for placeable in range(1 << len(others)):
            mask = sum(1 << (c - 2) for k, c in enumerate(others) if placeable >> k & 1)
            turn.outcomes(bits(runner), mask, 1)
            seen += 1
    assert seen > turn.OUTCOMES_CACHE_SIZE + 1000
    sizes = turn.cache_sizes()
    assert sizes["outcomes"] == turn.OUTCOMES_CACHE_SIZE
    assert sizes["option_sets"] <= FINITE_KEYS


def test_memory_outcomes_answers_the_same_after_eviction():
    first = turn.outcomes(bits(7, 8), bits(2, 3, 4), 1)
    for placeable in range(1, turn.OUTCOMES_CACHE_SIZE + 10):  # push the entry out
        turn.outcomes(bits(5), placeable << 1 & ~bits(5), 1)
    again = turn.outcomes(bits(7, 8), bits(2, 3, 4), 1)
    assert again == first


def test_memory_outcomes_with_two_free_runners_depend_only_on_the_movable_columns():
    # the smaller key: which movable columns already hold a runner does not matter
    assert turn.outcomes(bits(7), bits(5, 9), 2) == turn.outcomes(0, bits(5, 7, 9), 3)
    assert turn.outcomes(bits(2, 3, 12), bits(7), 0) == turn.outcomes(bits(2, 3, 12), 0, 0)


def test_memory_strong_memos_stay_bounded_after_many_games():
    players = [make_player("strong"), StrongPlayer(Tuning(exact=True)), make_player("rule28")]
    # 24 games: every one of the 12 rule sets below twice, 3 times the contexts the player keeps
    # (it is full from the 4th game on); more games only repeat them (60 took 5 s, 13 s loaded).
    for i in range(24):
        seats = [players[(i + k) % 3] for k in range(1 + i % 4)]
        rules = Rules(columns_to_win=1 + i % 4, speedy=i % 2 == 0, risky=i % 3 == 0)
        play_game(seats, game_rng(11, i), rules)
        assert len(strong._CONTEXTS) <= strong._MAX_CONTEXTS
        for ctx in strong._CONTEXTS.values():
            assert len(ctx.memo_s) <= strong._MAX_MEMO and len(ctx.memo_d) <= strong._MAX_MEMO
    sizes = turn.cache_sizes()
    assert sizes["outcomes"] <= turn.OUTCOMES_CACHE_SIZE
    assert sizes["option_sets"] <= FINITE_KEYS
    assert len(engine_game._MOVES_OF) <= FINITE_KEYS


def test_memory_a_full_memo_starts_again_instead_of_growing():
    memo = {(k,): 0.5 for k in range(strong._MAX_MEMO)}
    assert strong._remember(memo, ("new",), 0.25) == 0.25
    assert memo == {("new",): 0.25}
