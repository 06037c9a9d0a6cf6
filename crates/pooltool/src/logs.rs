//! Event logs side by side: pooltool's own run (a simulated `System` file's `events`) and ours,
//! in the same terms, and how far they agree.

use pool_physics::{cushion_id_from_pooltool, pocket_id_from_pooltool};
use pool_sim::{Agents, Outcome, Setup};
use serde_json::Value;

/// One event as both logs say it: when, what and who.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedEvent {
    /// Time (s).
    pub time: f64,
    /// The event type, pooltool's name (`ball_ball`, `ball_linear_cushion`, `sliding_rolling`,
    /// `stick_ball`, ...), which is ours too.
    pub kind: String,
    /// The agents' ids in our frame and names (balls first, then the cushion or pocket; the
    /// cue stick of a `stick_ball` left out).
    pub agents: Vec<String>,
}

impl LoggedEvent {
    /// Same kind and the same agents, in any order.
    pub fn same_as(&self, other: &LoggedEvent) -> bool {
        let sorted = |a: &[String]| {
            let mut a = a.to_vec();
            a.sort_unstable();
            a
        };
        self.kind == other.kind && sorted(&self.agents) == sorted(&other.agents)
    }
}

impl std::fmt::Display for LoggedEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} [{}] at {:?} s",
            self.kind,
            self.agents.join(" "),
            self.time
        )
    }
}

/// pooltool's events of a simulated `System` file's tree (as [`crate::read_tree`] reads it),
/// `none` events left out, agent ids mapped to ours.
///
/// # Errors
/// The tree has no `events` list, or an event lacks its type, time or agents' ids.
pub fn pooltool_events(tree: &Value) -> Result<Vec<LoggedEvent>, String> {
    let events = (tree.get("events").and_then(Value::as_array))
        .ok_or("events: missing (not a simulated pooltool System)")?;
    let mut out = Vec::with_capacity(events.len());
    for (k, e) in events.iter().enumerate() {
        let kind = (e.get("event_type").and_then(Value::as_str))
            .ok_or_else(|| format!("events[{k}].event_type: missing or not a name"))?;
        if kind == "none" {
            continue;
        }
        let time = (e.get("time").and_then(Value::as_f64))
            .ok_or_else(|| format!("events[{k}].time: missing or not a number"))?;
        let agents = (e.get("agents").and_then(Value::as_array))
            .ok_or_else(|| format!("events[{k}].agents: missing"))?;
        let mut ids = Vec::with_capacity(agents.len());
        for (j, a) in agents.iter().enumerate() {
            let id = (a.get("id").and_then(Value::as_str))
                .ok_or_else(|| format!("events[{k}].agents[{j}].id: missing"))?;
            match a.get("agent_type").and_then(Value::as_str) {
                Some("cue") => {}
                Some("linear_cushion_segment" | "circular_cushion_segment") => {
                    ids.push(cushion_id_from_pooltool(id))
                }
                Some("pocket") => ids.push(pocket_id_from_pooltool(id)),
                _ => ids.push(id.to_string()),
            }
        }
        out.push(LoggedEvent {
            time,
            kind: kind.to_string(),
            agents: ids,
        });
    }
    Ok(out)
}

/// Our run `outcome` of `setup` in the same terms.
pub fn our_events(setup: &Setup, outcome: &Outcome) -> Vec<LoggedEvent> {
    let t = &setup.table;
    let ball = |i: usize| setup.balls[i].id.clone();
    (outcome.events.iter())
        .map(|e| LoggedEvent {
            time: e.time,
            kind: e.kind.name().to_string(),
            agents: match e.agents {
                Agents::Ball { ball: i } => vec![ball(i)],
                Agents::BallBall { a, b } => vec![ball(a), ball(b)],
                Agents::BallCushion { ball: i, cushion } => {
                    vec![ball(i), t.cushions[cushion].id.clone()]
                }
                Agents::BallCircularCushion { ball: i, cushion } => {
                    vec![ball(i), t.circular_cushions[cushion].id.clone()]
                }
                Agents::BallPocket { ball: i, pocket } => {
                    vec![ball(i), t.pockets[pocket].id.clone()]
                }
            },
        })
        .collect()
}

/// How far two logs agree from their start: [`shared_prefix`]'s answer.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedPrefix {
    /// Events the logs share from the start: the same kinds and agents in the same order, up
    /// to events less than the tie window apart trading places.
    pub len: usize,
    /// The largest time difference between matched events of the prefix (s).
    pub worst_dt: f64,
    /// Where and why it ends (one line), `None` when both whole logs agree.
    pub end: Option<String>,
    /// When it ends (s): the earlier of the two events that differ, or the last shared
    /// event's time when a log ends; `None` when both whole logs agree.
    pub at: Option<f64>,
}

