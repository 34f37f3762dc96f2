//! The solver against truths computed here, independently of it, under
//! every variant of the rules: a plain breadth-first search over boards
//! gives the optimum of small boards and of partly cleared 8x6 boards;
//! property tests check that every strategy's solution replays to an empty
//! board with the sizes it reports, that `optimal` is never beaten by a
//! baseline, that relabelling and (where the rules are mirror-symmetric)
//! mirroring keep the optimum, and that the lower bound is admissible; and
//! the real example board's optimum of 11 (and of boards a few moves into
//! a game) is proven here by an exhaustive search of its own.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use dustbot::game::{Board, BoardRng, Cell, Colour, MAX_COLOURS, Rules, replay_under};
use dustbot::solver::{Outcome, SolveOptions, Strategy, lower_bound, solve};
use proptest::prelude::*;

// The solver's `Strategy` takes the name; proptest's trait is still needed.
use proptest::strategy::Strategy as _;

/// `board`'s cells as one number, base 6 (empty and five colours): a cheap
/// exact key for the searches here, which see hundreds of thousands of
/// boards. 6^48 < 2^128, so any board of the real size fits.
fn packed(board: &Board) -> u128 {
    assert!(board.size() <= 48, "too big to pack: {board:?}");
    board.raw().iter().fold(0u128, |key, &v| {
        assert!(v <= 5, "more than five colours: {board:?}");
        key * 6 + u128::from(v)
    })
}

/// The fewest moves that clear `board` under `rules`, by breadth-first
/// search over distinct boards; `None` once more than `max_boards` have
/// been seen, so a caller can pick a smaller board instead of waiting.
fn bfs_optimum(board: &Board, max_boards: usize, rules: Rules) -> Option<u32> {
    if board.is_cleared() {
        return Some(0);
    }
    let mut seen = HashSet::from([packed(board)]);
    let mut frontier = vec![*board];
    let mut depth = 0;
    // A non-empty board always has a move, so the frontier never runs dry
    // before the empty board is reached.
    loop {
        depth += 1;
        let mut next = Vec::new();
        for board in &frontier {
            for cluster in board.clusters().iter() {
                let after = board.remove_under(cluster.cells, rules);
                if after.is_cleared() {
                    return Some(depth);
                }
                if seen.insert(packed(&after)) {
                    if seen.len() > max_boards {
                        return None;
                    }
                    next.push(after);
                }
            }
        }
        frontier = next;
    }
}

fn options(strategy: Strategy, threads: usize, secs: f64, rules: Rules) -> SolveOptions {
    SolveOptions {
        strategy,
        time_limit: Duration::from_secs_f64(secs),
        threads,
        // Small tables: many solves in a row stay cheap, and collisions and
        // replacements get exercised.
        table_mb: 1,
        rules,
        stop: None,
    }
}

fn optimal(board: &Board, threads: usize, rules: Rules) -> Outcome {
    solve(
        board,
        &options(Strategy::Optimal, threads, 120.0, rules),
        &mut |_| {},
    )
}

/// The solution replays under `rules` from `board` to an empty board, and
/// every step reports the colour, size and board after that the replay
/// gives.
fn assert_replays(board: &Board, outcome: &Outcome, rules: Rules, what: &str) {
    assert_eq!(outcome.rules, rules, "{what}");
    let clicks: Vec<Cell> = outcome.moves.iter().map(|s| s.cell).collect();
    let steps = replay_under(board, &clicks, rules)
        .unwrap_or_else(|e| panic!("{what}: {e} in {clicks:?} on {board:?} under {rules}"));
    assert_eq!(steps, outcome.moves, "{what} on {board:?} under {rules}");
    let end = steps.last().map_or(*board, |s| s.board_after);
    assert!(
        end.is_cleared(),
        "{what} leaves {end:?} from {board:?} under {rules}"
    );
}

