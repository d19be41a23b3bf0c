//! The fuzz target `parse`: the checks of fuzz/checks/parse.rs on each input.
#![no_main]

#[path = "../checks/parse.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
