//! Tick positions and labels, and the number, duration and time formats shared by the charts
//! and their hit texts.
//!
//! Linear ticks come from plotters' own key-point algorithm; time and wait axes pick from
//! calendar-sized steps instead (1 h, 1 d, a week, a month; 1 min, 1 h, 1 d on a log scale),
//! because a tick every 200,000 seconds means nothing to a reader.

use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;

use crate::calendar::{civil_from_days, days_from_civil, Civil};

/// A tick: its value on the axis and its label.
pub type Tick = (f64, String);

const MINUTE: i64 = 60;
const HOUR: i64 = 3600;
/// Seconds in a day.
pub(super) const DAY: i64 = 86_400;

/// At most `max` ticks from plotters' key points over `[lo, hi]`, labelled with the precision
/// their spacing needs.
pub fn linear_ticks(lo: f64, hi: f64, max: usize) -> Vec<Tick> {
    let points = RangedCoordf64::from(lo..hi).key_points(max.max(2));
    let step = match points.as_slice() {
        [a, b, ..] => b - a,
        _ => (hi - lo).abs().max(1.0),
    };
    points.into_iter().map(|v| (v, fmt_tick(v, step))).collect()
}

/// The upper end of a linear axis from 0: `hi` rounded up to the step plotters would choose for
/// about `max` ticks, so the axis ends on a labelled tick.
pub fn nice_max(hi: f64, max: usize) -> f64 {
    if hi.is_nan() || hi <= 0.0 {
        return 1.0;
    }
    let points = RangedCoordf64::from(0.0..hi).key_points(max.max(2));
    let step = match points.as_slice() {
        [a, b, ..] => b - a,
        _ => return hi,
    };
    let top = (hi / step).ceil() * step;
    if top < hi {
        top + step
    } else {
        top
    }
}

/// A tick value with as many decimals as a spacing of `step` needs, thousands grouped.
pub fn fmt_tick(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 || step <= 0.0 { 0 } else { (-step.log10().floor()) as usize };
    let v = if v.abs() < step * 1e-9 { 0.0 } else { v };
    group(&format!("{v:.decimals$}"))
}

/// Thousands separators in the integer part of a formatted number.
fn group(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest.split_once('.').map_or((rest, None), |(i, f)| (i, Some(f)));
    if int.len() <= 4 {
        return s.to_string();
    }
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

/// A value with three significant digits (`0.0123`, `4.56`, `78.9`, `1,234`).
pub fn fmt_number(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".to_string();
    }
    let a = v.abs();
    if a >= 100.0 || a == 0.0 {
        group(&format!("{v:.0}"))
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        let decimals = (2 - a.log10().floor() as i32).clamp(2, 6) as usize;
        format!("{v:.decimals$}")
    }
}

/// A value as hit texts and labels write it: a whole number as one (82 jobs, 1,000), else to
/// three significant digits, so a count never reads "82.0".
pub fn whole_or_number(v: f64) -> String {
    if v == v.round() && v.abs() >= 1.0 {
        fmt_tick(v, 1.0)
    } else {
        fmt_number(v)
    }
}

/// The end and ticks of an axis of counts (jobs, processors) from 0 to at least `hi`: at most
/// `max` ticks, 1, 2 or 5 times a power of ten apart, never less than 1, so no tick reads
/// "0.5 jobs" and the axis ends on a labelled tick.
pub fn count_ticks(hi: f64, max: usize) -> (f64, Vec<Tick>) {
    let hi = if hi.is_finite() { hi.max(1.0) } else { 1.0 };
    let intervals = max.max(2) as f64 - 1.0;
    let step = (0..20)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
        .find(|&step| (hi / step).ceil() <= intervals)
        .unwrap_or(hi);
    let n = (hi / step).ceil().max(1.0) as i64;
    (n as f64 * step, (0..=n).map(|k| (k as f64 * step, fmt_tick(k as f64 * step, 1.0))).collect())
}

