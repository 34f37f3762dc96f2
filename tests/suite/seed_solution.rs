//! Replays the article's optimal 11-move solution (`../shared/real/
//! seed-solution.tsv`) and checks every intermediate board to the character.

use std::path::PathBuf;

use dustbot::game::{Board, Cell, replay};

fn shared(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(path)
}

#[test]
fn seed_solution_replays_exactly() {
    let path = shared("real/seed-solution.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines().skip(1);
    let start_line = lines.next().expect("a start row");
    let start: Board = start_line.split('\t').nth(5).unwrap().parse().unwrap();
    let truth = std::fs::read_to_string(shared("real/dust-game.board")).unwrap();
    assert_eq!(start.to_string(), truth.trim_end_matches('\n'));

    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 11);
    let clicks: Vec<Cell> = rows
        .iter()
        .map(|r| Cell::new(r[1].parse().unwrap(), r[2].parse().unwrap()))
        .collect();
    let steps = replay(&start, &clicks).unwrap();
    for (row, step) in rows.iter().zip(&steps) {
        assert_eq!(step.colour.letter().to_string(), row[3], "step {}", row[0]);
        assert_eq!(step.size.to_string(), row[4], "step {}", row[0]);
        assert_eq!(step.board_after.to_string(), row[5], "step {}", row[0]);
    }
    assert!(steps.last().unwrap().board_after.is_cleared());
}
