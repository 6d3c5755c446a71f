# The few names of waitress that companion uses, typed as companion uses them; the rest Any.
from typing import Any

def __getattr__(name: str) -> Any: ...
