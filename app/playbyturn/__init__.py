"""Play by turn: time limits, vacations and claims on time; forced moves and standing battle
orders."""
