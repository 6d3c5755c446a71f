"""The buzzer, LEDs, bar graph, buttons and the ten-count player (filled by the sensors issue)."""
