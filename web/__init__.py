"""The web app over a live table: the spectators' scoreboard, the judge's console and
their REST API, with FastAPI and uvicorn and no front-end build step.

- :mod:`.app`: :func:`create_app`, the routes, the console's token, errors as 4xx;
- :mod:`.board`: the scoreboard a spectator sees, from the table's public snapshot;
- :mod:`.narrate`: the record's entries in words ("Wiglett took 60: 30, ×2 Weakness");
- :mod:`.broadcast`: one follower of the table, Server-Sent Events to every phone;
- ``static/``: the pages, their style sheet and their small scripts.
"""
