//! `bot bench`: solves the article's example board, then N random 8x6x5
//! boards, under the rule variant of `--rules`, with each strategy under a
//! time cap, and prints per strategy how many boards it proved, how fast,
//! how long its solutions are, and how `optimal` compares with `shortlook`
//! on the same boards in the same run. Progress goes to the log (stderr):
//! a line per board with how many boards are done, how many each strategy
//! proved and the time left, under a bar when stderr is a terminal
//! (`progress`); the results go as tables to stdout. With `--plot
//! FILE.png`, also a picture of each strategy's time to proof against the
//! solution's length (`chart::plot`), its path checked before the run.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::MultiProgress;
use log::info;

use super::args::BenchArgs;
use super::progress::Progress;
use super::say;
use crate::app::record_view::{check_plot_path, save_plot};
use crate::chart::{
    self,
    plot::{Plot, Point, Series},
};
use crate::game::{
    Board, BoardRng, EXAMPLE_BOARD, NODIATIS_COLOURS, NODIATIS_HEIGHT, NODIATIS_WIDTH,
};
use crate::record::stats::{mean, median};
use crate::solver::{Outcome, SolveOptions, Strategy, solve};

/// The bar for a good first answer: an optimal-length solution
/// within this time.
const GOOD_ANSWER_WITHIN: Duration = Duration::from_secs(1);

/// The example board's table: each strategy's length, proof, time and
/// nodes.
fn example(
    strategies: &[Strategy],
    solve_with: &dyn Fn(&Board, Strategy) -> Outcome,
) -> Result<()> {
    let example: Board = EXAMPLE_BOARD.parse()?;
    let mut runs = Vec::new();
    for &strategy in strategies {
        info!("example board: {} ...", strategy.name());
        let outcome = solve_with(&example, strategy);
        info!("  {}", summary(&outcome));
        runs.push(outcome);
    }
    say!("Example board {example} (RULES.md's)");
    say!(
        "{:<10} {:>6} {:>7} {:>10} {:>12} {:>10}",
        "strategy",
        "length",
        "proven",
        "time",
        "nodes",
        "nodes/s"
    );
    for (strategy, outcome) in strategies.iter().zip(&runs) {
        say!(
            "{:<10} {:>6} {:>7} {:>10} {:>12} {:>10}",
            strategy.name(),
            outcome.length(),
            if outcome.proven_optimal { "yes" } else { "no" },
            seconds(outcome.elapsed),
            outcome.nodes,
            rate(outcome.nodes, outcome.elapsed),
        );
    }
    if let Some(line) = example_ratio(strategies, &runs) {
        say!("{line}");
    }
    Ok(())
}

/// The random boards' table: each strategy's proofs, times to proof,
/// lengths and rate, and how the strategies compare; `(count, seed)` of
/// the boards.
fn random_table(
    strategies: &[Strategy],
    runs: &[Vec<Outcome>],
    (count, seed): (usize, u64),
    cap: f64,
) {
    say!(
        "{} random {NODIATIS_WIDTH}x{NODIATIS_HEIGHT}x{NODIATIS_COLOURS} boards (uniform colours), seed {}; times to proof, unproven boards counted as over the cap",
        count,
        seed
    );
    say!(
        "{:<10} {:>9} {:>10} {:>10} {:>10} {:>8} {:>8} {:>10}",
        "strategy",
        "proven",
        "median",
        "p90",
        "max",
        "mean len",
        "max len",
        "nodes/s"
    );
    for (strategy, outcomes) in strategies.iter().zip(runs) {
        // Unproven boards count as slower than any proof, so the median
        // and p90 are over all boards, never flattered by the easy ones.
        let mut proofs: Vec<Option<Duration>> = outcomes.iter().map(time_to_proof).collect();
        proofs.sort_by_key(|t| t.unwrap_or(Duration::MAX));
        let lengths: Vec<usize> = outcomes.iter().map(Outcome::length).collect();
        let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
        let elapsed: Duration = outcomes.iter().map(|o| o.elapsed).sum();
        say!(
            "{:<10} {:>9} {:>10} {:>10} {:>10} {:>8} {:>8} {:>10}",
            strategy.name(),
            format!(
                "{}/{}",
                proofs.iter().filter(|t| t.is_some()).count(),
                proofs.len()
            ),
            proof_time(percentile(&proofs, 0.5), cap),
            proof_time(percentile(&proofs, 0.9), cap),
            proof_time(proofs.last().copied(), cap),
            mean(&lengths.iter().map(|&l| l as f64).collect::<Vec<_>>())
                .map_or("-".into(), |m| format!("{m:.2}")),
            lengths.iter().max().map_or("-".into(), usize::to_string),
            rate(nodes, elapsed),
        );
    }
    if let Some(line) = pair_ratio(strategies, runs) {
        say!("{line}");
    }
    if let Some(s) = strategies.iter().position(|&s| s == Strategy::Optimal) {
        say!("{}", first_answers(&runs[s], runs));
    }
}

