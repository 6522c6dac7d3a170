"""The API's routes, one blueprint per resource: each parses its request, calls
one domain function and dumps the answer (the shapes are in ``schemas/``)."""
