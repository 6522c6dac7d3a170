from engines.final_decrees.rules import ENGINE

__all__ = ["ENGINE"]
