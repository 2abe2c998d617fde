//! The ladder's picture: Elo (with 95% intervals) against training step and against training
//! time, with `random` (0) and `greedy` as reference lines. Drawn with `plotters` into a PNG;
//! text uses a TrueType font of the system (DejaVu Sans, Liberation Sans or FreeSans, or the
//! file named by `KOMA_PLOT_FONT`), loaded at run time so the build needs no font libraries.

use crate::ladder::error::LadderError;
use crate::ladder::records::RatingLine;
use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// Where a rated model sits on a panel's horizontal axis.
type XOf = Box<dyn Fn(&RatingLine) -> Option<f64>>;

const FONT_FILES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
];

fn font() -> Result<(), String> {
    static LOADED: OnceLock<Result<(), String>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let candidates: Vec<String> = std::env::var("KOMA_PLOT_FONT")
                .into_iter()
                .chain(FONT_FILES.iter().map(|s| s.to_string()))
                .collect();
            for c in &candidates {
                if let Ok(bytes) = std::fs::read(c) {
                    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                    if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                        return Ok(());
                    }
                }
            }
            Err(format!(
                "no TrueType font found for the plot's text (tried {}); install fonts-dejavu-core or set KOMA_PLOT_FONT",
                candidates.join(", ")
            ))
        })
        .clone()
}

/// Draws `ratings` into `path` (PNG).
pub fn draw(path: &Path, title: &str, ratings: &[RatingLine]) -> Result<(), LadderError> {
    let fail = |reason: String| LadderError::Plot {
        path: path.display().to_string(),
        reason,
    };
    font().map_err(fail)?;
    let models: Vec<&RatingLine> = ratings.iter().filter(|r| r.step.is_some()).collect();
    if models.is_empty() {
        return Err(fail("no rated model to plot".into()));
    }
    // Every player that is not a model of the run (random, greedy, the alpha-beta baselines,
    // outside engines) is a horizontal line at its rating.
    const PALETTE: [RGBColor; 6] = [
        RGBColor(120, 120, 120),
        RGBColor(200, 120, 0),
        RGBColor(0, 150, 70),
        RGBColor(170, 0, 170),
        RGBColor(200, 30, 30),
        RGBColor(0, 140, 160),
    ];
    let baselines: Vec<(String, f64, RGBColor)> = ratings
        .iter()
        .filter(|r| r.step.is_none())
        .enumerate()
        .map(|(i, r)| (r.player.clone(), r.elo, PALETTE[i % PALETTE.len()]))
        .collect();
    let lo = ratings.iter().map(|r| r.lo95).fold(0.0f64, f64::min) - 50.0;
    let hi = ratings.iter().map(|r| r.hi95).fold(0.0f64, f64::max) + 50.0;
    let root = BitMapBackend::new(path, (1400, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
    let root = root
        .titled(title, ("sans-serif", 26))
        .map_err(|e| fail(e.to_string()))?;
    let (left, right) = root.split_horizontally(700);
    let max_step = models
        .iter()
        .filter_map(|r| r.step)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let max_min = models
        .iter()
        .filter_map(|r| r.minutes)
        .fold(0.0f64, f64::max)
        .max(1.0);
    let panels: [(&DrawingArea<_, _>, &str, f64, XOf); 2] = [
        (
            &left,
            "training step",
            max_step,
            Box::new(|r: &RatingLine| r.step.map(|s| s as f64)),
        ),
        (
            &right,
            "training time (minutes)",
            max_min,
            Box::new(|r: &RatingLine| r.minutes),
        ),
    ];
    for (area, x_label, x_max, x_of) in panels {
        let mut chart = ChartBuilder::on(area)
            .margin(20)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..x_max * 1.05, lo..hi)
            .map_err(|e| fail(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc("Elo (random = 0)")
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 18))
            .draw()
            .map_err(|e| fail(e.to_string()))?;
        for (name, y, colour) in baselines.iter().cloned() {
            chart
                .draw_series(LineSeries::new(
                    vec![(0.0, y), (x_max * 1.05, y)],
                    colour.stroke_width(2),
                ))
                .map_err(|e| fail(e.to_string()))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        let points: Vec<(f64, &RatingLine)> =
            models.iter().filter_map(|r| Some((x_of(r)?, *r))).collect();
        chart
            .draw_series(
                points.iter().map(|(x, r)| {
                    ErrorBar::new_vertical(*x, r.lo95, r.elo, r.hi95, BLUE.filled(), 8)
                }),
            )
            .map_err(|e| fail(e.to_string()))?;
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|(x, r)| (*x, r.elo)),
                BLUE.stroke_width(2),
            ))
            .map_err(|e| fail(e.to_string()))?
            .label("published models (95% interval)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .label_font(("sans-serif", 16))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| fail(e.to_string()))?;
    }
    root.present().map_err(|e| fail(e.to_string()))?;
    Ok(())
}
