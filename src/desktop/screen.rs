//! The screen's vocabulary, shared by every part of the desktop floor
//! and the floors above it: a point on the desktop ([`ScreenPoint`]), a
//! rectangle on it ([`ScreenRect`]), a monitor's rectangle and the part
//! of it windows may take ([`MonitorArea`]), and a rectangle of a
//! window's client area in its own pixels ([`Region`]), with the moves
//! between the two.

/// A monitor on the desktop: its whole rectangle, where captures read,
/// and its work area, where the bot's windows go: the monitor less the
/// taskbar and the docks (Windows' `rcWork`, X11's `_NET_WORKAREA`), so
/// that no button of the bot's lies under them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonitorArea {
    pub bounds: ScreenRect,
    pub work: ScreenRect,
}

impl MonitorArea {
    /// A monitor with nothing reserved on it: all of it is work area.
    pub fn whole(bounds: ScreenRect) -> MonitorArea {
        MonitorArea {
            bounds,
            work: bounds,
        }
    }

    /// The monitor with `reserved` (a work area that may span several
    /// monitors, as X11's one for the whole desktop does) taken off: its
    /// part on this monitor, the whole monitor where none is.
    pub fn within(bounds: ScreenRect, reserved: Option<ScreenRect>) -> MonitorArea {
        let work = reserved.and_then(|work| bounds.intersection(&work));
        MonitorArea {
            bounds,
            work: work.unwrap_or(bounds),
        }
    }
}

/// A position on the screen, in pixels (x to the right, y down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenPoint {
    pub x: i32,
    pub y: i32,
}

impl ScreenPoint {
    pub const fn new(x: i32, y: i32) -> ScreenPoint {
        ScreenPoint { x, y }
    }
}

impl std::fmt::Display for ScreenPoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A rectangle of a window's client area, in its pixels (x to the right,
/// y down, from the client area's top-left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

/// A rectangle of the desktop, in its pixels (a monitor, a window's client
/// area, the board as the screen shows it): never mixed up with a
/// [`Region`], whose origin is a client area's corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenRect {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

/// The overlap of two rectangles given as (x, y, width, height) in the
/// same pixels, if any.
fn overlap(a: (i32, i32, u32, u32), b: (i32, i32, u32, u32)) -> Option<(i32, i32, u32, u32)> {
    let left = a.0.max(b.0);
    let top = a.1.max(b.1);
    let right = (a.0 + a.2 as i32).min(b.0 + b.2 as i32);
    let bottom = (a.1 + a.3 as i32).min(b.1 + b.3 as i32);
    (right > left && bottom > top)
        .then(|| (left, top, (right - left) as u32, (bottom - top) as u32))
}

impl Region {
    /// The whole of a client area `width` x `height` pixels big.
    pub fn whole(width: u32, height: u32) -> Region {
        Region {
            x: 0,
            y: 0,
            width,
            height,
        }
    }

    /// The part of `self` inside `other`, if any.
    pub fn intersection(&self, other: &Region) -> Option<Region> {
        overlap(self.parts(), other.parts()).map(|(x, y, width, height)| Region {
            x,
            y,
            width,
            height,
        })
    }

    /// Where this part of a client area whose top-left is at `origin` is
    /// on the desktop.
    pub fn on_screen(&self, origin: ScreenPoint) -> ScreenRect {
        ScreenRect {
            x: origin.x + self.x,
            y: origin.y + self.y,
            width: self.width,
            height: self.height,
        }
    }

    fn parts(&self) -> (i32, i32, u32, u32) {
        (self.x, self.y, self.width, self.height)
    }
}

impl ScreenRect {
    pub const fn new(x: i32, y: i32, width: u32, height: u32) -> ScreenRect {
        ScreenRect {
            x,
            y,
            width,
            height,
        }
    }

    /// The part of `self` inside `other`, if any.
    pub fn intersection(&self, other: &ScreenRect) -> Option<ScreenRect> {
        overlap(self.parts(), other.parts()).map(|(x, y, width, height)| ScreenRect {
            x,
            y,
            width,
            height,
        })
    }

    /// This part of the desktop in the client area whose top-left is at
    /// `origin`.
    pub fn in_client(&self, origin: ScreenPoint) -> Region {
        Region {
            x: self.x - origin.x,
            y: self.y - origin.y,
            width: self.width,
            height: self.height,
        }
    }

    /// The top-left corner.
    pub fn origin(&self) -> ScreenPoint {
        ScreenPoint::new(self.x, self.y)
    }

    /// Whether `point` is inside.
    pub fn contains(&self, point: ScreenPoint) -> bool {
        point.x >= self.x
            && point.y >= self.y
            && point.x < self.x + self.width as i32
            && point.y < self.y + self.height as i32
    }

    /// `self` with `by` pixels more on every side.
    pub fn grown(&self, by: u32) -> ScreenRect {
        ScreenRect {
            x: self.x - by as i32,
            y: self.y - by as i32,
            width: self.width + 2 * by,
            height: self.height + 2 * by,
        }
    }

    fn parts(&self) -> (i32, i32, u32, u32) {
        (self.x, self.y, self.width, self.height)
    }
}
