//! Time zones for the page. The wasm carries the tz database's zone names but none of its data;
//! before a task, the worker asks [`zones_wanted`] which zones the trace and the settings name,
//! fetches each one's TZif file (written from the database bundled natively, so the page and the
//! command line agree) and hands it to [`register_zone`]. A zone whose file cannot be had is read
//! as a trace naming an unknown zone is: the header's fixed `TimeZone` offset, else UTC, said so.

use wasm_bindgen::prelude::*;

use crate::calendar::{is_registered, register, tz_name};

/// The zones that `tz=` in `settings` and the header of the trace in `bytes` name and that are
/// not yet registered, each by its tz database name (its file's path under `tz/`).
#[wasm_bindgen]
pub fn zones_wanted(bytes: &[u8], settings: Vec<String>) -> Vec<String> {
    let from_settings = settings.iter().filter_map(|s| crate::keys::split_setting(s).ok()).filter(|(k, _)| k == "tz");
    let mut names: Vec<String> = from_settings.map(|(_, v)| v).filter(|v| !v.eq_ignore_ascii_case("header")).collect();
    if !bytes.is_empty() {
        names.extend(crate::trace::read_header(bytes).time_zone_string);
    }
    let mut wanted: Vec<String> = Vec::new();
    for name in names.iter().filter_map(|n| tz_name(n)) {
        if !is_registered(name) && !wanted.iter().any(|w| w == name) {
            wanted.push(name.to_string());
        }
    }
    wanted
}

/// Registers the zone `name` from the bytes of its TZif file.
#[wasm_bindgen]
pub fn register_zone(name: &str, tzif: &[u8]) -> Result<(), JsError> {
    register(name, tzif).map_err(|e| JsError::new(&e))
}
