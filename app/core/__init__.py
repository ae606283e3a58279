"""What every part of the server uses: settings, errors, the clock."""
