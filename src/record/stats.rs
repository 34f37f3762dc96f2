//! What a game log says of the player (`bot stats`): how many games, how
//! many cleared, how many earned the reward, how many clicks over the
//! optimum a cleared game took on average, and the median time to clear
//! one; for all the games, and per rule variant (a game under other
//! rules is another game: its optimum is not comparable).

use serde::{Serialize, Serializer};

use super::GameRecord;
use crate::game::Rules;

/// The sums of a log's records.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Every game.
    pub overall: Group,
    /// The games of each rule variant played, in the order of
    /// [`Rules::ALL`].
    pub by_rules: Vec<Group>,
}

/// The sums of some games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Group {
    /// The rules of these games; `None` for all of them.
    #[serde(serialize_with = "rules_name", skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    pub games: usize,
    pub cleared: usize,
    /// How many games earned the reward.
    pub rewards: usize,
    /// The share of the games that earned the reward, 0 to 1.
    pub reward_rate: Option<f64>,
    /// The mean of the clicks over the optimum, over the cleared games.
    pub mean_clicks_over_optimum: Option<f64>,
    /// The median time of the cleared games, in milliseconds.
    pub median_cleared_ms: Option<f64>,
}

impl Stats {
    /// The sums of `records`.
    pub fn of(records: &[GameRecord]) -> Stats {
        let by_rules = Rules::ALL
            .into_iter()
            .filter_map(|rules| {
                let games: Vec<&GameRecord> = records.iter().filter(|r| r.rules == rules).collect();
                (!games.is_empty()).then(|| Group::of(Some(rules), &games))
            })
            .collect();
        let all: Vec<&GameRecord> = records.iter().collect();
        Stats {
            overall: Group::of(None, &all),
            by_rules,
        }
    }
}

impl Group {
    fn of(rules: Option<Rules>, games: &[&GameRecord]) -> Group {
        let rewards = games.iter().filter(|g| g.reward).count();
        let over: Vec<f64> = games
            .iter()
            .filter_map(|g| g.over_optimum())
            .map(|n| n as f64)
            .collect();
        let times: Vec<f64> = games
            .iter()
            .filter(|g| g.cleared)
            .map(|g| g.duration_ms as f64)
            .collect();
        Group {
            rules,
            games: games.len(),
            cleared: times.len(),
            rewards,
            reward_rate: (!games.is_empty()).then(|| rewards as f64 / games.len() as f64),
            mean_clicks_over_optimum: mean(&over),
            median_cleared_ms: median(&times),
        }
    }
}

/// The mean of `values` (the bench's means too).
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The median of `values`, unsorted; the mean of the middle two for an
/// even count (the bench's medians too).
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// Rules by the command line's name.
fn rules_name<S: Serializer>(rules: &Option<Rules>, s: S) -> Result<S::Ok, S::Error> {
    match rules {
        Some(rules) => s.serialize_str(rules.name()),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::game::earns_reward;
    use crate::game::{Cell, EXAMPLE_BOARD};
    use crate::record::{ClickRecord, End, GameMode};

    /// A game of `clicks` clicks on a board of optimum `optimum` under
    /// `rules`, cleared or not, taking `seconds`.
    fn game(rules: Rules, optimum: u32, clicks: usize, cleared: bool, seconds: u64) -> GameRecord {
        GameRecord {
            version: "0.1.0".into(),
            started: "2026-11-25T18:00:00Z".into(),
            mode: GameMode::Assist,
            board: EXAMPLE_BOARD.parse().unwrap(),
            rules,
            optimum,
            optimum_proven: true,
            clicks: vec![ClickRecord::new(Cell::new(0, 0), Duration::ZERO); clicks],
            clicks_unseen: false,
            cleared,
            reward: earns_reward(clicks, cleared),
            duration_ms: seconds * 1000,
            end: if cleared { End::Cleared } else { End::NewBoard },
            error: None,
        }
    }

    #[test]
    fn the_sums_of_a_hand_made_log_per_rules_and_in_all() {
        use Rules::{CentreRows, Gravity};
        let records = [
            // centre-rows: 11 in 11 (reward), 13 for 11 (none), 12 for 10
            // (reward), one given up after 4 clicks.
            game(CentreRows, 11, 11, true, 30),
            game(CentreRows, 11, 13, true, 50),
            game(CentreRows, 10, 12, true, 40),
            game(CentreRows, 12, 4, false, 9),
            // gravity: 15 for 14 (none), 14 for 14 (none).
            game(Gravity, 14, 15, true, 60),
            game(Gravity, 14, 14, true, 70),
        ];
        let stats = Stats::of(&records);
        let group = |rules, games, cleared, rewards, over: f64, ms: f64| Group {
            rules,
            games,
            cleared,
            rewards,
            reward_rate: Some(rewards as f64 / games as f64),
            mean_clicks_over_optimum: Some(over),
            median_cleared_ms: Some(ms),
        };
        // Over: 0, 2, 2 and 1, 0; times of the cleared games 30 40 50 and
        // 60 70 (the given-up game's 9 s is no game time).
        assert_eq!(stats.overall, group(None, 6, 5, 2, 1.0, 50_000.0));
        assert_eq!(
            stats.by_rules,
            [
                group(Some(CentreRows), 4, 3, 2, 4.0 / 3.0, 40_000.0),
                group(Some(Gravity), 2, 2, 0, 0.5, 65_000.0),
            ]
        );
        // Games of one rule variant: one group, the same as all.
        let one = Stats::of(&records[..2]);
        assert_eq!(one.by_rules.len(), 1);
        assert_eq!(
            Group {
                rules: None,
                ..one.by_rules[0].clone()
            },
            one.overall
        );
    }

    #[test]
    fn no_games_and_no_cleared_game_have_no_means() {
        let none = Stats::of(&[]);
        assert_eq!(none.overall.games, 0);
        assert_eq!(none.overall.reward_rate, None);
        assert!(none.by_rules.is_empty());
        let given_up = Stats::of(&[game(Rules::Gravity, 12, 3, false, 5)]);
        assert_eq!(given_up.overall.reward_rate, Some(0.0));
        assert_eq!(given_up.overall.mean_clicks_over_optimum, None);
        assert_eq!(given_up.overall.median_cleared_ms, None);
    }

    #[test]
    fn the_json_names_each_group_by_its_rules() {
        let stats = Stats::of(&[game(Rules::LeftColumns, 11, 12, true, 30)]);
        let json = serde_json::to_value(&stats).unwrap();
        assert_eq!(json["overall"].get("rules"), None);
        assert_eq!(json["by_rules"][0]["rules"], "left-columns");
        assert_eq!(json["by_rules"][0]["games"], 1);
        assert_eq!(json["overall"]["rewards"], 1);
        assert_eq!(json["overall"]["mean_clicks_over_optimum"], 1.0);
        assert_eq!(json["overall"]["median_cleared_ms"], 30_000.0);
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[7.0]), Some(7.0));
        assert_eq!(median(&[]), None);
    }
}
