# Copied from streamcodecs_gen/py_package/storm/shell/spout.py by ./generator.py; edit that file, not this copy.
"""Drive a shell spout: each command is answered by emits and logs, then ``sync``; answers are matched to their
commands in order, also after a command timed out."""

from __future__ import annotations

from collections import deque
from typing import Any

from ..messages import (
    Activate,
    Deactivate,
    Emit,
    Error,
    Log,
    Message,
    Metrics,
    Next,
    SpoutAck,
    SpoutFail,
    Sync,
    encode,
)
from .driver import MESSAGE_COST, ShellComponent


class _Answer:
    """A spout command sent and the messages of its answer; ``done`` once its sync came."""

    __slots__ = ("command", "messages", "kept", "done", "abandoned", "claimed")

    def __init__(self, command: str, messages: list[Message], kept: int, claimed: bool) -> None:
        self.command = command
        self.messages = messages
        self.kept = kept
        self.done = False
        self.claimed = claimed  # a command() call waits for it (not one written with send or send_raw)
        self.abandoned = not claimed  # nobody will take it (its caller timed out): dropped when it comes


class ShellSpout(ShellComponent):
    """Drives a shell spout: each command is answered by emits and logs, then ``sync``."""

    def _role_state(self) -> None:
        self._answers: deque[_Answer] = deque()  # commands sent whose sync has not come, oldest first
        self._unasked: list[Message] = []  # read while no command was owed: Storm reads them as the next answer's
        self._unasked_kept = 0
        self.late = 0
        """How many answers came after their command had timed out (and were dropped)."""

    def __enter__(self) -> ShellSpout:
        super().__enter__()
        return self

    def next_tuple(self, timeout: float | None = None) -> list[Message]:
        """Send ``next``; the messages of the answer, up to and including its ``sync``."""
        return self.command(Next(), timeout)

    def ack(self, message_id: Any, timeout: float | None = None) -> list[Message]:
        """Tell the spout the tuple it emitted with ``message_id`` was processed."""
        return self.command(SpoutAck(id=message_id), timeout)

    def fail(self, message_id: Any, timeout: float | None = None) -> list[Message]:
        """Tell the spout the tuple it emitted with ``message_id`` failed."""
        return self.command(SpoutFail(id=message_id), timeout)

    def activate(self, timeout: float | None = None) -> list[Message]:
        return self.command(Activate(), timeout)

    def deactivate(self, timeout: float | None = None) -> list[Message]:
        return self.command(Deactivate(), timeout)

    def command(
        self, message: Next | SpoutAck | SpoutFail | Activate | Deactivate, timeout: float | None = None
    ) -> list[Message]:
        """Send a spout command and wait for the ``sync`` that ends the answer; the answer's messages.

        The spout answers commands in order, each answer ending with one sync: the answer to this command is what
        comes after the sync ending the previous command's answer, up to its own sync (messages the spout sent while
        no command was owed begin it, as Storm reads them then). When this call times out the command stays owed,
        and its answer is dropped when it comes, so a later call returns only its own.
        """
        name = type(message).__name__
        answer = self._owe(name, claimed=True)
        try:
            self._write_bytes(encode(message, serializer=self.serializer))
            self.wait_for(lambda: answer.done, f"the sync ending the answer to {name}", timeout)
        except BaseException:
            with self._changed:
                answer.abandoned = True
                answer.messages = []
            raise
        return answer.messages

    def _owe(self, name: str, claimed: bool) -> _Answer:
        """Register a command about to be written: its answer comes after those of the commands before it."""
        with self._changed:
            answer = _Answer(name, self._unasked, self._unasked_kept, claimed)
            self._unasked, self._unasked_kept = [], 0
            self._answers.append(answer)
        return answer

    def _note_sent(self, message: Message) -> None:
        if isinstance(message, Next | SpoutAck | SpoutFail | Activate | Deactivate):  # written by send or send_raw
            self._owe(type(message).__name__, claimed=False)

    def _on_message(self, message: Message, size: int) -> None:
        if not isinstance(message, Emit | Log | Error | Metrics | Sync):
            self._note_problem(f"Unknown command received: a spout sent {type(message).__name__}")
        cost = size + MESSAGE_COST
        if self._answers:
            answer = self._answers[0]
            if isinstance(message, Sync):
                self._answers.popleft()
                answer.done = True
                if answer.abandoned and answer.claimed:
                    self.late += 1
            if answer.abandoned:
                return
            if answer.kept + cost > self.keep_bytes:
                if answer.kept <= self.keep_bytes:
                    self._note_problem(f"the answer to {answer.command} is longer than {self.keep_bytes} bytes")
                answer.kept = self.keep_bytes + 1
                if not isinstance(message, Sync):
                    return
            answer.kept += cost
            answer.messages.append(message)
        elif isinstance(message, Sync):
            self._note_problem("a sync while no command was owed one (Storm would take it for the next answer's)")
        elif self._unasked_kept + cost <= self.keep_bytes:
            self._unasked.append(message)
            self._unasked_kept += cost
