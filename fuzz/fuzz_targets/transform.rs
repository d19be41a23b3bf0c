//! The fuzz target `transform`: the checks of fuzz/checks/transform.rs on each input.
#![no_main]

#[path = "../checks/transform.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
