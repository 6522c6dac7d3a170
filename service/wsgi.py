"""The WSGI entry point: ``waitress-serve service.wsgi:app`` (``make run`` starts it that way)."""

from service.app import create_app

app = create_app()
