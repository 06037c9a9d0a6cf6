//! A stress run's tallies, kept as its shots stream by: what `summary.txt` says. The same
//! rows, added in any number of pieces (a run's chunks, or its shards read back from their
//! `shots.csv`), give the same summary, byte for byte.

use std::collections::BTreeMap;

use crate::ScenarioKind;

/// Counts of a stress run: shots, events, failing shots by invariant and by kind, and the
/// distribution of events per shot. Its memory is bounded by the number of distinct event
/// counts (at most the event budget), not by the number of shots.
#[derive(Clone, Debug, PartialEq)]
pub struct StressTally {
    /// Shots counted.
    pub shots: u64,
    /// Events over every shot.
    pub events: u64,
    /// Shots that broke at least one invariant.
    pub failing: u64,
    /// Shots by event count.
    by_events: BTreeMap<usize, u64>,
    by_invariant: BTreeMap<String, u64>,
    /// (kind, failing, shots), in the mix's order, then `other`.
    by_kind: Vec<(&'static str, u64, u64)>,
}

impl Default for StressTally {
    fn default() -> Self {
        StressTally {
            shots: 0,
            events: 0,
            failing: 0,
            by_events: BTreeMap::new(),
            by_invariant: BTreeMap::new(),
            by_kind: ScenarioKind::ALL
                .iter()
                .map(|k| (k.name(), 0, 0))
                .chain(std::iter::once(("other", 0, 0)))
                .collect(),
        }
    }
}

impl StressTally {
    /// Counts one shot: its kind's name (a [`ScenarioKind`] name or `other`), its events and
    /// the invariants it broke (empty when none).
    pub fn add<S: AsRef<str>>(&mut self, kind: &str, events: usize, broken: &[S]) {
        self.shots += 1;
        self.events += events as u64;
        *self.by_events.entry(events).or_default() += 1;
        self.failing += u64::from(!broken.is_empty());
        for b in broken {
            *self.by_invariant.entry(b.as_ref().to_string()).or_default() += 1;
        }
        let slot = self
            .by_kind
            .iter()
            .position(|e| e.0 == kind)
            .unwrap_or(self.by_kind.len() - 1);
        self.by_kind[slot].1 += u64::from(!broken.is_empty());
        self.by_kind[slot].2 += 1;
    }

    /// The event count of the shot at rank `k` (0-based) in increasing order.
    pub fn events_at(&self, k: u64) -> usize {
        let mut seen = 0;
        for (&events, &n) in &self.by_events {
            seen += n;
            if seen > k {
                return events;
            }
        }
        0
    }

    /// The summary line: `engine` names what ran (e.g. `event engine, mathavan physics`). No
    /// timing: a run and its merged shards write the same line.
    pub fn summary(&self, engine: &str) -> String {
        let invariants = if self.by_invariant.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = self
                .by_invariant
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect();
            format!(" ({})", list.join(", "))
        };
        let kinds: Vec<String> = self
            .by_kind
            .iter()
            .filter(|e| e.2 > 0)
            .map(|(k, f, n)| format!("{k} {f}/{n}"))
            .collect();
        format!(
            "stress: {} shots ({engine}), {} events, {} failing shots{invariants}; by kind \
             (failing/shots): {}; events per shot median {} max {}",
            self.shots,
            self.events,
            self.failing,
            kinds.join(", "),
            self.events_at(self.shots / 2),
            self.by_events.keys().next_back().copied().unwrap_or(0),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_reports_the_median_and_max_as_a_sorted_list_would() {
        let mut tally = StressTally::default();
        let counts = [5usize, 1, 9, 9, 3, 120, 7, 7];
        for (k, &events) in counts.iter().enumerate() {
            let broken: &[&str] = if k == 2 { &["overlap"] } else { &[] };
            tally.add("scatter", events, broken);
        }
        let mut sorted = counts.to_vec();
        sorted.sort_unstable();
        assert_eq!(tally.events_at(tally.shots / 2), sorted[sorted.len() / 2]);
        let line = tally.summary("event engine");
        assert!(
            line.contains("8 shots (event engine), 161 events, 1 failing shots (overlap: 1)"),
            "{line}"
        );
        assert!(
            line.contains("scatter 1/8") && line.contains("median 7 max 120"),
            "{line}"
        );
    }

    #[test]
    fn pieces_added_in_any_grouping_give_the_same_summary() {
        let shots: Vec<(&str, usize, Vec<&str>)> = (0..50)
            .map(|k| {
                let kind = ScenarioKind::ALL[k % 7].name();
                let broken = if k % 11 == 0 {
                    vec!["overlap", "nan"]
                } else {
                    vec![]
                };
                (kind, (k * 37) % 23, broken)
            })
            .collect();
        let mut whole = StressTally::default();
        for (kind, events, broken) in &shots {
            whole.add(kind, *events, broken);
        }
        let mut pieces = StressTally::default();
        for chunk in shots.chunks(7) {
            for (kind, events, broken) in chunk {
                let owned: Vec<String> = broken.iter().map(|b| b.to_string()).collect();
                pieces.add(kind, *events, &owned);
            }
        }
        assert_eq!(whole, pieces);
        assert_eq!(
            whole.summary("event engine"),
            pieces.summary("event engine")
        );
        let mut unknown = StressTally::default();
        unknown.add("a-file", 3, &[] as &[&str]);
        assert!(unknown.summary("x").contains("other 0/1"));
    }
}
