//! `frictional_mathavan`: the ball–ball collision integrated over its normal impulse, with
//! friction between the balls and between each ball and the cloth (Mathavan, Jackson, Parkin,
//! "Numerical simulations of the frictional collisions of solid balls on a rough surface",
//! Sports Eng. 17:227, 2014; pooltool's `FrictionalMathavan`).

use super::{pair_mean, weighted_sum, BallBallLaw, Friction, Velocities};
use crate::resolve::law::BuiltIn;
use crate::resolve::spacer;
use crate::resolve::spec::{choice_param, LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec3};

/// Slip speeds (m/s) below this are no slip (the paper's implementation threshold).
const NO_SLIP: f64 = 1e-16;

choice_param! {
    /// Which way the cloth's friction on each ball points during a Mathavan 2014 collision
    /// (parameter `cloth_slip`).
    pub enum ClothSlip("cloth_slip") {
        /// pooltool 0.6.0's: the slip taken as v - R k x w (in the collision frame
        /// u_R = (v_x + R w_y, v_y - R w_x), `frictional_mathavan/__init__.py`), the opposite of
        /// the cloth contact point's velocity in its spin part. The cloth's friction can then
        /// push a ball along its real slip and a collision can add energy: a grazing, spinning
        /// pair from a random break gains 1.7e-4 of its energy (`tests/laws.rs`). The default,
        /// so that the law under pooltool's name is pooltool's.
        Pooltool = "pooltool",
        /// The contact point's velocity v + w x (-R z) = v + R k x w, which friction opposes
        /// (the paper's eqs. 10-11): the collision never adds energy.
        Opposed = "opposed",
    }
}

impl ClothSlip {
    /// The sign of R k x w in the cloth slips.
    fn sign(self) -> f64 {
        match self {
            ClothSlip::Pooltool => -1.0,
            ClothSlip::Opposed => 1.0,
        }
    }
}

/// Mathavan et al. (2014): point contacts between the balls (friction mu, the ball–ball model's
/// [`Friction`]) and between each ball and the cloth (the balls' `mu_s`), integrated in steps of
/// the normal impulse. In the collision frame (y along the line of centers from ball i to ball
/// j, x = y x z, z up), with slip u_C of the balls' contact (x and z components, eq. 6) and slips
/// u_Ri, u_Rj of each ball at the cloth (eq. 7, signed by [`ClothSlip`]):
/// - each step dP of normal impulse brings a friction impulse mu dP against u_C (eqs. 8-9); its
///   vertical part presses the ball it pushes down (into the cloth), whose cloth friction then
///   adds mu_s times that against its own slip (eqs. 10-11); velocities and spins change by the
///   impulses over M and their moments over I = 2/5 M R^2 (eqs. 12-13);
/// - the step is dP = (1 + e_b) M |v_ijy| / (2 N) (eq. 14, N = `num_iterations`);
/// - compression ends when the balls stop approaching; the collision ends when the work done by
///   the normal force reaches (1 + e_b^2) times its value at the end of compression.
///
/// The paper takes equal balls (one M, one R). For balls of masses M_i, M_j and radii R_i, R_j
/// each ball's impulses change its own velocity over M and its spin over I = 2/5 M R^2 about
/// its own contact points (the balls' contact at R_i y from i's center and -R_j y from j's, so
/// u_C = (v_ix - v_jx - (R_i w_iz + R_j w_jz), R_i w_ix + R_j w_jx), and each cloth slip with
/// its own R and `mu_s`), and eq. 14's M/2, the reduced mass of equal balls, becomes the reduced
/// mass M_i M_j / (M_i + M_j): dP = (1 + e_b) M_i M_j / (M_i + M_j) |v_ijy| / N. e_b is the mean
/// of the balls' (as pooltool pairs them).
///
/// Vertical velocity stays zero. Parameters: `friction` (as `frictional_inelastic`'s, default
/// Alciatore's fit), `num_iterations` (default 1000) and `cloth_slip` ([`ClothSlip`], written
/// in a spec only when it is not pooltool's). Reads `e_b`, `mu_s` (and `mu_b` with
/// `average`). Parameter `spacer` (m, default 0; [`BallBallLaw::spacer`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionalMathavan {
    /// Ball–ball friction.
    pub friction: Friction,
    /// N of eq. 14: about how many impulse steps a collision takes.
    pub num_iterations: u32,
    /// The cloth slip's sign.
    pub cloth_slip: ClothSlip,
    /// pooltool's gap (m) between the balls when the law runs ([`BallBallLaw::spacer`]).
    pub spacer: f64,
}

