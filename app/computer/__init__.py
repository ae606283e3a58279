"""The computer opponent on the site: computer seats, their moves, hints and hand-overs."""