/// `optimal` proves exactly the BFS optimum under `rules`, with a lower
/// bound to match.
fn assert_optimum(board: &Board, truth: u32, threads: usize, rules: Rules) {
    let outcome = optimal(board, threads, rules);
    assert_replays(board, &outcome, rules, "optimal");
    assert_eq!(
        outcome.moves.len(),
        truth as usize,
        "length on {board:?} under {rules}"
    );
    assert!(
        outcome.proven_optimal,
        "not proven on {board:?} under {rules}"
    );
    assert_eq!(
        outcome.lower_bound, truth as usize,
        "lower bound on {board:?} under {rules}"
    );
    assert!(
        lower_bound(board) <= truth,
        "bound above optimum: {board:?}"
    );
}

#[test]
fn optimal_equals_bfs_on_small_random_boards() {
    // (width, height, colours, boards, BFS budget): hundreds of boards, each
    // shape with few and many colours, both odd and even widths. BFS visits
    // every board shallower than the optimum, up to 665,000 for a 6x4 board
    // of 4 colours (seconds each here), so the shapes with many colours
    // draw again when a board would take BFS more than the budget.
    let shapes = [
        (4, 3, 2, 50, usize::MAX),
        (4, 3, 3, 50, usize::MAX),
        (4, 3, 4, 50, usize::MAX),
        (4, 3, 5, 50, usize::MAX),
        (5, 4, 3, 60, usize::MAX),
        (5, 4, 4, 30, 20_000),
        (5, 4, 5, 10, 20_000),
        (6, 4, 2, 40, usize::MAX),
        (6, 4, 3, 40, 20_000),
        (6, 4, 4, 10, 20_000),
    ];
    let mut rng = BoardRng::new(0x5eed_b0a2d);
    for rules in Rules::ALL {
        let mut checked = 0;
        for (width, height, colours, count, budget) in shapes {
            let mut i = 0;
            while i < count {
                let board = rng.board(width, height, colours).unwrap();
                let Some(truth) = bfs_optimum(&board, budget, rules) else {
                    continue;
                };
                // Both the single-threaded and the parallel search.
                assert_optimum(&board, truth, 1 + i % 2, rules);
                i += 1;
                checked += 1;
            }
        }
        assert_eq!(checked, 390, "{rules}");
    }
}

#[test]
fn optimal_equals_bfs_on_partly_cleared_8x6_boards() {
    let mut rng = BoardRng::new(86);
    for rules in Rules::ALL {
        let mut checked = 0;
        while checked < 60 {
            let mut board = rng.board(8, 6, 5).unwrap();
            // Random moves until BFS can afford the rest of the game.
            let truth = loop {
                board = random_move(&board, &mut rng, rules);
                if board.tile_count() <= 20
                    && let Some(truth) = bfs_optimum(&board, 10_000, rules)
                {
                    break truth;
                }
            };
            if truth == 0 {
                continue;
            }
            assert_optimum(&board, truth, 1 + checked % 2, rules);
            checked += 1;
        }
    }
}

/// `board` after a click on a random cluster under `rules`.
fn random_move(board: &Board, rng: &mut BoardRng, rules: Rules) -> Board {
    let clusters = board.clusters();
    let pick = clusters[rng.below(clusters.len() as u64) as usize];
    board.remove_under(pick.cells, rules)
}

#[test]
fn boards_of_more_than_64_cells_get_the_baselines_optimum() {
    // Such boards take two words a plane: the exact search's other path.
    // The article's `standard` proves the truth here, on boards of bytes.
    let mut rng = BoardRng::new(65);
    for rules in Rules::ALL {
        for (width, height) in [(12, 6), (9, 8), (16, 8), (13, 5)] {
            for _ in 0..4 {
                let mut board = rng.board(width, height, 4).unwrap();
                while board.tile_count() > 14 {
                    board = random_move(&board, &mut rng, rules);
                }
                let standard = options(Strategy::Standard, 1, 120.0, rules);
                let truth = solve(&board, &standard, &mut |_| {});
                assert!(truth.proven_optimal, "standard did not prove {board:?}");
                assert_optimum(&board, truth.length() as u32, 2, rules);
            }
        }
    }
}

