//! The simulation set-up both engines receive.

use pool_physics::resolve::Cue;
use pool_physics::{
    BallState, Escape, EventKind, Model, Physics, PreparedTable, Vec2, MAX_ESCAPE_TESTS,
};

use crate::{Agents, Event};

/// One ball of a set-up.
#[derive(Clone, Debug, PartialEq)]
pub struct Ball {
    /// Identifier used in event logs (e.g. `cue`, `1`).
    pub id: String,
    /// Initial state at t = 0.
    pub state: BallState,
}

/// A complete shot: physics model, table, initial balls and an optional time limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Name (the shot file's stem).
    pub name: String,
    /// Physics model (equations of motion, transitions, collision laws).
    pub physics: Model,
    /// Table geometry, prepared once (build it with `Table::into()`).
    pub table: PreparedTable,
    /// Balls, in file order; event logs refer to them by index.
    pub balls: Vec<Ball>,
    /// Stop at this time (s) even if balls still move; required for frictionless shots.
    pub t_end: Option<f64>,
    /// A cue strike at t = 0, if the shot starts with one (else the balls' states are given).
    pub strike: Option<Strike>,
}

/// A cue strike at the start of a shot.
#[derive(Clone, Debug, PartialEq)]
pub struct Strike {
    /// The struck ball's index in [`Setup::balls`].
    pub ball: usize,
    /// The stroke.
    pub cue: Cue,
}

/// Why a set-up cannot be simulated.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupError {
    /// The offending field, e.g. `balls[3].r` (id "9").
    pub field: String,
    /// The offending value as text.
    pub value: String,
    /// What is wrong.
    pub why: String,
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} = {}: {}", self.field, self.value, self.why)
    }
}

impl std::error::Error for SetupError {}

impl Setup {
    /// The balls' states an engine starts from, at t = 0: the given ones, with the struck
    /// ball's replaced by the strike's result ([`Model::strike`]), and the strike's
    /// `stick_ball` event (logged at t = 0 first, as pooltool does).
    pub fn initial_states(&self) -> (Vec<BallState>, Option<Event>) {
        let mut states: Vec<BallState> = self.balls.iter().map(|b| b.state).collect();
        let event = self.strike.as_ref().map(|s| {
            states[s.ball] = self.physics.strike(&states[s.ball], &s.cue);
            Event {
                time: 0.0,
                kind: EventKind::StickBall,
                agents: Agents::Ball { ball: s.ball },
            }
        });
        (states, event)
    }
}

/// The fastest a ball may move at the start, |v| and R |w| (m/s): a hundred times a hard break.
pub const MAX_SPEED: f64 = 1e3;

/// The precision (m) positions must keep for contacts to be found within the engines' 1e-9 m
/// contact tolerance, with a factor 10 to spare. It bounds the table's size and the time limit
/// (see [`max_table_diagonal`], [`max_t_end`]).
pub const POSITION_PRECISION: f64 = 1e-10;

/// The longest table diagonal (m) for balls of radius `radius` (m). A contact is the root of
/// |r_a - r_b|^2 - 4R^2, whose terms are as large as D^2 across a table of diagonal D and
/// rounded by eps D^2; that moves the contact by eps D^2 / 4R, which must stay under
/// [`POSITION_PRECISION`] (227 m for pool balls, 42 m for R = 1 mm). A 1000 m channel at
/// R = 18.5 mm put two balls 1.1e-9 m into each other.
pub fn max_table_diagonal(radius: f64) -> f64 {
    (4.0 * radius * POSITION_PRECISION / f64::EPSILON).sqrt()
}

/// The latest `t_end` (s) for balls no faster than `speed` (m/s): a position evolved to time t
/// is off by up to speed x ulp(t), about speed x eps x t, which must stay under
/// [`POSITION_PRECISION`] (450 s at 1000 m/s, 4.5e5 s at 1 m/s).
pub fn max_t_end(speed: f64) -> f64 {
    POSITION_PRECISION / (f64::EPSILON * speed)
}

/// Balls closer than 2R by more than this (m) overlap; touching ("frozen") balls are allowed.
pub const OVERLAP_TOL: f64 = 1e-9;

