//! Loading a screenshot file: PNG or JPEG by its contents, refused from
//! its header when no screen could have made it.

use std::path::{Path, PathBuf};

use image::RgbaImage;
use thiserror::Error;

/// Why an image file cannot be used. Every message names the file.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error("{path}: cannot read it: {cause}")]
    Read {
        path: PathBuf,
        cause: std::io::Error,
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

/// Loads a PNG or JPEG file (recognised by its contents, not its name) as
/// RGBA, the pixel format captures come in.
pub fn load(path: &Path) -> Result<RgbaImage, LoadError> {
    let bytes = std::fs::read(path).map_err(|cause| LoadError::Read {
        path: path.to_owned(),
        cause,
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
    let image = reader().decode().map_err(decode_error)?;
    Ok(image.to_rgba8())
}
