"""Benchmark of the table board on the emulated Uno (the real firmware in simavr)."""
