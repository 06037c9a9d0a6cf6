//! `han_2005`: Han (2005) ball–cushion collision, as seed 004 (Section III) gives it and
//! pooltool's `Han2005Linear` / `Han2005Circular` apply it at the contact normal.

use super::{BallCushionLaw, Velocities};
use crate::hypot::hypot;
use crate::resolve::law::spacer_only_law;
use crate::{BallParams, BallState, Vec2, Vec3};

/// Han (2005), with the corrections of docs/physics.md (the stick test includes f_c, the second
/// angular line is w_y). Reads the balls' `e_c` and `f_c`. Parameter `spacer` (m, default 0;
/// [`BallCushionLaw::spacer`]): at a circular cushion the normal on the cloth is taken with the
/// ball moved that far off, as pooltool's `make_kiss` leaves it
/// ([`super::kissed_circular_normal`], the trait's `resolve_circular`);
/// at a straight one the move does not turn the normal.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Han2005 {
    /// pooltool's gap (m) between the ball and the cushion when the law runs.
    pub spacer: f64,
}

spacer_only_law!(Han2005, "han_2005", reads ["e_c", "f_c"]);

impl BallCushionLaw for Han2005 {
    fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, height: f64) -> Velocities {
        han2005_cushion(s, normal, height, p)
    }

    fn spacer(&self) -> f64 {
        self.spacer
    }
}

/// Han (2005) ball-cushion collision as given in seed 004, Section III (with docs/physics.md's
/// corrections: the stick test includes f_c, the second angular line is w_y).
///
/// `normal` is the unit vector on the cloth from the ball's center toward the cushion, `height`
/// the contact height h (m), so theta = asin(h/R - 1). Returns the new (v, w). The z-impulse
/// changes w but does not lift the ball (v_z stays 0: table-bound model).
///
/// Derivation of signs: the contact point is R (cos theta, 0, sin theta) from the center in the
/// frame where `normal` is +x. The slip velocity there, projected on the tangent axes
/// e1 = (sin theta, 0, -cos theta) and e2 = -y, is (s_x, s_y) of the seed; the impulse on the
/// ball is J = -P_n n_c - P_1 e1 - P_2 e2, with P_n = (1 + e_c) m c and (P_1, P_2) = 2m/7 s when
/// sticking, f_c P_n s/|s| when sliding; dw = R n_c x J / I.
pub fn han2005_cushion(s: &BallState, normal: Vec2, height: f64, p: &BallParams) -> (Vec3, Vec3) {
    let (m, r) = (p.m, p.radius);
    // Rotate into the cushion frame: x along `normal`, y = k x normal.
    let (cx, sx_) = (normal.x, normal.y);
    let to_local = |u: &Vec3| Vec3::new(cx * u.x + sx_ * u.y, -sx_ * u.x + cx * u.y, u.z);
    let to_table = |u: &Vec3| Vec3::new(cx * u.x - sx_ * u.y, sx_ * u.x + cx * u.y, u.z);
    let v = to_local(&s.v);
    let w = to_local(&s.w);

    let sin_t = (height / r - 1.0).clamp(-1.0, 1.0);
    let cos_t = (1.0 - sin_t * sin_t).sqrt();
    let slip_x = v.x * sin_t - v.z * cos_t + r * w.y;
    let slip_y = -v.y - r * w.z * cos_t + r * w.x * sin_t;
    let c = v.x * cos_t;
    let p_normal = (1.0 + p.e_c) * m * c;
    let slip = hypot(slip_x, slip_y);
    let p_stick = 2.0 * m / 7.0 * slip;
    let (p1, p2) = if p_stick <= p.f_c * p_normal {
        (2.0 * m / 7.0 * slip_x, 2.0 * m / 7.0 * slip_y)
    } else {
        (
            p.f_c * p_normal * slip_x / slip,
            p.f_c * p_normal * slip_y / slip,
        )
    };
    let jx = -p_normal * cos_t - p1 * sin_t;
    let jy = p2;
    let jz = -p_normal * sin_t + p1 * cos_t;

    let inertia = p.inertia();
    let v_new = Vec3::new(v.x + jx / m, v.y + jy / m, v.z);
    let w_new = Vec3::new(
        w.x - r / inertia * sin_t * jy,
        w.y + r / inertia * (sin_t * jx - cos_t * jz),
        w.z + r / inertia * cos_t * jy,
    );
    (to_table(&v_new), to_table(&w_new))
}
