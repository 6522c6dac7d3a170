"""The domain: game records without Flask or Celery.

Entry points (``service/api``, ``service/web``) and the workers call into this
package; it calls the engines. Its rooms, lowest first, each importing only
the rooms below it (``tests/test_layers.py`` keeps it so):

- three shared modules at this level, which import no room: ``errors`` (what
  went wrong, by a stable code), ``game_record`` (one stored game) and
  ``access`` (every rule of who may see what and act for whom);
- ``log``: the append-only event log and its connections;
- ``club``: clubs, their players, leagues, sign-ins and card catalogs;
- ``recording``: recording a game, action by action or by its result;
- ``scorepad`` and ``reading`` (side by side, neither imports the other): the
  scorepad's choices and shortcuts; what members and apps read;
- ``history``: a club's history and games in and out;
- ``pages``: what the members' web pages read and write, one call per page.

See docs/architecture.md for the picture.
"""
