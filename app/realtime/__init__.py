"""Live play: the game websocket, its protocol, and the fan-out of every change to every
socket watching the game (in this process and, through Postgres, in the others)."""
