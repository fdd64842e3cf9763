"""The assistant: card data, deck lists and the rules engine.

Nothing here imports from ``vision``, ``web`` or ``hardware``: data flows one way,
camera → vision → assistant → (web, hardware).
"""
