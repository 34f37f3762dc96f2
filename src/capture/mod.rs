//! Capture: finds the game window by its title and grabs its pixels.
