"""The exceptions a shell component's driver raises (the package's docstring says when)."""

from __future__ import annotations


class ShellError(Exception):
    """Something went wrong with the shell component."""


class ShellTimeout(ShellError, TimeoutError):
    """The component did not answer in time."""


class ShellExited(ShellError):
    """The component exited (or closed its stdout) while something was expected of it."""

    def __init__(self, message: str, returncode: int | None, stderr: bytes) -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class ShellProtocolError(ShellError):
    """The component sent something Storm's Java side would die on."""


class ShellBroken(ShellError):
    """An earlier write timed out or failed, so the component's stdin may end inside a message: every call after
    that raises this. ``cause`` is the first failure."""

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause
