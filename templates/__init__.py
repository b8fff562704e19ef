"""Jinja2 templates: every sentence killmod writes for the judge and the players."""
