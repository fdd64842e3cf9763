"""Vision: find every card on the mat, straighten it, read its name, track it.

Vision imports nothing from ``assistant``: the command line hands it the candidate
names (from deck lists and the card database) as plain data.
"""
