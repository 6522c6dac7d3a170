"""What the members' web pages read and write, one call per page: the club's home
and admin pages, a league's page, standings and statistics, a game's page, the
scorepad and the entries it records, and the replay viewer. These are view
models for ``service/web`` (the statistics projection reads one of them too);
they decide access through ``service.records.access`` like every other reader
and may import every room below.
"""
