"""The bounds of a game's numbers: a number past them is a typo, refused as bad input.

Kept apart from ``roster`` (which parses TOML) so that a command's options can use
them without importing it: ``killmod --help`` imports every command module.
"""

# Seats are a game's numbers (1.2 has 16, the largest table 25); uids are a board's
# user ids, which SQLite keeps as 64-bit integers.
MAX_SEAT = 999
MAX_UID = 2**63 - 1
# Rounds are a game's days (a 25-player game lasts a few dozen): a larger number is a typo.
MAX_ROUND = 999
