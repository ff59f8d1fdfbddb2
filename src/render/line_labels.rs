//! Names written beside the lines of a line chart, where each fits clear of every line and of
//! the other names. A name beside its line is read at once, where a legend of eight similar
//! colours must be matched swatch by swatch; lines left without room are named by the legend
//! and under the pointer.

use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::style::text_anchor::HPos;
use plotters::style::RGBColor;

use super::chart::Sizes;
use super::display::{text_size, Colour, Recorder};
use super::generic::draw_text;

/// Side of the grid cells, in pixels, that lines and placed names are marked in.
const CELL: i32 = 2;

/// How far around a name no other line may pass, in pixels.
const HALO: i32 = 8;

/// Where each line's name goes: its box (x0, y0, x1, y1) in pixels inside `plot`, or None
/// when no place along the line is clear. `lines` are each line's points in pixels and its
/// name; names are tried at the line's right end first, then further left, above and below it.
pub(crate) fn place(
    lines: &[(Vec<(i32, i32)>, String)],
    plot: (i32, i32, i32, i32),
    s: &Sizes,
) -> Vec<Option<(i32, i32, i32, i32)>> {
    let (gw, gh) = (((plot.2 - plot.0) / CELL + 1).max(1), ((plot.3 - plot.1) / CELL + 1).max(1));
    // Per cell: which lines pass (a bit each, the first 64 lines), and whether a name is there.
    let mut passes = vec![0u64; (gw * gh) as usize];
    let mut named = vec![false; (gw * gh) as usize];
    let cell = |x: i32, y: i32| -> Option<usize> {
        let (cx, cy) = ((x - plot.0).div_euclid(CELL), (y - plot.1).div_euclid(CELL));
        (cx >= 0 && cy >= 0 && cx < gw && cy < gh).then_some((cy * gw + cx) as usize)
    };
    for (i, (points, _)) in lines.iter().enumerate().take(64) {
        for p in points.windows(2) {
            let ((x0, y0), (x1, y1)) = (p[0], p[1]);
            let steps = (x1 - x0).abs().max((y1 - y0).abs()).max(1);
            for k in 0..=steps {
                let x = x0 + (x1 - x0) * k / steps;
                let y = y0 + (y1 - y0) * k / steps;
                // Lines are up to 3 px wide: their neighbours are taken too.
                for (dx, dy) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
                    if let Some(c) = cell(x + dx, y + dy) {
                        passes[c] |= 1 << i;
                    }
                }
            }
        }
    }
    let pad = 2;
    // Cells of a box grown by `by` pixels on every side (None: outside the plot).
    let cells = |b: (i32, i32, i32, i32), by: i32| -> Vec<Option<usize>> {
        let mut out = Vec::new();
        let mut y = b.1 - by;
        while y <= b.3 + by {
            let mut x = b.0 - by;
            while x <= b.2 + by {
                out.push(cell(x, y));
                x += CELL;
            }
            y += CELL;
        }
        out
    };
    let mut out = Vec::with_capacity(lines.len());
    for (i, (points, name)) in lines.iter().enumerate() {
        if i >= 64 {
            out.push(None);
            continue;
        }
        // Bold or regular, the name's box holds it with room to spare.
        let (tw, th) = text_size(name, s.label);
        let (bw, bh) = (tw as i32 * 11 / 10 + 4, th as i32 + 2);
        let own = 1u64 << i;
        // The box touches no line and no name, and only its own line comes near it, so that
        // no one reads it as another line's.
        let clear = |b: (i32, i32, i32, i32)| {
            if b.0 < plot.0 + pad || b.1 < plot.1 + pad || b.2 > plot.2 - pad || b.3 > plot.3 - pad {
                return false;
            }
            let inside = cells(b, 0).iter().all(|c| c.is_some_and(|c| passes[c] == 0 && !named[c]));
            inside && cells(b, HALO).iter().flatten().all(|&c| passes[c] & !own == 0)
        };
        let mut found = None;
        let mut last_x = i32::MAX;
        for &(x, y) in points.iter().rev() {
            if (last_x - x).abs() < 4 {
                continue;
            }
            last_x = x;
            let tries = [(x - 2 - bw, y - 3 - bh), (x - 2 - bw, y + 3), (x + 2, y - 3 - bh), (x + 2, y + 3)];
            if let Some(&(x0, y0)) = tries.iter().find(|&&(x0, y0)| clear((x0, y0, x0 + bw, y0 + bh))) {
                found = Some((x0, y0, x0 + bw, y0 + bh));
                break;
            }
        }
        if let Some(b) = found {
            for c in cells(b, CELL).into_iter().flatten() {
                named[c] = true;
            }
        }
        out.push(found);
    }
    out
}

