"""The members' web pages: server-rendered Jinja templates over the domain
(``service.records``), with a few vendored scripts and no build step.

Signing in opens a server-side web session (``service.web.session``) whose
random id is kept in an HttpOnly, SameSite cookie; every form carries a CSRF
token (Flask-WTF) that lasts as long as the sign-in. Every page is served with a Content Security
Policy that lets the browser load nothing from anywhere but this service.
"""

from __future__ import annotations

import secrets

import flask
from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect

from service.records.club import sign_ins
from service.web import (  # noqa: F401 - registers its pages on the blueprint
    club_admin,
    errors,
    game_pages,
    history,
    nights,
    players,
    results,
    scorepad,
    signing_in,
    tournaments,
)
from service.web.views import blueprint

csrf = CSRFProtect()


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session (it holds the forms' CSRF secret), opened
    without building its signer when the request brings no session cookie,
    as every API call does."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if self.get_cookie_name(app) not in request.cookies:
            return self.session_class()
        return super().open_session(app, request)

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure whenever the request came over https (``TRUSTED_PROXIES``
        lets a proxy say so), like the sign-in's own cookie."""
        return flask.request.is_secure or super().get_cookie_secure(app)


def init_app(app: Flask, secret_key: str | None) -> None:
    # The API is for token-bearing clients, not browsers: only the pages' forms
    # are checked (in the blueprint's before_request).
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)
    # A form's token is valid as long as its session cookie (no separate clock),
    # and that cookie lasts as long as the sign-in (made permanent on signing in).
    app.config["WTF_CSRF_TIME_LIMIT"] = None
    app.config["PERMANENT_SESSION_LIFETIME"] = sign_ins.WEB_SESSION_LIFETIME
    app.config["SECRET_KEY"] = app.config.get("SECRET_KEY") or secret_key or secrets.token_hex(32)
    # Flask defines these keys already (SameSite as None): set, not setdefault.
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.session_interface = SessionInterface()
    errors.init_app(app)
    csrf.init_app(app)
    app.register_blueprint(blueprint)
