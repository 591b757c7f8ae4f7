"""Test helpers shared by every area's tests (the scripted OpenAI-compatible server)."""
