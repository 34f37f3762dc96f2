//! dustbot: a bot for the dust matching game of Nodiatis.
//!
//! Data flows one way: [`desktop::capture`] grabs the game window, [`vision`]
//! reads the board from the image, [`solver`] finds the shortest clearing
//! sequence, [`desktop::input`] clicks it. [`desktop`] is the floor that
//! touches the player's screen, the only place with per-platform code (X11
//! or Win32), with a scripted fake desktop for tests; [`game`] is the model
//! they all share; [`live`] is the floor both drivers on a live game
//! window share (the eye, settling, the rules learned, the board on the
//! screen); [`play`] is the
//! one place that wires the four stages for live play, and [`assist`] wires
//! the first three for a player who clicks for themselves (hints, never a
//! click); [`render`] draws boards
//! in the game's look for samples and the [`practice`] window; [`cli`] turns
//! the command line into settings for them. Under the stages and the
//! renderer, beside the game model: [`colour`] (colour science) and
//! [`geometry`] (where a board is in a picture), so that the renderer that
//! draws the test pictures and the vision that reads them share no code
//! above these; [`files`] writes the files people keep, whole or not at
//! all, and reads inputs within bounds; [`text`] shows other programs'
//! and users' text on a terminal safely. [`record`] keeps the player's
//! record: the game log, a JSON line per game, and its sums for `bot
//! stats`.

pub mod assist;
pub mod cli;
pub mod colour;
pub mod desktop;
pub mod files;
pub mod game;
pub mod geometry;
pub mod live;
pub mod play;
pub mod practice;
pub mod record;
pub mod render;
pub mod solver;
pub mod text;
pub mod vision;
