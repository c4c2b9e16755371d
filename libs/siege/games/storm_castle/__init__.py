"""Storm the Castle! I: the board, the four Dark Force armies and the defenders, Part I rules."""
