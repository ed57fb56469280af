# Copied from streamcodecs_gen/py_package/storm/shell/bolt.py by ./generator.py; edit that file, not this copy.
"""Drive a shell bolt: tuples, tick tuples and heartbeats in; emits, acks, fails and the rest out."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..messages import (
    DEFAULT_STREAM,
    HEARTBEAT_STREAM,
    SYSTEM_COMPONENT,
    SYSTEM_TASK_ID,
    TICK_STREAM,
    Ack,
    BoltTuple,
    Emit,
    Fail,
    Heartbeat,
    Message,
    Sync,
    Tick,
)
from .driver import ShellComponent


def _random_id() -> str:
    """A tuple id as Storm makes one: a random Java long in decimal."""
    return str(random.randint(-(2**63), 2**63 - 1))


class ShellBolt(ShellComponent):
    """Drives a shell bolt: tuples, tick tuples and heartbeats in; emits, acks, fails and the rest out."""

    def _role_state(self) -> None:
        self.pending: dict[str, Message] = {}
        """Tuples sent and not yet acked or failed, by id."""
        self.results: dict[str, str] = {}
        """``"ack"`` or ``"fail"`` for each tuple id the bolt answered."""
        self.acks: list[str] = []
        self.fails: list[str] = []
        self._heartbeats = 0  # heartbeats sent
        self._answered = 0  # heartbeats answered by a sync (each sync answers the oldest one unanswered)

    def __enter__(self) -> ShellBolt:
        super().__enter__()
        return self

    def execute(
        self,
        values: Sequence[Any],
        *,
        source: str = "spout",
        stream: str = DEFAULT_STREAM,
        task: int = 1,
        tuple_id: str | None = None,
    ) -> str:
        """Send an input tuple; its id (random, as Storm makes them, unless given)."""
        tuple_id = _random_id() if tuple_id is None else tuple_id
        self.send(BoltTuple(id=tuple_id, comp=source, stream=stream, task=task, values=list(values)))
        return tuple_id

    def tick(self, frequency: int = 1) -> str:
        """Send a tick tuple (``__system``/``__tick``, values ``[frequency]``); its id."""
        tuple_id = _random_id()
        self.send(Tick(id=tuple_id, comp=SYSTEM_COMPONENT, stream=TICK_STREAM, task=SYSTEM_TASK_ID, values=[frequency]))
        return tuple_id

    def heartbeat(self, timeout: float | None = None) -> None:
        """Send a heartbeat tuple and wait for the ``sync`` that answers it.

        A bolt answers heartbeats in order, so this one's sync is the first after every earlier heartbeat had its
        own: the late sync of a heartbeat that timed out is not taken for this one's. A sync that comes while no
        heartbeat waits (pystorm sends one after reporting an exception) answers none.
        """
        with self._changed:
            self._heartbeats += 1
            mine = self._heartbeats
        self.send(Heartbeat(id=_random_id(), comp=None, stream=HEARTBEAT_STREAM, task=SYSTEM_TASK_ID, values=[]))
        self.wait_for(lambda: self._answered >= mine, "a sync answering the heartbeat", timeout)

    def wait_result(self, tuple_id: str, timeout: float | None = None) -> str:
        """Wait until the bolt acks or fails ``tuple_id``; ``"ack"`` or ``"fail"``."""
        self.wait_for(lambda: tuple_id in self.results, f"an ack or fail of tuple {tuple_id}", timeout)
        return self.results[tuple_id]

    def _note_sent(self, message: Message) -> None:
        if isinstance(message, BoltTuple | Tick):
            with self._changed:
                self.pending[message.id] = message

    def _on_message(self, message: Message, size: int) -> None:
        if isinstance(message, Ack | Fail):
            kind = "ack" if isinstance(message, Ack) else "fail"
            if self.pending.pop(message.id, None) is None:
                self._note_problem(f"{kind} of {message.id!r}, a non-existent or already acked/failed id")
            self.results[message.id] = kind
            (self.acks if kind == "ack" else self.fails).append(message.id)
        elif isinstance(message, Emit):
            for anchor in message.anchors or []:
                if anchor not in self.pending:
                    self._note_problem(f"an emit anchored onto {anchor!r}, not a pending tuple")
        elif isinstance(message, Sync) and self._answered < self._heartbeats:
            self._answered += 1

    def _forget_role(self, dropped: list[Message]) -> None:
        acks = [m.id for m in dropped if isinstance(m, Ack)]
        fails = [m.id for m in dropped if isinstance(m, Fail)]
        del self.acks[: len(acks)]
        del self.fails[: len(fails)]
        for tuple_id in acks + fails:
            self.results.pop(tuple_id, None)
