"""Player ratings (Glicko-2) for rated games."""
