//! dustbot: a bot for the dust matching game of Nodiatis. It finds the
//! game's window, reads the 8x6 board from its pixels, proves the shortest
//! clearing sequence, and clicks it (live play) or hints it to a player who
//! clicks for themselves (assist mode). Data flows one way, up the floors
//! below, each using only those under it:
//!
//! - [`game`]: the model every floor shares: the board, its cells, colours
//!   and clusters, what one move does under each variant of the rules
//!   (RULES.md), the reward.
//! - [`colour`] and [`geometry`]: colour science, and where a board is in
//!   a picture, shared by the vision that reads pictures and the renderer
//!   that draws them, so that neither borrows from the other.
//! - [`files`]: the files people keep, written whole or not at all, and
//!   inputs read within bounds; [`text`]: other programs' and users' text
//!   shown on a terminal safely.
//! - [`solver`]: the shortest clearing sequence of a board, proven optimal.
//! - [`vision`]: finds the board in a picture and reads each cell against
//!   a calibrated palette.
//! - [`render`]: draws boards in the game's look (samples, the practice
//!   window, the hint); [`chart`]: the benchmark's and the record's charts.
//! - [`record`]: the player's record, a JSON line per game, and its sums.
//! - [`desktop`]: the player's screen: windows, captures and the mouse
//!   (X11 or Win32 under one platform contract, and a scripted fake for
//!   tests), the bot's folders and the system's picture viewer; the only
//!   floor with per-platform code.
//! - [`live`]: what the drivers share on a live game window: finding the
//!   game ([`live::find`]), the eye, settling, the rules learned, and the
//!   life of a game and of games in a row ([`live::session`]).
//! - [`play`] (clicks, verifies, re-plans) and [`assist`] (watches,
//!   explains, hints): the two drivers of a game; [`practice`]: a game
//!   window of our own to play on.
//! - [`app`]: the run and the door: the one value a run of games is
//!   ([`app::Run`], its [`app::Mode`] settled once, built from
//!   [`app::Options`]), the front door with no face ([`app::door`]: finding
//!   the game, asking, the menu, the runs, calibrating, the record), the
//!   words of a run, the report and the player's settings file.
//! - [`cli`] and [`gui`], the faces on top: the terminal's (the `bot`
//!   command line, and the door on a terminal, `bot` alone) and the
//!   window's (the desktop app `dustbot`), each driving the door.
//!
//! The floors from [`desktop`] up come with the default `desktop` feature:
//! without it (`--no-default-features`) the library is the game, the
//! solver, the vision, the renderer, the charts and the record, and
//! compiles no OS crate.
//!
//! Reading a board and solving it takes three calls:
//!
//! ```
//! use dustbot::game::{Board, EXAMPLE_BOARD};
//! use dustbot::solver::{self, SolveOptions};
//!
//! let board: Board = EXAMPLE_BOARD.parse()?;
//! let outcome = solver::solve(&board, &SolveOptions::default(), &mut |_| {});
//! assert_eq!((outcome.length(), outcome.proven_optimal), (11, true));
//! # Ok::<(), dustbot::game::BoardError>(())
//! ```
//!
//! The library is the bot's own, read with its private items (`cargo doc
//! --document-private-items`): a public item's doc may link to the
//! private one that says more.

#![allow(rustdoc::private_intra_doc_links)]

#[cfg(feature = "desktop")]
pub mod app;
#[cfg(feature = "desktop")]
pub mod assist;
pub mod chart;
#[cfg(feature = "desktop")]
pub mod cli;
pub mod colour;
#[cfg(feature = "desktop")]
pub mod desktop;
pub mod files;
pub mod game;
pub mod geometry;
#[cfg(feature = "desktop")]
pub mod gui;
#[cfg(feature = "desktop")]
pub mod live;
#[cfg(feature = "desktop")]
pub mod play;
#[cfg(feature = "desktop")]
pub mod practice;
pub mod record;
pub mod render;
pub mod solver;
pub mod text;
pub mod vision;