impl Default for FrictionalMathavan {
    fn default() -> Self {
        FrictionalMathavan {
            friction: Friction::ALCIATORE,
            num_iterations: 1000,
            cloth_slip: ClothSlip::Pooltool,
            spacer: 0.0,
        }
    }
}

impl BuiltIn for FrictionalMathavan {
    const NAME: &'static str = "frictional_mathavan";

    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["friction", "num_iterations", "cloth_slip", "spacer"])?;
        Ok(FrictionalMathavan {
            friction: match spec.get("friction") {
                None => Friction::ALCIATORE,
                Some(p) => Friction::from_param(p)?,
            },
            num_iterations: spec.count_or("num_iterations", 1000, 10_000_000)?,
            cloth_slip: ClothSlip::from_spec(spec)?,
            spacer: spacer::from_spec(spec, 0.0)?,
        })
    }
}

impl Law for FrictionalMathavan {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        let mut out = vec![
            ("friction".into(), self.friction.param()),
            (
                "num_iterations".into(),
                Param::Number(f64::from(self.num_iterations)),
            ),
        ];
        out.extend(self.cloth_slip.param());
        out.extend(spacer::param(self.spacer, 0.0));
        out
    }

    fn ball_params(&self) -> &'static [&'static str] {
        match self.friction {
            Friction::Average => &["mu_s", "mu_b", "e_b"],
            Friction::Alciatore { .. } => &["mu_s", "e_b"],
        }
    }
}

