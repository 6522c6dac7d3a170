"""Celery workers and the projections they keep: standings, replays, statistics.

See docs/workers.md.
"""
