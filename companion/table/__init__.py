"""The running service: sensors, estimator, game and cues wired together (the daemon issue)."""
