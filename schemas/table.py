"""The table view model's shape (``engines.kit.table``): the same for every game,
so a client draws any game's table without knowing its engine. Every value is
words as a person reads them: catalog names, players' names, seats counted from 1."""

from __future__ import annotations

from marshmallow import Schema, fields


class TableCard(Schema):
    name = fields.String(
        required=True, metadata={"description": 'The catalog\'s name ("Face down" when hidden).'}
    )
    kind = fields.String(
        required=True, metadata={"description": "The card's kind as printed (may be empty)."}
    )
    value = fields.String(
        required=True, metadata={"description": "Its value or text as printed (may be empty)."}
    )
    face_down = fields.Boolean(required=True, metadata={"description": "The viewer may not see its face."})


class TableGroup(Schema):
    title = fields.String(
        required=True, metadata={"description": 'What the group is: "Hand", "Cabinet", "Deck"...'}
    )
    cards = fields.List(fields.Nested(TableCard), required=True, metadata={"description": "In table order."})
    count = fields.Integer(
        required=True, metadata={"description": "How many cards it holds (a deck: none shown)."}
    )
    note = fields.String(
        required=True, metadata={"description": "What else the table shows of it, in words."}
    )


class TableFact(Schema):
    label = fields.String(required=True)
    value = fields.String(required=True)


class TableSeat(Schema):
    name = fields.String(required=True, metadata={"description": "The player's name."})
    number = fields.Integer(required=True, metadata={"description": "The seat, counted from 1."})
    acting = fields.Boolean(required=True, metadata={"description": "The game waits for this seat."})
    score = fields.String(required=True, metadata={"description": 'The score so far in words ("12 votes").'})
    notes = fields.List(fields.String(), required=True)
    groups = fields.List(fields.Nested(TableGroup), required=True)


class TableNode(Schema):
    title = fields.String(required=True)
    detail = fields.String(required=True)


class TableArrow(Schema):
    from_ = fields.String(required=True, data_key="from", metadata={"description": "A node's title."})
    to = fields.String(required=True, metadata={"description": "A node's title."})


class TableDiagram(Schema):
    nodes = fields.List(fields.Nested(TableNode), required=True)
    arrows = fields.List(fields.Nested(TableArrow), required=True)


class TableView(Schema):
    """What a person sees on the table, as the viewer may see it."""

    caption = fields.String(required=True, metadata={"description": '"Round 2 · Ann\'s turn".'})
    round = fields.String(
        required=True, metadata={"description": "The round (or turn) the game is in, in words."}
    )
    turn = fields.String(required=True, metadata={"description": "Whose turn or window it is, in words."})
    seats = fields.List(fields.Nested(TableSeat), required=True)
    areas = fields.List(
        fields.Nested(TableGroup), required=True, metadata={"description": "Between the seats."}
    )
    facts = fields.List(fields.Nested(TableFact), required=True)
    diagram = fields.Nested(
        TableDiagram,
        allow_none=True,
        required=True,
        metadata={"description": "Nodes and arrows, when one helps."},
    )
