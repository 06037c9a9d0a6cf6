//! How each ball is drawn: pool colours and stripes for balls 1-15, a red-dotted cue ball, and
//! distinct colours for any other id; each with a marker on its surface.

use plotters::prelude::*;
use pool_physics::Vec3;

/// A marker position on the ball at t = 0 (body frame, unit vector), `deg` degrees from the top
/// toward -y. Off the top, a spin about the vertical axis moves the marker too.
fn tilted(deg: f64) -> Vec3 {
    let a = deg.to_radians();
    Vec3::new(0.0, -a.sin(), a.cos())
}

/// How one ball is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct BallLook {
    /// Ball id (as in the shot file).
    pub id: String,
    /// Body colour.
    pub colour: RGBColor,
    /// Striped ball (9-15): white with a band of the colour.
    pub stripe: bool,
    /// Text in the marker circle (the ball's number), if any.
    pub number: Option<String>,
    /// Marker colour.
    pub marker: RGBColor,
    /// Where the marker is on the ball at t = 0 (body frame, unit vector).
    pub marker_point: Vec3,
}

/// Standard pool colours of balls 1-8 (9-15 are stripes of 1-7).
const POOL_COLOURS: [RGBColor; 8] = [
    RGBColor(250, 200, 20), // 1 yellow
    RGBColor(25, 65, 180),  // 2 blue
    RGBColor(215, 30, 30),  // 3 red
    RGBColor(105, 45, 150), // 4 purple
    RGBColor(250, 120, 20), // 5 orange
    RGBColor(10, 85, 40),   // 6 green
    RGBColor(125, 20, 35),  // 7 maroon
    RGBColor(15, 15, 15),   // 8 black
];

/// Distinct colours for balls whose ids are not pool numbers (no green: it is the cloth).
const OTHER_COLOURS: [RGBColor; 8] = [
    RGBColor(250, 200, 20),
    RGBColor(215, 30, 30),
    RGBColor(25, 65, 180),
    RGBColor(250, 120, 20),
    RGBColor(105, 45, 150),
    RGBColor(240, 110, 190),
    RGBColor(20, 190, 210),
    RGBColor(125, 20, 35),
];

/// Cue ball colour.
const CUE_WHITE: RGBColor = RGBColor(250, 250, 244);
/// The cue ball's marker (a red dot, like a measle ball's).
const CUE_MARKER: RGBColor = RGBColor(210, 30, 30);

/// Looks for balls with these ids: `cue` white with a red marker 45 degrees off the top (so
/// side spin shows); `1`-`15` in standard pool colours (9-15 striped) with a white number
/// circle, on top at t = 0 (numbers up, as in a rack); any other id a distinct colour (eight
/// colours, then the same striped: 16 distinct looks) with a white marker 30 degrees off the
/// top.
pub fn ball_looks(ids: &[String]) -> Vec<BallLook> {
    let mut other = 0;
    ids.iter()
        .map(|id| {
            let number = id.parse::<usize>().ok().filter(|n| (1..=15).contains(n));
            match (id.as_str(), number) {
                ("cue", _) => BallLook {
                    id: id.clone(),
                    colour: CUE_WHITE,
                    stripe: false,
                    number: None,
                    marker: CUE_MARKER,
                    marker_point: tilted(45.0),
                },
                (_, Some(n)) => BallLook {
                    id: id.clone(),
                    colour: POOL_COLOURS[if n > 8 { n - 9 } else { n - 1 }],
                    stripe: n > 8,
                    number: Some(n.to_string()),
                    marker: WHITE,
                    marker_point: Vec3::z(),
                },
                _ => {
                    // Eight colours, then the same eight striped, and so on.
                    let c = OTHER_COLOURS[other % OTHER_COLOURS.len()];
                    let stripe = (other / OTHER_COLOURS.len()) % 2 == 1;
                    other += 1;
                    BallLook {
                        id: id.clone(),
                        colour: c,
                        stripe,
                        number: None,
                        marker: WHITE,
                        marker_point: tilted(30.0),
                    }
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_numbers_get_pool_colours_and_stripes() {
        let ids: Vec<String> = ["cue", "1", "8", "9", "15", "red", "white"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let looks = ball_looks(&ids);
        assert_eq!(looks[0].colour, CUE_WHITE);
        assert_eq!(looks[1].colour, POOL_COLOURS[0]);
        assert!(!looks[1].stripe);
        assert_eq!(looks[2].colour, RGBColor(15, 15, 15));
        assert_eq!(looks[3].colour, POOL_COLOURS[0]);
        assert!(looks[3].stripe);
        assert_eq!(looks[4].colour, POOL_COLOURS[6]);
        assert_ne!(looks[5].colour, looks[6].colour);
    }
}
