//! The text of every picture the renderer draws (rendered windows, the
//! hint window, annotated pictures, the benchmark plot): Noto Sans Regular,
//! a font under the SIL Open Font License whose data the `notosans` crate
//! carries, rasterised with anti-aliasing by `ab_glyph`. No font file or
//! system font is looked for at run time. Sizes are the em in pixels, as a
//! CSS `font-size`.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};

/// The bundled font, parsed once.
fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(notosans::REGULAR_TTF).expect("the bundled font parses")
    })
}

/// `ab_glyph`'s scale (ascender to descender) for an em of `size` pixels.
fn scale(size: f32) -> PxScale {
    let font = font();
    let em = font.units_per_em().unwrap_or(1000.0);
    PxScale::from(size * font.height_unscaled() / em)
}

/// The height of a line of text at `size`, in pixels: from the top of the
/// highest letters to the bottom of the lowest.
pub fn line_height(size: f32) -> f32 {
    scale(size).y
}

/// The size of `text` (one line) at `size`, in whole pixels: its advance
/// across, and the line's height.
pub fn text_size(text: &str, size: f32) -> (u32, u32) {
    let width = layout(text, size)
        .last()
        .map_or(0.0, |&(_, x, advance)| x + advance);
    (width.ceil() as u32, line_height(size).ceil() as u32)
}

/// The width of `text` at `size`, in pixels, for the arithmetic of
/// placing it.
pub fn text_width(text: &str, size: f32) -> i64 {
    i64::from(text_size(text, size).0)
}

/// Each character's glyph, pen position and advance across, kerned.
fn layout(text: &str, size: f32) -> Vec<(ab_glyph::GlyphId, f32, f32)> {
    let scaled = font().as_scaled(scale(size));
    let mut caret = 0.0;
    let mut previous = None;
    text.chars()
        .map(|c| {
            let id = scaled.glyph_id(c);
            if let Some(before) = previous {
                caret += scaled.kern(before, id);
            }
            previous = Some(id);
            let at = caret;
            caret += scaled.h_advance(id);
            (id, at, scaled.h_advance(id))
        })
        .collect()
}

/// Every pixel `text` at `size` touches, as `(column, row, coverage)`
/// from the text's top-left (the line's top), coverage from 0 to 1; the
/// caller places and blends them. A character the font lacks draws as the
/// font's box for a missing glyph.
pub fn coverage(text: &str, size: f32, mut pixel: impl FnMut(i64, i64, f32)) {
    let font = font();
    let px = scale(size);
    let ascent = font.as_scaled(px).ascent();
    for (id, x, _) in layout(text, size) {
        let glyph = id.with_scale_and_position(px, point(x, ascent));
        if let Some(outline) = font.outline_glyph(glyph) {
            let bounds = outline.px_bounds();
            let (left, top) = (bounds.min.x as i64, bounds.min.y as i64);
            outline.draw(|gx, gy, c| {
                if c > 0.0 {
                    pixel(left + i64::from(gx), top + i64::from(gy), c.min(1.0));
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels of `text` at `size` covered by at least half.
    fn inked(text: &str, size: f32) -> Vec<(i64, i64)> {
        let mut pixels = Vec::new();
        coverage(text, size, |x, y, c| {
            if c >= 0.5 {
                pixels.push((x, y));
            }
        });
        pixels
    }

    #[test]
    fn text_is_drawn_inside_its_measured_box_and_grows_with_its_size() {
        for text in ["Reward out of reach (12 clicks at most)", "100 µs", "gjpqy"] {
            let (w, h) = text_size(text, 16.0);
            let pixels = inked(text, 16.0);
            assert!(!pixels.is_empty(), "{text}");
            for &(x, y) in &pixels {
                assert!(
                    (0..=i64::from(w)).contains(&x) && (0..i64::from(h)).contains(&y),
                    "{text}: ({x}, {y}) outside {w}x{h}"
                );
            }
        }
        let (small, big) = (text_size("clicks", 10.0), text_size("clicks", 20.0));
        assert!(big.0 >= 2 * small.0 - 1 && big.1 >= 2 * small.1 - 1);
        assert_eq!(text_size("", 16.0).0, 0);
    }

    #[test]
    fn small_letters_differ_from_capitals_and_micro_is_a_glyph_of_its_own() {
        assert_ne!(inked("g", 20.0), inked("G", 20.0));
        // An x-height letter starts lower than a capital.
        let top = |t: &str| inked(t, 20.0).iter().map(|p| p.1).min().unwrap();
        assert!(top("x") > top("X"));
        // "µ" is drawn from the font, not as the box of a missing glyph.
        let unknown = font().glyph_id('\u{10ffff}');
        assert_ne!(font().glyph_id('µ'), unknown);
        assert_ne!(inked("µ", 20.0), inked("u", 20.0));
    }
}