impl BallBallLaw for FrictionalMathavan {
    fn resolve(
        &self,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> [Velocities; 2] {
        let mu = (self.friction).coefficient(pa, pb, tangent_slip(pa.radius, a, pb.radius, b));
        collide(mu, self.num_iterations, self.cloth_slip, pa, a, pb, b)
    }

    fn spacer(&self) -> f64 {
        self.spacer
    }
}

/// The relative speed of the contact surfaces before the collision, as [`Friction`] reads it
/// (the same measure as [`super::FrictionalInelastic`]'s): balls `a` and `b` of radii `ra`,
/// `rb` (m).
fn tangent_slip(ra: f64, a: &BallState, rb: f64, b: &BallState) -> f64 {
    let d = b.r - a.r;
    let n = Vec3::new(d.x, d.y, 0.0) / d.xy().norm();
    let surface = |s: &BallState, n: Vec3, r: f64| s.v - n * s.v.dot(&n) + s.w.cross(&(n * r));
    (surface(a, n, ra) - surface(b, -n, rb)).norm()
}

/// Mathavan 2014's integration with ball–ball friction `mu`, about `n_steps` steps and the
/// cloth slips signed by `cloth_slip`; see [`FrictionalMathavan`].
pub fn collide(
    mu: f64,
    n_steps: u32,
    cloth_slip: ClothSlip,
    pa: &BallParams,
    a: &BallState,
    pb: &BallParams,
    b: &BallState,
) -> [Velocities; 2] {
    let cloth = cloth_slip.sign();
    let (ri, rj, mi, mj) = (pa.radius, pb.radius, pa.m, pb.m);
    let e = pair_mean(pa.e_b, pb.e_b);
    let (mu_si, mu_sj) = (pa.mu_s, pb.mu_s);
    // The line of centers on the cloth (balls of unequal radii have centers at unequal
    // heights; the table-bound model resolves along the horizontal line, see the law's doc).
    let d = b.r - a.r;
    let y = Vec3::new(d.x, d.y, 0.0) / d.xy().norm();
    let z = Vec3::z();
    let x = y.cross(&z);
    let local = |u: &Vec3| Vec3::new(u.dot(&x), u.dot(&y), u.dot(&z));
    let (mut vi, mut vj) = (local(&a.v), local(&b.v));
    let (mut wi, mut wj) = (local(&a.w), local(&b.w));
    let mut v_ijy = vj.y - vi.y;
    // The reduced mass, M/2 for equal balls (eq. 14), computed so that it is exactly that.
    let reduced = mi * (mj / (mi + mj));
    let dp = (1.0 + e) * reduced * v_ijy.abs() / f64::from(n_steps);
    let (ci, cj) = (5.0 / (2.0 * mi * ri), 5.0 / (2.0 * mj * rj));
    let (mut work, mut work_end, mut compressed) = (0.0, f64::INFINITY, false);
    // A collision takes about (1 + e^2) / (1 + e) * 2 N steps; the bound only stops a run
    // that cannot end (NaN input).
    let mut left = 100 * (u64::from(n_steps) + 1);
    while (v_ijy < 0.0 || work < work_end) && left > 0 {
        left -= 1;
        // Slips (eqs. 6-7): the balls' contact, and each ball at the cloth.
        let u_cx = vi.x - vj.x - weighted_sum(ri, wi.z, rj, wj.z);
        let u_cz = weighted_sum(ri, wi.x, rj, wj.x);
        let u_c = (u_cx * u_cx + u_cz * u_cz).sqrt();
        // The cloth contact at -R z moves at v + w x (-R z) = (v_x - R w_y, v_y + R w_x)
        // (`cloth` = 1; pooltool's sign is -1).
        let (rci, rcj) = (cloth * ri, cloth * rj);
        let (u_rix, u_riy) = (vi.x - rci * wi.y, vi.y + rci * wi.x);
        let (u_rjx, u_rjy) = (vj.x - rcj * wj.y, vj.y + rcj * wj.x);
        let u_ri = (u_rix * u_rix + u_riy * u_riy).sqrt();
        let u_rj = (u_rjx * u_rjx + u_rjy * u_rjy).sqrt();
        // Friction impulses between the balls (eqs. 8-9) and at the cloth (eqs. 10-11).
        let (mut dp1, mut dp2) = (0.0, 0.0);
        let (mut dpix, mut dpiy, mut dpjx, mut dpjy) = (0.0, 0.0, 0.0, 0.0);
        if u_c >= NO_SLIP {
            dp1 = -mu * dp * u_cx / u_c;
            if u_cz.abs() >= NO_SLIP {
                dp2 = -mu * dp * u_cz / u_c;
                if dp2 > 0.0 {
                    if u_rj != 0.0 {
                        dpjx = -mu_sj * (u_rjx / u_rj) * dp2;
                        dpjy = -mu_sj * (u_rjy / u_rj) * dp2;
                    }
                } else if u_ri != 0.0 {
                    dpix = mu_si * (u_rix / u_ri) * dp2;
                    dpiy = mu_si * (u_riy / u_ri) * dp2;
                }
            }
        }
        // Velocity and spin changes (eqs. 12-13), each ball over its own M and I.
        vi.x += (dp1 + dpix) / mi;
        vi.y += (-dp + dpiy) / mi;
        vj.x += (-dp1 + dpjx) / mj;
        vj.y += (dp + dpjy) / mj;
        wi += Vec3::new(ci * (dp2 + dpiy), ci * -dpix, ci * -dp1);
        wj += Vec3::new(cj * (dp2 + dpjy), cj * -dpjx, cj * -dp1);
        // Work of the normal force, by the trapezoid rule over the step.
        let before = v_ijy;
        v_ijy = vj.y - vi.y;
        work += 0.5 * dp * (before + v_ijy).abs();
        if !compressed && v_ijy > 0.0 {
            compressed = true;
            work_end = (1.0 + e * e) * work;
        }
    }
    let world = |u: &Vec3| x * u.x + y * u.y + z * u.z;
    let flat = |u: Vec3| Vec3::new(u.x, u.y, 0.0);
    [
        (flat(world(&flat(vi))), world(&wi)),
        (flat(world(&flat(vj))), world(&wj)),
    ]
}
