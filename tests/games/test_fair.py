"""The fair random source: the published recipe, no bias, exact replay."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from companion.games.fair import FairRandom, commitment_of, mix_seed


def test_commitment_is_sha256_of_the_seed() -> None:
    seed = bytes(range(32))
    assert FairRandom(seed).commitment == hashlib.sha256(seed).hexdigest() == commitment_of(seed)


def test_each_draw_is_hmac_sha256_of_the_counter() -> None:
    seed = bytes(32)
    rng = FairRandom(seed)
    for i in range(3):
        expected = hmac.new(seed, i.to_bytes(8, "big"), hashlib.sha256).digest()
        assert rng.block() == int.from_bytes(expected, "big")
    assert rng.counter == 3


def test_below_rejects_instead_of_taking_a_modulo() -> None:
    """n = 5 takes the top 3 bits of each block and rejects 5, 6 and 7."""
    seed = bytes(range(32))
    rng = FairRandom(seed)
    value = rng.below(5)
    tops = []
    probe = FairRandom(seed)
    while True:
        top = probe.block() >> 253
        tops.append(top)
        if top < 5:
            break
    assert value == tops[-1]
    assert rng.counter == len(tops)


def test_below_is_uniform_enough() -> None:
    rng = FairRandom(bytes(32))
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())


def test_shuffle_is_a_permutation_and_replays() -> None:
    a = FairRandom(bytes(32)).shuffle(range(60))
    b = FairRandom(bytes(32)).shuffle(range(60))
    assert a == b
    assert sorted(a) == list(range(60))
    assert a != list(range(60))


def test_at_continues_from_a_counter_without_touching_the_original() -> None:
    rng = FairRandom(bytes(32))
    first = rng.shuffle(range(10))
    later = rng.at(0)
    assert later.shuffle(range(10)) == first
    assert rng.counter == later.counter


def test_player_seeds_change_the_seed_and_their_order_matters() -> None:
    secret = bytes(32)
    assert mix_seed(secret) == secret
    assert mix_seed(secret, ["tom"]) != secret
    assert mix_seed(secret, ["a", "b"]) != mix_seed(secret, ["b", "a"])
    assert mix_seed(secret, ["ab"]) != mix_seed(secret, ["a", "b"])


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33)])
def test_a_seed_is_32_bytes(bad: bytes) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        FairRandom(bad)
    with pytest.raises(ValueError):
        mix_seed(bad)


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        FairRandom(bytes(32)).below(0)
