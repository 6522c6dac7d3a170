"""The MacCreedy's Mansion board catalog: what the rulebook does not print.

A board catalog holds the mansion's rooms (each with locations made of spaces,
each space needing one worker type), the job cards (a location and a reward)
and the Event and Haunt decks (effects built from the engine's six operations).
The rulebook's own numbers are fixed here: worker pieces and wages, resource
prices, the starting funds and the five-card job track. Only the Gasman's
resource is a club's choice (the rulebook pairs four resources with five
workers). A catalog using an effect operation the engine cannot run is refused
here, at registration, never in the middle of a game.
"""

from collections import Counter

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engines.kit.numbers import INT32_MAX
from engines.maccreedys_mansion.catalog import EFFECT_FIELDS

WORKERS = {  # type: (pieces, wage, resource or None when the club chooses)
    "carpenter": (8, 1000, "lumber"),
    "mason": (6, 2000, "stone"),
    "electrician": (2, 4000, "wiring"),
    "plumber": (2, 4000, "pipes"),
    "gasman": (1, 6000, None),
}
RESOURCES = {"stone": 500, "lumber": 500, "wiring": 1000, "pipes": 1000}
EFFECT_OPS = tuple(EFFECT_FIELDS)  # exactly the operations the engine runs
WHO = ("all", "first-player")
ID = validate.Regexp(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", error="Ids are 1-64 letters, digits, . _ -.")
Name = fields.String(required=True, validate=validate.Length(min=1, max=100))


class Worker(Schema):
    type = fields.String(required=True, validate=validate.OneOf(list(WORKERS)))
    pieces = fields.Integer(required=True, strict=True)
    wage = fields.Integer(required=True, strict=True)
    resource = fields.String(required=True, validate=validate.OneOf(list(RESOURCES)))

    @validates_schema
    def _rulebook_numbers(self, data, **kwargs):
        pieces, wage, resource = WORKERS[data["type"]]
        if data["pieces"] != pieces or data["wage"] != wage:
            raise ValidationError(
                f"The rulebook gives the {data['type']} {pieces} pieces and a ${wage} wage.", "type"
            )
        if resource is not None and data["resource"] != resource:
            raise ValidationError(f"The {data['type']} works with {resource}.", "resource")


class Resource(Schema):
    type = fields.String(required=True, validate=validate.OneOf(list(RESOURCES)))
    price = fields.Integer(required=True, strict=True)

    @validates_schema
    def _rulebook_price(self, data, **kwargs):
        if data["price"] != RESOURCES[data["type"]]:
            raise ValidationError(
                f"The rulebook prices {data['type']} at ${RESOURCES[data['type']]}.", "price"
            )


class Space(Schema):
    id = fields.String(required=True, validate=ID)
    worker = fields.String(required=True, validate=validate.OneOf(list(WORKERS)))


class Location(Schema):
    id = fields.String(required=True, validate=ID)
    name = Name
    spaces = fields.List(fields.Nested(Space), required=True, validate=validate.Length(min=1, max=12))


class Room(Schema):
    id = fields.String(required=True, validate=ID)
    name = Name
    coverable = fields.Boolean(load_default=False)
    locations = fields.List(fields.Nested(Location), required=True, validate=validate.Length(min=1, max=12))


class Job(Schema):
    id = fields.String(required=True, validate=ID)
    name = Name
    location = fields.String(required=True)
    reward = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=1_000_000))


class Effect(Schema):
    op = fields.String(required=True, validate=validate.OneOf(EFFECT_OPS))
    location = fields.String()
    room = fields.String()
    worker = fields.String(validate=validate.OneOf(list(WORKERS)))
    rounds = fields.Integer(strict=True, validate=validate.Range(min=1, max=10))
    who = fields.String(validate=validate.OneOf(WHO))
    amount = fields.Integer(strict=True, validate=validate.Range(min=1, max=1_000_000))

    @validates_schema
    def _fields_of_the_op(self, data, **kwargs):
        given = set(data) - {"op"}
        wanted = EFFECT_FIELDS[data["op"]]
        if given != wanted:
            raise ValidationError(
                f"{data['op']} takes exactly: {', '.join(sorted(wanted)) or 'nothing'}.", "op"
            )


class Card(Schema):
    id = fields.String(required=True, validate=ID)
    name = Name
    text = fields.String(required=True, validate=validate.Length(max=500))
    effect = fields.List(fields.Nested(Effect), required=True, validate=validate.Length(max=8))


class MacCreedysMansionCatalog(Schema):
    kind = fields.String(required=True, validate=validate.Equal("maccreedys-mansion"))
    id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=INT32_MAX))
    reconstruction = fields.Boolean(load_default=False)
    note = fields.String()
    start_active = fields.Integer(required=True, strict=True, validate=validate.Equal(10_000))
    start_invested = fields.Integer(required=True, strict=True, validate=validate.Equal(20_000))
    job_track = fields.Integer(required=True, strict=True, validate=validate.Equal(5))
    markers_per_company = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=200))
    workers = fields.List(fields.Nested(Worker), required=True, validate=validate.Length(equal=len(WORKERS)))
    resources = fields.List(
        fields.Nested(Resource), required=True, validate=validate.Length(equal=len(RESOURCES))
    )
    rooms = fields.List(fields.Nested(Room), required=True, validate=validate.Length(min=1, max=40))
    jobs = fields.List(fields.Nested(Job), required=True, validate=validate.Length(min=1, max=200))
    events = fields.List(fields.Nested(Card), required=True, validate=validate.Length(min=1, max=200))
    haunts = fields.List(fields.Nested(Card), required=True, validate=validate.Length(min=1, max=200))

    @validates_schema
    def _consistent(self, data, **kwargs):
        for group, names in (("workers", WORKERS), ("resources", RESOURCES)):
            if sorted(w["type"] for w in data.get(group, ())) != sorted(names):
                raise ValidationError(f"List each of {', '.join(names)} once.", group)
        rooms = data.get("rooms", ())
        locations = [loc for room in rooms for loc in room["locations"]]
        spaces = [space for loc in locations for space in loc["spaces"]]
        cards = [c for group in ("jobs", "events", "haunts") for c in data.get(group, ())]
        ids = [x["id"] for x in (*rooms, *locations, *spaces, *cards)]
        repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
        if repeated:
            raise ValidationError(f"Ids must be unique; repeated: {', '.join(repeated)}.", "rooms")
        if all(room.get("coverable") for room in rooms):
            raise ValidationError("At least one room cannot be covered.", "rooms")
        location_ids = {loc["id"] for loc in locations}
        room_ids = {room["id"] for room in rooms}
        for job in data.get("jobs", ()):
            if job["location"] not in location_ids:
                raise ValidationError(f"Job {job['id']}: no location {job['location']!r}.", "jobs")
        for group in ("events", "haunts"):
            for card in data.get(group, ()):
                for effect in card["effect"]:
                    if "location" in effect and effect["location"] not in location_ids:
                        raise ValidationError(f"{card['id']}: no location {effect['location']!r}.", group)
                    if "room" in effect and effect["room"] not in room_ids:
                        raise ValidationError(f"{card['id']}: no room {effect['room']!r}.", group)


CATALOG = MacCreedysMansionCatalog
