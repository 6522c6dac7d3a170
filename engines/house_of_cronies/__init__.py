from engines.house_of_cronies.rules import ENGINE

__all__ = ["ENGINE"]