pub fn run(args: &BenchArgs, bars: &MultiProgress) -> Result<ExitCode> {
    // Ctrl-C never leaves a temporary file behind.
    crate::files::exit_on_ctrl_c().context("cannot catch Ctrl-C")?;
    let strategies = strategies_of(args);
    if let Some(path) = &args.plot {
        check_plot_path(path, "--plot")?;
    }
    let defaults = SolveOptions::default();
    let options = SolveOptions {
        time_limit: args.cap,
        threads: args.threads.count(),
        rules: args.rules.rules,
        ..defaults
    };
    let solve_with = |board: &Board, strategy| {
        solve(
            board,
            &SolveOptions {
                strategy,
                ..options.clone()
            },
            &mut |_| {},
        )
    };
    let cap = args.cap.as_secs_f64();
    say!(
        "bot bench: rules {}, strategies {}, cap {cap} s per board and strategy, {} threads for optimal",
        options.rules,
        strategies
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(","),
        options.threads
    );

    say!();
    example(&strategies, &solve_with)?;

    let mut rng = BoardRng::new(args.seed);
    let boards = (0..args.boards)
        .map(|_| rng.board(NODIATIS_WIDTH, NODIATIS_HEIGHT, NODIATIS_COLOURS))
        .collect::<Result<Vec<_>, _>>()?;
    // runs[s][b]: strategy s on board b.
    let mut runs: Vec<Vec<Outcome>> = strategies.iter().map(|_| Vec::new()).collect();
    let mut progress = Progress::start(bars, boards.len() as u64);
    for board in &boards {
        let mut line = format!("board {board}:");
        for (s, &strategy) in strategies.iter().enumerate() {
            let outcome = solve_with(board, strategy);
            line += &format!(" {} {};", strategy.name(), summary(&outcome));
            runs[s].push(outcome);
        }
        info!(
            "{line} {}",
            progress.step(&proven_so_far(&strategies, &runs))
        );
    }
    progress.finish();

    say!();
    random_table(&strategies, &runs, (boards.len(), args.seed), cap);
    if let Some(path) = &args.plot {
        let title = format!(
            "bot bench: {} boards, seed {}, rules {}, cap {cap} s",
            boards.len(),
            args.seed,
            options.rules
        );
        save_bench_plot(path, title, &strategies, &runs, cap)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The strategies named, each once, in the order first named.
fn strategies_of(args: &BenchArgs) -> Vec<Strategy> {
    let mut strategies: Vec<Strategy> = Vec::new();
    for &arg in &args.strategies {
        let strategy = Strategy::from(arg);
        if !strategies.contains(&strategy) {
            strategies.push(strategy);
        }
    }
    strategies
}

/// The `--plot` picture, at `path`: each strategy's times to proof.
fn save_bench_plot(
    path: &Path,
    title: String,
    strategies: &[Strategy],
    runs: &[Vec<Outcome>],
    cap: f64,
) -> Result<()> {
    let plot = Plot {
        title,
        cap,
        series: plot_series(strategies, runs, cap),
    };
    save_plot(path, &chart::plot::plot(&plot)?, "--plot")?;
    say!("plot: {}", path.display());
    Ok(())
}

/// The plot's points, a series per strategy and a point per board: at the
/// board's length (its optimum when any strategy proved it, else the
/// shortest solution found) and the time to proof, or the cap where this
/// strategy did not prove it.
fn plot_series(strategies: &[Strategy], runs: &[Vec<Outcome>], cap: f64) -> Vec<Series> {
    let boards = runs.first().map_or(0, Vec::len);
    let lengths: Vec<usize> = (0..boards)
        .map(|b| {
            let outcomes = || runs.iter().map(|outcomes| &outcomes[b]);
            outcomes()
                .find(|o| o.proven_optimal)
                .or_else(|| outcomes().min_by_key(|o| o.length()))
                .map_or(0, Outcome::length)
        })
        .collect();
    strategies
        .iter()
        .zip(runs)
        .map(|(strategy, outcomes)| Series {
            name: strategy.name().to_owned(),
            points: outcomes
                .iter()
                .zip(&lengths)
                .map(|(outcome, &length)| Point {
                    length,
                    seconds: time_to_proof(outcome).map_or(cap, |t| t.as_secs_f64()),
                    proven: outcome.proven_optimal,
                })
                .collect(),
        })
        .collect()
}

/// One outcome in a few words, for the progress lines.
fn summary(outcome: &Outcome) -> String {
    format!(
        "{} {} {}",
        outcome.length(),
        if outcome.proven_optimal {
            "proven"
        } else {
            "unproven"
        },
        seconds(outcome.elapsed)
    )
}

/// How many boards each strategy has proven so far: "proven: optimal 3,
/// shortlook 2".
fn proven_so_far(strategies: &[Strategy], runs: &[Vec<Outcome>]) -> String {
    let counts: Vec<String> = strategies
        .iter()
        .zip(runs)
        .map(|(strategy, outcomes)| {
            let proven = outcomes.iter().filter(|o| o.proven_optimal).count();
            format!("{} {proven}", strategy.name())
        })
        .collect();
    format!("proven: {}", counts.join(", "))
}

fn time_to_proof(outcome: &Outcome) -> Option<Duration> {
    outcome.proven_optimal.then_some(outcome.elapsed)
}

/// The nearest-rank percentile `p` (0 < p <= 1) of `sorted`.
fn percentile<T: Copy>(sorted: &[T], p: f64) -> Option<T> {
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.max(1) - 1).copied()
}

/// A time to proof; `None` is a board left unproven within the cap.
fn proof_time(time: Option<Option<Duration>>, cap: f64) -> String {
    match time {
        None => "-".into(),
        Some(None) => format!(">{cap} s"),
        Some(Some(t)) => seconds(t),
    }
}

fn seconds(time: Duration) -> String {
    let secs = time.as_secs_f64();
    if secs < 1.0 {
        format!("{:.1} ms", secs * 1e3)
    } else {
        format!("{secs:.2} s")
    }
}

fn rate(nodes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 {
        return "-".into();
    }
    format!("{:.2}M", nodes as f64 / secs / 1e6)
}

/// The entries of `optimal` and `shortlook` in `items` (one per strategy),
/// when both strategies ran.
fn optimal_and_shortlook<'a, T>(strategies: &[Strategy], items: &'a [T]) -> Option<(&'a T, &'a T)> {
    let at = |wanted| strategies.iter().position(|&s| s == wanted);
    Some((
        &items[at(Strategy::Optimal)?],
        &items[at(Strategy::Shortlook)?],
    ))
}