/// An exhaustive depth-first search, independent of the solver: can `board`
/// be cleared in at most `budget` moves of RULES.md's default rules?
/// Prunes with two plainly admissible
/// bounds: every colour left needs a move, and one more when no colour is a
/// single cluster (the first move then leaves part of its colour behind).
/// `failed` remembers the largest budget each board failed with.
fn clears_within(board: &Board, budget: u32, failed: &mut HashMap<u128, u32>) -> bool {
    if board.is_cleared() {
        return true;
    }
    let key = packed(board);
    if failed.get(&key).is_some_and(|&b| b >= budget) {
        return false;
    }
    let clusters = board.clusters();
    let mut per_colour = [0u32; MAX_COLOURS as usize];
    for cluster in clusters.iter() {
        per_colour[cluster.colour.index() as usize] += 1;
    }
    let colours = per_colour.iter().filter(|&&n| n > 0).count() as u32;
    if colours + u32::from(!per_colour.contains(&1)) > budget {
        return false;
    }
    let found = clusters.iter().any(|cluster| {
        // The colours the child keeps, known without playing the move: a
        // cheap cut before the move is played.
        let left = colours - u32::from(per_colour[cluster.colour.index() as usize] == 1);
        left < budget
            && clears_within(
                &board.remove_under(cluster.cells, Rules::CentreRows),
                budget - 1,
                failed,
            )
    });
    if !found {
        failed.insert(key, budget);
    }
    found
}

#[test]
fn optimal_equals_an_exhaustive_search_mid_game() {
    // Boards of the real size, a few random moves into a game: their
    // proofs run over several budgets, where the search prunes moves that
    // commute across the middle and reuses its table, which the small
    // boards above hardly reach. The truth: the fewest moves with which
    // `clears_within` clears the board.
    let mut rng = BoardRng::new(2611);
    for checked in 0..40 {
        let mut board = rng.board(8, 6, 5).unwrap();
        let tiles = 24 + checked % 13;
        while board.tile_count() > tiles {
            board = random_move(&board, &mut rng, Rules::CentreRows);
        }
        let mut failed = HashMap::new();
        let truth = (lower_bound(&board)..)
            .find(|&budget| clears_within(&board, budget, &mut failed))
            .expect("every board can be cleared");
        assert_optimum(&board, truth, 1 + checked % 2, Rules::CentreRows);
    }
}

/// The slowest boards to prove of 1000 random boards (`bot bench
/// --boards 1000 --seed 2021`): the 13- and 14-click games, whose proofs
/// run the most budgets and lean hardest on the bounds and the cuts; then
/// the longest games a climb found (`scripts/hard-boards`), of 16 and 15
/// clicks, which no random board of thousands plays.
const HARDEST: [&str; 10] = [
    "OYGGGGOG,GOBYBOYY,ORYBOBGR,RRGRYGOB,YBBOBORY,ORYYYBGB",
    "BGYROYOB,BRRGBGYB,RBYRBYBB,OBGOGOYG,YGYRBYOR,YOBBRORB",
    "RGROBYYG,ORBGRBYR,GGOBYGOR,RYROORGG,RORGRRBR,YBYBYROB",
    "BYGYORBB,RROGRBOY,YBBBYGYB,RGROBRRO,RORGYRGB,GYGYBROB",
    "ORORBYBG,YYGYYRYY,OBBOGYOB,RGOBOBGY,YROYRRBB,YBYOBOYO",
    "BOGROGYO,BOYBRORG,GBORYBYO,OYOOGRRR,GYBOBYOB,YGYBGGRY",
    "OYYOGGRO,GOBYRGGR,YBYOYGRY,GORBOOOY,OGBORGBO,YOYGGOYB",
    "YBBYRYBO,GOOGBGBG,GBYYRYYB,BYRGOGOR,ROBRGOBY,GYGBYRGO",
    "YYRGOGOO,GGBYBYBY,OYYBOBOR,RRGRYGOB,OYBORORY,ORYGGBGB",
    "BYROBGOR,YOGBROGY,RRYBGYBR,GORYROYG,YBGOBRBO,RORGOBYG",
];

