"""A search trace stepped through on a drawn board (:class:`TraceView`)."""
import numpy as np

from .. import _validate
from ._common import auto_cell, check_cell
from .svg import to_svg
from .text import text_board

__all__ = ["TraceView"]


class TraceView:
    """Step through a search trace (from :func:`~nqueens_numba.trace`) on a drawn board.

    Parameters
    ----------
    events : numpy.ndarray
        The structured array of :func:`~nqueens_numba.trace`: fields ``step``, ``kind``
        (``"place"``, ``"remove"`` or ``"solution"``), ``row`` and ``column``.
    n : int, optional
        Board order: by default the one :func:`~nqueens_numba.trace` recorded with the
        events; when given it must agree with it.
    step : int, optional
        The event shown first, ``0 .. len(events) - 1``.
    cell : int or float, optional
        Side of a square, in pixels; by default the board is about 360 pixels wide
        (squares of at most 48 px: 216 px with its labels at n = 4, 312 px at n = 6).

    Raises
    ------
    TypeError
        If ``events`` is not a trace, or ``n`` or ``step`` not an integer.
    ValueError
        If ``n`` disagrees with the events (or is missing for events that do not record
        it), the events are a part of a trace (a slice: the board at a step is replayed
        from the events before it), or ``step`` is out of range. An empty trace is
        accepted (at step 0) and shown as "empty trace"; it has no step for
        :meth:`placement`, :meth:`describe` and :meth:`svg`, which raise.

    Notes
    -----
    ``view.placement(k)`` is the partial placement after event ``k`` (``-1`` for empty
    rows); ``view.svg(k)`` draws it with the attacked squares shaded. Captions number the
    events as the ``step`` field does, from 0: "step 1 of 0..33: place row 1, column 2",
    and label rows and columns the same way. In Jupyter the view renders its current
    ``step``, and ``view.widget()`` adds a slider (needs ipywidgets). In a terminal it
    prints the current step as a text board.

    Examples
    --------
    >>> from nqueens_numba import trace
    >>> view = TraceView(trace(4), step=1)
    >>> print(repr(view))
    step 1 of 0..33: place row 1, column 2
    Q...
    ..Q.
    ....
    ....
    """

    def __init__(self, events, n=None, *, step=0, cell=None):
        if not (isinstance(events, np.ndarray) and events.dtype.names is not None
                and {"kind", "row", "column"} <= set(events.dtype.names)):
            raise TypeError("events must be the structured array returned by trace()")
        if events.ndim != 1:
            raise ValueError(f"events must be one-dimensional, as trace() returns them, got "
                             f"shape {events.shape}")
        recorded = (events.dtype.metadata or {}).get("n")
        if n is None:
            if recorded is None:
                raise ValueError("these events do not record their board order: pass n")
            n = recorded
        n = _validate.board_order(n)
        if recorded is not None and n != recorded:
            raise ValueError(f"n={n} does not match the trace, which is of n={recorded}")
        kinds = set(np.unique(events["kind"]).tolist()) if len(events) else set()
        if not kinds <= {"place", "remove", "solution"}:
            raise ValueError(f"unknown event kinds {sorted(kinds - {'place', 'remove', 'solution'})}"
                             f": expected 'place', 'remove' or 'solution'")
        if "step" in events.dtype.names and not np.array_equal(events["step"],
                                                                np.arange(len(events))):
            raise ValueError(
                "the events must be a whole trace, from step 0 without gaps (the board at a "
                "step is replayed from the events before it): pass the whole trace, and "
                "step= for the event to show first")
        moves = events[events["kind"] != "solution"]
        if len(moves) and (moves["row"].min() < 0 or moves["column"].min() < 0
                           or moves["row"].max() >= n or moves["column"].max() >= n):
            raise ValueError(f"the events place queens outside a board of n={n}")
        self.events = events
        self.n = n
        metadata = events.dtype.metadata or {}
        self.board = (metadata.get("piece", "queen"), metadata.get("torus", False))
        self.cell = auto_cell(n, 360) if cell is None else check_cell(cell)
        dtype = _validate.placement_dtype(n)  # (the package's placements' one dtype)
        self._placements = np.full((len(events), n), -1, dtype=dtype)
        current = np.full(n, -1, dtype=dtype)
        for k, event in enumerate(events):  # the placement after each event, replayed once
            if event["kind"] == "place":
                current[event["row"]] = event["column"]
            elif event["kind"] == "remove":
                current[event["row"]] = -1
            self._placements[k] = current
        self.step = step

    @property
    def step(self):
        """The event shown: ``0 .. len(self) - 1``."""
        return self._step

    @step.setter
    def step(self, value):
        # (an empty trace stands at step 0, which it cannot show)
        self._step = self._check_step(value) if len(self) else _validate.in_range(
            value, "step", 0, 0)

    def _check_step(self, step):
        if not len(self):
            _validate.integer(step, "step")
            raise ValueError("the trace is empty: it has no step to show")
        return _validate.in_range(step, "step", 0, len(self) - 1)

    def __len__(self):
        return len(self.events)

    def placement(self, step):
        """The placement after event ``step``: ``(n,)``, int8 (the dtype of every placement
        of the package), -1 for rows without a queen."""
        return self._placements[self._check_step(step)].copy()

    def describe(self, step):
        """A one-line account of event ``step``."""
        step = self._check_step(step)
        event = self.events[step]
        kind = str(event["kind"])
        where = ("" if kind == "solution"
                 else f" row {int(event['row'])}, column {int(event['column'])}")
        return f"step {step} of 0..{len(self) - 1}: {kind}{where}"

    def svg(self, step=None):
        """The board after event ``step`` (default: the current one) as SVG."""
        step = self.step if step is None else step
        event = self.events[self._check_step(step)]
        emptied = [(int(event["row"]), int(event["column"]))] if event["kind"] == "remove" \
            else None
        return to_svg(self.placement(step), cell=self.cell, attacks=True,
                      title=self.describe(step), piece=self.board[0], torus=self.board[1],
                      marked=emptied)

    def _repr_html_(self):
        return self.svg() if len(self) else "<em>empty trace</em>"

    def __repr__(self):
        if not len(self):
            return "(empty trace)"
        return self.describe(self.step) + "\n" + text_board(self.placement(self.step))

    def _repr_pretty_(self, printer, cycle):
        printer.text(repr(self))

    def widget(self):
        """An ipywidgets slider over the events with the board below it."""
        try:
            import ipywidgets
        except ImportError as exc:
            raise ImportError("TraceView.widget needs ipywidgets: pip install "
                              "'nqueens_numba[notebook]'") from exc
        slider = ipywidgets.IntSlider(value=self.step, min=0, max=max(len(self) - 1, 0),
                                      description="step", continuous_update=True)
        board = ipywidgets.HTML(self._repr_html_())

        def update(change):
            self.step = change["new"]
            board.value = self._repr_html_()

        slider.observe(update, names="value")
        return ipywidgets.VBox([slider, board])
