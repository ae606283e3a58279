"""Bots through an open API: bot accounts, challenges and NDJSON streams (docs/bot-api.md)."""
