//! Marks on the game's own board: solid rectangles of a few colours drawn
//! over another program's window by a window of the bot's own that never
//! takes a click or the focus, and that the window list never shows (so
//! it is never "a window in front of the board"). What to draw and where
//! is the caller's (assist mode's): this floor only puts the rectangles on
//! the screen, raises them when another window comes over them, and takes
//! them off. The platform part is `platform::Overlay` (an override-redirect
//! window shaped to the rectangles on X11; a layered, click-through,
//! topmost tool window on Windows).

use super::platform;
use super::words::Mark;

/// The marks window: shows a set of marks, raises them, hides them.
#[derive(Debug)]
pub struct BoardMarks {
    overlay: platform::Overlay,
    /// The marks on the screen now, if any.
    shown: Option<Vec<Mark>>,
}

impl BoardMarks {
    /// Makes the (hidden) marks window; why not, where the platform
    /// cannot show marks (no shape extension, a Wayland session, a
    /// refused layered window).
    pub fn open() -> Result<BoardMarks, String> {
        Ok(BoardMarks {
            overlay: platform::Overlay::open()?,
            shown: None,
        })
    }

    /// Shows `marks` (the earlier ones gone), above every other window,
    /// the first on top; once this returns, a capture of the screen
    /// shows them. No marks hides the window.
    pub fn show(&mut self, marks: &[Mark]) -> Result<(), String> {
        if marks.iter().all(|m| m.rects.is_empty()) {
            return self.hide();
        }
        self.overlay.show(marks)?;
        self.shown = Some(marks.to_vec());
        Ok(())
    }

    /// Takes the marks off the screen; once this returns, a capture no
    /// longer shows them.
    pub fn hide(&mut self) -> Result<(), String> {
        if self.shown.take().is_some() {
            self.overlay.hide()?;
        }
        Ok(())
    }

    /// The marks on the screen now.
    pub fn shown(&self) -> Option<&[Mark]> {
        self.shown.as_deref()
    }

    /// Takes in the marks window's events (repaints); true when another
    /// window came over the marks since the last call, to be raised again
    /// (or hidden) by the caller.
    pub fn pump(&mut self) -> Result<bool, String> {
        self.overlay.pump()
    }

    /// Puts the marks above every other window again.
    pub fn raise(&mut self) -> Result<(), String> {
        if self.shown.is_some() {
            self.overlay.raise()?;
        }
        Ok(())
    }
}
