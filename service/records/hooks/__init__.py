"""Webhooks: what a club's apps are told of its events, signed, at least once.

A webhook (``endpoints``) names a URL, the events it wants and a format. The
outbox (``outbox``, run by the workers' webhook runner) reads the log from its
checkpoint and writes one delivery per event and webhook in the same
transaction as the checkpoint; a player added writes its deliveries in the
transaction that adds them (a trigger). The senders claim due deliveries,
post each (``messages`` shapes and signs it per the Standard Webhooks
specification) to an address that ``addresses`` allows, and record the
outcome: retried with back-off under the same ``webhook-id``, and the webhook
disabled after repeated failures.
"""
