"""``python -m siegeworks.cli``: what the service supervisor starts."""

from siegeworks.cli import app

app()
