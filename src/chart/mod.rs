//! Charts: the benchmark's plot of proof times ([`plot`], `bot bench
//! --plot`) and the player's record ([`trend`], `bot stats --plot`), and
//! what they share: `plotters` laying out a chart on its bitmap backend,
//! with every text in the renderer's bundled font
//! ([`crate::render::font`]), so that no font file or system font is
//! needed. A floor above the renderer: boards are drawn there, numbers
//! here.

pub mod plot;
pub mod trend;

use image::RgbImage;
use plotters::backend::BitMapBackend;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendTextStyle, DrawingErrorKind};
use thiserror::Error;

use crate::render::font;

/// The size asked of every text: the em, in pixels.
pub(crate) const TEXT_SIZE: f64 = 17.0;

/// `plotters` failed to draw (it does not on a buffer of the right size;
/// this keeps a surprise an error, not a panic).
#[derive(Debug, Error)]
#[error("drawing the plot: {0}")]
pub struct PlotError(String);

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(error: DrawingAreaErrorKind<E>) -> PlotError {
        PlotError(error.to_string())
    }
}

/// A chart of `size` that `draw` draws, as a picture: what every chart
/// shares (`plotters` on a bitmap, the text in our font).
pub(crate) fn picture(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<Lettered<'_>, Shift>) -> Result<(), PlotError>,
) -> Result<RgbImage, PlotError> {
    let (w, h) = size;
    let mut buffer = vec![255; w as usize * h as usize * 3];
    {
        let root = Lettered(BitMapBackend::with_buffer(&mut buffer, size)).into_drawing_area();
        draw(&root)?;
        root.present()?;
    }
    RgbImage::from_raw(w, h, buffer).ok_or_else(|| PlotError("the buffer's size".into()))
}

pub(crate) fn rgb([r, g, b]: [u8; 3]) -> RGBColor {
    RGBColor(r, g, b)
}

pub(crate) fn text<'a>(colour: RGBColor) -> TextStyle<'a> {
    text_sized(colour, TEXT_SIZE)
}

/// Text of the em `size` in `colour`.
pub(crate) fn text_sized<'a>(colour: RGBColor, size: f64) -> TextStyle<'a> {
    ("sans-serif", size).into_font().color(&colour)
}

/// The bitmap backend, with its text in our font instead of a font file's.
pub(crate) struct Lettered<'a>(BitMapBackend<'a>);

impl DrawingBackend for Lettered<'_> {
    type ErrorType = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: plotters_backend::BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: plotters_backend::BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let (w, h) = self.estimate_text_size(text, style)?;
        let (w, h) = (w as i32, h as i32);
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0,
            HPos::Right => -w,
            HPos::Center => -w / 2,
        };
        let dy = match anchor.v_pos {
            VPos::Top => 0,
            VPos::Center => -h / 2,
            VPos::Bottom => -h,
        };
        let turn = style.transform();
        let colour = style.color();
        let mut drawn = Ok(());
        font::coverage(text, style.size() as f32, |cx, cy, c| {
            // The pixel's square in the text's frame, turned with the text.
            let (x0, y0) = (dx + cx as i32, dy + cy as i32);
            let (ax, ay) = turn.transform(x0, y0);
            let (bx, by) = turn.transform(x0 + 1, y0 + 1);
            let at = (pos.0 + ax.min(bx), pos.1 + ay.min(by));
            let ink = BackendColor {
                alpha: colour.alpha * f64::from(c),
                rgb: colour.rgb,
            };
            if drawn.is_ok() {
                drawn = self.0.draw_pixel(at, ink);
            }
        });
        drawn
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok(font::text_size(text, style.size() as f32))
    }
}
