"""Fake of ``circuitpython_typing``, the type names Adafruit's libraries import.

CircuitPython never evaluates annotations, so on a board the libraries' ``try: ... except
ImportError`` skips these; CPython evaluates a signature's annotations, so adafruit_onewire's
``Pin`` (imported after these) and adafruit_ds18x20's ``Literal`` must exist for them to load.
"""

ReadableBuffer = bytes | bytearray | memoryview
WriteableBuffer = bytearray | memoryview
