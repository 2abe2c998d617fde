//! XBetza components to a [`MoveTable`] for one colour on one board.

use super::directions::{class_of, continuation, dir_of, first_leg, unit, Class};
use super::parse::{parse, Atom, Component, LegSpec, ParseError};
use super::program::{Leap, Leg, MoveTable, Path, Slide, UNLIMITED};
use crate::color::Color;
use crate::geometry::Geometry;
use std::fmt;

/// Why an XBetza string could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// The text is not well-formed.
    Syntax(ParseError),
    /// A component is well-formed but means nothing this compiler can run.
    Unsupported {
        /// The component's position among the components, from 1.
        component: usize,
        /// What is wrong.
        what: String,
    },
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Syntax(e) => e.fmt(f),
            CompileError::Unsupported { component, what } => {
                write!(f, "component {component}: {what}")
            }
        }
    }
}

impl std::error::Error for CompileError {}

/// Compiles `text` into the move table of a piece of `color` on boards of `geometry`.
pub fn compile(text: &str, geometry: &Geometry, color: Color) -> Result<MoveTable, CompileError> {
    let comps = parse(text).map_err(CompileError::Syntax)?;
    let mut table = MoveTable::default();
    for (i, comp) in comps.iter().enumerate() {
        compile_component(comp, geometry, color, &mut table).map_err(|what| {
            CompileError::Unsupported {
                component: i + 1,
                what,
            }
        })?;
    }
    table.may_repeat = may_repeat(&table);
    table.finish();
    Ok(table)
}

/// (may move, may capture, hop) of a leg, with the defaults: a final leg moves and captures, a
/// non-final leg moves.
fn modality(spec: &LegSpec, last: bool) -> (bool, bool, bool) {
    let md = &spec.mods;
    let m = md.m || md.y;
    let c = md.c;
    let p = md.p || md.g;
    if !m && !c && !p {
        (true, last, false)
    } else {
        (m, c, p)
    }
}

fn toggles(spec: &LegSpec) -> bool {
    spec.mods.g || spec.mods.y
}

fn base_range(comp: &Component) -> u8 {
    let rider = comp.atom.is_rider() || comp.doubled;
    match comp.range {
        Some(0) => UNLIMITED,
        Some(n) => n,
        None if rider => UNLIMITED,
        None => 1,
    }
}

fn orient(v: (i8, i8), color: Color) -> (i8, i8) {
    match color {
        Color::Black => v,
        Color::White => (-v.0, -v.1),
    }
}

/// Squares strictly between the start and the end of a leap (owner frame), for lame and
/// jumping leapers: along the line for straight leaps, the first orthogonal step otherwise.
fn between(v: (i8, i8)) -> Vec<(i8, i8)> {
    if dir_of(v).is_some() {
        let n = v.0.abs().max(v.1.abs());
        let u = (v.0.signum(), v.1.signum());
        (1..n).map(|k| (u.0 * k, u.1 * k)).collect()
    } else if v.0.abs() > v.1.abs() {
        vec![(v.0.signum(), 0)]
    } else {
        vec![(0, v.1.signum())]
    }
}

#[allow(clippy::too_many_arguments)]
fn make_leg(spec: &LegSpec, v: (i8, i8), range: u8, last: bool, g: &Geometry, color: Color) -> Leg {
    let (m, c, p) = modality(spec, last);
    let step = orient(v, color);
    let slider = range > 1;
    let jump = spec.mods.j;
    let lame = spec.mods.n;
    let between_squares = if !slider && (jump || lame || (p && last)) {
        between(v)
            .into_iter()
            .map(|b| {
                let b = orient(b, color);
                g.delta(b.0 as i32, b.1 as i32)
            })
            .collect()
    } else {
        Vec::new()
    };
    Leg {
        step,
        delta: g.delta(step.0 as i32, step.1 as i32),
        range,
        m,
        // A final leaper leg with `p` is a jump: it lands like an ordinary leap.
        c: c || (p && last && !slider && !m),
        p: p && (slider || !last),
        skip_first: jump && slider,
        must_jump: (jump || (p && last)) && !slider,
        between: between_squares,
        pass_below: 0,
    }
}

