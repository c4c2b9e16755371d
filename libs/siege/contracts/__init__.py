"""Message contract: events stored in match logs, commands, and their codec."""
