"""Randomness anyone can check: every shuffle and roll derives from one committed seed.

The device draws a 256-bit secret, mixes in any seeds the players typed, and shows
``commitment = sha256(seed)`` before the first card or die. Draw number ``i`` is the block
``HMAC-SHA256(key=seed, msg=i as 8 bytes big-endian)``. An integer below ``n`` takes the top
``(n - 1).bit_length()`` bits of one block and rejects values ``>= n`` (the next block is
tried), so no value is favoured; a shuffle is Fisher-Yates from the last position down. Anyone
can redo this with any HMAC library, which is what ``companion verify`` does.

>>> rng = FairRandom(bytes(32))
>>> rng.commitment[:16]
'66687aadf862bd77'
>>> rng.shuffle(range(5)), rng.counter
([0, 1, 3, 2, 4], 10)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from typing import Literal, TypeVar

T = TypeVar("T")

Dealt = Literal["cards", "dice"]
"""What a game's fair randomness deals: cards (a shuffled deck) or dice (rolls)."""

SEED_BYTES = 32


def mix_seed(device_secret: bytes, player_seeds: Sequence[str] = ()) -> bytes:
    """The game's seed: the device's secret with every typed player seed mixed in.

    Without player seeds the secret is the seed. Each typed seed is length-prefixed, so no two
    different lists of seeds mix to the same input.
    """
    if len(device_secret) != SEED_BYTES:
        raise ValueError(f"the device secret must be {SEED_BYTES} bytes, not {len(device_secret)}")
    if not player_seeds:
        return device_secret
    h = hashlib.sha256(b"companion-seed-v1" + device_secret)
    for typed in player_seeds:
        raw = typed.encode("utf-8")
        h.update(len(raw).to_bytes(4, "big") + raw)
    return h.digest()


def commitment_of(seed: bytes) -> str:
    """The public promise made before the first card: sha256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


class FairRandom:
    """A deterministic random source from a seed and a draw counter.

    Its whole state is ``(seed, counter)``: engines store the counter in the game state and call
    :meth:`at` to continue from it, so a game replays exactly.
    """

    __slots__ = ("_seed", "counter")

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self._seed = bytes(seed)
        self.counter = counter

    @property
    def commitment(self) -> str:
        return commitment_of(self._seed)

    def at(self, counter: int) -> FairRandom:
        """A copy of this source positioned at draw number ``counter``."""
        return FairRandom(self._seed, counter)

    def block(self) -> int:
        """The next 256-bit block as an integer."""
        digest = hmac.digest(self._seed, self.counter.to_bytes(8, "big"), "sha256")
        self.counter += 1
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` by rejection sampling."""
        if n <= 0:
            raise ValueError(f"cannot draw below {n}")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        while True:
            value = self.block() >> (256 - bits)
            if value < n:
                return value

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: Iterable[T]) -> list[T]:
        """A new list with the items in a uniformly random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