/// A duration in seconds in the unit a person would use: `45 s`, `90 s`, `12 min`, `4.2 h`,
/// `3.1 d`: the one way every view writes a duration.
pub fn fmt_duration(s: f64) -> String {
    if !s.is_finite() {
        return "n/a".to_string();
    }
    let a = s.abs();
    let one = |v: f64, unit: &str| {
        if v.abs() >= 100.0 {
            format!("{} {unit}", group(&format!("{v:.0}")))
        } else if (v - v.round()).abs() < 0.05 {
            format!("{v:.0} {unit}")
        } else {
            format!("{v:.1} {unit}")
        }
    };
    // Seconds up to two minutes, as a duration axis (`duration_unit`) counts them.
    if a < 120.0 {
        format!("{s:.0} s")
    } else if a < 3600.0 {
        one(s / 60.0, "min")
    } else if a < 86_400.0 {
        one(s / 3600.0, "h")
    } else {
        one(s / 86_400.0, "d")
    }
}

/// A unit for an axis of durations: its name and its length in seconds, chosen so `max`
/// reads as a small number (`min` up to 2 h, `h` up to 3 days, then `days`).
pub fn duration_unit(max: f64) -> (&'static str, f64) {
    if max < 120.0 {
        ("seconds", 1.0)
    } else if max < 2.0 * 3600.0 {
        ("minutes", 60.0)
    } else if max < 3.0 * 86_400.0 {
        ("hours", 3600.0)
    } else {
        ("days", 86_400.0)
    }
}

/// Ticks of a log axis of waits in seconds over `[lo, hi]`: 1 s, 10 s, 1 min, 10 min, 1 h,
/// 1 d, 1 week, 30 d, 1 year, keeping every other one when `compact`.
pub fn wait_ticks(lo: f64, hi: f64, compact: bool) -> Vec<Tick> {
    let all: [(f64, &str); 9] = [
        (1.0, "1 s"),
        (10.0, "10 s"),
        (60.0, "1 min"),
        (600.0, "10 min"),
        (3600.0, "1 h"),
        (86_400.0, "1 d"),
        (604_800.0, "1 week"),
        (2_592_000.0, "30 d"),
        (31_536_000.0, "1 year"),
    ];
    all.iter()
        .enumerate()
        .filter(|(i, _)| !compact || i % 2 == 0)
        .filter(|(_, (v, _))| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9))
        .map(|(_, (v, l))| (*v, l.to_string()))
        .collect()
}

/// The steps a time axis may take, in seconds; months and years are calendar months with a
/// start date and 30/365-day steps without one.
const TIME_STEPS: [i64; 20] = [
    MINUTE,
    5 * MINUTE,
    10 * MINUTE,
    15 * MINUTE,
    30 * MINUTE,
    HOUR,
    2 * HOUR,
    3 * HOUR,
    6 * HOUR,
    12 * HOUR,
    DAY,
    2 * DAY,
    7 * DAY,
    14 * DAY,
    30 * DAY,
    61 * DAY,
    91 * DAY,
    182 * DAY,
    365 * DAY,
    730 * DAY,
];

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// Ticks of a time axis over trace seconds `[t0, t1]`, at most `max` of them, on round
/// clock and calendar steps. Without `unix_start` they count from trace time 0 (`day 3`,
/// `06:00`); with it they are UTC dates (`Mar 5`, `06:00`, `Mar 1996`).
pub fn time_ticks(t0: f64, t1: f64, max: usize, unix_start: Option<i64>) -> Vec<Tick> {
    let (t0, t1) = (t0.min(t1), t0.max(t1));
    let span = t1 - t0;
    let max = max.max(2) as f64;
    let step = TIME_STEPS.iter().copied().find(|&s| span / s as f64 <= max - 1.0).unwrap_or(TIME_STEPS[19]);
    let base = unix_start.unwrap_or(0);
    let mut out = Vec::new();
    if step >= 30 * DAY && unix_start.is_some() {
        // Calendar months: every (step / 30) months, from the first month start in range.
        let months = (step / (30 * DAY)).max(1);
        let months = match months {
            1 | 2 | 3 | 6 => months,
            m if m < 12 => 6,
            m => 12 * (m / 12).max(1),
        };
        let first = Civil::from_unix(base + t0.floor() as i64);
        let mut idx = first.year * 12 + first.month as i64 - 1;
        idx = idx.div_euclid(months) * months;
        loop {
            let (y, m) = (idx.div_euclid(12), idx.rem_euclid(12) as u32 + 1);
            let t = (days_from_civil(y, m, 1) * DAY - base) as f64;
            if t > t1 {
                break;
            }
            if t >= t0 {
                out.push((t, format!("{} {y}", MONTHS[m as usize - 1])));
            }
            idx += months;
        }
        return out;
    }
    // Ticks at multiples of the step in absolute (UTC) time, weeks from Monday.
    let offset = if step == 7 * DAY || step == 14 * DAY { 4 * DAY } else { 0 };
    let first_abs = base as f64 + t0;
    let k0 = ((first_abs - offset as f64) / step as f64).ceil() as i64;
    let mut k = k0;
    loop {
        let abs = k * step + offset;
        let t = (abs - base) as f64;
        if t > t1 + 1e-9 {
            break;
        }
        out.push((t, time_label(abs, step, unix_start.is_some(), base)));
        k += 1;
    }
    out
}

