//! Progress of a long run: a bar at the bottom of the terminal when
//! standard error is one, with the log lines scrolling above it (the
//! logger lifts the bars for each line, [`crate::app::logging`]), and the
//! same count and estimate of the time left in words for the log lines,
//! which are all a run whose standard error is a file or a pipe gets.

use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// Counts the items of a run done, shows them on a bar on a terminal, and
/// says how far it is in words for the log.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    total: u64,
    done: u64,
    started: Instant,
}

impl Progress {
    /// Starts counting `total` items; the bar shows only when standard
    /// error is a terminal.
    pub fn start(bars: &MultiProgress, total: u64) -> Progress {
        let bar = if std::io::stderr().is_terminal() {
            let style = ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {wide_msg}")
                .expect("the template is valid")
                .progress_chars("#>-");
            let bar = bars.add(ProgressBar::new(total).with_style(style));
            // The elapsed time moves on while an item takes long.
            bar.enable_steady_tick(Duration::from_secs(1));
            bar
        } else {
            ProgressBar::hidden()
        };
        let progress = Progress {
            bar,
            total,
            done: 0,
            started: Instant::now(),
        };
        progress
            .bar
            .set_message(status(0, total, "", Duration::ZERO));
        progress
    }

    /// Counts one more item done, with `state` (what the run has found so
    /// far), and returns the line the bar shows: "k/N done, ~T left, state".
    pub fn step(&mut self, state: &str) -> String {
        self.done += 1;
        let line = status(self.done, self.total, state, self.started.elapsed());
        self.bar.set_position(self.done);
        self.bar.set_message(line.clone());
        line
    }

    /// Takes the bar away: what follows (the results) says the rest.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// "k/N done, ~T left, state", the time left estimated from the mean time
/// of the `done` items so far (the items are alike: random boards).
fn status(done: u64, total: u64, state: &str, elapsed: Duration) -> String {
    let mut line = format!("{done}/{total} done");
    // Before the state: a narrow terminal cuts the bar's line at its end.
    if done > 0 && done < total {
        let left = elapsed.mul_f64((total - done) as f64 / done as f64);
        line += &format!(", ~{} left", in_words(left));
    }
    if !state.is_empty() {
        line += ", ";
        line += state;
    }
    line
}

/// A duration as a person reads an estimate: "40 s", "12 min", "1 h 05 min".
fn in_words(time: Duration) -> String {
    let secs = time.as_secs_f64().round() as u64;
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", (secs + 30) / 60),
        _ => {
            let minutes = (secs + 30) / 60;
            format!("{} h {:02} min", minutes / 60, minutes % 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_is_the_mean_time_so_far_times_the_items_left() {
        let secs = Duration::from_secs;
        assert_eq!(
            status(1, 4, "3 proven", secs(10)),
            "1/4 done, ~30 s left, 3 proven"
        );
        assert_eq!(status(50, 200, "", secs(600)), "50/200 done, ~30 min left");
        assert_eq!(status(4, 4, "4 proven", secs(40)), "4/4 done, 4 proven");
        assert_eq!(in_words(secs(3 * 3600 + 5 * 60 + 10)), "3 h 05 min");
        assert_eq!(in_words(secs(59)), "59 s");
        assert_eq!(in_words(secs(89)), "1 min");
    }

    #[test]
    fn a_hidden_bar_still_counts_and_says_so() {
        let mut progress = Progress {
            bar: ProgressBar::hidden(),
            total: 2,
            done: 0,
            started: Instant::now(),
        };
        let first = progress.step("x");
        assert!(first.starts_with("1/2 done, ~"), "{first}");
        assert!(first.ends_with(" left, x"), "{first}");
        assert_eq!(progress.step("y"), "2/2 done, y");
        progress.finish();
    }
}
