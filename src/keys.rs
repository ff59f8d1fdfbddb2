//! Names as users type them: policy names, option keys and option values are matched
//! case-insensitively with `-` and `_` equivalent, in the CLI and the page alike.

use std::fmt;
use std::str::FromStr;

/// Normalises a name or key: lower case, `-` becomes `_`, surrounding blanks removed.
pub fn normalize(name: &str) -> String {
    name.trim().chars().map(|c| if c == '-' { '_' } else { c.to_ascii_lowercase() }).collect()
}

/// A rejected `KEY=VALUE` setting, with the reason.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyError {
    /// The key as given.
    pub key: String,
    /// The value as given.
    pub value: String,
    /// Why it was rejected.
    pub reason: String,
}

impl KeyError {
    /// Builds an error for `key=value`.
    pub fn new(key: &str, value: &str, reason: impl Into<String>) -> Self {
        KeyError { key: key.to_string(), value: value.to_string(), reason: reason.into() }
    }
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}: {}", self.key, self.value, self.reason)
    }
}

impl std::error::Error for KeyError {}

/// Parses a number-valued option.
pub fn parse_num<T: FromStr>(key: &str, value: &str) -> Result<T, KeyError> {
    value.trim().parse().map_err(|_| KeyError::new(key, value, "not a valid number"))
}

/// Parses an option whose value is one of a few names.
pub fn parse_choice<T: Copy>(key: &str, value: &str, choices: &[(&str, T)]) -> Result<T, KeyError> {
    let v = normalize(value);
    choices.iter().find(|(name, _)| normalize(name) == v).map(|&(_, t)| t).ok_or_else(|| {
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        KeyError::new(key, value, format!("expected one of {}", names.join(", ")))
    })
}

/// Splits `KEY=VALUE`, normalising the key.
pub fn split_setting(setting: &str) -> Result<(String, String), KeyError> {
    match setting.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((normalize(k), v.trim().to_string())),
        _ => Err(KeyError::new(setting, "", "expected KEY=VALUE")),
    }
}
