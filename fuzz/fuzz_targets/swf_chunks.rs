//! The streaming loader fed the input in chunks of every size (plain and gzipped) packs a trace
//! that parses exactly like the whole input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::swf_chunks(data));
