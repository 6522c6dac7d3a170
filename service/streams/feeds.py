"""The stream process's fan-out: one feed per game or club that a reader of
this process follows, woken by PostgreSQL's notices (``notices.listen``).

A feed reads what is new once for all its readers (``Feed.refresh``: one
query per commit, however many follow) and keeps the newest events; each
reader takes from it the events after its own position, as it may see them
(``streams.game_events_seen``, ``club_events_seen``), and a reader further
behind than the feed keeps reads the log itself, a page at a time. A notice
only wakes: whatever a feed reads comes from the log, so a lost notice costs
a delay, never an event (after the listening connection is made anew, every
feed reads again). A club's feed reads below the horizon: when a notice names
a position the horizon has not passed yet (an older transaction still open),
the feed reads again after 20 ms, then 40 ms, up to once a second, until it has.

With a streaming replica (``DATABASE_REPLICA_URL``), the notices still come
from the primary (a hot standby cannot listen), but a feed reads what a notice
announced from the replica, naming the notice's log position as
``min_position`` (``context.read``): the replica serves the read once it has
replayed that position, else the primary does, and a replica too far behind
is skipped. Whatever no notice named (a feed's first read, a read after the
listening connection was made anew, the next page of a long burst) is read
from the primary, which holds it for certain.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar
from uuid import UUID

import orjson
from anyio import to_thread

from service.records.access import Principal
from service.records.errors import Forbidden, NotFound, Unauthenticated
from service.records.log.context import Records
from service.records.log.context import read as read_lagging
from service.records.log.notices import Connected, Notice, listen
from service.records.reading import streams
from service.records.reading.streams import Credential

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Events a feed keeps for its readers (the newest).
KEPT = 500
#: Seconds for which whom a credential signs in is taken as known (as the API does).
SIGN_IN_SECONDS = 2.0
FIRST_RETRY, LAST_RETRY = 0.02, 1.0


class Feed:
    """A game's or a club's events, read once for every reader of this process.

    ``read(after, min_position)`` reads the log after a key (a version or a
    position), from wherever holds the log position ``min_position`` (None:
    the primary), and answers (context, events); ``key(event)`` is an event's
    key; ``seen(context, events, principal)`` gives a reader its share."""

    def __init__(self, read: Callable, key: Callable, seen: Callable, start: int):
        self._read, self.key, self._seen = read, key, seen
        self.context: Any = None
        self.kept: list = []
        self.keys: list[int] = []  # the kept events' keys, for bisect
        #: ``kept`` holds every event whose key lies in (kept_from, read_to].
        self.kept_from = self.read_to = start
        #: The highest key a notice named; and whether anything else may be new (read once).
        self.notified, self.stale = start, True
        #: The highest log position a notice named (what a read must find: ``min_position``).
        self.position: int | None = None
        self.readers = 0
        self._changed = asyncio.Event()
        self._reading: asyncio.Task | None = None
        self._retry = FIRST_RETRY
        self._memo: dict[tuple, list[bytes]] = {}

    def wake(self, mark: int | None, position: int | None = None) -> None:
        """Something was appended (up to ``mark``, at log ``position``; None: perhaps anything)."""
        if mark is None:
            self.stale = True
        else:
            self.notified = max(self.notified, mark)
        if position is not None:
            self.position = max(self.position or 0, position)
        self._tell_readers()

    def _tell_readers(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def waiter(self) -> asyncio.Event:
        return self._changed

    async def after(self, cursor: int) -> tuple[Any, list]:
        """(context, events after ``cursor``), at most a page."""
        if self.stale or self.notified > self.read_to or self._reading is not None:
            await self.refresh()  # a read under way (a new feed's first) is awaited too
        if cursor >= self.kept_from:
            return self.context, self.kept[bisect.bisect_right(self.keys, cursor) :]
        return await to_thread.run_sync(self._read, cursor, self.position)

    async def refresh(self) -> None:
        """Read what is new, once, whoever asks meanwhile."""
        if self._reading is None:
            self._reading = asyncio.ensure_future(self._refresh())
        reading = self._reading
        try:
            await asyncio.shield(reading)
        finally:
            if self._reading is reading and reading.done():
                self._reading = None

    async def _refresh(self) -> None:
        # What no notice named is read from the primary; what one did, from wherever holds it.
        min_position = None if self.stale else self.position
        self.stale = False
        context, events = await to_thread.run_sync(self._read, self.read_to, min_position)
        self.context, self._memo = context, {}
        if events:
            self.kept = [*self.kept, *events][-KEPT:]
            self.keys = [self.key(e) for e in self.kept]
            self.read_to = self.key(events[-1])
            self.kept_from = max(self.kept_from, self.key(self.kept[0]) - 1)
            self._tell_readers()  # a reader that found nothing while this read ran looks again
            if len(events) >= streams.PAGE:
                self.wake(None)  # a page full: more to read at once
                return
        if self.notified > self.read_to:
            # Named by a notice but not yet below the horizon: look again soon.
            asyncio.get_running_loop().call_later(self._retry, self.wake, self.notified)
            self._retry = min(self._retry * 2, LAST_RETRY)
        else:
            self._retry = FIRST_RETRY

    def frames(self, context: Any, events: list, principal: Principal | None, name: str) -> list[bytes]:
        """``events`` as ``principal`` may see them, each one SSE frame (shared
        by every reader of the same events signed in alike)."""
        if context is not self.context:  # a reader's own read, behind what the feed keeps
            return self._frames(context, events, principal, name)
        memo = (principal, self.key(events[0]), self.key(events[-1]))
        if memo not in self._memo:
            self._memo[memo] = self._frames(context, events, principal, name)
        return self._memo[memo]

    def _frames(self, context: Any, events: list, principal: Principal | None, name: str) -> list[bytes]:
        seen = self._seen(context, events, principal)
        return [frame(name, self.key(e), item) for e, item in zip(events, seen, strict=True)]


def frame(name: str, event_id: int, item: dict[str, Any]) -> bytes:
    """One server-sent event: its name, its id (the reader's position) and its JSON."""
    return b"event: %s\nid: %d\ndata: %s\n\n" % (name.encode(), event_id, orjson.dumps(item))


class Feeds:
    """Every feed of this process, woken by the log's notices."""

    def __init__(self, records: Records, database_url: str):
        self.records, self.database_url = records, database_url
        self.games: dict[UUID, Feed] = {}
        self.clubs: dict[UUID, Feed] = {}
        self._signed_in: dict[Credential, tuple[float, Principal | None | Exception]] = {}
        self._asking: dict[Credential, asyncio.Task] = {}
        self._listening: asyncio.Task | None = None
        #: The database session that listens for notices (its server process id).
        self.listener: int | None = None

    def start(self) -> None:
        self._listening = asyncio.ensure_future(self._listen())

    async def stop(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening

    async def _listen(self) -> None:
        async for notice in listen(self.database_url):
            self._tell(notice)

    def _tell(self, notice: Notice | Connected) -> None:
        if isinstance(notice, Connected):  # notices may have been missed: every feed reads again
            self.listener = notice.pid
            for feed in [*self.games.values(), *self.clubs.values()]:
                feed.wake(None)
            return
        if feed := self.games.get(notice.game_id):
            feed.wake(notice.version, notice.position)
        if feed := self.clubs.get(notice.club_id):
            feed.wake(notice.position, notice.position)

    def _news(self, min_position: int | None, call: Callable[[Records], T]) -> T:
        """``call`` on the primary (``min_position`` None), or on the replica once
        it holds ``min_position`` (``context.read``; else on the primary too)."""
        if min_position is None:
            return call(self.records)
        return read_lagging(self.records, min_position, call)

    def game(self, game_id: UUID, start: int) -> Feed:
        if game_id not in self.games:

            def read(after: int, min_position: int | None) -> tuple[Any, list]:
                news = self._news(min_position, lambda records: streams.game_news(records, game_id, after))
                return news, news.events

            self.games[game_id] = Feed(
                read,
                lambda e: e.version,
                lambda news, events, who: streams.game_events_seen(streams.GameNews(news.game, events), who),
                start,
            )
        return self.games[game_id]

    def club(self, club_id: UUID, start: int) -> Feed:
        if club_id not in self.clubs:

            def read(after: int, min_position: int | None) -> tuple[Any, list]:
                news = self._news(min_position, lambda records: streams.club_news(records, club_id, after))
                return news, news.events

            self.clubs[club_id] = Feed(
                read,
                lambda e: e.position,
                lambda news, events, who: streams.club_events_seen(
                    streams.ClubNews(events, news.games), club_id, who
                ),
                start,
            )
        return self.clubs[club_id]

    async def who(self, credential: Credential) -> Principal | None:
        """Whom ``credential`` signs in, asked at most every ``SIGN_IN_SECONDS``
        and once for all readers that bring it; raises as ``streams.who``."""
        known = self._signed_in.get(credential)
        if known is None or known[0] < time.monotonic():
            if credential not in self._asking:
                self._asking[credential] = asyncio.ensure_future(self._ask(credential))
            await asyncio.shield(self._asking[credential])
            known = self._signed_in[credential]
        if isinstance(known[1], Exception):
            raise known[1]
        return known[1]

    async def _ask(self, credential: Credential) -> None:
        try:
            answer: Principal | None | Exception = await to_thread.run_sync(
                streams.who, self.records, credential
            )
        except Exception as error:  # noqa: BLE001 - kept and raised to every asker
            answer = error
        finally:
            self._asking.pop(credential, None)
        if len(self._signed_in) > 10_000:
            self._signed_in.clear()
        self._signed_in[credential] = (time.monotonic() + SIGN_IN_SECONDS, answer)

    async def follow(
        self, feed: Feed, credential: Credential, cursor: int, name: str, feeds: dict, key: UUID
    ) -> AsyncIterator[bytes]:
        """Every event after ``cursor``, as the credential's holder may see
        them, for as long as it follows (and may: a sign-in that ends ends it)."""
        feed.readers += 1
        try:
            while True:
                changed = feed.waiter()
                context, events = await feed.after(cursor)
                if events:
                    try:
                        principal = await self.who(credential)
                        chunks = feed.frames(context, events, principal, name)
                    except (Unauthenticated, NotFound, Forbidden):
                        return  # signed out, or no longer allowed: the stream ends
                    yield b"".join(chunks)  # one write for all that is new
                    cursor = feed.key(events[-1])
                    continue
                await changed.wait()
        finally:
            feed.readers -= 1
            if not feed.readers and feeds.get(key) is feed:
                del feeds[key]
