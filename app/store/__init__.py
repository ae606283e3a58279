"""Persistence: the database connection, the migrations and the event store
(store.events is the only code that touches game_events)."""
