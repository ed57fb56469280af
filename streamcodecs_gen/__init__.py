"""The streamcodecs generator: load -> validate -> model -> render -> write.

Each stage is one module; ``cli.py`` strings them together.  Nothing in this package is needed at run time by the
generated code.
"""

from .catalog import messages_at_source
from .patterns import patterns_at_source

# The hand-written Python runtime also runs at its source (its own tests, the generator's analysis import it there):
# the modules the generator renders beside it (``_runtime/messages``, ``_runtime/kafkapatterns``) are put there first.
messages_at_source()
patterns_at_source()
