//! A small trace decoded from the bytes, run under every policy: no panic, no hang, and every
//! schedule keeps the invariants of `schedlab::check`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::simulate(data));
