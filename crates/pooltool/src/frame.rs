//! pooltool's frame and ours: mirror images, mapped exactly.
//!
//! pooltool runs a table's long side along its y axis, we run it along x. A point or a velocity
//! (x, y, z) of pooltool's is (y, x, z) here, and back: a reflection in the plane x = y, so no
//! arithmetic touches a coordinate and the map is exact both ways. Under a reflection an
//! angular velocity, an axial vector, maps with the opposite sign: pooltool's (wx, wy, wz) is
//! our (-wy, -wx, -wz) (a ball rolling along +x in pooltool's frame, w = (0, v/R, 0), rolls
//! along +y in ours with w = (-v/R, 0, 0) = k x v / R). Directions measured counter-clockwise
//! from +x (the cue's aim `phi`, degrees) become 90 - phi, and left becomes right (the cue's
//! side offset `a` changes sign).

use pool_physics::Vec3;

/// pooltool's point or velocity (x, y, z) in our frame: (y, x, z).
pub fn vector_in(p: [f64; 3]) -> Vec3 {
    Vec3::new(p[1], p[0], p[2])
}

/// Our point or velocity in pooltool's frame: (y, x, z).
pub fn vector_out(v: &Vec3) -> [f64; 3] {
    [v.y, v.x, v.z]
}

/// pooltool's angular velocity in our frame: (-wy, -wx, -wz).
pub fn spin_in(w: [f64; 3]) -> Vec3 {
    Vec3::new(-w[1], -w[0], -w[2])
}

/// Our angular velocity in pooltool's frame: (-wy, -wx, -wz).
pub fn spin_out(w: &Vec3) -> [f64; 3] {
    [-w.y, -w.x, -w.z]
}

/// A direction on the cloth (degrees counter-clockwise from +x) mirrored: 90 - phi, both
/// ways (exact for the angles a cue is usually given, within an ulp of 90 otherwise).
pub fn angle_mirrored(phi: f64) -> f64 {
    90.0 - phi
}
