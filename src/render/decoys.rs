//! What a game draws over the board now and then: the mouse pointer (an
//! arrow or a pointing hand) and a tooltip box. The tests lay them on
//! rendered boards, since a capture may catch either.

use super::canvas::Canvas;

/// The two shapes a pointer takes over a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerShape {
    Arrow,
    Hand,
}

/// The classic arrow, its tip at (0, 0), in pixels at scale 1.
const ARROW: [(f32, f32); 7] = [
    (0.0, 0.0),
    (0.0, 17.0),
    (4.5, 13.0),
    (7.5, 19.5),
    (10.0, 18.5),
    (7.0, 12.0),
    (12.0, 12.0),
];

/// A pointing hand as white rectangles (x, y, w, h), the fingertip at
/// (0, 0), in pixels at scale 1: the finger, the folded fingers, the
/// thumb and the palm.
const HAND: [(f32, f32, f32, f32); 5] = [
    (-1.5, 0.0, 4.0, 11.0),
    (2.5, 6.0, 3.5, 6.0),
    (6.0, 7.0, 3.5, 5.0),
    (-5.5, 9.0, 4.0, 4.0),
    (-2.5, 10.0, 12.5, 9.0),
];

/// Draws the pointer with its hot spot at `(x, y)`, `scale` times the size
/// of a desktop pointer: white with a black outline.
pub fn pointer(canvas: &mut Canvas, kind: PointerShape, (x, y): (f32, f32), scale: f32) {
    let inside = |px: f32, py: f32| -> bool {
        let (u, v) = ((px - x) / scale, (py - y) / scale);
        match kind {
            PointerShape::Arrow => in_polygon(&ARROW, u, v),
            PointerShape::Hand => HAND
                .iter()
                .any(|&(hx, hy, w, h)| u >= hx && u < hx + w && v >= hy && v < hy + h),
        }
    };
    let reach = 21.0 * scale;
    let x0 = ((x - reach).floor() as i64).max(0);
    let y0 = ((y - 2.0).floor() as i64).max(0);
    let x1 = ((x + reach).ceil() as i64).min(canvas.width as i64);
    let y1 = ((y + reach).ceil() as i64).min(canvas.height as i64);
    let outline = scale.max(1.0);
    for py in y0..y1 {
        for px in x0..x1 {
            let (cx, cy) = (px as f32 + 0.5, py as f32 + 0.5);
            if !inside(cx, cy) {
                continue;
            }
            let edge = [(-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0)]
                .iter()
                .any(|(dx, dy)| !inside(cx + dx * outline, cy + dy * outline));
            let rgb = if edge { [0, 0, 0] } else { [255, 255, 255] };
            canvas.fill(px, py, 1, 1, rgb);
        }
    }
}

/// Even-odd rule: whether `(u, v)` lies inside the polygon.
fn in_polygon(points: &[(f32, f32)], u: f32, v: f32) -> bool {
    let mut inside = false;
    let mut j = points.len() - 1;
    for i in 0..points.len() {
        let ((xi, yi), (xj, yj)) = (points[i], points[j]);
        if (yi > v) != (yj > v) && u < (xj - xi) * (v - yi) / (yj - yi) + xi {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// A tooltip with its top-left at `(x, y)`: a dark, nearly opaque box with
/// a light border and the lines of text at `size` (the em, in pixels).
/// Returns its size.
pub fn tooltip(canvas: &mut Canvas, (x, y): (i64, i64), lines: &[&str], size: f32) -> (i64, i64) {
    let pad = (0.4 * size).round() as i64;
    let line_height = super::font::line_height(size).round() as i64;
    let width = lines
        .iter()
        .map(|l| super::font::text_width(l, size))
        .max()
        .unwrap_or(0)
        + 2 * pad;
    let height = lines.len() as i64 * line_height + 2 * pad;
    canvas.shade(x, y, width, height, [24, 20, 16], 235);
    let border = (size / 8.0).round().max(1.0) as i64;
    canvas.outline(x, y, width, height, border, [200, 180, 120]);
    for (i, line) in lines.iter().enumerate() {
        canvas.text(
            x + pad,
            y + pad + i as i64 * line_height,
            line,
            size,
            [236, 228, 200],
        );
    }
    (width, height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pointer_is_white_inside_a_black_outline() {
        for kind in [PointerShape::Arrow, PointerShape::Hand] {
            let mut c = Canvas::new(60, 60, [50, 60, 55]);
            pointer(&mut c, kind, (30.0, 20.0), 1.0);
            let white = c.pixels.iter().filter(|&&p| p == 0x00ff_ffff).count();
            let black = c.pixels.iter().filter(|&&p| p == 0).count();
            assert!(
                white > 40 && black > 20,
                "{kind:?}: {white} white, {black} black"
            );
            // The hot spot is on the pointer; far away is untouched.
            assert_ne!(c.get(30, 21), [50, 60, 55], "{kind:?}");
            assert_eq!(c.get(2, 58), [50, 60, 55]);
        }
    }

    #[test]
    fn a_tooltip_covers_its_box() {
        let mut c = Canvas::new(200, 80, [50, 60, 55]);
        let (w, h) = tooltip(&mut c, (10, 10), &["Lime dust", "x3"], 16.0);
        assert!(w > 40 && h > 30);
        assert_ne!(c.get(12, 12), [50, 60, 55]);
        assert_eq!(c.get(10 + w as usize + 2, 12), [50, 60, 55]);
    }
}
