from engines.chancellors.rules import ENGINE

__all__ = ["ENGINE"]