/// The events `ours` and `theirs` share from the start: ours in order, each matched to the
/// earliest unmatched event of `theirs` with the same kind and agents among those less than
/// `tie` s after the earliest unmatched one (near-simultaneous events, a rack's cascade, may be
/// logged in either order). It ends at the first of ours that has no such match, or when a
/// log ends; `end` says which events differ, and whether they are the same events in another
/// order (a time drift) or a different event.
pub fn shared_prefix(ours: &[LoggedEvent], theirs: &[LoggedEvent], tie: f64) -> SharedPrefix {
    let mut left: Vec<usize> = (0..theirs.len()).collect();
    let mut worst = 0.0f64;
    for (k, e) in ours.iter().enumerate() {
        let Some(&first) = left.first() else {
            return SharedPrefix {
                len: k,
                worst_dt: worst,
                at: Some(e.time),
                end: Some(format!(
                    "event {k}: pooltool's run ends after {} events, ours has {} more, from {e}",
                    theirs.len(),
                    ours.len() - k
                )),
            };
        };
        let window = theirs[first].time + tie;
        let pick = (left.iter().enumerate())
            .take_while(|(_, &j)| theirs[j].time <= window)
            .find(|(_, &j)| theirs[j].same_as(e));
        match pick {
            Some((slot, &j)) => {
                worst = worst.max((e.time - theirs[j].time).abs());
                left.remove(slot);
            }
            None => {
                let other = &theirs[first];
                // The same events in another order: each log has the other's later on.
                let later_theirs = left
                    .iter()
                    .skip(1)
                    .map(|&j| &theirs[j])
                    .find(|x| x.same_as(e));
                let later_ours = ours[k + 1..].iter().find(|x| x.same_as(other));
                let why = match (later_theirs, later_ours) {
                    (Some(a), Some(_)) => format!(
                        "the same events in another order: pooltool has ours at {:?} s, {:.2e} s \
                         apart",
                        a.time,
                        (a.time - e.time).abs()
                    ),
                    _ => "a different event".to_string(),
                };
                return SharedPrefix {
                    len: k,
                    worst_dt: worst,
                    end: Some(format!("event {k}: ours {e}, pooltool {other}: {why}")),
                    at: Some(e.time.min(other.time)),
                };
            }
        }
    }
    let end = (!left.is_empty()).then(|| {
        format!(
            "event {}: our run ends after {} events, pooltool's has {} more, from {}",
            ours.len(),
            ours.len(),
            left.len(),
            theirs[left[0]]
        )
    });
    SharedPrefix {
        len: ours.len(),
        worst_dt: worst,
        at: end.as_ref().map(|_| theirs[left[0]].time),
        end,
    }
}

/// `setup` with every law that reads the contact's geometry after pooltool's `make_kiss`
/// reading it `spacer` (m) off the contact, as pooltool run with
/// `pooltool.constants.MIN_DIST = spacer` does (its `make_kiss` moves the bodies that far apart
/// before the law runs): the ball–ball and cushion laws pooltool has. The laws of a run of
/// ours to set beside such a pooltool run; other laws and everything else as they are.
pub fn at_spacer(setup: &Setup, spacer: f64) -> Setup {
    let mut resolver = setup.physics.resolver().clone();
    resolver.ball_ball = resolver.ball_ball.with_spacer(spacer);
    resolver.ball_linear_cushion = resolver.ball_linear_cushion.with_spacer(spacer);
    resolver.ball_circular_cushion = resolver.ball_circular_cushion.with_spacer(spacer);
    let old = &setup.physics;
    let mut physics = pool_physics::Model::new(*old.params(), old.motion(), resolver);
    for p in old.ball_sets() {
        // The sets were distinct in `old`, so they take the same numbers here, and there are
        // no more of them than fit.
        let _ = physics.add_ball_params(p);
    }
    Setup {
        physics,
        ..setup.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(time: f64, kind: &str, agents: &[&str]) -> LoggedEvent {
        LoggedEvent {
            time,
            kind: kind.into(),
            agents: agents.iter().map(|a| a.to_string()).collect(),
        }
    }

    #[test]
    fn the_prefix_ends_at_the_first_event_without_a_match() {
        let ours = [
            ev(0.0, "stick_ball", &["cue"]),
            ev(1.0, "ball_ball", &["cue", "1"]),
            ev(1.0 + 1e-9, "ball_ball", &["1", "2"]),
            ev(1.0 + 2e-9, "ball_ball", &["1", "3"]),
            ev(2.0, "ball_linear_cushion", &["2", "c9"]),
        ];
        // Events within the tie window may trade places; agents in any order.
        let theirs = [
            ev(0.0, "stick_ball", &["cue"]),
            ev(1.0 + 5e-10, "ball_ball", &["1", "cue"]),
            ev(1.0 + 1e-9, "ball_ball", &["1", "3"]),
            ev(1.0 + 1.5e-9, "ball_ball", &["2", "1"]),
            ev(2.5, "ball_pocket", &["2", "lb"]),
        ];
        let p = shared_prefix(&ours, &theirs, 1e-6);
        assert_eq!(p.len, 4);
        assert!((p.worst_dt - 1e-9).abs() < 1e-15, "{p:?}");
        let end = p.end.unwrap();
        assert!(
            end.starts_with("event 4: ours ball_linear_cushion [2 c9]"),
            "{end}"
        );
        assert!(end.ends_with("a different event"), "{end}");
        assert_eq!(p.at, Some(2.0));
        // Outside the window the order counts, and the end says it is an order.
        let p = shared_prefix(&ours, &theirs, 1e-12);
        assert_eq!(p.len, 2);
        assert!(p.end.unwrap().contains("another order"));
        // A whole log shared, and one log ending early.
        assert_eq!(shared_prefix(&ours, &ours, 0.0).end, None);
        let p = shared_prefix(&ours[..3], &ours, 0.0);
        assert_eq!(p.len, 3);
        assert!(p
            .end
            .unwrap()
            .contains("our run ends after 3 events, pooltool's has 2 more"));
        let p = shared_prefix(&ours, &ours[..3], 0.0);
        assert_eq!(p.len, 3);
        assert!(p
            .end
            .unwrap()
            .contains("pooltool's run ends after 3 events"));
    }
}
