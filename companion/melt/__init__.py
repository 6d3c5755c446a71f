"""The pure physics of a melting ice cube and the per-seat estimator (filled by the melt issue)."""
