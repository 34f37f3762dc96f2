//! Input: moves the mouse and clicks, and notices when the user takes the mouse back.
