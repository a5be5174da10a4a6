"""Custom operators of customs_lineup.yaml (written for the tests, in the PuzzleClone format).

A trusted operator file: it draws from the global ``random`` module (the engine binds it
to the puzzle's seed) and returns a constraint built with Python operators on whatever
it is given (Z3 terms while solving).
"""

import random


def hidden_order(names):
    order = list(names)
    random.shuffle(order)
    return order


def left_of(a, b):
    return a + 1 == b
