"""Games: the service that runs commands through the rules engine and the event store."""
