"""The stream process's fan-out: one feed per game or club that a reader of
this process follows, woken by PostgreSQL's notices (``notices.listen``).

A notice starts the feed's read of what is new, once for all its readers
(one query per commit, however many follow; notices that come while it
reads are read together next), and its readers are woken only once that
read has brought something. The feed keeps the newest events, each shaped
and serialised once per principal, whichever readers take it; each
reader takes from it the events after its own position, as it may see them
(``streams.game_events_seen``, ``club_events_seen``: none of a game it may
not see), and a reader further behind than the feed keeps reads the log itself, a page at a time. A notice
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
    key; ``seen(context, events, principal)`` gives a reader its share;
    ``merged(context, new, kept)`` is the context for every kept event after
    a read brought ``new`` (by default, ``new``).

    A notice starts the feed's read, and the readers are woken only once it
    has brought something: a notice wakes one task, not every reader, and a
    notice that brings nothing (a retry below the horizon) wakes none."""

    def __init__(
        self, read: Callable, key: Callable, seen: Callable, start: int, merged: Callable | None = None
    ):
        self._read, self.key, self._seen = read, key, seen
        self._merged = merged or (lambda context, new, kept: new)
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
        #: A wake came while a read ran: read once more when it ends.
        self._again = False
        self._retry = FIRST_RETRY
        #: Each event's frame per principal, and each batch's, for the current context.
        self._memo: dict[tuple, bytes] = {}

    def wake(self, mark: int | None, position: int | None = None) -> None:
        """Something was appended (up to ``mark``, at log ``position``; None: perhaps anything): read it."""
        if mark is None:
            self.stale = True
        else:
            self.notified = max(self.notified, mark)
        if position is not None:
            self.position = max(self.position or 0, position)
        if self._reading is None:
            self._reading = asyncio.ensure_future(self._read_news())
            self._reading.add_done_callback(self._read_ended)
        else:
            self._again = True

    def _tell_readers(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def waiter(self) -> asyncio.Event:
        return self._changed

    async def after(self, cursor: int) -> tuple[Any, list]:
        """(context, events after ``cursor``), at most a page."""
        if self.stale or self._reading is not None:
            await self.refresh()  # a read under way (a new feed's first) is awaited too
        if cursor >= self.kept_from:
            return self.context, self.kept[bisect.bisect_right(self.keys, cursor) :]
        return await to_thread.run_sync(self._read, cursor, self.position)

    async def refresh(self) -> None:
        """Read what is new, once, whoever asks meanwhile."""
        if self._reading is None:
            self.wake(None)
        await asyncio.shield(self._reading)

    async def _read_news(self) -> None:
        """Read until nothing more is known to be new (a page full, or a wake
        while reading, reads again at once)."""
        try:
            while True:
                # What no notice named is read from the primary; what one did, from wherever holds it.
                min_position = None if self.stale else self.position
                self.stale = self._again = False
                if await self._read_once(min_position):
                    self.stale = True  # a page full: the next one from the primary
                elif not self._again and not self.stale:
                    break
        finally:
            self._reading = None
        if self.notified > self.read_to:
            # Named by a notice but not yet below the horizon: look again soon.
            asyncio.get_running_loop().call_later(self._retry, self.wake, self.notified)
            self._retry = min(self._retry * 2, LAST_RETRY)
        else:
            self._retry = FIRST_RETRY

    async def _read_once(self, min_position: int | None) -> bool:
        """Read what is new once; True: a full page, more to read."""
        context, events = await to_thread.run_sync(self._read, self.read_to, min_position)
        if events:
            self.kept = [*self.kept, *events][-KEPT:]
        self.context, self._memo = self._merged(self.context, context, self.kept), {}
        if not events:
            return False
        self.keys = [self.key(e) for e in self.kept]
        self.read_to = self.key(events[-1])
        self.kept_from = max(self.kept_from, self.key(self.kept[0]) - 1)
        self._tell_readers()
        return len(events) >= streams.PAGE

    def _read_ended(self, reading: asyncio.Task) -> None:
        if reading.cancelled() or reading.exception() is None:
            return
        # The readers waiting for it have it raised; the feed reads again on the next wake.
        log.warning("reading a feed failed (%s); again in %.1f s", reading.exception(), self._retry)
        self.stale = True
        asyncio.get_running_loop().call_later(self._retry, self.wake, None)
        self._retry = min(self._retry * 2, LAST_RETRY)

    def frames(self, context: Any, events: list, principal: Principal | None, name: str) -> bytes:
        """``events`` as ``principal`` may see them, as SSE frames: each event is
        shaped and serialised once per principal, shared by every reader
        signed in alike, whatever its position."""
        if context is not self.context:  # a reader's own read, behind what the feed keeps
            return b"".join(self._frames(context, events, principal, name))
        memo, key = self._memo, self.key
        batch = (principal, key(events[0]), key(events[-1]))
        if (chunk := memo.get(batch)) is None:
            missing = [e for e in events if (principal, key(e)) not in memo]
            if missing:
                for e, one in zip(missing, self._frames(context, missing, principal, name), strict=True):
                    memo[principal, key(e)] = one
            chunk = memo[batch] = b"".join(memo[principal, key(e)] for e in events)
        return chunk

    def _frames(self, context: Any, events: list, principal: Principal | None, name: str) -> list[bytes]:
        """One frame per event; an empty one for an event the principal may not see."""
        seen = self._seen(context, events, principal)
        return [
            b"" if item is None else frame(name, self.key(e), item)
            for e, item in zip(events, seen, strict=True)
        ]


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

            def merged(news: streams.ClubNews | None, new: streams.ClubNews, kept: list) -> streams.ClubNews:
                """The games of every kept event (a read brings only its own events' games)."""
                games = {**(news.games if news else {}), **new.games}
                return streams.ClubNews(new.events, {e.game_id: games[e.game_id] for e in kept})

            self.clubs[club_id] = Feed(
                read,
                lambda e: e.position,
                lambda news, events, who: streams.club_events_seen(
                    streams.ClubNews(events, news.games), club_id, who
                ),
                start,
                merged,
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
                        chunk = feed.frames(context, events, principal, name)
                    except (Unauthenticated, NotFound, Forbidden):
                        return  # signed out, or no longer allowed: the stream ends
                    if chunk:  # nothing when none of the events is this reader's to see
                        yield chunk  # one write for all that is new
                    cursor = feed.key(events[-1])
                    continue
                await changed.wait()
        finally:
            feed.readers -= 1
            if not feed.readers and feeds.get(key) is feed:
                del feeds[key]
