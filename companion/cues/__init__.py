"""What the table says to the players without a phone: buzzer, seat LEDs, the count bar, buttons.

- :mod:`~companion.cues.pins`: the cue part of the pin map, as plain numbers.
- :mod:`~companion.cues.devices`: the gpiozero devices built from the pin map, with an injected
  pin factory (``MockFactory`` off the Pi).
- :mod:`~companion.cues.ten_count`: the ten-count of an attack, on its own thread, each count
  due at an absolute time so the count never drifts; cancellable.
- :mod:`~companion.cues.tunes` and :mod:`~companion.cues.short_cues`: the short cues (game
  start, your turn, weigh-in, melt warning, winner) played from a queue, never blocking.
- :mod:`~companion.cues.stage`: the ten-count has the outputs first, a cue waits for it.
- :mod:`~companion.cues.board`: all of it as one object.
- :mod:`~companion.cues.process`: the board in a process of its own, which the running service
  starts: a count keeps its beat within a millisecond whatever the daemon's threads do. Only
  that process imports gpiozero.
"""
