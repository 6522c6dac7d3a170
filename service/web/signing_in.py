"""The sign-in link's page. A link carries its token in the URL's fragment,
which a browser sends to no server, keeps out of every Referer and (once the
page's script has replaced the address) out of its history: the script reads
it and posts it once, like a pasted token."""

from __future__ import annotations

from flask import render_template

from service.web.views import blueprint


@blueprint.get("/welcome")
def welcome():
    return render_template("welcome.html")
