"""Prints the OpenAPI document the code generates (`make openapi` writes it
to openapi.yaml; a test keeps the committed file equal to it)."""

from __future__ import annotations

import yaml

from service.config import Settings


def generate() -> str:
    from service.app import create_app

    app = create_app(Settings(database_url=None), pool=None)
    with app.app_context():
        spec = app.extensions["tablerecord.api"].spec.to_dict()
    return yaml.safe_dump(spec, sort_keys=True, allow_unicode=True, width=100)


if __name__ == "__main__":
    print(generate(), end="")
