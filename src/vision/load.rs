//! Loading a screenshot file: PNG or JPEG by its contents, refused from
//! its header when no screen could have made it, turned as its EXIF
//! orientation says (as viewers show it: a phone's or an editor's picture
//! stored on its side or upside down).

use std::path::{Path, PathBuf};

use image::{ImageDecoder as _, RgbaImage};
use thiserror::Error;

/// Why an image file cannot be used. Every message names the file.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error("{path}: cannot read it: {cause}")]
    Read {
        path: PathBuf,
        cause: crate::files::FileError,
    },
    #[error("{path}: not a PNG or JPEG image ({message})")]
    Format { path: PathBuf, message: String },
    #[error("{path}: broken image: {message}")]
    Decode { path: PathBuf, message: String },
    #[error(
        "{path}: {width}x{height} pixels is more than the {} megapixels of any screen capture",
        MAX_PIXELS / 1_000_000
    )]
    TooLarge {
        path: PathBuf,
        width: u32,
        height: u32,
    },
}

/// The most pixels an image may have: an 8K screen is 33 megapixels. A
/// picture's size is read from its header before it is decoded, so that a
/// small file that unpacks to gigabytes (a decompression bomb) costs
/// nothing.
pub const MAX_PIXELS: u64 = 40_000_000;

/// The most a screenshot file may hold: an uncompressed 8-bit RGBA picture
/// of [`MAX_PIXELS`] (any PNG or JPEG of one is smaller), and room for its
/// headers.
pub const MAX_IMAGE_BYTES: u64 = 4 * MAX_PIXELS + (1 << 20);

/// Loads a PNG or JPEG file (recognised by its contents, not its name) as
/// RGBA, the pixel format captures come in.
pub fn load(path: &Path) -> Result<RgbaImage, LoadError> {
    let bytes =
        crate::files::read_bounded(path, MAX_IMAGE_BYTES, "a screenshot").map_err(|cause| {
            LoadError::Read {
                path: path.to_owned(),
                cause,
            }
        })?;
    let format = image::guess_format(&bytes)
        .ok()
        .filter(|f| matches!(f, image::ImageFormat::Png | image::ImageFormat::Jpeg))
        .ok_or_else(|| LoadError::Format {
            path: path.to_owned(),
            message: "unrecognised file contents".into(),
        })?;
    let decode_error = |e: image::ImageError| {
        // The decoder's messages may span lines; an error is one line.
        let message = match e {
            image::ImageError::IoError(cause) => format!("truncated or unreadable data ({cause})"),
            other => other.to_string().replace('\n', " "),
        };
        LoadError::Decode {
            path: path.to_owned(),
            message,
        }
    };
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(&bytes), format);
    let (width, height) = reader().into_dimensions().map_err(decode_error)?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(LoadError::TooLarge {
            path: path.to_owned(),
            width,
            height,
        });
    }
    // The JPEG decoder draws what a cut file lacks as grey, which a read
    // would blame on something over the board.
    if format == image::ImageFormat::Jpeg && !jpeg_is_whole(&bytes) {
        return Err(LoadError::Decode {
            path: path.to_owned(),
            message: "the JPEG data is cut short (no end marker after its last scan)".into(),
        });
    }
    let mut decoder = reader().into_decoder().map_err(decode_error)?;
    let orientation = decoder.orientation().map_err(decode_error)?;
    let mut image = image::DynamicImage::from_decoder(decoder).map_err(decode_error)?;
    image.apply_orientation(orientation);
    Ok(image.to_rgba8())
}

/// Whether a JPEG file holds its end-of-image marker after its last scan's
/// start: neither marker can occur inside the coded data, which escapes
/// every 0xFF byte, so a file cut anywhere in its scans has none.
fn jpeg_is_whole(bytes: &[u8]) -> bool {
    let marker = |code: u8| move |pair: &[u8]| pair == [0xFF, code];
    let last_scan = bytes.windows(2).rposition(marker(0xDA));
    last_scan.is_some_and(|scan| bytes[scan..].windows(2).any(marker(0xD9)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("samples")
                .join(name),
        )
        .unwrap()
    }

    #[test]
    fn a_cut_jpeg_is_named_as_such() {
        let whole = sample("full-0.75x-bare.jpg");
        assert!(jpeg_is_whole(&whole));
        let dir = tempfile::tempdir().unwrap();
        for keep in [whole.len() / 3, whole.len() * 9 / 10, whole.len() - 2] {
            let path = dir.path().join("cut.jpg");
            std::fs::write(&path, &whole[..keep]).unwrap();
            let error = load(&path).unwrap_err().to_string();
            assert!(error.contains("cut short"), "{keep}: {error}");
        }
    }

    #[test]
    fn only_regular_files_of_a_screenshots_size_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let error = load(dir.path()).unwrap_err().to_string();
        assert!(
            error.ends_with("cannot read it: not a regular file (a folder)"),
            "{error}"
        );
    }
}
