"""The live table: one running game fed by the camera, the console and the coin device,
recorded durably, followed by anyone.

- :mod:`.record`: the SQLite record (WAL): entries committed before they are told;
- :mod:`.table`: :class:`LiveTable`, commands in, replies out, the state the fold of
  the record;
- :mod:`.questions`: what the table asks a person or the device;
- :mod:`.feed`: numbered updates and snapshots, resumable, never held up by a slow reader.

This package imports nothing from vision, web or hardware: they feed it and follow it.
"""