/// One of [`HARDEST`], a few random moves into its game: down to 24 to
/// 34 tiles, where [`clears_within`] still finds the truth in seconds.
fn hardest_board_later() -> impl proptest::strategy::Strategy<Value = Board> {
    (0..HARDEST.len(), any::<u64>(), 24usize..=34).prop_map(|(which, seed, tiles)| {
        let mut rng = BoardRng::new(seed);
        let mut board: Board = HARDEST[which].parse().unwrap();
        while board.tile_count() > tiles {
            board = random_move(&board, &mut rng, Rules::CentreRows);
        }
        board
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        rng_seed: proptest::test_runner::RngSeed::Fixed(67),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every optimum `optimal` proves on the hardest games, later on, is
    /// the one an exhaustive search of its own finds: no cut of the
    /// proof's hides a shorter solution.
    #[test]
    fn proofs_in_the_hardest_games_match_an_exhaustive_search(
        board in hardest_board_later(),
        threads in 1usize..=2,
    ) {
        let mut failed = HashMap::new();
        let truth = (lower_bound(&board)..)
            .find(|&budget| clears_within(&board, budget, &mut failed))
            .expect("every board can be cleared");
        assert_optimum(&board, truth, threads, Rules::CentreRows);
    }
}

#[test]
fn real_board_optimum_is_11_proven() {
    let board = crate::vision_support::real_board();
    let outcome = optimal(&board, 2, Rules::CentreRows);
    assert_replays(&board, &outcome, Rules::CentreRows, "optimal");
    assert_eq!(outcome.moves.len(), 11);
    assert!(outcome.proven_optimal);
    assert_eq!(outcome.lower_bound, 11);
    assert!(lower_bound(&board) <= 11);
}

#[test]
fn real_board_has_no_10_move_solution() {
    // The solver's proof, checked without the solver (the article says the
    // same): the one check of a proof at the real size and depth, where the
    // transposition table fills and replaces. 2 million boards, seconds.
    let board = crate::vision_support::real_board();
    assert!(!clears_within(&board, 10, &mut HashMap::new()));
}

#[test]
fn odd_widths_have_no_mirror_symmetry() {
    // At an odd width the middle column belongs to the right half, so the
    // mirror image plays another game: here 3 moves against 4. The solver
    // must not share what it proves between the two.
    for (text, truth) in [("OGG,GRO", 3), ("GGO,ORG", 4)] {
        let board = Board::parse_sized(text, 3, 2).unwrap();
        let rules = Rules::CentreRows;
        assert_eq!(
            bfs_optimum(&board, usize::MAX, rules),
            Some(truth),
            "{board:?}"
        );
        assert_optimum(&board, truth, 1, rules);
    }
    assert_eq!(
        Board::parse_sized("OGG,GRO", 3, 2).unwrap().mirrored(),
        Board::parse_sized("GGO,ORG", 3, 2).unwrap()
    );
    // The other variants close up in whole columns or not at all: there
    // the two play games of one length.
    for rules in [Rules::CentreColumns, Rules::LeftColumns, Rules::Gravity] {
        let lengths = ["OGG,GRO", "GGO,ORG"].map(|text| {
            let board = Board::parse_sized(text, 3, 2).unwrap();
            let truth = bfs_optimum(&board, usize::MAX, rules).unwrap();
            assert_optimum(&board, truth, 1, rules);
            truth
        });
        assert_eq!(lengths[0], lengths[1], "{rules}");
    }
}

/// Boards of up to 6x4 with 1 to 5 colours, as colour indices so that
/// proptest shrinks a failure to a small, readable board.
fn small_board() -> impl proptest::strategy::Strategy<Value = Board> {
    (2u8..=6, 2u8..=4, 1u8..=5).prop_flat_map(|(width, height, colours)| {
        prop::collection::vec(0..colours, width as usize * height as usize).prop_map(move |cells| {
            Board::from_fn(width, height, |c| {
                Colour::new(cells[c.x as usize * height as usize + c.y as usize])
            })
            .unwrap()
        })
    })
}

/// Any of the variants of the rules.
fn any_rules() -> impl proptest::strategy::Strategy<Value = Rules> {
    prop::sample::select(Rules::ALL.to_vec())
}

/// A board of the real size, partly cleared by random moves under `rules`
/// down to at most `tiles` tiles, with the rules: the solver's real input
/// late in a game, small enough for the baselines to prove in
/// milliseconds.
fn late_game_board(tiles: usize) -> impl proptest::strategy::Strategy<Value = (Board, Rules)> {
    (any::<u64>(), any_rules()).prop_map(move |(seed, rules)| {
        let mut rng = BoardRng::new(seed);
        let mut board = rng.board(8, 6, 5).unwrap();
        while board.tile_count() > tiles {
            board = random_move(&board, &mut rng, rules);
        }
        (board, rules)
    })
}

/// Every strategy's solution replays under `rules`; `optimal` is proven
/// and never longer than a baseline; a baseline that proves agrees with
/// it; the reported bounds are consistent.
fn check_all_strategies(board: &Board, rules: Rules) -> Result<(), TestCaseError> {
    let best = optimal(board, 1, rules);
    assert_replays(board, &best, rules, "optimal");
    prop_assert!(best.proven_optimal, "optimal not proven on {board:?}");
    let length = best.moves.len();
    prop_assert_eq!(best.lower_bound, length);
    prop_assert!(lower_bound(board) as usize <= length);
    for strategy in Strategy::ALL {
        let outcome = solve(board, &options(strategy, 1, 2.0, rules), &mut |_| {});
        assert_replays(board, &outcome, rules, strategy.name());
        let found = outcome.moves.len();
        prop_assert!(length <= found, "{} beats optimal", strategy.name());
        prop_assert!(outcome.lower_bound <= length, "{}", strategy.name());
        prop_assert!(outcome.lower_bound <= found);
        if outcome.proven_optimal {
            prop_assert_eq!(found, length, "{} proves another length", strategy.name());
            prop_assert_eq!(outcome.lower_bound, found);
        }
    }
    Ok(())
}

/// The optimum of a relabelled board and, where `rules` are
/// mirror-symmetric at its width, of the mirror image: the same game, so
/// the proven optimum must not change.
fn check_symmetries(board: &Board, shift: u8, rules: Rules) -> Result<(), TestCaseError> {
    let length = optimal(board, 1, rules).moves.len();
    if rules.mirror_symmetric(board.width()) {
        let mirrored = board.mirrored();
        let outcome = optimal(&mirrored, 1, rules);
        assert_replays(&mirrored, &outcome, rules, "optimal, mirrored");
        prop_assert_eq!(outcome.moves.len(), length, "mirrored: {:?}", mirrored);
        prop_assert!(outcome.proven_optimal);
    }
    // Rotate the five colours by `shift`: a permutation.
    let map: Vec<Colour> = (0..8)
        .map(|c| Colour::new(if c < 5 { (c + shift) % 5 } else { c }).unwrap())
        .collect();
    let relabelled = board.relabelled(&map);
    let outcome = optimal(&relabelled, 1, rules);
    assert_replays(&relabelled, &outcome, rules, "optimal, relabelled");
    prop_assert_eq!(outcome.moves.len(), length, "relabelled: {:?}", relabelled);
    prop_assert!(outcome.proven_optimal);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn small_boards_every_strategy_agrees(board in small_board(), rules in any_rules()) {
        check_all_strategies(&board, rules)?;
    }

    #[test]
    fn small_boards_symmetries_keep_the_optimum(
        board in small_board(),
        shift in 1u8..5,
        rules in any_rules(),
    ) {
        check_symmetries(&board, shift, rules)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn late_game_boards_every_strategy_agrees((board, rules) in late_game_board(22)) {
        check_all_strategies(&board, rules)?;
    }

    #[test]
    fn late_game_boards_symmetries_keep_the_optimum(
        (board, rules) in late_game_board(22),
        shift in 1u8..5,
    ) {
        check_symmetries(&board, shift, rules)?;
    }
}
