"""The club: the tenant, its players and leagues (``clubs``), the admin token and
the members' sign-ins (``sign_ins``), the apps' scoped tokens (``apps``), and
the card catalogs it plays with (``catalogs``), and the merges of two records of one player
(``merges``). It may import the log and the shared modules (``errors``,
``access``), nothing above.
"""
