"""The offline ``rules`` baseline and its step detector."""
