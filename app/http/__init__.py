"""The HTTP side: the JSON API routes and the HTML pages (thin: parse, authenticate, call a
service, shape the answer)."""