/// Writes a name in its box from [`place`], in its line's colour (darkened when too pale to
/// read on white), bold for the highlighted line.
pub(crate) fn draw(
    root: &DrawingArea<Recorder<'_>, Shift>,
    name: &str,
    b: (i32, i32, i32, i32),
    colour: Colour,
    bold: bool,
    s: &Sizes,
) {
    draw_text(root, name, (b.0 + 2, (b.1 + b.3) / 2), s.label, readable(colour), bold, HPos::Left);
}

/// How light `c` is, 0 to 1 (its luma, sRGB channels weighted as the eye weighs them).
fn lightness(c: Colour) -> f64 {
    (0.2126 * c.r as f64 + 0.7152 * c.g as f64 + 0.0722 * c.b as f64) / 255.0
}

/// Whether a line in `c` is too pale to stand out on white and grey (sand, light cyan, pink).
pub(crate) fn pale(c: Colour) -> bool {
    lightness(c) > 0.6
}

/// `c`, darkened until text in it reads on white (lightness at most about 0.35).
pub(crate) fn readable(c: Colour) -> RGBColor {
    let lum = lightness(c);
    let k = if lum > 0.35 { 0.35 / lum } else { 1.0 };
    let d = |v: u8| (v as f64 * k).round() as u8;
    RGBColor(d(c.r), d(c.g), d(c.b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::chart::ChartOptions;

    #[test]
    fn names_go_where_they_are_clear_of_lines_and_each_other() {
        let s = Sizes::of(&ChartOptions::default());
        let plot = (0, 0, 400, 200);
        // Two flat lines far apart and a third that joins the lower one at the right: the
        // lower two are named further left, where they are apart.
        let lines = vec![
            (vec![(0, 150), (400, 150)], "low".to_string()),
            (vec![(0, 40), (400, 40)], "high".to_string()),
            (vec![(0, 100), (200, 100), (400, 150)], "joins".to_string()),
        ];
        let at = place(&lines, plot, &s);
        let boxes: Vec<_> = at.iter().map(|b| b.expect("every name fits")).collect();
        for (i, a) in boxes.iter().enumerate() {
            assert!(a.0 >= 0 && a.2 <= 400 && a.1 >= 0 && a.3 <= 200, "{a:?}");
            for b in &boxes[i + 1..] {
                assert!(a.2 < b.0 || b.2 < a.0 || a.3 < b.1 || b.3 < a.1, "{a:?} overlaps {b:?}");
            }
        }
        assert!(boxes[1].2 > 380, "the line alone is named at its right end: {:?}", boxes[1]);
        assert!(boxes[0].2 < 300 && boxes[2].2 < 300, "{boxes:?}");
        // A plot too small for any name places none.
        assert_eq!(place(&lines[..1], (0, 0, 20, 10), &s), vec![None]);
    }

    #[test]
    fn pale_colours_are_darkened() {
        let sand = readable(Colour::rgb(0xEE, 0xCC, 0x66));
        assert!(sand.0 < 0xEE && sand.1 < 0xCC);
        assert_eq!(readable(Colour::rgb(0x00, 0x44, 0x88)), RGBColor(0x00, 0x44, 0x88));
    }
}
