//! Arbitrary bytes through the SWF parser: it never panics, and what it accepts is consistent.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::swf_parse(data));
