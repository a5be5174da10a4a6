"""Core contracts shared by every engine: Puzzle record, Family protocol, registry,
seeding, errors and the solver API. The core imports no engine."""
