//! The bot's icon: a pile of dust, four piles of a 2x2 board drawn by the
//! renderer as the game draws them, at each of the icon's sizes. Kept as
//! a file in the repository (`windows/dustbot.ico`, which `build.rs`
//! links into both programs for Explorer, the taskbar and Alt+Tab), so
//! that a build needs no renderer run; the windows of the bot's draw it
//! at their opening. A test checks the file is what the renderer draws.

use image::{ImageEncoder, RgbaImage};

use super::{Look, Shot, Surround, screenshot};
use crate::game::Board;

/// The board the icon shows: green and orange over red and blue.
const BOARD: &str = "GO,RB";

/// The sizes in the icon file: Windows' small and large icons at 100%,
/// and the large one at 150%.
pub const SIZES: [u32; 3] = [16, 32, 48];

/// The icon at `side` pixels square.
pub fn icon(side: u32) -> RgbaImage {
    let board: Board = BOARD.parse().expect("the icon's board");
    let shot = Shot {
        scale: side as f32 / (2.0 * super::PITCH),
        surround: Surround::Bare,
        seed: 7,
    };
    let (canvas, _) = screenshot(&board, &Look::nodiatis(), &shot);
    image::imageops::resize(
        &canvas.to_image(),
        side,
        side,
        image::imageops::FilterType::Triangle,
    )
}

/// The icon file (`.ico`): each of [`SIZES`] as a PNG entry, which
/// Windows reads since Vista (Microsoft's "Icons" guidelines).
pub fn ico() -> Vec<u8> {
    let pngs: Vec<Vec<u8>> = SIZES
        .iter()
        .map(|&side| {
            let mut png = Vec::new();
            image::codecs::png::PngEncoder::new(&mut png)
                .write_image(
                    icon(side).as_raw(),
                    side,
                    side,
                    image::ExtendedColorType::Rgba8,
                )
                .expect("a PNG in memory");
            png
        })
        .collect();
    // ICONDIR: reserved, type 1 (icon), the count; then an entry of 16
    // bytes each, then the images.
    let mut file = vec![0, 0, 1, 0];
    file.extend_from_slice(&(pngs.len() as u16).to_le_bytes());
    let mut offset = 6 + 16 * pngs.len();
    for (&side, png) in SIZES.iter().zip(&pngs) {
        file.extend_from_slice(&[side as u8, side as u8, 0, 0]);
        file.extend_from_slice(&1u16.to_le_bytes());
        file.extend_from_slice(&32u16.to_le_bytes());
        file.extend_from_slice(&(png.len() as u32).to_le_bytes());
        file.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += png.len();
    }
    for png in &pngs {
        file.extend_from_slice(png);
    }
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Natively only: Windows' maths library rounds the renderer's sines
    /// and powers otherwise, a pixel's last bit apart.
    #[cfg(not(windows))]
    #[test]
    fn the_icon_file_is_what_the_renderer_draws() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/windows/dustbot.ico");
        let drawn = ico();
        if std::env::var_os("DUSTBOT_WRITE_ICON").is_some() {
            std::fs::write(path, &drawn).unwrap();
        }
        let kept = std::fs::read(path).unwrap_or_default();
        assert!(
            kept == drawn,
            "{path} is not what the renderer draws: DUSTBOT_WRITE_ICON=1 cargo test --lib icon writes it"
        );
    }

    #[test]
    fn the_icon_is_square_at_each_size_and_shows_piles() {
        for side in SIZES {
            let image = icon(side);
            assert_eq!(image.dimensions(), (side, side));
            // Piles glow: some pixel far brighter than the fog.
            let brightest = image
                .pixels()
                .map(|p| p.0[..3].iter().map(|&c| u32::from(c)).sum::<u32>())
                .max();
            assert!(brightest > Some(300), "{side}: {brightest:?}");
        }
        let file = ico();
        assert_eq!(&file[..6], &[0, 0, 1, 0, 3, 0]);
        assert_eq!(&file[6..8], &[16, 16]);
    }
}
