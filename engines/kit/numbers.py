"""Bounds of the integers requests may carry: every integer field is strict
(a JSON integer, never 0.5, "0" or true) and fits the column it may reach."""

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
