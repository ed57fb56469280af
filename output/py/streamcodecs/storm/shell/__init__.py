# Copied from streamcodecs_gen/py_package/storm/shell/__init__.py by ./generator.py; edit that file, not this copy.
"""Storm side of multilang: run a shell component as a worker's ShellBolt or ShellSpout does, without a JVM.

Meant for testing components written in any language (pystorm, storm.py, the sibling module ``component``)::

    from streamcodecs import storm

    with storm.ShellBolt(["python", "split.py"], component="split", task_ids=[4, 5]) as bolt:
        tuple_id = bolt.execute(["the cat"], source="spout")
        assert bolt.wait_result(tuple_id) == "ack"
        print(bolt.emits)  # the Emit messages, in order
        bolt.heartbeat()  # waits for the sync that answers it

    with storm.ShellSpout(["python", "words.py"], component="words") as spout:
        exchange = spout.next_tuple()  # the messages up to the sync that ends the answer
        spout.ack(exchange[0].id)

Starting the component writes the handshake (configuration, pid directory, topology context) and waits for the
pid; leaving the ``with`` block closes the component's stdin, as a worker does when it shuts down, and waits for
the process to exit. A daemon thread reads the component's stdout, collects what it sends (``emits``, ``acks``,
``fails``, ``logs``, ``errors``, ``metrics``) and answers each emit that wants task ids at once, as Storm does,
with ``task_ids`` (a list, or a function of the Emit). Everything the Java side would die on (an ack of an id it
does not know or of a heartbeat, an anchor on an acked tuple, a spout sending ``ack``, an unreadable message, a
metric without a name) is listed in ``problems`` and, with ``strict=True`` (the default), raised as
:class:`ShellProtocolError` by the next call that waits. Every wait is bounded by ``timeout`` seconds, writes
included.

Under faults: a reply answers only its own request. A spout answers each command with messages ending in one
``sync`` and commands are answered in order, so the n-th sync ends the n-th command's answer: a command that timed
out stays owed, its late answer is recognised when it comes (it stays in ``received``) and the next command returns
only its own. A heartbeat is answered by the first sync after every earlier heartbeat has had its own; an id's
``ack`` or ``fail`` names the id. Writes go through a thread the reading side never waits for: the task ids Storm
owes an emit are queued ahead of messages not yet begun (as Storm's writer gives them priority), so a component
that writes while Storm writes to it cannot deadlock the two. A write the component does not take within
``timeout`` raises :class:`ShellTimeout` and breaks the connection (a message may be cut in two): every later call
raises :class:`ShellBroken`. A component that exits raises :class:`ShellExited` with its exit status (when it has
ended by the call's deadline, or within 0.1 s of closing its stdout) and the end of its stderr. Memory is bounded:
``received`` (and ``emits``, ``logs``, ``errors``, ``metrics``, ``acks``, ``fails``, ``results``, which hold the same
messages) keeps the most recent messages within ``keep_bytes`` of the
wire bytes they came in (each counted 256 bytes more); older ones are dropped, counted in ``forgotten``;
``problems`` keeps the last 1000; ``stderr`` the last 1 MiB; a message longer than ``max_message`` is dropped as
it comes (a problem).

``serializer="msgpack"`` speaks MessagePack instead of JSON and ``end`` lines, as a worker configured with a
MessagePack ``topology.multilang.serializer`` does for components run with pystorm's ``serializer="msgpack"``.

The package's modules, one concern each: :mod:`.driver` (:class:`ShellComponent`, what both roles share: the
process, the handshake, writing, reading and what is kept), :mod:`.bolt` (:class:`ShellBolt`), :mod:`.spout`
(:class:`ShellSpout`: commands and their answers), :mod:`.context` (:func:`topology_context`, the handshake's
context) and :mod:`.errors` (the exceptions). Import from this package (or from the protocol's package); the
modules are its layout, not its API.
"""

from .bolt import ShellBolt
from .context import topology_context
from .driver import KEEP_BYTES, MAX_PROBLEMS, ShellComponent
from .errors import ShellBroken, ShellError, ShellExited, ShellProtocolError, ShellTimeout
from .spout import ShellSpout

__all__ = [
    "KEEP_BYTES",
    "MAX_PROBLEMS",
    "ShellBolt",
    "ShellBroken",
    "ShellComponent",
    "ShellError",
    "ShellExited",
    "ShellProtocolError",
    "ShellSpout",
    "ShellTimeout",
    "topology_context",
]
