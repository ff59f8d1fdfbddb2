//! The Learn view's chart: one step of a [`Lesson`] as a Gantt chart of processors over time,
//! with what has run (solid), what runs now up to its planned end (light: the scheduler plans
//! with the estimate), the reservations (outlined, on the processors planned free by then), the
//! shadow time and the present.

use plotters::element::{PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor};

use super::axis::{linear_ticks, Tick};
use super::chart::{
    cartesian, label_style, nothing_below, rgba, series_colour, AxisSpec, Chart, ChartOptions, Frame, Hit, Table, INK,
};
use super::display::text_size;
use crate::explain::lesson::Lesson;

/// The shadow time's line.
const SHADOW: RGBColor = RGBColor(0xc0, 0x1c, 0x28);
/// The present's line.
const NOW: RGBColor = RGBColor(0x22, 0x22, 0x22);

/// Step `step` of `lesson` (clamped to its steps), laid out for `opts`.
pub fn learn_chart(lesson: &Lesson, step: usize, opts: &ChartOptions) -> Chart {
    let title =
        format!("{}: the machine after the pass at t={}", lesson.policy, lesson.steps.get(step).map_or(0, |s| s.time));
    let Some(st) = lesson.steps.get(step.min(lesson.steps.len().saturating_sub(1))) else {
        return Chart::message(opts, &lesson.policy, "nothing to show: the trace has no jobs");
    };
    // Side by side, both panels take the same window (the page passes the union of spans).
    let (t0, t1) = match opts.x_range {
        Some((a, b)) if b > a => (a, b),
        _ => (lesson.span.0 as f64, lesson.span.1 as f64),
    };
    let m = lesson.machine.max(1) as f64;
    let s = super::chart::Sizes::of(opts);
    let (w, h) = opts.size();
    let x_ticks: Vec<Tick> = linear_ticks(t0, t1, s.ticks(w as i32 - 90));
    // Processor p is drawn from m - p - 1 to m - p, so processor 0 sits at the top.
    let y_ticks: Vec<Tick> = linear_ticks(0.0, m, s.ticks_y(s.plot_height(h)).min(lesson.machine as usize + 1))
        .into_iter()
        .filter(|t| t.0 <= m && t.0.fract() == 0.0)
        .map(|(v, l)| (m - v, l))
        .collect();
    let frame = Frame {
        title,
        subtitle: "solid: ran; light: planned until its estimate ends; outlined: reserved; red: shadow time"
            .to_string(),
        x: AxisSpec { ticks: x_ticks, desc: "time (s)".to_string(), grid: true },
        y: AxisSpec { ticks: y_ticks, desc: "processor".to_string(), grid: false },
        ..Default::default()
    };
    let now = st.time as f64;
    let mut rows = Vec::new();
    let chart = cartesian(
        opts,
        &frame,
        t0..t1,
        0.0..m,
        |chart, _root, s, hits| {
            let font = s.label;
            // The pixel rectangle between two data corners, as a hit region.
            let area = |chart: &super::chart::Ctx<'_, '_, _, _>, a: (f64, f64), b: (f64, f64)| {
                let (ax, ay) = chart.backend_coord(&a);
                let (bx, by) = chart.backend_coord(&b);
                (ax.min(bx), ay.min(by), ax.max(bx), ay.max(by))
            };
            let label =
                |chart: &mut super::chart::Ctx<'_, '_, _, _>, text: String, a: (f64, f64), b: (f64, f64), colour| {
                    let (ax, ay) = chart.backend_coord(&a);
                    let (bx, by) = chart.backend_coord(&b);
                    let (tw, th) = text_size(&text, font);
                    if (bx - ax).abs() > tw as i32 + 2 && (by - ay).abs() > th as i32 {
                        let style = label_style(font, colour).pos(Pos::new(HPos::Center, VPos::Center));
                        let _ =
                            chart.plotting_area().draw(&Text::new(text, ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0), style));
                    }
                };
            for b in &lesson.blocks {
                if b.start > st.time {
                    continue;
                }
                let job = &lesson.jobs[b.job];
                let colour = series_colour(b.job);
                let ended = b.end >= 0 && b.end <= st.time;
                let ran_to = if ended { b.end } else { st.time } as f64;
                for &(first, count) in &b.rows {
                    let (top, bottom) = (m - first as f64, m - (first + count) as f64);
                    let a = (b.start as f64, top);
                    let solid =
                        Rectangle::new([a, (ran_to, bottom)], rgba(colour, if ended { 0.55 } else { 1.0 }).filled());
                    let _ = chart.draw_series(std::iter::once(solid));
                    if !ended {
                        let planned =
                            Rectangle::new([(now, top), (b.planned_end as f64, bottom)], rgba(colour, 0.3).filled());
                        let _ = chart.draw_series(std::iter::once(planned));
                    }
                    let edge = Rectangle::new(
                        [a, ((if ended { ran_to } else { b.planned_end as f64 }), bottom)],
                        RGBColor(255, 255, 255).stroke_width(1),
                    );
                    let _ = chart.draw_series(std::iter::once(edge));
                    let right = if ended { ran_to } else { b.planned_end as f64 };
                    // The number goes on the part that has run when it fits there (white on the
                    // solid colour), else on the planned part (dark on the light one).
                    let (px0, _) = chart.backend_coord(&a);
                    let (px1, _) = chart.backend_coord(&(ran_to, bottom));
                    let id = job.id.to_string();
                    if px1 - px0 > text_size(&id, font).0 as i32 + 4 {
                        label(chart, id, a, (ran_to, bottom), RGBColor(255, 255, 255));
                    } else {
                        label(chart, id, (ran_to, top), (right, bottom), INK);
                    }
                    let rect = area(chart, a, (right, bottom));
                    let text = if ended {
                        format!("job {}: {} processors, ran t={} to t={}", job.id, job.procs, b.start, b.end)
                    } else {
                        format!(
                            "job {}: {} processors, running since t={}, planned to end by t={} (estimate {} s)",
                            job.id, job.procs, b.start, b.planned_end, job.estimate
                        )
                    };
                    hits.push(Hit { rect, series: b.job, index: 0, text });
                }
                rows.push(vec![
                    job.id.to_string(),
                    if ended { "ended" } else { "running" }.to_string(),
                    b.start.to_string(),
                    if ended { b.end.to_string() } else { format!("{} (planned)", b.planned_end) },
                    job.procs.to_string(),
                ]);
            }
            for bk in &st.bookings {
                let job = &lesson.jobs[bk.job];
                let colour = series_colour(bk.job);
                for &(first, count) in &bk.rows {
                    let (top, bottom) = (m - first as f64, m - (first + count) as f64);
                    let a = (bk.start as f64, top);
                    let b = (bk.end as f64, bottom);
                    let _ = chart.draw_series(std::iter::once(Rectangle::new([a, b], rgba(colour, 0.12).filled())));
                    let _ =
                        chart.draw_series(std::iter::once(Rectangle::new([a, b], rgba(colour, 1.0).stroke_width(2))));
                    label(chart, format!("{} reserved", job.id), a, b, INK);
                    let rect = area(chart, a, b);
                    let text = format!(
                        "job {}: reserved {} processors from t={} to t={}",
                        job.id, job.procs, bk.start, bk.end
                    );
                    hits.push(Hit { rect, series: bk.job, index: 1, text });
                }
                rows.push(vec![
                    job.id.to_string(),
                    "reserved".to_string(),
                    bk.start.to_string(),
                    bk.end.to_string(),
                    job.procs.to_string(),
                ]);
            }
            let line = |chart: &mut super::chart::Ctx<'_, '_, _, _>, x: f64, colour: RGBColor, text: String| {
                let _ = chart
                    .draw_series(std::iter::once(PathElement::new(vec![(x, 0.0), (x, m)], colour.stroke_width(2))));
                let style = label_style(font, colour).pos(Pos::new(HPos::Left, VPos::Top));
                let _ = chart.plotting_area().draw(&Text::new(text, (x, m), style));
            };
            if let Some((shadow, extra)) = st.shadow {
                line(chart, shadow as f64, SHADOW, format!(" shadow ({extra} extra)"));
            }
            line(chart, now, NOW, format!(" now t={}", st.time));
        },
        nothing_below,
    );
    let mut chart = chart.unwrap_or_else(|e| Chart::message(opts, &lesson.policy, &e));
    chart.table = Table {
        title: format!("{} after the pass at t={}", lesson.policy, st.time),
        columns: ["job", "state", "start", "end", "processors"].iter().map(|s| s.to_string()).collect(),
        rows,
    };
    chart
}
