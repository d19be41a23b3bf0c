//! The fuzz target `extract`: the checks of fuzz/checks/extract.rs on each input.
#![no_main]

#[path = "../checks/extract.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
