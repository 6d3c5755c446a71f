"""Benchmarks for companion: how fast self-play and verification run, as ratios to their goals.

``python -m bench`` (or ``make bench``) runs every benchmark, prints a table and writes
``bench/results.json``. Benchmarks only measure and report; no test asserts a wall-clock time.
"""