/// `optimal` against `shortlook` on the example board: the ratio of their
/// times to proof, or a bound on it when `shortlook` ran out of time.
fn example_ratio(strategies: &[Strategy], outcomes: &[Outcome]) -> Option<String> {
    let (optimal, shortlook) = optimal_and_shortlook(strategies, outcomes)?;
    let Some(fast) = time_to_proof(optimal) else {
        return Some("optimal / shortlook: optimal did not prove within the cap".into());
    };
    let fast = fast.as_secs_f64();
    let slow = shortlook.elapsed.as_secs_f64();
    Some(if shortlook.proven_optimal {
        format!(
            "optimal / shortlook time to proof: {:.5} ({:.0}x faster)",
            fast / slow,
            slow / fast
        )
    } else {
        format!(
            "optimal / shortlook time to proof: < {:.5} (more than {:.0}x faster; shortlook did not prove within the cap)",
            fast / slow,
            slow / fast
        )
    })
}

/// `optimal` against `shortlook` on the boards both prove: the median of the
/// per-board ratios of time to proof, and the ratio of the total times.
fn pair_ratio(strategies: &[Strategy], runs: &[Vec<Outcome>]) -> Option<String> {
    let (optimal, shortlook) = optimal_and_shortlook(strategies, runs)?;
    let pairs: Vec<(f64, f64)> = optimal
        .iter()
        .zip(shortlook)
        .filter_map(|(o, s)| Some((time_to_proof(o)?, time_to_proof(s)?)))
        .map(|(o, s)| (o.as_secs_f64(), s.as_secs_f64()))
        .collect();
    let ratios: Vec<f64> = pairs.iter().map(|(o, s)| o / s).collect();
    let Some(median) = median(&ratios) else {
        return Some("optimal / shortlook: no board proven by both".into());
    };
    let (total_o, total_s) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (o, s)| (a + o, b + s));
    Some(format!(
        "optimal / shortlook time to proof on the {} boards both prove: median ratio {median:.5} ({:.0}x faster), ratio of totals {:.5} ({:.0}x faster)",
        pairs.len(),
        1.0 / median,
        total_o / total_s,
        total_s / total_o
    ))
}

