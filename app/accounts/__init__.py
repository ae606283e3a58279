"""Accounts: registration, passwords, login sessions, API tokens, CSRF."""
