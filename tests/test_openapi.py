"""openapi.yaml is the truth clients read: it must be what the code generates."""

import re

import yaml

from service.openapi import generate
from tests.conftest import ROOT

UNDOCUMENTED = {"/static/<path:filename>", "/docs", "/openapi.json"}


def test_committed_openapi_yaml_equals_the_generated_document():
    committed = (ROOT / "openapi.yaml").read_text()
    assert committed == generate(), "openapi.yaml is stale: run `make openapi` and commit it"


def test_every_route_of_the_app_is_documented(app):
    documented = yaml.safe_load((ROOT / "openapi.yaml").read_text())["paths"]
    for rule in app.url_map.iter_rules():
        # the web pages (blueprint "web") are HTML for people, not the API
        if rule.rule in UNDOCUMENTED or rule.endpoint.startswith("web.") or rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        assert path in documented, f"{rule.rule} is not in openapi.yaml"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in documented[path], f"{method} {rule.rule} is not in openapi.yaml"


def test_docs_are_served_from_this_site_only(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assets = [a for a in re.findall(r'(?:src|href)="([^"]+)"', html) if not a.startswith("data:")]
    assert assets and all(a.startswith("/") and not a.startswith("//") for a in assets), assets
    assert not re.findall(r"https?://", html)
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert "'self'" in page.headers["Content-Security-Policy"]
    assert client.get("/openapi.json").get_json()["info"]["title"] == "tablerecord"


def test_a_405_names_the_allowed_methods(client):
    response = client.delete("/engines")
    assert response.status_code == 405 and response.mimetype == "application/problem+json"
    assert set(response.headers["Allow"].split(", ")) >= {"GET"}