/// How soon `optimal` answers: its first solution's time, and on how many
/// boards of known optimum (proven by any strategy) it had a solution of
/// that length within [`GOOD_ANSWER_WITHIN`].
fn first_answers(optimal: &[Outcome], runs: &[Vec<Outcome>]) -> String {
    let mut firsts: Vec<Duration> = optimal
        .iter()
        .filter_map(|o| o.improvements.first().map(|i| i.elapsed))
        .collect();
    firsts.sort();
    let mut known = 0;
    let mut good = 0;
    for (b, outcome) in optimal.iter().enumerate() {
        let optimum = runs
            .iter()
            .map(|outcomes| &outcomes[b])
            .find(|o| o.proven_optimal)
            .map(|o| o.length());
        let Some(optimum) = optimum else { continue };
        known += 1;
        if outcome
            .improvements
            .iter()
            .any(|i| i.length == optimum && i.elapsed <= GOOD_ANSWER_WITHIN)
        {
            good += 1;
        }
    }
    format!(
        "optimal first solution: median {}, max {} ({} of {} boards); an optimal-length solution within {} s on {good} of the {known} boards of known optimum",
        percentile(&firsts, 0.5).map_or("-".into(), seconds),
        firsts.last().copied().map_or("-".into(), seconds),
        firsts.len(),
        optimal.len(),
        GOOD_ANSWER_WITHIN.as_secs_f64(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cell, Rules, replay};

    /// An outcome of `length` moves found in `ms`.
    fn outcome(length: usize, proven: bool, ms: u64) -> Outcome {
        let board: Board = "GG".parse().unwrap();
        let step = replay(&board, &[Cell { x: 0, y: 0 }]).unwrap()[0];
        Outcome {
            moves: vec![step; length],
            proven_optimal: proven,
            lower_bound: if proven { length } else { 1 },
            elapsed: Duration::from_millis(ms),
            nodes: 0,
            improvements: Vec::new(),
            rules: Rules::default(),
        }
    }

    #[test]
    fn the_plot_puts_each_board_at_its_known_optimum() {
        let strategies = [Strategy::Optimal, Strategy::Shortlook];
        let runs = vec![
            // Board 0 proven by both, board 1 by optimal only, board 2 by
            // neither (optimal found 13, shortlook 12).
            vec![
                outcome(11, true, 5),
                outcome(12, true, 40),
                outcome(13, false, 10_000),
            ],
            vec![
                outcome(11, true, 900),
                outcome(14, false, 10_000),
                outcome(12, false, 10_000),
            ],
        ];
        let series = plot_series(&strategies, &runs, 10.0);
        let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["optimal", "shortlook"]);
        let point = |length, seconds, proven| Point {
            length,
            seconds,
            proven,
        };
        assert_eq!(
            series[0].points,
            [
                point(11, 0.005, true),
                point(12, 0.04, true),
                point(12, 10.0, false)
            ]
        );
        assert_eq!(
            series[1].points,
            [
                point(11, 0.9, true),
                point(12, 10.0, false),
                point(12, 10.0, false)
            ]
        );
    }

    #[test]
    fn each_strategy_counts_its_proofs() {
        let strategies = [Strategy::Optimal, Strategy::Shortlook];
        let runs = vec![
            vec![outcome(11, true, 5), outcome(12, true, 40)],
            vec![outcome(11, true, 900), outcome(14, false, 10_000)],
        ];
        assert_eq!(
            proven_so_far(&strategies, &runs),
            "proven: optimal 2, shortlook 1"
        );
    }

    #[test]
    fn percentile_is_nearest_rank() {
        let values: Vec<u32> = (1..=10).collect();
        assert_eq!(percentile(&values, 0.5), Some(5));
        assert_eq!(percentile(&values, 0.9), Some(9));
        assert_eq!(percentile(&values, 1.0), Some(10));
        assert_eq!(percentile(&[7], 0.9), Some(7));
        assert_eq!(percentile::<u32>(&[], 0.5), None);
    }

    #[test]
    fn unproven_boards_sort_last_and_show_the_cap() {
        let secs = |s| Some(Duration::from_secs(s));
        let mut proofs = vec![None, secs(2), secs(1)];
        proofs.sort_by_key(|t| t.unwrap_or(Duration::MAX));
        assert_eq!(proofs, vec![secs(1), secs(2), None]);
        assert_eq!(proof_time(percentile(&proofs, 1.0), 10.0), ">10 s");
        assert_eq!(proof_time(percentile(&proofs, 0.5), 10.0), "2.00 s");
    }
}
