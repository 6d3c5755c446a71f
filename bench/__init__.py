"""Benchmarks for companion: every goal of the issues as a measured row, beside its baseline.

``python -m bench`` (or ``make bench``) runs every benchmark and then the long tests (marked
``@pytest.mark.long``, see :mod:`bench.long_tests` and :mod:`bench.figures`), prints a table
and writes ``bench/results.json``. Benchmarks only measure and report; no test asserts a
wall-clock time. ``bench/README.md`` says how to add a row.
"""
