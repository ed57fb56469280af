# Copied from streamcodecs_gen/py_package/storm/shell/context.py by ./generator.py; edit that file, not this copy.
"""The topology context a driver's handshake carries (Storm 0.10.0+ layout)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..messages import DEFAULT_STREAM, TopologyContext


def topology_context(
    component: str,
    *,
    task_id: int = 3,
    tasks: Mapping[int, str] | None = None,
    streams: Sequence[str] = (DEFAULT_STREAM,),
    output_fields: Mapping[str, Sequence[str]] | None = None,
    source_fields: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
) -> TopologyContext:
    """A handshake context for ``component`` as task ``task_id`` (Storm 0.10.0+ layout, groupings left empty).

    ``tasks`` maps the other task ids to their components (an ``__acker`` task 1 by default), ``output_fields``
    each output stream to its field names, ``source_fields`` each input component to its streams' field names.
    """
    every = {1: "__acker", **(tasks or {}), task_id: component}
    return TopologyContext(
        task_to_component={str(task): name for task, name in sorted(every.items())},
        task_id=task_id,
        component_id=component,
        streams=list(streams),
        stream_to_output_fields={k: list(v) for k, v in (output_fields or {}).items()},
        source_to_stream_to_fields={
            source: {stream: list(fields) for stream, fields in by_stream.items()}
            for source, by_stream in (source_fields or {}).items()
        },
    )