/// A tick label: the day at midnight ticks, the clock time at the others.
fn time_label(abs: i64, step: i64, dated: bool, base: i64) -> String {
    let day = abs.div_euclid(DAY);
    let secs = abs.rem_euclid(DAY);
    if secs != 0 && step < DAY {
        return format!("{:02}:{:02}", secs / HOUR, secs % HOUR / MINUTE);
    }
    if dated {
        let (_, m, d) = civil_from_days(day);
        format!("{} {d}", MONTHS[m as usize - 1])
    } else {
        format!("day {}", (abs - base).div_euclid(DAY))
    }
}

/// An instant for a hit text: `day 3 14:05` from trace time 0, or `1996-03-05 14:05` UTC.
pub fn fmt_time(t: f64, unix_start: Option<i64>) -> String {
    let t = t.floor() as i64;
    match unix_start {
        Some(base) => {
            let c = Civil::from_unix(base + t);
            format!("{:04}-{:02}-{:02} {:02}:{:02}", c.year, c.month, c.day, c.hour, c.minute)
        }
        None => {
            let (d, s) = (t.div_euclid(DAY), t.rem_euclid(DAY));
            format!("day {d} {:02}:{:02}", s / HOUR, s % HOUR / MINUTE)
        }
    }
}

/// What a time axis shows, for its description.
pub fn time_axis_name(unix_start: Option<i64>) -> &'static str {
    match unix_start {
        Some(_) => "date (UTC)",
        None => "time since the trace's start",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_follow_plotters_steps() {
        let t = linear_ticks(0.0, 100.0, 6);
        let v: Vec<f64> = t.iter().map(|x| x.0).collect();
        assert_eq!(v, vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(t[1].1, "20");
        let t = linear_ticks(0.0, 1.0, 6);
        assert_eq!(t.iter().map(|x| x.1.as_str()).collect::<Vec<_>>(), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        assert_eq!(nice_max(93.0, 6), 100.0);
        assert_eq!(nice_max(101.0, 6), 120.0);
        assert_eq!(fmt_tick(25000.0, 5000.0), "25,000");
    }

    #[test]
    fn count_ticks_are_whole() {
        let (top, t) = count_ticks(2.0, 6);
        assert_eq!(top, 2.0);
        assert_eq!(t.iter().map(|x| x.1.as_str()).collect::<Vec<_>>(), ["0", "1", "2"]);
        let (top, t) = count_ticks(93.0, 6);
        assert_eq!(top, 100.0);
        assert!(t.iter().all(|x| x.0 == x.0.round() && !x.1.contains('.')), "{t:?}");
    }

    #[test]
    fn formats_read_naturally() {
        assert_eq!(fmt_duration(45.0), "45 s");
        assert_eq!(fmt_duration(720.0), "12 min");
        assert_eq!(fmt_duration(4.2 * 3600.0), "4.2 h");
        assert_eq!(fmt_duration(3.0 * 86400.0), "3 d");
        assert_eq!(fmt_number(4.5678), "4.57");
        assert_eq!(fmt_number(12345.6), "12,346");
        assert_eq!(fmt_number(0.01234), "0.0123");
        assert_eq!(whole_or_number(82.0), "82");
        assert_eq!(whole_or_number(12_345.0), "12,345");
        assert_eq!(whole_or_number(2.5), "2.50");
        assert_eq!(fmt_time(3.0 * 86400.0 + 14.0 * 3600.0 + 300.0, None), "day 3 14:05");
        let start = days_from_civil(1996, 3, 5) * DAY;
        assert_eq!(fmt_time(3600.0, Some(start)), "1996-03-05 01:00");
    }
}
