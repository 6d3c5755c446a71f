"""Fake of MicroPython's ``micropython`` module: ``const`` is the identity."""


def const(value):
    return value
