"""Protection against what strangers can make the server do: where it may send
requests, how fast and how much anyone may ask of it, and which names and links it
accepts. Pure building blocks; the web layer wires them in."""
