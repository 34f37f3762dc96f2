//! Text from outside the bot shown on a terminal: what a user typed or
//! pasted, and what other programs chose (a window's title, which a web
//! page sets for its browser tab). Control characters and escape
//! sequences never reach the terminal as such, and a megabyte of text
//! stays a one-line message. And a key typed, read as the answer it
//! gives in the player's layout ([`answer`]), for every face.

/// The answer a key typed gives, by the key's place as much as by its
/// letter: a digit or a letter (lower case) as typed, and on layouts
/// whose keys type other letters there, the key's place on a US layout:
/// AZERTY's number row (`& é " '` unshifted: 1 to 4), the Cyrillic
/// ЙЦУКЕН letters of the answers asked for (й q, к r, ы s, н y, т n, в d).
/// `None` for a key that answers nothing.
pub fn answer(c: char) -> Option<char> {
    let c = c.to_lowercase().next().unwrap_or(c);
    match c {
        c if c.is_ascii_alphanumeric() => Some(c),
        '&' => Some('1'),
        'é' => Some('2'),
        '"' => Some('3'),
        '\'' => Some('4'),
        'й' => Some('q'),
        'к' => Some('r'),
        'ы' => Some('s'),
        'н' => Some('y'),
        'т' => Some('n'),
        'в' => Some('d'),
        _ => None,
    }
}

/// How many characters of a user's text an error quotes.
pub const EXCERPT: usize = 60;

/// `text` quoted for an error message, cut after [`EXCERPT`] characters
/// with a count of the rest, so that a megabyte of input stays a one-line
/// error (quoting escapes control characters).
pub fn excerpt(text: &str) -> String {
    let count = text.chars().count();
    if count <= EXCERPT {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(EXCERPT).collect();
    format!("{head:?}... ({} more characters)", count - EXCERPT)
}

/// A window's title for a message: quoted and cut as [`excerpt`] does,
/// and said as not text where it is not: the window system's bytes that
/// were not valid UTF-8 read as U+FFFD, which a player would otherwise
/// take for the title's own characters.
pub fn title(title: &str) -> String {
    let quoted = excerpt(title);
    if title.contains(char::REPLACEMENT_CHARACTER) {
        format!("{quoted} (not valid UTF-8: each \u{fffd} stands for bytes that are not text)")
    } else {
        quoted
    }
}

/// `text` as it may be printed unquoted (a window's title in a table):
/// control characters (an escape sequence's ESC, a newline) and the
/// invisible characters that reorder or hide text are written as escapes
/// (`\u{1b}`, `\n`); everything else as it is.
pub fn printable(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || invisible(c) {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// `text` of several lines as [`printable`] shows each, the line ends
/// kept.
pub fn printable_lines(text: &str) -> String {
    text.split('\n')
        .map(printable)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The format characters that change how the text around them shows:
/// direction overrides and isolates, zero-width characters, the byte order
/// mark.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_title_is_cut_and_one_that_is_not_text_is_said_so() {
        let long = "T".repeat(200);
        assert_eq!(
            title(&long),
            format!("{:?}... (140 more characters)", "T".repeat(60))
        );
        assert_eq!(title("Nodiatis"), "\"Nodiatis\"");
        let garbled = String::from_utf8_lossy(b"Dust \xff\xfe Game").into_owned();
        assert!(
            title(&garbled)
                .ends_with("(not valid UTF-8: each \u{fffd} stands for bytes that are not text)"),
            "{}",
            title(&garbled)
        );
    }

    use super::*;

    #[test]
    fn the_number_row_answers_on_any_layout() {
        for (typed, answer_to) in [('1', '1'), ('&', '1'), ('é', '2'), ('"', '3'), ('\'', '4')] {
            assert_eq!(answer(typed), Some(answer_to), "{typed}");
        }
        // Letters as typed, upper case too; Cyrillic by their place.
        assert_eq!(answer('Q'), Some('q'));
        assert_eq!(answer('й'), Some('q'));
        assert_eq!(answer('Н'), Some('y'));
        assert_eq!(answer('т'), Some('n'));
        assert_eq!(answer('('), None);
        assert_eq!(answer('ж'), None);
    }

    #[test]
    fn excerpts_cut_long_text() {
        assert_eq!(excerpt("GG,G "), "\"GG,G \"");
        let long = "x".repeat(1000);
        let cut = excerpt(&long);
        assert_eq!(
            cut,
            format!("\"{}\"... (940 more characters)", "x".repeat(60))
        );
        assert_eq!(excerpt("a\u{1b}[2Jb"), "\"a\\u{1b}[2Jb\"");
    }

    #[test]
    fn titles_print_without_their_escape_sequences() {
        assert_eq!(printable("Nodiatis — Aldric"), "Nodiatis — Aldric");
        assert_eq!(
            printable("x\u{1b}]0;pwned\u{7}\ny\u{202e}z"),
            "x\\u{1b}]0;pwned\\u{7}\\ny\\u{202e}z"
        );
        assert!(!printable("\u{9b}31m\r\t").chars().any(char::is_control));
    }
}
