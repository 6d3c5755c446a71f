"""The Flask app, the JSON API, the stream and the phone pages (daemon, pages)."""
