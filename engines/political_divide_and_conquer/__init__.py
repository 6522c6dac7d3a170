from engines.political_divide_and_conquer.rules import ENGINE

__all__ = ["ENGINE"]
