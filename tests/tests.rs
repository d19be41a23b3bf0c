//! Integration tests: the grammar, the Appendix B split, differential checks
//! against other strict parsers, and the command-line contract.

mod cli;
mod differential;
mod grammar;
mod split;
