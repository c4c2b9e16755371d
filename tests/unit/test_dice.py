"""Fair dice: the spec's test vectors, distribution checks, rejection sampling, shuffles, keys."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import struct
from collections import Counter
from collections.abc import Sequence
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from siege.dice.fair import (
    MAX_N,
    BotRng,
    commitment,
    derive_seed,
    mix_key,
    new_seed,
    roll,
    rolls,
    shuffle,
    shuffle_cost,
    uniform,
)

SPEC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"
KEY = bytes(range(32))
MATCH = "m-test"
WIDE_N = 2**31 + 1  # about half of all words are rejected: the worst case for rejection sampling

# Upper critical values of the chi-square distribution at p = 0.001, by degrees of freedom, from
# the NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4 ("Critical Values of the
# Chi-Square Distribution"). Every sample below is fixed (fixed keys), so these tests are
# deterministic: they fail only if the generator is biased, never by bad luck on a rerun.
CHI2_CRITICAL_P001 = {2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 23: 49.728}


# --- independent reference helpers (hmac/struct directly, not the code under test) ------------


def words(key: bytes, message: str) -> list[int]:
    digest = hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
    return [int.from_bytes(digest[k : k + 4], "big") for k in range(0, 32, 4)]


def reference_uniform(key: bytes, match_id: str, index: int, n: int) -> int:
    limit = 2**32 - (2**32 % n)
    block = 0
    while True:
        message = f"{match_id}:{index}" if block == 0 else f"{match_id}:{index}:{block}"
        for w in words(key, message):
            if w < limit:
                return w % n
        block += 1


def chi_square(counts: Counter[Any], categories: Sequence[Any]) -> float:
    total = sum(counts.values())
    assert set(counts) <= set(categories), "value outside the expected categories"
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


# --- vectors parsed from docs/dice.md, so the spec and the code cannot drift apart ------------


def spec_vectors() -> list[dict[str, Any]]:
    text = SPEC.read_text(encoding="utf-8")
    vectors: list[dict[str, Any]] = []
    for lang, body in re.findall(r"```(jsonl|json)\n(.*?)```", text, flags=re.DOTALL):
        if lang == "json":
            vectors.append(json.loads(body))
        else:
            vectors.extend(json.loads(line) for line in body.splitlines() if line.strip())
    return vectors


VECTORS = spec_vectors()


def check_vector(v: dict[str, Any]) -> None:
    fn = v["fn"]
    if fn == "commitment":
        assert commitment(bytes.fromhex(v["seed"])) == v["out"]
    elif fn == "derive_seed":
        assert derive_seed(bytes.fromhex(v["master"]), v["match_id"]).hex() == v["out"]
    elif fn == "block":
        digest = hmac.new(bytes.fromhex(v["key"]), v["message"].encode(), hashlib.sha256)
        assert digest.hexdigest() == v["out"]
    elif fn == "uniform":
        key = bytes.fromhex(v["key"])
        got = [uniform(key, v["match_id"], i, v["n"]) for i in v["indices"]]
        assert got == v["out"]
    elif fn == "rolls":
        key = bytes.fromhex(v["key"])
        got = rolls(key, v["match_id"], v["first_index"], v["count"], v["sides"])
        assert got == v["out"]
    elif fn == "shuffle":
        key = bytes.fromhex(v["key"])
        assert shuffle(key, v["match_id"], v["first_index"], v["count"]) == v["out"]
    elif fn == "mix_key":
        seeds = [bytes.fromhex(ps) for ps in v["player_seeds"]]
        assert mix_key(bytes.fromhex(v["seed"]), seeds).hex() == v["out"]
    elif fn == "trace":
        key = bytes.fromhex(v["key"])
        n = v["n"]
        assert v["limit"] == 2**32 - (2**32 % n)
        for j, block in enumerate(v["blocks"]):
            suffix = "" if j == 0 else f":{j}"
            assert block["message"] == f"{v['match_id']}:{v['index']}{suffix}"
            assert block["words"] == words(key, block["message"])
        # Every listed block but the last is fully rejected; the last holds the accepted word.
        for block in v["blocks"][:-1]:
            assert all(w >= v["limit"] for w in block["words"])
        accepted = next(w for w in v["blocks"][-1]["words"] if w < v["limit"])
        assert accepted % n == v["out"] == uniform(key, v["match_id"], v["index"], n)
    else:
        raise AssertionError(f"unknown vector kind {fn!r}")


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["fn"])
def test_spec_vector(vector: dict[str, Any]) -> None:
    check_vector(vector)


def test_spec_covers_every_function_and_the_hard_cases() -> None:
    kinds = Counter(v["fn"] for v in VECTORS)
    expected = {"commitment", "derive_seed", "block", "uniform", "rolls", "shuffle", "mix_key"}
    assert expected | {"trace"} == set(kinds)
    ns = {v["n"] for v in VECTORS if v["fn"] == "uniform"}
    assert {1, 2, 4, 6, 7, WIDE_N, MAX_N} <= ns
    assert any(v["fn"] == "shuffle" and v["count"] == 18 for v in VECTORS)
    assert any(v["fn"] == "trace" and len(v["blocks"]) > 1 for v in VECTORS), "block extension"
    assert any(len(v["player_seeds"]) > 1 for v in VECTORS if v["fn"] == "mix_key")


# --- distribution ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "match_id"), [(4, "chi-d4"), (6, "chi-d6"), (7, "chi-u7")])
def test_uniform_passes_chi_square(n: int, match_id: str) -> None:
    draws = 60_000
    counts = Counter(uniform(KEY, match_id, i, n) for i in range(draws))
    assert chi_square(counts, range(n)) < CHI2_CRITICAL_P001[n - 1]


def test_d6_rolls_cover_one_to_six_evenly() -> None:
    counts = Counter(rolls(KEY, "chi-roll", 0, 30_000, 6))
    assert chi_square(counts, range(1, 7)) < CHI2_CRITICAL_P001[5]


def test_shuffle_places_a_card_uniformly() -> None:
    # Where card 0 ends up in shuffles of 5, over many independent shuffles (disjoint indices).
    count, trials = 5, 20_000
    cost = shuffle_cost(count)
    landed = Counter(shuffle(KEY, "chi-shuffle", t * cost, count).index(0) for t in range(trials))
    assert chi_square(landed, range(count)) < CHI2_CRITICAL_P001[count - 1]


def test_shuffle_of_four_hits_every_permutation_evenly() -> None:
    count, trials = 4, 24_000
    cost = shuffle_cost(count)
    seen = Counter(tuple(shuffle(KEY, "chi-perm", t * cost, count)) for t in range(trials))
    every = list(permutations(range(count)))
    assert chi_square(seen, every) < CHI2_CRITICAL_P001[len(every) - 1]


# --- rejection sampling ----------------------------------------------------------------------


def first_index_where(predicate: Any, tries: int = 10_000) -> int:
    for index in range(tries):
        if predicate(index):
            return index
    raise AssertionError("no such index found; the search bound is far too small")


def test_rejected_first_word_falls_through_to_next_acceptable_word() -> None:
    limit = 2**32 - (2**32 % WIDE_N)
    assert limit == WIDE_N  # so words in [2**31 + 1, 2**32) must be rejected

    index = first_index_where(lambda i: words(KEY, f"{MATCH}:{i}")[0] >= limit)
    block = words(KEY, f"{MATCH}:{index}")
    accepted = next(w for w in block if w < limit)
    assert uniform(KEY, MATCH, index, WIDE_N) == accepted % WIDE_N
    # A plain modulo of the first word would have given something else.
    assert uniform(KEY, MATCH, index, WIDE_N) != block[0] % WIDE_N


def test_fully_rejected_block_extends_to_the_next_block() -> None:
    limit = WIDE_N
    index = first_index_where(lambda i: all(w >= limit for w in words(KEY, f"{MATCH}:{i}")))
    extension = words(KEY, f"{MATCH}:{index}:1")
    if all(w >= limit for w in extension):
        extension = words(KEY, f"{MATCH}:{index}:2")
    accepted = next(w for w in extension if w < limit)
    assert uniform(KEY, MATCH, index, WIDE_N) == accepted % WIDE_N


@given(
    key=st.binary(min_size=0, max_size=64),
    index=st.integers(min_value=0, max_value=2**48),
    n=st.sampled_from([1, 2, 3, 6, 7, 100, 2**31 - 1, WIDE_N, 3 * 2**30, MAX_N])
    | st.integers(min_value=1, max_value=MAX_N),
)
def test_uniform_matches_an_independent_reimplementation(key: bytes, index: int, n: int) -> None:
    assert uniform(key, "m-ref", index, n) == reference_uniform(key, "m-ref", index, n)


# --- ranges and argument checks --------------------------------------------------------------


@given(
    key=st.binary(min_size=1, max_size=64),
    match_id=st.text(max_size=20),
    index=st.integers(min_value=0, max_value=2**64),
    n=st.integers(min_value=1, max_value=MAX_N),
)
def test_uniform_stays_in_range(key: bytes, match_id: str, index: int, n: int) -> None:
    assert 0 <= uniform(key, match_id, index, n) < n


@given(
    index=st.integers(min_value=0, max_value=2**32),
    sides=st.integers(min_value=1, max_value=1000),
)
def test_roll_stays_in_range(index: int, sides: int) -> None:
    assert 1 <= roll(KEY, MATCH, index, sides) <= sides


def test_roll_and_rolls_agree_on_consecutive_indices() -> None:
    assert rolls(KEY, MATCH, 7, 5, 6) == [roll(KEY, MATCH, 7 + k, 6) for k in range(5)]
    assert rolls(KEY, MATCH, 7, 0, 6) == []


@pytest.mark.parametrize(
    "call",
    [
        lambda: uniform(KEY, MATCH, 0, 0),
        lambda: uniform(KEY, MATCH, 0, -3),
        lambda: uniform(KEY, MATCH, 0, MAX_N + 1),
        lambda: uniform(KEY, MATCH, -1, 6),
        lambda: roll(KEY, MATCH, 0, 0),
        lambda: rolls(KEY, MATCH, 0, -1, 6),
        lambda: shuffle(KEY, MATCH, 0, -1),
        lambda: shuffle(KEY, MATCH, -1, 5),
    ],
)
def test_bad_arguments_are_rejected(call: Any) -> None:
    with pytest.raises(ValueError):
        call()


# --- shuffle ---------------------------------------------------------------------------------


@given(
    count=st.integers(min_value=0, max_value=60), first=st.integers(min_value=0, max_value=10**9)
)
def test_shuffle_is_a_permutation(count: int, first: int) -> None:
    assert sorted(shuffle(KEY, MATCH, first, count)) == list(range(count))


def test_shuffle_cost() -> None:
    assert [shuffle_cost(c) for c in range(5)] == [0, 0, 1, 2, 3]
    assert shuffle(KEY, MATCH, 0, 0) == []
    assert shuffle(KEY, MATCH, 0, 1) == [0]


@pytest.mark.parametrize("count", [2, 3, 5, 18, 52])
def test_shuffle_uses_exactly_the_next_count_minus_one_indices(count: int) -> None:
    first = 1000
    used: list[int] = []

    def draw(index: int, bound: int) -> int:
        used.append(index)
        return reference_uniform(KEY, MATCH, index, bound)

    # Fisher–Yates written out from the spec, recording the indices it touches.
    expected = list(range(count))
    for i in range(count - 1, 0, -1):
        j = draw(first + (count - 1 - i), i + 1)
        expected[i], expected[j] = expected[j], expected[i]

    assert shuffle(KEY, MATCH, first, count) == expected
    assert used == list(range(first, first + shuffle_cost(count)))
    # The first index after the shuffle is untouched: a draw there is a fresh, ordinary draw.
    after = first + shuffle_cost(count)
    assert after not in used
    assert uniform(KEY, MATCH, after, 6) == reference_uniform(KEY, MATCH, after, 6)


def test_shuffle_of_two_follows_the_single_draw() -> None:
    for first in range(20):
        swapped = uniform(KEY, MATCH, first, 2) == 0
        assert shuffle(KEY, MATCH, first, 2) == ([1, 0] if swapped else [0, 1])


def test_shuffle_is_deterministic_and_depends_on_match_and_index() -> None:
    deck = shuffle(KEY, MATCH, 0, 18)
    assert deck == shuffle(KEY, MATCH, 0, 18)
    assert deck != shuffle(KEY, "m-other", 0, 18)
    assert deck != shuffle(KEY, MATCH, 1, 18)
    assert deck != shuffle(bytes(32), MATCH, 0, 18)


# --- seeds, commitment, key mixing -----------------------------------------------------------


def test_new_seed_is_32_fresh_bytes() -> None:
    a, b = new_seed(), new_seed()
    assert len(a) == len(b) == 32
    assert a != b


def test_commitment_is_hex_sha256() -> None:
    seed = new_seed()
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(commitment(seed)) == 64


def test_derive_seed_is_reproducible_and_per_match() -> None:
    master = b"tournament master secret"
    assert derive_seed(master, "m-1") == derive_seed(master, "m-1")
    assert derive_seed(master, "m-1") != derive_seed(master, "m-2")
    assert len(derive_seed(master, "m-1")) == 32
    manual = hmac.new(master, b"seed:m-1", hashlib.sha256).digest()
    assert derive_seed(master, "m-1") == manual


def test_mix_key_without_player_seeds_is_the_seed() -> None:
    assert mix_key(KEY, []) == KEY
    assert mix_key(KEY, ()) == KEY


def test_mix_key_follows_the_formula() -> None:
    a, b = b"alice", b"bob"
    manual = hashlib.sha256(KEY + hashlib.sha256(a).digest() + hashlib.sha256(b).digest()).digest()
    assert mix_key(KEY, [a, b]) == manual


def test_player_seed_changes_the_dice() -> None:
    before = rolls(mix_key(KEY, []), MATCH, 0, 30, 6)
    after = rolls(mix_key(KEY, [b"alice"]), MATCH, 0, 30, 6)
    assert before != after
    # An empty player seed still counts as a contribution.
    assert mix_key(KEY, [b""]) != KEY


def test_mix_key_is_order_sensitive() -> None:
    ab = mix_key(KEY, [b"alice", b"bob"])
    ba = mix_key(KEY, [b"bob", b"alice"])
    assert ab != ba
    assert rolls(ab, MATCH, 0, 30, 6) != rolls(ba, MATCH, 0, 30, 6)
    # Hashing each player seed first keeps the boundaries between seeds unambiguous.
    assert mix_key(KEY, [b"ab", b"c"]) != mix_key(KEY, [b"a", b"bc"])


# --- bot randomness --------------------------------------------------------------------------


def bot_draws(rng: BotRng, bounds: Sequence[int]) -> list[int]:
    return [rng.randrange(n) for n in bounds]


def test_bot_rng_is_deterministic_and_labelled() -> None:
    bounds = [6, 2, 10, 1, 100, 7] * 5
    first = bot_draws(BotRng(KEY, "bot-a"), bounds)
    assert first == bot_draws(BotRng(KEY, "bot-a"), bounds)
    assert first != bot_draws(BotRng(KEY, "bot-b"), bounds)
    assert first != bot_draws(BotRng(bytes(32), "bot-a"), bounds)


def test_bot_rng_is_the_spec_stream() -> None:
    rng = BotRng(KEY, "bot-a")
    assert [rng.randrange(9) for _ in range(10)] == [
        reference_uniform(KEY, "bot-a", k, 9) for k in range(10)
    ]


@given(bounds=st.lists(st.integers(min_value=1, max_value=10**6), min_size=1, max_size=30))
def test_bot_rng_stays_in_range(bounds: list[int]) -> None:
    rng = BotRng(KEY, "bot-range")
    for n in bounds:
        assert 0 <= rng.randrange(n) < n


def test_bot_rng_choice() -> None:
    rng = BotRng(KEY, "bot-choice")
    options = ["storm", "siege", "retreat"]
    picks = Counter(rng.choice(options) for _ in range(3000))
    assert set(picks) == set(options)
    assert chi_square(picks, options) < CHI2_CRITICAL_P001[len(options) - 1]
    with pytest.raises(IndexError):
        rng.choice([])
    with pytest.raises(ValueError):
        rng.randrange(0)


def test_draw_message_uses_plain_decimal_indices() -> None:
    # Pins the encoding: "m:7", never "m:07" or "m:True"; bool is an int and reads as 0/1.
    assert uniform(KEY, MATCH, True, MAX_N) == words(KEY, f"{MATCH}:1")[0]
    assert (
        uniform(KEY, MATCH, 7, MAX_N)
        == struct.unpack(">I", hmac.digest(KEY, b"m-test:7", "sha256")[:4])[0]
    )
