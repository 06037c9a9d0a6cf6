//! Which shots of a study are replayed for its drill-down (`outcomes/replays.json`): the shots
//! where an engine changed the outcome, round-robin over the (family, table, run) cells so that
//! every cell gets one before any gets two, kept while they fit the file's byte ceiling. The
//! command line reads the rows and writes the file; this module only chooses.

use crate::tally::rows::OutcomeShotRow;

/// One shot of `outcomes/shots.csv` with its rows (every run of it), as the file names them.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotRows {
    /// Family kind.
    pub family: String,
    /// Table.
    pub table: String,
    /// Index of the shot in its family.
    pub index: u64,
    /// Its rows, in file order.
    pub rows: Vec<OutcomeShotRow>,
}

/// Up to `max` shots (indices into `shots`, in the order taken), round-robin over the
/// (family, table, run) cells of the disagreeing runs `replayable` allows, in the order the
/// rows first name them: round k gives every cell that has fewer than k of the shots taken
/// its next shot not yet taken.
pub fn pick_replays(shots: &[ShotRows], max: u64, replayable: &dyn Fn(&str) -> bool) -> Vec<usize> {
    let mut cells: Vec<(String, String, String)> = Vec::new();
    let mut queues: Vec<Vec<usize>> = Vec::new();
    let mut cells_of: Vec<Vec<usize>> = vec![Vec::new(); shots.len()];
    for (s, shot) in shots.iter().enumerate() {
        for row in shot
            .rows
            .iter()
            .filter(|r| r.changed_outcome() && replayable(r.run.as_str()))
        {
            let cell = (row.family.clone(), row.table.clone(), row.run.to_string());
            let c = match cells.iter().position(|x| *x == cell) {
                Some(c) => c,
                None => {
                    cells.push(cell);
                    queues.push(Vec::new());
                    cells.len() - 1
                }
            };
            queues[c].push(s);
            cells_of[s].push(c);
        }
    }
    let mut taken = vec![false; shots.len()];
    let mut have = vec![0u64; cells.len()];
    let mut next = vec![0usize; cells.len()];
    let mut out = Vec::new();
    for round in 1u64.. {
        // Whether some cell still has a shot not taken (in this round or a later one).
        let mut left = false;
        for c in 0..cells.len() {
            if out.len() as u64 >= max {
                return out;
            }
            while next[c] < queues[c].len() && taken[queues[c][next[c]]] {
                next[c] += 1;
            }
            let Some(&s) = queues[c].get(next[c]) else {
                continue;
            };
            left = true;
            if have[c] >= round {
                continue;
            }
            taken[s] = true;
            out.push(s);
            for &d in &cells_of[s] {
                have[d] += 1;
            }
        }
        if !left {
            break;
        }
    }
    out
}

/// Which of the replays of `sizes` bytes each (in the order taken) the file keeps within
/// `ceiling` bytes: each while it fits, with room for the file's own fields and a comma per
/// replay; one that does not fit is left out, and a smaller one after it may still fit.
pub fn fit_within(sizes: &[usize], ceiling: usize) -> Vec<bool> {
    let reserve = 4096;
    let mut size = reserve;
    sizes
        .iter()
        .map(|&b| {
            let fits = size + b < ceiling;
            if fits {
                size += b + 1;
            }
            fits
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::rows::{Run, FLOOR, REFERENCE};

    fn row(family: &str, index: u64, run: &str, d: u8) -> OutcomeShotRow {
        let mut r: OutcomeShotRow = csv::Reader::from_reader(
            "family,table,index,shot,run,engine,scheme,dt_s,termination,events,ops,\
             first_contact,first_contact_t_s,first_cushion,pocketed,scratch,objects_pocketed,\
             object_pockets,score,cue_x_m,cue_y_m,d_outcome,d_first_contact,d_first_cushion,d_pocketed,\
             d_scratch,d_end,d_cue_position,d_positions,cue_position_error_m,\
             position_error_max_m,failure\n\
             cut,t,0,s,reference,event,isolator,,at_rest,1,1,,,,,0,0,,,,,0,0,0,0,0,0,0,0,,,\n"
                .as_bytes(),
        )
        .deserialize()
        .next()
        .unwrap()
        .unwrap();
        r.family = family.into();
        r.index = index;
        r.run = Run::of(run);
        r.d_outcome = d;
        r
    }

    fn shot(family: &str, index: u64, runs: &[(&str, u8)]) -> ShotRows {
        let mut rows = vec![
            row(family, index, REFERENCE, 0),
            row(family, index, FLOOR, 1),
        ];
        rows.extend(runs.iter().map(|&(r, d)| row(family, index, r, d)));
        ShotRows {
            family: family.into(),
            table: "t".into(),
            index,
            rows,
        }
    }

    #[test]
    fn the_byte_ceiling_keeps_shots_in_the_order_taken_while_they_fit() {
        let c = 4096 + 100;
        assert_eq!(fit_within(&[40, 40, 40], c), [true, true, false]);
        assert_eq!(fit_within(&[97, 1, 1], c), [true, true, false]);
        assert_eq!(fit_within(&[200, 10, 10], c), [false, true, true]);
        assert_eq!(fit_within(&[], c), Vec::<bool>::new());
    }

    #[test]
    fn every_disagreeing_cell_gets_a_shot_before_any_gets_two() {
        // Engine a disagrees on cut shots 0-3, engine b on cut shot 3 only, engine a on bank
        // shot 0; the floor's disagreements never count.
        let shots = vec![
            shot("cut", 0, &[("a", 1), ("b", 0)]),
            shot("cut", 1, &[("a", 1), ("b", 0)]),
            shot("cut", 2, &[("a", 1), ("b", 0)]),
            shot("cut", 3, &[("a", 1), ("b", 1)]),
            shot("bank", 0, &[("a", 1), ("b", 0)]),
            shot("bank", 1, &[("a", 0), ("b", 0)]),
        ];
        let all = |_: &str| true;
        assert_eq!(pick_replays(&shots, 3, &all), [0, 3, 4]);
        assert_eq!(pick_replays(&shots, 100, &all), [0, 3, 4, 1, 2]);
        assert_eq!(pick_replays(&shots, 0, &all), Vec::<usize>::new());
        // b's runs not replayable: its cell has no shot.
        assert_eq!(pick_replays(&shots, 2, &|r: &str| r != "b"), [0, 4]);
    }
}
