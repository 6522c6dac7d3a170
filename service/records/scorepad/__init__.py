"""The scorepad's entries: what one actor may enter now, narrowed one question at
a time (``choice``: the options and picks; ``seats``: a seat's commands;
``chance``: the table's dice and cards; ``labels``: how each reads to a
person), and the shortcuts that make several entries in one tap
(``shortcuts``). It may import recording, the club, the log and the shared
modules; it does not import ``reading``, nor anything above.
"""
