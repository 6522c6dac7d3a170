from engines.maccreedys_mansion.rules import ENGINE

__all__ = ["ENGINE"]
