"""Known weights found in any pocket: coins by their nominal mass, and how far one may be off.

A pad is weighed with a known weight (:func:`companion.sensors.calibration_checks.weigh`); it
need not be a lab weight. A coin's nominal mass is fixed by law; a coin from a pocket differs
from it by the mint's tolerance and by its wear (a worn coin weighs a little less), and its
counts per gram, so every weigh-in after, by the same share. ``error_g`` is how far one coin may
be off, stated conservatively; the set-up page says it beside each coin, as grams and as a
share.

Sources:

- Euro coins: Council Regulation (EC) No 975/98 on denominations and technical specifications
  of euro coins intended for circulation, Article 1 (as amended by Regulation (EC) No
  423/1999): 1 euro 7.5 g, 2 euro 8.5 g. The regulation states no tolerance of mass (the mints
  share theirs in specifications not published with it), so this table takes the United States
  Mint's, about 4 % of the coin, as a conservative bound for mint and wear together.
- United States coins: the United States Mint's coin specifications
  (https://www.usmint.gov/learn/coins-and-medals/circulating-coins/coin-specifications): the
  nickel 5.000 g, the clad quarter 5.670 g; the Mint's tolerances of mass, as collectors'
  references quote them, are 0.194 g for the nickel (3 grains) and 0.227 g for the quarter
  (5.443 g to 5.897 g).

>>> COINS["euro-1"].grams, COINS["euro-1"].error_g
(7.5, 0.3)
>>> round(COINS["us-nickel"].error_percent, 1)
3.9
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Coin:
    """A coin: its name for the pages (``coin.<name>`` in their catalogues), its nominal mass
    and how far one from a pocket may be off, in grams."""

    name: str
    grams: float
    error_g: float

    @property
    def error_percent(self) -> float:
        return 100.0 * self.error_g / self.grams


COINS = {
    coin.name: coin
    for coin in (
        Coin("euro-1", 7.50, 0.30),
        Coin("euro-2", 8.50, 0.34),
        Coin("us-nickel", 5.000, 0.194),
        Coin("us-quarter", 5.670, 0.227),
    )
}
"""The coins the set-up page offers, by name."""
