"""What a table publishes to an MQTT broker, Home Assistant's discovery of it, and the hall
that shows every table of a room (``companion hall``). Payloads: :mod:`companion.web.asyncapi`."""
