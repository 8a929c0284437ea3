"""Simulated games: run many bot games on the engine and stream statistics (no rendering here)."""
