//! Hostile input through the real binary: random bytes and random
//! mutations of valid board strings, calibration files and image headers.
//! Whatever comes in, the bot answers (exit 0 for what happens to be valid)
//! or refuses with exit 2 and one short line, never a panic or an abort.

mod vision_support;

use std::process::Output;

use proptest::prelude::*;
use vision_support::{bot, repo};

/// The longest one-line error the bot may print for hostile input.
const MAX_ERROR: usize = 300;

/// Exit 0, or exit 2 with one `error:` line under [`MAX_ERROR`] characters.
fn assert_answer_or_short_refusal(out: &Output, input: &str) -> Result<(), TestCaseError> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => Ok(()),
        Some(2) => {
            let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
            prop_assert_eq!(errors.len(), 1, "{}: {}", input, stderr);
            prop_assert!(
                errors[0].chars().count() < MAX_ERROR,
                "{}: {} characters: {}",
                input,
                errors[0].chars().count(),
                errors[0]
            );
            Ok(())
        }
        code => Err(TestCaseError::fail(format!(
            "{input}: exit {code:?}: {stderr}"
        ))),
    }
}

/// One random edit of `bytes`: a byte changed, inserted, removed, or a run
/// repeated many times over.
fn mutate(bytes: &mut Vec<u8>, kind: u8, at: usize, value: u8, times: usize) {
    if bytes.is_empty() {
        bytes.push(value);
        return;
    }
    let at = at % bytes.len();
    match kind % 4 {
        0 => bytes[at] = value,
        1 => bytes.insert(at, value),
        2 => {
            bytes.remove(at);
        }
        _ => {
            let end = (at + 8).min(bytes.len());
            let run = bytes[at..end].to_vec();
            for _ in 0..times {
                bytes.splice(at..at, run.iter().copied());
            }
        }
    }
}

fn edits() -> impl Strategy<Value = Vec<(u8, usize, u8, usize)>> {
    prop::collection::vec(
        (any::<u8>(), any::<usize>(), any::<u8>(), 1..200usize),
        1..6,
    )
}

fn mutated(valid: &[u8], edits: &[(u8, usize, u8, usize)]) -> Vec<u8> {
    let mut bytes = valid.to_vec();
    for &(kind, at, value, times) in edits {
        mutate(&mut bytes, kind, at, value, times);
    }
    bytes
}

/// A board string fit for an argument: no NUL, which no argument holds.
fn as_argument(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\0', " ")
}

const VALID_BOARD: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn board_strings(edits in edits(), noise in prop::collection::vec(any::<u8>(), 0..400)) {
        let dir = std::env::temp_dir();
        let board = as_argument(&mutated(VALID_BOARD.as_bytes(), &edits));
        let out = bot(&dir, &["solve", "--time", "0.2", "--threads", "1", "--", &board]);
        assert_answer_or_short_refusal(&out, &board)?;
        let noise = as_argument(&noise);
        let out = bot(&dir, &["solve", "--time", "0.2", "--threads", "1", "--", &noise]);
        assert_answer_or_short_refusal(&out, &noise)?;
    }

    #[test]
    fn calibration_files(edits in edits()) {
        let dir = tempfile::tempdir().unwrap();
        let valid = std::fs::read(repo("calibration/nodiatis.toml")).unwrap();
        std::fs::write(dir.path().join("c.toml"), mutated(&valid, &edits)).unwrap();
        let sample = repo("samples/full-0.5x-window.png");
        let out = bot(dir.path(), &[
            "--dry-run", sample.to_str().unwrap(), "--calibration", "c.toml",
            "--time", "0.2", "--threads", "1", "--out", "o",
        ]);
        assert_answer_or_short_refusal(&out, "a mutated calibration")?;
    }

    #[test]
    fn image_headers(edits in edits(), jpeg in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let (source, name) = if jpeg {
            ("samples/full-0.75x-bare.jpg", "x.jpg")
        } else {
            ("samples/full-0.5x-window.png", "x.png")
        };
        let valid = std::fs::read(repo(source)).unwrap();
        // The edits land in the first 64 bytes: the signature and header.
        let mut head = valid[..64].to_vec();
        let tail = &valid[64..];
        let edited: Vec<_> = edits.iter().map(|&(k, at, v, t)| (k, at % 64, v, t.min(8))).collect();
        head = mutated(&head, &edited);
        head.extend_from_slice(tail);
        std::fs::write(dir.path().join(name), head).unwrap();
        let out = bot(dir.path(), &["--dry-run", name, "--time", "0.2", "--threads", "1", "--out", "o"]);
        assert_answer_or_short_refusal(&out, name)?;
    }

    #[test]
    fn random_bytes_as_any_file(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for name in ["r.png", "r.jpg", "r.toml"] {
            std::fs::write(d.join(name), &bytes).unwrap();
        }
        let out = bot(d, &["--dry-run", "r.png", "r.jpg", "--out", "o", "--json"]);
        prop_assert_eq!(out.status.code(), Some(2));
        let sample = repo("samples/full-0.5x-window.png");
        let out = bot(d, &["--dry-run", sample.to_str().unwrap(), "--calibration", "r.toml", "--out", "o"]);
        assert_answer_or_short_refusal(&out, "random calibration")?;
        prop_assert_eq!(out.status.code(), Some(2));
    }
}
