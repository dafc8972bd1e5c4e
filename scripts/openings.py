#!/usr/bin/env python3
"""Writes COUNT opening positions (EPD) to OUT: 4 to 8 random legal plies from the start,
seeded, so every run of the fastchess scripts gets the same set (python-chess).

    scripts/openings.py COUNT OUT
"""
import random
import sys

import chess

count, out = int(sys.argv[1]), sys.argv[2]
random.seed(7)
found = set()
while len(found) < count:
    b = chess.Board()
    for _ in range(random.randint(4, 8)):
        b.push(random.choice(list(b.legal_moves)))
    if not b.is_game_over():
        found.add(b.epd())
open(out, "w").write("\n".join(sorted(found)) + "\n")
