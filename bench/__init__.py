"""Benchmarks: each prints its figures; none of them is a test."""
