"""Game-independent hosting logic: the match fold, rules and dice decisions, audit, export.

Plain functions over a log's events; the services' handlers are thin wrappers around them.
"""
