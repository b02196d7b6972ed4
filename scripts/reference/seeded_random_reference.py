"""Reference outputs of Aerie's seeded generator (src/core/random.ts), recomputed from the published algorithms.

- sfc32, Chris Doty-Humphrey's "small fast counting" generator from PractRand (32-bit version): state a, b, c and a
  counter; each step returns tmp = a + b + counter, then counter += 1, a = b ^ (b >> 9), b = c + (c << 3),
  c = rotl(c, 21) + tmp (all modulo 2^32). The output as a number in [0, 1) is tmp / 2^32.
- fmix32, the finaliser of Austin Appleby's MurmurHash3: h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13;
  h *= 0xc2b2ae35; h ^= h >> 16.
- Aerie's seeding (documented in random.ts): the seed becomes a 32-bit unsigned integer (truncated, wrapped; 0 is
  replaced by 0x9e3779b9); a = fmix32(seed), b = fmix32(a ^ 0x243f6a88), c = fmix32(b ^ 0x85a308d3), counter = 1,
  and the first 12 outputs are discarded. deriveSeed(seed, *labels): h = fmix32(seed ^ 0x5bd1e995), then for each
  label h = fmix32(h ^ fmix32(label + 0x9e3779b9)).

Python integers do the 32-bit arithmetic with explicit masks, so nothing is shared with the TypeScript code (which
relies on Math.imul, >>> and | 0). Writes tests/fixtures/random/seeded-random-reference.json.

Run: python3 scripts/reference/seeded_random_reference.py   (no dependencies; a fraction of a second)
"""

from __future__ import annotations

import json
import math
from pathlib import Path

MASK = 0xFFFFFFFF
DISCARDED = 12
FIRST_DRAWS = 20
LATE_DRAW = 1000  # the 1,000th draw after seeding (1-based), far past the start-up rounds

SEEDS = [0, 1, 42, 224, 0xDEADBEEF, 2**32 - 1, -7, 3.9]
DERIVE_CASES = [[224], [224, 1, 2], [224, 2, 1], [9, 0, 5], [0, 2**32 - 1], [7, -1], [2**32 + 5, 3]]

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "random" / "seeded-random-reference.json"


def to_uint32(x: float) -> int:
    """ECMAScript ToUint32: truncate towards zero, then reduce modulo 2^32."""
    return int(math.trunc(x)) % 2**32


def fmix32(h: int) -> int:
    h &= MASK
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK
    h ^= h >> 16
    return h


def rotl32(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & MASK


class Sfc32:
    def __init__(self, seed: float) -> None:
        s = to_uint32(seed) or 0x9E3779B9
        self.a = fmix32(s)
        self.b = fmix32(self.a ^ 0x243F6A88)
        self.c = fmix32(self.b ^ 0x85A308D3)
        self.counter = 1
        for _ in range(DISCARDED):
            self.next_u32()

    def next_u32(self) -> int:
        tmp = (self.a + self.b + self.counter) & MASK
        self.counter = (self.counter + 1) & MASK
        self.a = self.b ^ (self.b >> 9)
        self.b = (self.c + (self.c << 3)) & MASK
        self.c = (rotl32(self.c, 21) + tmp) & MASK
        return tmp


def derive_seed(seed: float, *labels: float) -> int:
    h = fmix32(to_uint32(seed) ^ 0x5BD1E995)
    for label in labels:
        h = fmix32(h ^ fmix32((to_uint32(label) + 0x9E3779B9) & MASK))
    return h


def main() -> None:
    streams = []
    for seed in SEEDS:
        rng = Sfc32(seed)
        draws = [rng.next_u32() for _ in range(LATE_DRAW)]
        streams.append({"seed": seed, "first": draws[:FIRST_DRAWS], "late": draws[LATE_DRAW - 1]})
    derived = [{"seed": case[0], "labels": case[1:], "value": derive_seed(*case)} for case in DERIVE_CASES]
    fixture = {
        "comment": "Written by scripts/reference/seeded_random_reference.py: sfc32 outputs as 32-bit integers "
        "(a draw is value / 2^32) after the 12 discarded start-up rounds, and deriveSeed values.",
        "lateDrawIndex": LATE_DRAW,
        "streams": streams,
        "derived": derived,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
