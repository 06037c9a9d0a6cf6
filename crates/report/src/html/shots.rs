//! Every shot of the outcome study (`outcomes/shots.csv`), compact, for the page's drill-down:
//! each shot's reference outcome, and for every run that differs from it, what differed.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::HtmlError;

/// The columns of `outcomes/shots.csv` the page reads (the file has more).
#[derive(Deserialize, Clone, Debug)]
pub(super) struct ShotRow {
    pub(super) family: String,
    pub(super) table: String,
    pub(super) index: u64,
    pub(super) shot: String,
    pub(super) run: pool_outcome::Run,
    pub(super) engine: String,
    pub(super) scheme: String,
    dt_s: Option<f64>,
    termination: String,
    first_contact: String,
    pocketed: String,
    scratch: Option<u8>,
    d_outcome: Option<u8>,
    d_first_contact: Option<u8>,
    d_first_cushion: Option<u8>,
    d_pocketed: Option<u8>,
    d_scratch: Option<u8>,
    d_end: Option<u8>,
    d_cue_position: Option<u8>,
    d_positions: Option<u8>,
    #[serde(with = "pool_outcome::failure_column")]
    pub(super) failure: Option<pool_outcome::Failure>,
}

/// What differs, as bits: outcome, first contact, first cushion, pocketed, scratch, end, cue
/// position, positions, failed (the run could not play the shot).
const BITS: [&str; 9] = [
    "outcome",
    "first_contact",
    "first_cushion",
    "pocketed",
    "scratch",
    "end",
    "cue_position",
    "positions",
    "failed",
];

/// One run of the study: engine, scheme and dt as the rate tables name it, and the shots it
/// played: `played = [[family index, [[first, end), ...]], ...]` (a cell plays fewer shots
/// than the reference when its claim was decided sooner; a shot it never played is not one of
/// its shots, even where no row says it differs).
#[derive(Serialize, Clone, Debug)]
struct Run {
    run: pool_outcome::Run,
    engine: String,
    scheme: String,
    dt: Option<f64>,
    played: Vec<(usize, Vec<[u64; 2]>)>,
}

/// Sorted shot indices as half-open ranges of consecutive ones.
fn ranges(mut indices: Vec<u64>) -> Vec<[u64; 2]> {
    indices.sort_unstable();
    indices.dedup();
    let mut out: Vec<[u64; 2]> = Vec::new();
    for i in indices {
        match out.last_mut() {
            Some(last) if last[1] == i => last[1] = i + 1,
            _ => out.push([i, i + 1]),
        }
    }
    out
}

/// A shot being gathered: its name, the reference's summary and the runs that differ.
type ShotEntry = (String, Option<serde_json::Value>, Vec<serde_json::Value>);

/// The shots, compact: `list[k] = [family index, shot index, shot name, reference, diffs]`
/// with `reference = [first contact, pocketed, scratch, termination]` and `diffs` one
/// `[run index, bits, first contact, pocketed, scratch, termination]` per run that differs
/// from the reference in any field (runs not listed agree in every field).
#[derive(Serialize, Clone, Debug)]
pub(super) struct Shots {
    bits: [&'static str; 9],
    runs: Vec<Run>,
    families: Vec<(String, String)>,
    list: Vec<serde_json::Value>,
}

impl Shots {
    pub(super) fn of(rows: &[ShotRow], path: &Path) -> Result<Self, HtmlError> {
        let mut runs: Vec<Run> = Vec::new();
        let mut families: Vec<(String, String)> = Vec::new();
        let mut by_shot: BTreeMap<(usize, u64), ShotEntry> = BTreeMap::new();
        let mut order: Vec<(usize, u64)> = Vec::new();
        let mut played: BTreeMap<(usize, usize), Vec<u64>> = BTreeMap::new();
        for r in rows {
            let fam = (r.family.clone(), r.table.clone());
            let f = match families.iter().position(|x| *x == fam) {
                Some(i) => i,
                None => {
                    families.push(fam);
                    families.len() - 1
                }
            };
            let key = (f, r.index);
            let entry = by_shot.entry(key).or_insert_with(|| {
                order.push(key);
                (r.shot.clone(), None, Vec::new())
            });
            let summary = |bits: Option<u32>| {
                let mut v = Vec::new();
                if let Some(b) = bits {
                    v.push(serde_json::json!(b));
                }
                v.extend([
                    serde_json::json!(r.first_contact),
                    serde_json::json!(r.pocketed),
                    serde_json::json!(r.scratch.unwrap_or(0)),
                    serde_json::json!(r.termination),
                ]);
                v
            };
            if r.run == pool_outcome::Run::Reference {
                entry.1 = Some(serde_json::Value::Array(summary(None)));
                continue;
            }
            let flags = [
                r.d_outcome,
                r.d_first_contact,
                r.d_first_cushion,
                r.d_pocketed,
                r.d_scratch,
                r.d_end,
                r.d_cue_position,
                r.d_positions,
            ];
            let mut bits: u32 = flags
                .iter()
                .enumerate()
                .map(|(i, f)| u32::from(f.unwrap_or(0) != 0) << i)
                .sum();
            if r.failure.is_some() {
                bits |= 1 << 8;
            }
            let run = Run {
                run: r.run.clone(),
                engine: r.engine.clone(),
                scheme: r.scheme.clone(),
                dt: r.dt_s,
                played: Vec::new(),
            };
            let ri = match runs.iter().position(|x| x.run == run.run) {
                Some(i) => i,
                None => {
                    runs.push(run);
                    runs.len() - 1
                }
            };
            played.entry((ri, f)).or_default().push(r.index);
            if bits != 0 {
                let mut v = vec![serde_json::json!(ri)];
                v.extend(summary(Some(bits)));
                entry.2.push(serde_json::Value::Array(v));
            }
        }
        for ((ri, f), indices) in played {
            runs[ri].played.push((f, ranges(indices)));
        }
        let mut list = Vec::with_capacity(order.len());
        for key in order {
            let (shot, reference, diffs) = by_shot.remove(&key).unwrap_or_default();
            let Some(reference) = reference else {
                return Err(HtmlError::at(
                    path,
                    format!(
                        "shot {} of {} on {}: no reference row",
                        key.1, families[key.0].0, families[key.0].1
                    ),
                ));
            };
            list.push(serde_json::json!([key.0, key.1, shot, reference, diffs]));
        }
        Ok(Shots {
            bits: BITS,
            runs,
            families,
            list,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn played_indices_become_half_open_ranges() {
        assert_eq!(ranges(vec![]), Vec::<[u64; 2]>::new());
        // Unordered and repeated indices: one range per run of consecutive ones.
        assert_eq!(
            ranges(vec![5, 0, 1, 2, 2, 7, 6, 9]),
            vec![[0, 3], [5, 8], [9, 10]]
        );
    }
}
