"""Storm the Castle! rules, split by phase and concept."""
