"""Administration: disputes and decisions, integrity checks, replays and exports, and the
command-line tools."""
