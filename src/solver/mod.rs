//! The solver: turns a board into the shortest clearing sequence of clicks, proven optimal, within a time budget.
