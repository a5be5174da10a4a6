"""Small families that live in no engine (the example family the pipeline was built on)."""
