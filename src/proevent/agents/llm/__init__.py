"""LLM agents: prompts, parsing, the paper's strategies and ours (tools, gated)."""
