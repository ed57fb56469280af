"""The streamcodecs generator: load -> validate -> model -> render -> write.

Each stage is one module; ``cli.py`` strings them together.  Nothing in this package is needed at run time by the
generated code.
"""
