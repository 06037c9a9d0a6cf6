//! A table of invalid shot files: each must fail with a [`ShotError`] naming the field and
//! showing the offending value.

use std::path::Path;

use pool_shots::{parse, ShotError};

/// A valid shot: two balls on the 7-foot table.
const GOOD: &str = r#"
description = "two balls"
model = "pool"
table = "seven_foot"

[[balls]]
id = "cue"
r = [0.5, 0.4953]
v = [1.5, 0.0]
w = [0.0, 52.493438320209975, 0.0]

[[balls]]
id = "1"
r = [1.3, 0.4953]
"#;

/// A valid explicit-table shot.
const EXPLICIT: &str = r#"
description = "explicit table"
t_end = 3.0

[table]
name = "box"
length = 2.0
width = 1.0

[[table.cushions]]
id = "bottom"
p1 = [0.0, 0.0]
p2 = [2.0, 0.0]
height = 0.036576

[[table.cushions]]
id = "right"
p1 = [2.0, 0.0]
p2 = [2.0, 1.0]
height = 0.036576

[[table.cushions]]
id = "top"
p1 = [2.0, 1.0]
p2 = [0.0, 1.0]
height = 0.036576

[[table.cushions]]
id = "left"
p1 = [0.0, 1.0]
p2 = [0.0, 0.0]
height = 0.036576

[[table.pockets]]
id = "p1"
center = [0.0, 0.0]
radius = 0.06

[[balls]]
id = "cue"
r = [0.5, 0.5]
"#;

/// [`EXPLICIT`] with a circular cushion `nose` (a bump of 2 cm on the bottom rail at x = 1 m) whose
/// last lines are `tail`.
fn with_arc(tail: &str) -> String {
    EXPLICIT.replace(
        "[[table.pockets]]",
        &format!("[[table.circular_cushions]]\nid = \"nose\"\ncenter = [1.0, 0.0]\nradius = 0.02\n{tail}\n\n[[table.pockets]]"),
    )
}

fn err(text: &str) -> ShotError {
    match parse(text, "case", Path::new("case.toml")) {
        Ok(_) => panic!("accepted an invalid shot:\n{text}"),
        Err(e) => e,
    }
}

/// Replaces exactly one occurrence of `from` in `base`.
fn edit(base: &str, from: &str, to: &str) -> String {
    assert_eq!(base.matches(from).count(), 1, "{from:?} must occur once");
    base.replacen(from, to, 1)
}

/// `GOOD` with `extra` appended as a third ball's body.
fn third_ball(body: &str) -> String {
    format!("{GOOD}\n[[balls]]\n{body}\n")
}

#[test]
fn the_good_shots_parse() {
    let s = parse(GOOD, "good", Path::new("good.toml")).unwrap();
    assert_eq!(s.balls.len(), 2);
    assert_eq!(s.name, "good");
    let s = parse(EXPLICIT, "explicit", Path::new("explicit.toml")).unwrap();
    assert_eq!(s.table.name, "box");
    assert_eq!(s.table.cushions.len(), 4);
    assert_eq!(s.t_end, Some(3.0));
}

