//! The keyword arguments that name things: `mode=` and `profile=`.

use pyo3::exceptions::PyValueError;
use pyo3::PyResult;
use uriscan::{Mode, Profile};

/// `reference`, `uri` or `absolute` (the CLI's `--mode`).
pub fn mode(name: &str) -> PyResult<Mode> {
    [Mode::Reference, Mode::Uri, Mode::Absolute]
        .into_iter()
        .find(|m| m.as_str() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "mode must be 'reference', 'uri' or 'absolute', not {name:?}"
            ))
        })
}

/// `rfc3986`, `web` or `surt` (the CLI's `--profile`).
pub fn profile(name: &str) -> PyResult<Profile> {
    [Profile::Rfc3986, Profile::Web, Profile::Surt]
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "profile must be 'rfc3986', 'web' or 'surt', not {name:?}"
            ))
        })
}