impl Setup {
    /// Checks what the engines rely on: every ball's parameter set in the model, finite
    /// states, every ball on the table (inside the
    /// region the cushions enclose, pocket mouths and throats included:
    /// [`PreparedTable::escape`]) and clear of the cushions, no two balls overlapping by more
    /// than [`OVERLAP_TOL`], cushion heights the laws can resolve, a positive finite `t_end`
    /// no later than [`max_t_end`] for the balls' speeds, a table no longer across than
    /// [`max_table_diagonal`] for the smallest radius (the precision contacts need).
    pub fn validate(&self) -> Result<(), SetupError> {
        let err = |field: String, value: String, why: &str| {
            Err(SetupError {
                field,
                value,
                why: why.to_string(),
            })
        };
        let (smallest, _) = self.physics.radius_range();
        if let Some(t) = self.t_end {
            if !(t.is_finite() && t > 0.0) {
                return err(
                    "t_end".into(),
                    t.to_string(),
                    "must be a positive finite time (s)",
                );
            }
        }
        let mut checks = std::collections::HashMap::new();
        let mut tests = 0u64;
        for (i, b) in self.balls.iter().enumerate() {
            let name = |f: &str| format!("balls[{i}].{f} (id {:?})", b.id);
            let s = &b.state;
            if self.physics.set_params(s.set).is_none() {
                return err(
                    name("set"),
                    s.set.to_string(),
                    &format!(
                        "no such ball parameter set: the model has sets 0 to {}",
                        self.physics.ball_sets().len()
                    ),
                );
            }
            let radius = self.physics.radius(s);
            for (f, v) in [("r", s.r), ("v", s.v), ("w", s.w)] {
                if v.iter().any(|x| !x.is_finite()) {
                    return err(name(f), fmt3(&v), "every component must be finite");
                }
            }
            let p = Vec2::new(s.r.x, s.r.y);
            if s.motion != pool_physics::MotionState::Pocketed {
                // A table of its own is asked through its enclosure check (a grid of its
                // elements, one per radius): the same answers as the scans, near-linear in
                // balls and elements.
                let check = (!self.table.is_built_in()).then(|| {
                    checks
                        .entry(radius.to_bits())
                        .or_insert_with(|| self.table.enclosure(radius))
                });
                let pocket = match &check {
                    Some(c) => c.pocket_at(p),
                    None => {
                        (self.table.pockets.iter()).find(|k| (p - k.center_vec()).norm() < k.radius)
                    }
                };
                if let Some(k) = pocket {
                    return err(
                        name("r"),
                        fmt3(&s.r),
                        &format!(
                            "ball center is inside pocket {:?}: it would be pocketed at once",
                            k.id
                        ),
                    );
                }
                let overlap = match &check {
                    Some(c) => c.cushion_overlap(p, OVERLAP_TOL),
                    None => self.table.cushion_overlap(p, radius, OVERLAP_TOL),
                };
                if let Some(c) = overlap {
                    return err(
                        name("r"),
                        fmt3(&s.r),
                        &format!("ball overlaps cushion {c:?} (closer than R = {radius} m)"),
                    );
                }
                // On the table means inside the region the cushions enclose, pocket mouths and
                // throats included. Built-in tables are closed around their whole playing
                // area (tested once for all): a ball there needs no search.
                let in_area =
                    p.x > 0.0 && p.y > 0.0 && p.x < self.table.length && p.y < self.table.width;
                let escape = match &check {
                    None if in_area => None,
                    None => self.table.escape(p, radius),
                    Some(c) => {
                        let before = c.obstacles_tested();
                        let escape = c.escape(p);
                        tests += c.obstacles_tested() - before;
                        escape
                    }
                };
                if tests > MAX_ESCAPE_TESTS {
                    return err(
                        "table".into(),
                        format!(
                            "{} straight cushions, {} circular, {} pockets under {} balls",
                            self.table.cushions.len(),
                            self.table.circular_cushions.len(),
                            self.table.pockets.len(),
                            self.balls.len()
                        ),
                        &format!(
                            "checking that every ball is on this table would take more than \
                             {MAX_ESCAPE_TESTS} tests of a straight path against a cushion (at \
                             ball {i} of {}: the table has that many cushion ends a ball sees \
                             past); use fewer balls or a simpler outline",
                            self.balls.len()
                        ),
                    );
                }
                match escape {
                    None => {}
                    Some(Escape::Open(d)) => {
                        return err(
                            name("r"),
                            fmt3(&s.r),
                            &format!(
                                "ball is off the playing area (the region the cushions \
                                 enclose, pocket mouths included): the table is open around \
                                 this ball, rolling toward ({:.3}, {:.3}) it meets no cushion \
                                 and no pocket",
                                d.x, d.y
                            ),
                        )
                    }
                    Some(Escape::Behind(d, k)) => {
                        return err(
                            name("r"),
                            fmt3(&s.r),
                            &format!(
                                "ball is off the playing area (the region the cushions \
                                 enclose, pocket mouths included): it is behind cushion {:?}, \
                                 rolling toward ({:.3}, {:.3}) it meets its back (its playing \
                                 side is on the left of p1 -> p2)",
                                self.table.cushions[k].id, d.x, d.y
                            ),
                        )
                    }
                }
            }
            for (f, v, scale) in [("v", s.v, 1.0), ("w", s.w, radius)] {
                // |v| without overflow for huge components.
                let big = v.amax();
                let speed = if big > 0.0 {
                    big * (v / big).norm() * scale
                } else {
                    0.0
                };
                if speed > MAX_SPEED {
                    return err(
                        name(f),
                        fmt3(&v),
                        &format!(
                            "{} must be at most {MAX_SPEED} m/s (got {speed:.3e}): past it the \
                             engines' tolerances, scaled by the speeds, lose their meaning",
                            if f == "v" { "the speed" } else { "R |w|" }
                        ),
                    );
                }
            }
        }
        let diagonal = self.table.length.hypot(self.table.width);
        let radius = smallest;
        if diagonal > max_table_diagonal(radius) {
            return err(
                "table".into(),
                format!("{:?} x {:?} m", self.table.length, self.table.width),
                &format!(
                    "its diagonal ({} m) is longer than the {} m that balls of R = {radius:?} m \
                     allow: across it, positions lose the {POSITION_PRECISION:e} m of precision \
                     that contacts need",
                    short(diagonal),
                    short(max_table_diagonal(radius))
                ),
            );
        }
        let linear = self.table.cushions.iter().map(|c| (&c.id, c.height));
        let circular = (self.table.circular_cushions.iter()).map(|c| (&c.id, c.height));
        for (list, heights) in [
            ("cushions", linear.collect::<Vec<_>>()),
            ("circular_cushions", circular.collect()),
        ] {
            for (i, (id, height)) in heights.into_iter().enumerate() {
                if let Err(why) = self.physics.check_cushion_height(height) {
                    return err(
                        format!("table.{list}[{i}].height (id {id:?})"),
                        height.to_string(),
                        &why,
                    );
                }
            }
        }
        if let Some(strike) = &self.strike {
            if strike.ball >= self.balls.len() {
                return err("cue.ball".into(), strike.ball.to_string(), "no such ball");
            }
            if let Err((field, value, why)) = strike.cue.validate() {
                return err(format!("cue.{field}"), value.to_string(), why);
            }
            // The struck ball leaves the cue within the speeds a given state may have.
            let struck = self
                .physics
                .strike(&self.balls[strike.ball].state, &strike.cue);
            let speed = struck.v.norm().max(radius * struck.w.norm());
            if speed.is_nan() || speed > MAX_SPEED {
                return err(
                    "cue.V0".into(),
                    strike.cue.v0.to_string(),
                    &format!(
                        "the strike would send the ball off at {} m/s (|v| or R |w|); at most \
                         {MAX_SPEED} m/s",
                        short(speed)
                    ),
                );
            }
        }
        if let Some(t) = self.t_end {
            // No ball ever moves faster than all the kinetic energy in the lightest ball (spin
            // counted as if all of it could turn into speed: 1/2 I w^2 <= 1/2 m (R w)^2).
            let (states, _) = self.initial_states();
            let lightest = self
                .physics
                .all_params()
                .fold(f64::INFINITY, |m, p| m.min(p.m));
            let speed = states
                .iter()
                .map(|s| {
                    let r = self.physics.radius(s);
                    (self.physics.mass(s) / lightest)
                        * (s.v.norm_squared() + (r * s.w.norm()).powi(2))
                })
                .sum::<f64>()
                .sqrt();
            if t > max_t_end(speed) {
                return err(
                    "t_end".into(),
                    format!("{t:?}"),
                    &format!(
                        "at most {} s for balls up to {} m/s: later, times lose the \
                         {POSITION_PRECISION:e} m of precision that contacts need (speed x \
                         ulp(t))",
                        short(max_t_end(speed)),
                        short(speed)
                    ),
                );
            }
        }
        // The first overlapping partner of each ball (the smallest later index), found among
        // the balls of the neighbouring cells of a grid of the largest contact distance: the
        // answer of a scan of every pair, in near-linear time.
        let reach = (self.physics.all_params())
            .map(|p| 2.0 * p.radius)
            .fold(0.0, f64::max);
        let cell = |s: &BallState| {
            let key = |x: f64| (x / reach).floor() as i64;
            (key(s.r.x), key(s.r.y))
        };
        let mut cells: std::collections::HashMap<(i64, i64), Vec<usize>> =
            std::collections::HashMap::new();
        let on_table = |b: &Ball| b.state.motion != pool_physics::MotionState::Pocketed;
        for (i, b) in self.balls.iter().enumerate().filter(|(_, b)| on_table(b)) {
            cells.entry(cell(&b.state)).or_default().push(i);
        }
        let mut partner: Vec<Option<usize>> = vec![None; self.balls.len()];
        for (i, a) in self.balls.iter().enumerate().filter(|(_, b)| on_table(b)) {
            let (cx, cy) = cell(&a.state);
            for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
                let near = cells.get(&(cx.saturating_add(dx), cy.saturating_add(dy)));
                for &j in near.into_iter().flatten().filter(|&&j| j > i) {
                    let b = &self.balls[j];
                    let d = (a.state.r.xy() - b.state.r.xy()).norm();
                    if d < self.physics.contact_distance(&a.state, &b.state) - OVERLAP_TOL {
                        partner[i] = Some(partner[i].map_or(j, |k| k.min(j)));
                    }
                }
            }
        }
        let mut last_of_id: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::new();
        for (i, b) in self.balls.iter().enumerate() {
            last_of_id.insert(b.id.as_str(), i);
        }
        let elements: std::collections::HashMap<&str, String> =
            self.table.element_ids().map(|(at, id)| (id, at)).collect();
        for i in 0..self.balls.len() {
            if let Some(j) = partner[i] {
                let (a, b) = (&self.balls[i], &self.balls[j]);
                let d = (a.state.r.xy() - b.state.r.xy()).norm();
                let touch = self.physics.contact_distance(&a.state, &b.state);
                return err(
                    format!("balls[{j}].r (id {:?})", b.id),
                    fmt3(&b.state.r),
                    &format!(
                        "overlaps ball {:?}: centers {d:.6} m apart, less than {} m (2R, \
                         or 2 sqrt(R_a R_b) for balls of radii R_a, R_b)",
                        a.id, touch
                    ),
                );
            }
            if last_of_id[self.balls[i].id.as_str()] > i {
                return err(
                    format!("balls[{i}].id"),
                    format!("{:?}", self.balls[i].id),
                    "ball ids must be unique",
                );
            }
            // Events name their agents by id: a ball's must name nothing else.
            let id = self.balls[i].id.as_str();
            if let Some(at) = elements.get(id) {
                return err(
                    format!("balls[{i}].id"),
                    format!("{id:?}"),
                    &format!(
                        "the table's {at} has the same id: an event's agents must name one \
                         thing each; rename the ball"
                    ),
                );
            }
        }
        Ok(())
    }
}

/// A number to four significant digits in its shortest form (`431400.0`, `1.044`, `2.5e-7`).
fn short(x: f64) -> String {
    format!("{x:.3e}")
        .parse::<f64>()
        .map_or_else(|_| x.to_string(), |r| format!("{r:?}"))
}

/// A vector as written in shot files, each number in its shortest round-trip form (with an
/// exponent when that is shorter, never hundreds of digits).
fn fmt3(v: &pool_physics::Vec3) -> String {
    format!("[{:?}, {:?}, {:?}]", v.x, v.y, v.z)
}

/// Each ball's position in the list of ball ids sorted by id: an order that does not depend on
/// the order of the balls in the shot file, for engines to break ties and order their loops by.
pub fn id_ranks(setup: &Setup) -> Vec<usize> {
    let mut order: Vec<usize> = (0..setup.balls.len()).collect();
    order.sort_by(|&a, &b| setup.balls[a].id.cmp(&setup.balls[b].id));
    let mut rank = vec![0; order.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    rank
}
