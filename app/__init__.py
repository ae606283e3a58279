"""The House Divided game server (FastAPI)."""

__version__ = "0.1.0"
