"""The wire families: each family's typed framing (``framing.py``), its flags and check hooks (``base.py`` and one
module per family), and the registry (``registry.py``: ``family(name)``). See docs/architecture.md.

The family names no later stage: the checks call its hooks, and each stage after them keeps its own table keyed by
the family's name (the reference encoders, each target's templates and analyses).
"""
