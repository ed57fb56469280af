# Copied from streamcodecs_gen/py_package/_runtime/__init__.py by ./generator.py; edit that file, not this copy.
"""Runtime support shared by the generated protocol modules (standard library, plus msgspec for JSON)."""
