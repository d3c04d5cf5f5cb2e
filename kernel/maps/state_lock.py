"""Queries that hold a :class:`~kernel.maps.counters.GameState`'s lock while they run.

Every LOS and movement query given a state as ``counters`` is wrapped by
:func:`holding_state`: from bringing the state's prepared tables up to date to
the kernel's last read of them, it sees one version of the state (the rule is
in :mod:`kernel.maps.counters`).
"""

from __future__ import annotations

import functools
import inspect

from kernel.maps.counters import GameState


def holding_state(function):
    """Run ``function`` holding the lock of the :class:`GameState` it is given as ``counters`` (by keyword or
    position), if any: a query's tables and kernel see one version of the state (module docstring)."""
    parameter = inspect.signature(function).parameters.get("counters")
    if parameter is None:
        raise TypeError(f"{function.__qualname__} has no 'counters' parameter to hold")
    # where a positional ``counters`` sits (None when it is keyword-only): looked up once, not per call
    position = (list(inspect.signature(function).parameters).index("counters")
                if parameter.kind is parameter.POSITIONAL_OR_KEYWORD else None)

    def state_of(args, kwargs):
        counters = kwargs.get("counters")
        if counters is None and position is not None and len(args) > position:
            counters = args[position]
        return counters if isinstance(counters, GameState) else None

    if inspect.isgeneratorfunction(function):
        @functools.wraps(function)
        def blocks(*args, **kwargs):
            state = state_of(args, kwargs)
            if state is None:
                yield from function(*args, **kwargs)
                return
            steps = function(*args, **kwargs)
            while True:
                with state.lock:  # each block sees one version (the state may change between blocks)
                    try:
                        item = next(steps)
                    except StopIteration:
                        return
                yield item
        return blocks

    @functools.wraps(function)
    def held(*args, **kwargs):
        state = state_of(args, kwargs)
        if state is None:
            return function(*args, **kwargs)
        with state.lock:
            return function(*args, **kwargs)
    return held