#[test]
fn bad_inputs_name_the_field_and_value() {
    let many_balls = {
        let mut t = String::from("description = \"many\"\ntable = \"rectangle_1000x1000\"\n");
        for i in 0..10_001 {
            t.push_str(&format!(
                "[[balls]]\nid = \"b{i}\"\nr = [{}.5, 0.5]\n",
                i % 900 + 1
            ));
        }
        t
    };
    // (case, text, field must contain, value must contain, message must contain)
    let cases: Vec<(&str, String, &str, &str, &str)> = vec![
        ("syntax", edit(GOOD, "\"two balls\"", "\"two balls"), "syntax", "2:", ""),
        ("syntax: duplicate key", format!("{GOOD}\n[[balls]]\nid = \"2\"\nid = \"3\"\nr = [1.0, 0.2]\n"), "syntax", ":", "duplicate"),
        ("missing description", edit(GOOD, "description = \"two balls\"", ""), "description", "(missing)", "required"),
        ("missing table", edit(GOOD, "table = \"seven_foot\"", ""), "table", "(missing)", "required"),
        ("missing balls", "description = \"x\"\ntable = \"carom\"\n".into(), "balls", "(missing)", "required"),
        ("missing ball id", edit(GOOD, "id = \"1\"", ""), "balls[1].id", "(missing)", "required"),
        ("missing ball r", third_ball("id = \"2\""), "balls[2].r", "(missing)", "required"),
        ("wrong type: t_end", edit(GOOD, "model = \"pool\"", "t_end = \"ten\""), "t_end", "\"ten\"", "invalid type"),
        ("wrong type: t_end datetime", edit(GOOD, "model = \"pool\"", "t_end = 1979-05-27"), "t_end", "1979-05-27", ""),
        ("wrong type: r component", edit(GOOD, "r = [1.3, 0.4953]", "r = [1.3, \"y\"]"), "balls[1].r[1]", "\"y\"", "invalid type"),
        ("wrong type: description", edit(GOOD, "description = \"two balls\"", "description = 3"), "description", "3", "invalid type"),
        ("wrong type: table", edit(GOOD, "table = \"seven_foot\"", "table = 7"), "table", "7", "invalid type"),
        ("wrong type: balls", "description = \"x\"\ntable = \"carom\"\nballs = 3\n".into(), "balls", "3", "invalid type"),
        ("wrong type: inline ball id", "description = \"x\"\ntable = \"carom\"\nballs = [{id = \"a\", r = [1.0, 1.0]}, {id = 5, r = [2.0, 1.0]}]\n".into(), "balls[1].id", "5", "invalid type"),
        ("unknown top-level field", edit(GOOD, "model = \"pool\"", "colour = 3"), "colour", "3", "unknown field"),
        ("unknown ball field", third_ball("id = \"2\"\nr = [1.0, 0.2]\nspin = 4"), "balls[2].spin", "4", "unknown field"),
        ("unknown params field", format!("{GOOD}\n[params]\nmu_x = 0.1\n"), "params.mu_x", "0.1", "unknown field"),
        ("unknown table field", edit(EXPLICIT, "width = 1.0", "width = 1.0\ncolor = \"green\""), "table.color", "green", "unknown field"),
        ("unknown cushion field", edit(EXPLICIT, "p2 = [2.0, 0.0]", "p2 = [2.0, 0.0]\nspring = 2.0"), "table.cushions[0].spring", "2.0", "unknown field"),
        ("unknown pocket field", edit(EXPLICIT, "radius = 0.06", "radius = 0.06\ncapacity = 3"), "table.pockets[0].capacity", "3", "unknown field"),
        ("negative pocket depth", edit(EXPLICIT, "radius = 0.06", "radius = 0.06\ndepth = -0.1"), "table.pockets[0].depth", "-0.1", ">= 0"),
        ("nan pocket depth", edit(EXPLICIT, "radius = 0.06", "radius = 0.06\ndepth = nan"), "table.pockets[0].depth", "nan", "NaN"),
        ("unknown circular cushion field", with_arc("height = 0.036576\nspin = 1"), "table.circular_cushions[0].spin", "1", "unknown field"),
        ("circular cushion without radius", with_arc("").replace("radius = 0.02\n", ""), "table.circular_cushions", "(missing)", "required"),
        ("nan circular cushion center", with_arc("height = 0.036576").replace("center = [1.0, 0.0]", "center = [nan, 0.0]"), "table.circular_cushions[0].center", "nan", "NaN"),
        ("zero circular cushion radius", with_arc("height = 0.036576").replace("radius = 0.02\n", "radius = 0.0\n"), "table.circular_cushions[0].radius", "0", "positive"),
        ("circular cushion too high", with_arc("height = 0.036576").replace("height = 0.036576\n\n[[table.pockets]]", "height = 0.07\n\n[[table.pockets]]"), "table.circular_cushions[0].height", "0.07", "han_2005"),
        ("ball inside a circular cushion's reach", with_arc("height = 0.036576").replace("r = [0.5, 0.5]", "r = [1.0, 0.04]"), "balls[0].r", "0.04", "overlaps cushion \"nose\""),
        ("missing table field", edit(EXPLICIT, "width = 1.0", ""), "table.width", "(missing)", "required"),
        ("unknown model", edit(GOOD, "model = \"pool\"", "model = \"quantum\""), "model", "quantum", "pool, seed, pooltool_default, corrected, mathavan, ideal"),
        ("unknown table name", edit(GOOD, "table = \"seven_foot\"", "table = \"snooker\""), "table", "snooker", "seven_foot"),
        ("unknown preset", format!("{GOOD}\n[params]\npreset = \"bumper\"\n"), "params.preset", "bumper", "pool, carom"),
        ("unknown state", edit(GOOD, "r = [1.3, 0.4953]", "r = [1.3, 0.4953]\nstate = \"flying\""), "balls[1].state", "flying", "rolling"),
        ("pocketed state", edit(GOOD, "r = [1.3, 0.4953]", "r = [1.3, 0.4953]\nstate = \"pocketed\""), "balls[1].state", "pocketed", "not allowed"),
        ("contradicting state", edit(GOOD, "w = [0.0, 52.493438320209975, 0.0]", "w = [0.0, 52.493438320209975, 0.0]\nstate = \"sliding\""), "balls[0].state", "sliding", "rolling"),
        ("contradicting state, ideal", "description = \"x\"\nmodel = \"ideal\"\ntable = \"carom\"\nt_end = 1.0\n[[balls]]\nid = \"a\"\nr = [1.0, 1.0]\nv = [1.0, 0.0]\nw = [0.0, 32.52032520325203, 0.0]\nstate = \"rolling\"\n".into(), "balls[0].state", "rolling", "sliding"),
        ("nan in v", third_ball("id = \"2\"\nr = [1.0, 0.2]\nv = [nan, 0.0]"), "balls[2].v", "nan", "NaN"),
        ("inf in w", third_ball("id = \"2\"\nr = [1.0, 0.2]\nw = [0.0, 0.0, -inf]"), "balls[2].w", "-inf", "infinite"),
        ("per-ball R zero", third_ball("id = \"2\"\nr = [1.0, 0.2]\nR = 0.0"), "balls[2].R", "0.0", "R must be in"),
        ("per-ball R negative", third_ball("id = \"2\"\nr = [1.0, 0.2]\nR = -0.03"), "balls[2].R", "-0.03", "R must be in"),
        ("per-ball R nan", third_ball("id = \"2\"\nr = [1.0, 0.2]\nR = nan"), "balls[2].R", "nan", "NaN"),
        ("per-ball m inf", third_ball("id = \"2\"\nr = [1.0, 0.2]\nm = inf"), "balls[2].m", "inf", "infinite"),
        ("per-ball m zero", third_ball("id = \"2\"\nr = [1.0, 0.2]\nm = 0"), "balls[2].m", "0", "m must be in"),
        ("per-ball friction out of range", third_ball("id = \"2\"\nr = [1.0, 0.2]\nmu_s = 11.0"), "balls[2].mu_s", "11.0", "mu_s must be in"),
        ("per-ball unknown key", third_ball("id = \"2\"\nr = [1.0, 0.2]\nradius = 0.03"), "balls[2].radius", "0.03", "unknown field"),
        ("per-ball gravity", third_ball("id = \"2\"\nr = [1.0, 0.2]\ng = 9.7"), "balls[2].g", "9.7", "the table's"),
        ("per-ball parameter the physics does not read", third_ball("id = \"2\"\nr = [1.0, 0.2]\ne_b = 0.9"), "balls[2].e_b", "0.9", "not read"),
        ("balls overlapping by their own radii", edit(GOOD, "id = \"1\"\nr = [1.3, 0.4953]", "id = \"1\"\nR = 0.04\nr = [0.565, 0.4953]"), "balls[1].r", "0.565", "overlaps ball \"cue\""),
        ("a big ball into the cushion", third_ball("id = \"2\"\nr = [0.5, 0.04]\nR = 0.05"), "balls[2].r", "0.04", "cushion"),
        ("nan in r", third_ball("id = \"2\"\nr = [nan, 0.2]"), "balls[2].r", "nan", "NaN"),
        ("inf t_end", edit(GOOD, "model = \"pool\"", "t_end = inf"), "t_end", "inf", "infinite"),
        ("nan param", format!("{GOOD}\n[params]\nmu_s = nan\n"), "params.mu_s", "nan", "NaN"),
        ("nan table length", edit(EXPLICIT, "length = 2.0", "length = nan"), "table.length", "nan", "NaN"),
        ("inf cushion", edit(EXPLICIT, "p1 = [2.0, 0.0]", "p1 = [2.0, +inf]"), "table.cushions[1].p1", "+inf", "infinite"),
        ("nan pocket", edit(EXPLICIT, "radius = 0.06", "radius = nan"), "table.pockets[0].radius", "nan", "NaN"),
        ("negative radius", format!("{GOOD}\n[params]\nR = -0.01\n"), "params.R", "-0.01", "must be in [0.001, 1] m"),
        ("zero mass", format!("{GOOD}\n[params]\nm = 0.0\n"), "params.m", "0.0", "must be in [0.0001, 1000] kg"),
        ("restitution above 1", format!("{GOOD}\n[params]\ne_c = 1.5\n"), "params.e_c", "1.5", "must be in [0, 1]"),
        ("negative friction", format!("{GOOD}\n[params]\nmu_r = -0.1\n"), "params.mu_r", "-0.1", "must be in [0, 10]"),
        ("ideal with friction", "description = \"x\"\nmodel = \"ideal\"\ntable = \"carom\"\nt_end = 1.0\n[params]\nmu_s = 0.3\n[[balls]]\nid = \"a\"\nr = [1.0, 1.0]\n".into(), "params.mu_s", "0.3", "ideal"),
        ("e_b under the seed laws", format!("{GOOD}\n[params]\ne_b = 0.5\n"), "params.e_b", "0.5", "not read by this shot's physics"),
        ("unknown law", format!("{GOOD}\n[physics]\nball_ball = \"sticky\"\n"), "physics.ball_ball", "sticky", "frictionless_elastic"),
        ("unknown law, table form", format!("{GOOD}\n[physics.ball_linear_cushion]\nmodel = \"rubber\"\n"), "physics.ball_linear_cushion.model", "rubber", "han_2005, unrealistic"),
        ("law without model", format!("{GOOD}\n[physics.ball_linear_cushion]\nrestitution = true\n"), "physics.ball_linear_cushion.model", "(missing)", "required"),
        ("unknown law parameter", format!("{GOOD}\n[physics.ball_linear_cushion]\nmodel = \"unrealistic\"\nbounce = 1.0\n"), "physics.ball_linear_cushion.bounce", "1.0", "restitution"),
        ("parameter of a law that takes none", format!("{GOOD}\n[physics.ball_pocket]\nmodel = \"canonical\"\nrestitution = true\n"), "physics.ball_pocket.restitution", "true", "takes no parameters"),
        ("wrong parameter type", format!("{GOOD}\n[physics.ball_circular_cushion]\nmodel = \"unrealistic\"\nrestitution = 1\n"), "physics.ball_circular_cushion.restitution", "1", "true or false"),
        ("unknown event type", format!("{GOOD}\n[physics]\nball_rail = \"han_2005\"\n"), "physics.ball_rail", "han_2005", "ball_linear_cushion"),
        ("unknown motion", format!("{GOOD}\n[physics]\nmotion = \"ice\"\n"), "physics.motion", "ice", "cloth, frictionless"),
        ("preset twice", format!("{GOOD}\n[physics]\npreset = \"ideal\"\n"), "physics.preset", "ideal", "given twice"),
        ("unknown preset in physics", edit(GOOD, "model = \"pool\"", "physics = \"quantum\""), "physics", "quantum", "pool, seed, pooltool_default, corrected, mathavan, ideal"),
        ("physics of the wrong type", edit(GOOD, "model = \"pool\"", "physics = 3"), "physics", "3", "preset name"),
        ("frictionless motion without t_end", format!("{GOOD}\n[physics]\nmotion = \"frictionless\"\n"), "t_end", "(missing)", "frictionless"),
        ("e_c without a law that reads it", "description = \"x\"\nmodel = \"ideal\"\ntable = \"carom\"\nt_end = 1.0\n[params]\ne_c = 0.5\n[[balls]]\nid = \"a\"\nr = [1.0, 1.0]\n".into(), "params.e_c", "0.5", "reads m, R"),
        ("cue: unknown ball", format!("{GOOD}\n[cue]\nball = \"9\"\nV0 = 2.0\nphi = 0.0\n"), "cue.ball", "9", "no ball has this id"),
        ("cue: struck ball with v", format!("{GOOD}\n[cue]\nball = \"cue\"\nV0 = 2.0\nphi = 0.0\n"), "balls[0].v", "[1.5, 0.0]", "give one or the other"),
        ("cue: off the ball", format!("{GOOD}\n[cue]\nball = \"1\"\nV0 = 2.0\nphi = 0.0\na = 0.8\nb = 0.7\n"), "cue.b", "0.7", "a^2 + b^2"),
        ("cue: vertical stick", format!("{GOOD}\n[cue]\nball = \"1\"\nV0 = 2.0\nphi = 0.0\ntheta = 90.0\n"), "cue.theta", "90", "[0, 90)"),
        ("cue: no speed", format!("{GOOD}\n[cue]\nball = \"1\"\nV0 = 0.0\nphi = 0.0\n"), "cue.V0", "0", "positive"),
        ("cue: a strike past the speed limit", format!("{GOOD}\n[cue]\nball = \"1\"\nV0 = 2000.0\nphi = 0.0\n"), "cue.V0", "2000", "at most 1000 m/s"),
        ("cue: nan aim", format!("{GOOD}\n[cue]\nball = \"1\"\nV0 = 2.0\nphi = nan\n"), "cue.phi", "nan", "NaN"),
        ("cue: unknown field", format!("{GOOD}\n[cue]\nball = \"1\"\nV0 = 2.0\nphi = 0.0\nspin = 3\n"), "cue.spin", "3", "unknown field"),
        ("cue: negative stick mass", format!("{GOOD}\n[cue]\nball = \"1\"\nV0 = 2.0\nphi = 0.0\n[cue.specs]\nM = -1.0\n"), "cue.specs.M", "-1", "positive"),
        ("stick law parameter", format!("{GOOD}\n[physics.stick_ball]\nmodel = \"instantaneous_point\"\nsquirt_throttle = -1.0\n"), "physics.stick_ball.squirt_throttle", "-1", "negative"),
        ("cushion above the ball (issue: R below h/2)", format!("{GOOD}\n[params]\nR = 0.01\n").replace("r = [1.3, 0.4953]", "r = [1.0, 0.3]"), "table.cushions[0].height", "0.036576", "0 < h < 2R"),
        ("explicit cushion too high", edit(EXPLICIT, "p2 = [2.0, 1.0]\nheight = 0.036576", "p2 = [2.0, 1.0]\nheight = 0.06"), "table.cushions[1].height", "0.06", "han_2005"),
        ("tiny ball", format!("{GOOD}\n[params]\nR = 1e-10\n"), "params.R", "1e-10", "contact tolerances"),
        ("subnormal ball", format!("{GOOD}\n[params]\nR = 5e-324\n"), "params.R", "5e-324", "must be in"),
        ("huge mass", format!("{GOOD}\n[params]\nm = 1e308\n"), "params.m", "1e308", "must be in"),
        ("subnormal mass", format!("{GOOD}\n[params]\nm = 1e-310\n"), "params.m", "1e-310", "must be in"),
        ("huge rolling resistance", format!("{GOOD}\n[params]\nmu_r = 1e300\n"), "params.mu_r", "1e300", "must be in"),
        ("huge speed", edit(GOOD, "v = [1.5, 0.0]\nw = [0.0, 52.493438320209975, 0.0]", "v = [1e300, 0.0]"), "balls[0].v", "1e300", "at most 1000 m/s"),
        ("huge spin", edit(GOOD, "w = [0.0, 52.493438320209975, 0.0]", "w = [0.0, 1e6, 0.0]"), "balls[0].w", "1000000", "R |w|"),
        ("table too long for contacts (issue 18 fuzz)", edit(GOOD, "table = \"seven_foot\"", "table = \"rectangle_0.06x1000\"").replace("r = [0.5, 0.4953]", "r = [0.03, 300.0]").replace("r = [1.3, 0.4953]", "r = [0.03, 700.0]"), "table", "0.06 x 1000.0 m", "longer than the 226.9 m"),
        ("t_end past the precision of times", edit(GOOD, "model = \"pool\"", "t_end = 1e6"), "t_end", "1000000.0", "at most"),
        ("open table", edit(EXPLICIT, "[[table.cushions]]\nid = \"top\"\np1 = [2.0, 1.0]\np2 = [0.0, 1.0]\nheight = 0.036576\n", ""), "balls[0].r", "0.5", "the table is open"),
        ("ball behind a cushion", edit(EXPLICIT, "p1 = [0.0, 1.0]\np2 = [0.0, 0.0]", "p1 = [0.0, 0.0]\np2 = [0.0, 1.0]"), "balls[0].r", "0.5", "behind cushion \"left\""),
        ("ideal without t_end", "description = \"x\"\nmodel = \"ideal\"\ntable = \"carom\"\n[[balls]]\nid = \"a\"\nr = [1.0, 1.0]\n".into(), "t_end", "(missing)", "ideal"),
        ("negative t_end", edit(GOOD, "model = \"pool\"", "t_end = -1.0"), "t_end", "-1", "positive"),
        ("invalid table: width", edit(EXPLICIT, "width = 1.0", "width = -1.0"), "table.width", "-1", "positive"),
        ("invalid table: zero-length cushion", edit(EXPLICIT, "p2 = [2.0, 0.0]", "p2 = [0.0, 0.0]"), "table.cushions[0].p2", "0.0", "zero length"),
        ("invalid table: no cushions", edit(EXPLICIT, "[[table.cushions]]\nid = \"bottom\"\np1 = [0.0, 0.0]\np2 = [2.0, 0.0]\nheight = 0.036576\n\n[[table.cushions]]\nid = \"right\"\np1 = [2.0, 0.0]\np2 = [2.0, 1.0]\nheight = 0.036576\n\n[[table.cushions]]\nid = \"top\"\np1 = [2.0, 1.0]\np2 = [0.0, 1.0]\nheight = 0.036576\n\n[[table.cushions]]\nid = \"left\"\np1 = [0.0, 1.0]\np2 = [0.0, 0.0]\nheight = 0.036576\n", "cushions = []\n"), "table.cushions", "[]", "at least one"),
        ("invalid table: pocket radius", edit(EXPLICIT, "radius = 0.06", "radius = 0.0"), "table.pockets[0]", "0", "positive"),
        ("off-table ball", edit(GOOD, "r = [1.3, 0.4953]", "r = [3.0, 0.4953]"), "balls[1].r", "3", "off the playing area"),
        ("off-table ball, negative", edit(GOOD, "r = [1.3, 0.4953]", "r = [1.3, -0.2]"), "balls[1].r", "-0.2", "off the playing area"),
        ("overlapping balls", edit(GOOD, "r = [1.3, 0.4953]", "r = [0.55, 0.4953]"), "balls[1].r", "0.55", "overlaps ball"),
        ("ball overlapping a cushion", edit(GOOD, "r = [1.3, 0.4953]", "r = [1.3, 0.02]"), "balls[1].r", "0.02", "cushion"),
        ("ball overlapping a jaw", edit(GOOD, "r = [1.3, 0.4953]", "r = [0.07, 0.015]"), "balls[1].r", "0.015", "cushion"),
        ("duplicate ids", edit(GOOD, "id = \"1\"", "id = \"cue\""), "balls[1].id", "\"cue\"", "duplicate"),
        ("a ball with a cushion's id", edit(GOOD, "id = \"1\"", "id = \"rail_b1\""), "balls[1].id", "\"rail_b1\"", "cushions[1] has the same id"),
        ("a ball with a pocket's id", edit(EXPLICIT, "id = \"cue\"", "id = \"p1\""), "balls[0].id", "\"p1\"", "pockets[0] has the same id"),
        ("a pocket with a cushion's id", edit(EXPLICIT, "id = \"p1\"", "id = \"top\""), "pockets[0].id", "\"top\"", "cushions[2] has the same id"),
        ("an arc with a cushion's id", with_arc("height = 0.036576").replace("id = \"nose\"", "id = \"left\""), "circular_cushions[0].id", "\"left\"", "cushions[3] has the same id"),
        ("empty id", edit(GOOD, "id = \"1\"", "id = \"\""), "balls[1].id", "\"\"", "non-empty"),
        ("r with 1 component", edit(GOOD, "r = [1.3, 0.4953]", "r = [1.3]"), "balls[1].r", "[1.3]", "got 1"),
        ("r with 4 components", edit(GOOD, "r = [1.3, 0.4953]", "r = [1.3, 0.4953, 0.028575, 0.0]"), "balls[1].r", "0.0]", "got 4"),
        ("z != R", edit(GOOD, "r = [1.3, 0.4953]", "r = [1.3, 0.4953, 0.03]"), "balls[1].r", "0.03", "z must equal"),
        ("vz != 0", edit(GOOD, "v = [1.5, 0.0]", "v = [1.5, 0.0, 0.1]"), "balls[0].v", "0.1", "vz must be 0"),
        ("v with 1 component", edit(GOOD, "v = [1.5, 0.0]", "v = [1.5]"), "balls[0].v", "[1.5]", "got 1"),
        ("w with 2 components", edit(GOOD, "w = [0.0, 52.493438320209975, 0.0]", "w = [0.0, 52.5]"), "balls[0].w", "[0.0, 52.5]", "got 2"),
        ("too many balls", many_balls, "balls", "10001 balls", "10000"),
        ("no balls", "description = \"x\"\ntable = \"carom\"\nballs = []\n".into(), "balls", "[]", "at least one"),
        ("empty description", edit(GOOD, "description = \"two balls\"", "description = \"  \""), "description", "", "empty"),
        ("unknown rack", edit(GOOD, "model = \"pool\"", "model = \"pool\"\nrack = \"tight\""), "rack", "\"tight\"", "unknown rack model"),
        ("negative rack gap", edit(GOOD, "model = \"pool\"", "model = \"pool\"\nrack = \"lattice:-1e-6\""), "rack", "lattice:-1e-6", "gap -1e-6 m"),
        ("NaN rack scale", edit(GOOD, "model = \"pool\"", "model = \"pool\"\nrack = \"jittered:nan\""), "rack", "jittered:nan", "scale NaN"),
        ("rack of one ball", edit(GOOD, "model = \"pool\"", "model = \"pool\"\nrack = \"frozen\""), "rack", "frozen", "at least two rack balls"),
        ("rack off the table", format!("{}\n[[balls]]\nid = \"3\"\nr = [1.3, 0.93]\n", third_ball("id = \"2\"\nr = [1.3, 0.56]")).replace("model = \"pool\"", "model = \"pool\"\nrack = \"lattice:0.05\""), "rack", "lattice:0.05", "balls[3].r"),
        ("rack_seed without rack", edit(GOOD, "model = \"pool\"", "model = \"pool\"\nrack_seed = 3"), "rack_seed", "3", "only with a `rack`"),
        ("negative rack_seed", edit(GOOD, "model = \"pool\"", "model = \"pool\"\nrack = \"frozen\"\nrack_seed = -1"), "rack_seed", "-1", ""),
    ];
    let mut failures = Vec::new();
    for (case, text, field, value, message) in &cases {
        let e = err(text);
        let line = e.to_string();
        if std::env::var_os("SHOW_SHOT_ERRORS").is_some() {
            eprintln!("{case}: {line}");
        }
        let ok = e.field.contains(field)
            && e.value.contains(value)
            && e.message.contains(message)
            && e.file == Path::new("case.toml")
            && !line.contains('\n')
            && line.starts_with("case.toml: ");
        if !ok {
            failures.push(format!(
                "{case}: expected field ~ {field:?}, value ~ {value:?}, message ~ {message:?}; got {line}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn display_is_one_line_with_file_field_value_message() {
    let e = ShotError {
        file: "dir/x.toml".into(),
        field: "balls[2].v".into(),
        value: "[nan, 0.0]".into(),
        message: "NaN and infinite numbers are not allowed".into(),
    };
    assert_eq!(
        e.to_string(),
        "dir/x.toml: balls[2].v = [nan, 0.0]: NaN and infinite numbers are not allowed"
    );
    let _: &dyn std::error::Error = &e;
}

#[test]
fn syntax_errors_give_line_and_column() {
    let text = "description = \"x\"\ntable = \"carom\"\n[[balls]]\nid = \"a\"\nr = [1.0, 1.0\n";
    let e = err(text);
    assert_eq!(e.field, "syntax");
    let (line, col) = e.value.split_once(':').expect("line:col");
    let line: usize = line.parse().unwrap();
    let _col: usize = col.parse().unwrap();
    assert!((5..=6).contains(&line), "{e}");
}
