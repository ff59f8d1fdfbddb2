//! Replays every committed fuzz input on stable Rust: the minimized corpus of each target
//! (`fuzz/corpus/<target>/`) and the inputs that once crashed one (`fuzz/regressions/<target>/`),
//! through the same checks the fuzz targets run (`fuzz/checks.rs`, included here).

use std::path::PathBuf;

#[path = "../fuzz/checks.rs"]
mod checks;

/// The files of `fuzz/<kind>/<target>/`, sorted; none if the directory does not exist.
fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(kind).join(target);
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Runs `check` on every corpus and regression input of `target`, naming the file that fails;
/// returns how many inputs there were.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let mut n = 0;
    for kind in ["corpus", "regressions"] {
        for path in inputs(kind, target) {
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let outcome = std::panic::catch_unwind(|| check(&data));
            if let Err(e) = outcome {
                let msg =
                    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
                panic!("{target}: {} fails: {}", path.display(), msg.unwrap_or_default());
            }
            n += 1;
        }
    }
    n
}

#[test]
fn swf_parse_inputs_pass() {
    assert!(replay("swf_parse", checks::swf_parse) > 10, "the swf_parse corpus is committed");
}

#[test]
fn simulate_inputs_pass() {
    assert!(replay("simulate", checks::simulate) > 5, "the simulate corpus is committed");
}

#[test]
fn swf_chunks_inputs_pass() {
    assert!(replay("swf_chunks", checks::swf_chunks) > 10, "the swf_chunks corpus is committed");
}

/// Found by `swf_chunks`: a CRLF split by an empty chunk (`"...\r"`, `""`, `"\n..."`) read as
/// two line ends, so the loader's report counted one line and one blank line more than parsing
/// the whole file (an empty chunk cleared the CR's wait for its LF).
#[test]
fn a_crlf_split_by_an_empty_chunk_is_one_line_end() {
    use schedlab::trace::{parse, Loader, TraceOptions};
    let text = b"; MaxProcs: 4\r\n1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\r\n";
    let mut loader = Loader::new(None);
    for chunk in [&text[..14], b"", &text[14..]] {
        assert!(loader.feed(chunk));
    }
    let opts = TraceOptions::default();
    let chunked = parse(&loader.finish(), &opts).expect("the chunked trace parses");
    let whole = parse(text, &opts).expect("the whole trace parses");
    assert_eq!((chunked.report.lines_read, chunked.report.blank_lines), (whole.report.lines_read, 0));
    assert_eq!(chunked, whole);
}

/// Found by `swf_chunks` (fuzz/regressions/swf_chunks/corrupt-gzip-kept-lines, a gzip stream
/// whose deflate data turns corrupt after four lines): fed byte by byte, the loader kept the
/// four lines and warned; fed in one piece, as the whole-file `parse` does, it lost them and
/// reported that nothing could be decoded (what the failing write had decoded stayed in the
/// decoder; finishing it now hands that on).
#[test]
fn a_corrupt_gzip_stream_keeps_the_same_lines_in_any_chunks() {
    use schedlab::trace::{parse, Loader, TraceOptions};
    let path = inputs("regressions", "swf_chunks").into_iter().find(|p| p.ends_with("corrupt-gzip-kept-lines"));
    let gz = std::fs::read(path.expect("the input is committed")).expect("the input reads");
    let opts = TraceOptions::default();
    let whole = parse(&gz, &opts);
    let mut loader = Loader::new(None);
    for b in gz.chunks(1) {
        if !loader.feed(b) {
            break;
        }
    }
    let chunked = parse(&loader.finish(), &opts);
    let lines = |r: &Result<schedlab::trace::Trace, schedlab::trace::TraceError>| match r {
        Ok(t) => t.report.lines_read,
        Err(e) => e.report.lines_read,
    };
    assert!(lines(&chunked) > 0, "byte by byte, the lines before the fault are kept");
    assert_eq!(lines(&whole), lines(&chunked), "whole: {whole:?}");
}
