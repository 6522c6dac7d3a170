from engines.pig.rules import ENGINE

__all__ = ["ENGINE"]
