//! Live play: the one place that wires capture, vision, solver and input into the verified click loop.
