"""The WSGI entry point, served by ``python -m service.http_server`` (waitress with a bound on
a request's arrival; ``make run`` starts it that way) or any WSGI server."""

from service.app import create_app

app = create_app()
