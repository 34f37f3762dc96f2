//! Vision: finds the board in an image and reads each cell against a calibrated palette.