fn compile_component(
    comp: &Component,
    g: &Geometry,
    color: Color,
    table: &mut MoveTable,
) -> Result<(), String> {
    if comp.atom == Atom::U {
        if comp.legs.len() != 1 {
            return Err("the universal leaper U cannot have several legs".into());
        }
        let (m, c, _) = modality(&comp.legs[0], true);
        table.universal = Some((m, c));
        return Ok(());
    }
    let range = base_range(comp);
    let firsts = first_leg(comp.atom, &comp.legs[0].dirs)?;
    let single = comp.legs.len() == 1;
    for v in firsts {
        if single {
            let spec = &comp.legs[0];
            let leg = make_leg(spec, v, range, true, g, color);
            let md = &spec.mods;
            let plain = !(md.p || md.g || md.y || md.j || md.n);
            if plain && range == 1 {
                table.leaps.push(Leap {
                    step: leg.step,
                    delta: leg.delta,
                    m: leg.m,
                    c: leg.c,
                });
            } else if plain {
                let n = v.0.abs().max(v.1.abs());
                if dir_of(v).is_none() || n != 1 {
                    // A rider of a longer step (DD, NN): keep it general.
                    table.paths.push(Path { legs: vec![leg] });
                } else {
                    table.slides.push(Slide {
                        step: leg.step,
                        delta: leg.delta,
                        range: leg.range,
                        m: leg.m,
                        c: leg.c,
                    });
                }
            } else {
                table.paths.push(Path { legs: vec![leg] });
            }
            continue;
        }
        let mut legs = Vec::new();
        extend(comp, 0, v, range, g, color, &mut legs, table)?;
    }
    Ok(())
}

/// Builds every concrete path of a multi-leg component whose leg `i` goes along `v`.
#[allow(clippy::too_many_arguments)]
fn extend(
    comp: &Component,
    i: usize,
    v: (i8, i8),
    range: u8,
    g: &Geometry,
    color: Color,
    legs: &mut Vec<Leg>,
    table: &mut MoveTable,
) -> Result<(), String> {
    let last = i + 1 == comp.legs.len();
    let spec = &comp.legs[i];
    legs.push(make_leg(spec, v, range, last, g, color));
    if last {
        table.paths.push(Path { legs: legs.clone() });
        legs.pop();
        return Ok(());
    }
    let next_range = if toggles(spec) {
        if range == 1 {
            UNLIMITED
        } else {
            1
        }
    } else {
        range
    };
    let dir = dir_of(v).ok_or_else(|| "oblique atoms cannot have continuation legs".to_string())?;
    let (class, dist) = class_of(comp.atom);
    let eight = matches!(class, Class::Both | Class::Oblique);
    let next = &comp.legs[i + 1];
    for turn in continuation(&next.dirs, eight) {
        let d = (dir + turn) & 7;
        let (x, y) = unit(d);
        extend(
            comp,
            i + 1,
            (x * dist, y * dist),
            next_range,
            g,
            color,
            legs,
            table,
        )?;
    }
    legs.pop();
    Ok(())
}

/// Whether two entries of the table can produce the same move (then generation deduplicates).
fn may_repeat(t: &MoveTable) -> bool {
    if !t.paths.is_empty() || t.universal.is_some() {
        return true;
    }
    // Reachable offsets of each simple entry, in board steps (up to 25 squares).
    let mut seen: Vec<(i32, i32)> = Vec::new();
    let mut add = |x: i32, y: i32| {
        if seen.contains(&(x, y)) {
            true
        } else {
            seen.push((x, y));
            false
        }
    };
    let mut repeat = false;
    for l in &t.leaps {
        repeat |= add(l.step.0 as i32, l.step.1 as i32);
    }
    for s in &t.slides {
        for k in 1..=(s.range as i32).min(25) {
            repeat |= add(s.step.0 as i32 * k, s.step.1 as i32 * k);
        }
    }
    repeat
}
