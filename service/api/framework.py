"""The Flask the service runs on: Flask's own, with two costs of every request
taken out. Together they were about a tenth of an action's time.

- Answers are rendered by orjson: the same JSON as Flask's own provider
  (sorted keys, UUIDs as strings, dates as HTTP dates, dataclasses as
  objects), several times faster. Requests are still parsed by Flask's
  provider: its parser is what the hostile-input checks
  (``service.api.bodies``) are written against.
- Flask asks, of every hook and view on every request, whether it is a
  coroutine function; the answer never changes, so it is asked once per function.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

import orjson
from flask import Flask
from flask.json.provider import DefaultJSONProvider

COMPACT = {"separators": (",", ":")}  # what Flask asks of an answer
OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class JSONProvider(DefaultJSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs not in ({}, COMPACT):  # indented (debug) or other stdlib options: Flask's own
            return super().dumps(obj, **kwargs)
        try:
            return orjson.dumps(obj, default=self.default, option=OPTIONS).decode()
        except TypeError:
            # What orjson refuses and the standard library writes: integers
            # beyond 64 bits, keys that are not strings. Answered as Flask would.
            return super().dumps(obj, **kwargs)


class ServiceFlask(Flask):
    json_provider_class = JSONProvider

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._is_async: dict[types.FunctionType, bool] = {}

    def ensure_sync(self, func: Callable) -> Callable:
        plain = getattr(func, "__func__", func)  # a bound method: its function
        if not isinstance(plain, types.FunctionType):
            return super().ensure_sync(func)
        is_async = self._is_async.get(plain)
        if is_async is None:
            is_async = self._is_async[plain] = inspect.iscoroutinefunction(plain)
        return self.async_to_sync(func) if is_async else func
