"""Custom operators for tests/spec/data/unseen/dice_roll.yaml (written for the tests).

They draw from the global ``random`` module and print, as public operator files do.
"""

import random
from random import randint


def roll_dice(n):
    print("rolling", n, "dice")
    return [randint(1, 6) for _ in range(n)]


def deal(items):
    items = list(items)
    random.shuffle(items)
    return items
