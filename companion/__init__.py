"""companion: a Raspberry Pi that referees ice-cube board games at a real table."""

__version__ = "0.1.0"
